//! The row model: one row's opponent distribution compiled for some rules,
//! the outcomes of a row hand against it, and the exact 27-pattern expected
//! value of a split.

use super::removal::LiveSet;
use super::search::Solver;
use super::CLASS_SHIFT;
use crate::rank::Evaluator;
use crate::rules::{RoyaltyMode, Rules, TOP};

/// Win/tie/lose probabilities of a row hand and, per outcome, the expected
/// row points (`points`) and royalty net (`royalty`), both already multiplied by the
/// outcome's probability. Index 0 win, 1 tie, 2 lose.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowOutcome {
    pub prob: [f64; 3],
    pub points: [f64; 3],
    pub royalty: [f64; 3],
}

impl RowOutcome {
    #[inline(always)]
    pub(super) fn total(&self) -> f64 {
        self.points[0]
            + self.points[1]
            + self.points[2]
            + self.royalty[0]
            + self.royalty[1]
            + self.royalty[2]
    }
}

/// One row's opponent distribution compiled for some rules: prefix sums over
/// the sorted classes and a hash index for exact hits.
pub(super) struct RowModel {
    pub(super) keys: Vec<u32>,
    /// Exclusive prefix sums (len n + 1) of p, p*R, p*R*[R > rp], p*[R <= rp].
    cp: Vec<f64>,
    cr: Vec<f64>,
    cbig: Vec<f64>,
    csmall: Vec<f64>,
    /// Open addressing: (class, index + 1); index 0 marks an empty slot.
    slots: Vec<(u32, u32)>,
    bits: u32,
    /// Fast-score values (value, P(win), P(lose)) of a hand of each class.
    pub(super) fast: Vec<[f32; 3]>,
    /// The classes the opponent plays (weight > 0): class, probability,
    /// royalty and the cards that make it, for the card-removal reweighting.
    pub(super) live: LiveSet,
}

/// The ranks (and for flushes the suits) a rank class is made of.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ClassCards {
    /// Distinct ranks and how many cards of each.
    pub(super) ranks: [u8; 5],
    pub(super) counts: [u8; 5],
    pub(super) len: u8,
    /// 0: any suits (the rank groups decide); 1: five distinct ranks that
    /// are not a flush; 2: a flush in one of `suits`.
    pub(super) kind: u8,
    pub(super) suits: u8,
}

/// Cumulative sums of a row's opponent distribution over sorted classes
/// (see [`RowModel`]); probabilities sum to one.
pub(super) struct Cum<'a> {
    pub(super) keys: &'a [u32],
    pub(super) cp: &'a [f64],
    pub(super) cr: &'a [f64],
    pub(super) cbig: &'a [f64],
    pub(super) csmall: &'a [f64],
}

impl RowModel {
    pub(super) fn new(rules: &Rules, row: usize, dist: &[(u32, f64)]) -> RowModel {
        // every class of the row's hand size, so that lookups always hit
        let classes = all_classes(&rules.evaluator, row != TOP);
        let mut all: Vec<(u32, f64)> = dist.to_vec();
        all.extend(classes.iter().map(|c| (c.0, 0.0)));
        all.sort_by_key(|x| x.0);
        all.dedup_by(|later, first| {
            if later.0 == first.0 {
                first.1 += later.1;
                true
            } else {
                false
            }
        });
        let dist = &all[..];
        let total: f64 = dist.iter().map(|x| x.1).sum::<f64>().max(1e-300);
        let n = dist.len();
        let mut cp = Vec::with_capacity(n + 1);
        let mut cr = Vec::with_capacity(n + 1);
        let mut cbig = Vec::with_capacity(n + 1);
        let mut csmall = Vec::with_capacity(n + 1);
        let (mut a, mut b, mut c, mut d) = (0.0, 0.0, 0.0, 0.0);
        let rp = rules.row_points as f64;
        let mut live = LiveSet::default();
        for &(class, w) in dist {
            cp.push(a);
            cr.push(b);
            cbig.push(c);
            csmall.push(d);
            let p = w / total;
            let roy = royalty_of_class(rules, row, class);
            if p > 0.0 {
                let info = classes
                    .binary_search_by_key(&class, |x| x.0)
                    .map(|k| classes[k].1)
                    .unwrap_or_default();
                live.push(class, p, roy, rp, &info);
            }
            a += p;
            b += p * roy;
            if roy > rp {
                c += p * roy;
            } else {
                d += p;
            }
        }
        cp.push(a);
        cr.push(b);
        cbig.push(c);
        csmall.push(d);
        let bits = (usize::BITS - (2 * n.max(4)).leading_zeros()).max(4);
        let mut slots = vec![(0u32, 0u32); 1 << bits];
        let keys: Vec<u32> = dist.iter().map(|x| x.0).collect();
        for (i, &k) in keys.iter().enumerate() {
            let mut h = hash(k, bits);
            while slots[h].1 != 0 {
                h = (h + 1) & ((1 << bits) - 1);
            }
            slots[h] = (k, i as u32 + 1);
        }
        RowModel {
            keys,
            cp,
            cr,
            cbig,
            csmall,
            slots,
            bits,
            fast: Vec::new(),
            live,
        }
    }

    fn cum(&self) -> Cum<'_> {
        Cum {
            keys: &self.keys,
            cp: &self.cp,
            cr: &self.cr,
            cbig: &self.cbig,
            csmall: &self.csmall,
        }
    }

    /// (position of the first class >= `class`, whether it is equal).
    #[inline(always)]
    pub(super) fn locate(&self, class: u32) -> (usize, bool) {
        let mask = (1usize << self.bits) - 1;
        let mut h = hash(class, self.bits);
        loop {
            let (k, i) = self.slots[h];
            if i == 0 {
                break;
            }
            if k == class {
                return (i as usize - 1, true);
            }
            h = (h + 1) & mask;
        }
        (self.keys.partition_point(|&k| k < class), false)
    }
}

/// Every rank class of three-card (or five-card) hands under a ranking,
/// sorted, with the cards that make it.
pub(super) fn all_classes(e: &Evaluator, five: bool) -> Vec<(u32, ClassCards)> {
    let mut out: Vec<(u32, ClassCards)> = Vec::new();
    let groups = |r: &[u8]| {
        let mut c = ClassCards::default();
        for &k in r {
            let n = c.len as usize;
            if n > 0 && c.ranks[n - 1] == k {
                c.counts[n - 1] += 1;
            } else {
                c.ranks[n] = k;
                c.counts[n] = 1;
                c.len += 1;
            }
        }
        c
    };
    if five {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        for x in d..13 {
                            if a == x {
                                continue;
                            }
                            let r = [a, b, c, d, x];
                            let mut info = groups(&r);
                            // suits 0,1,2,3,0 by position: distinct within a
                            // rank group, never a flush
                            let cards: [u8; 5] = std::array::from_fn(|i| 4 * r[i] + (i % 4) as u8);
                            if info.len == 5 {
                                info.kind = 1;
                            }
                            out.push((e.eval5(cards) >> CLASS_SHIFT, info));
                            if info.len == 5 {
                                for suit in 0..4 {
                                    let f = ClassCards {
                                        kind: 2,
                                        suits: 1 << suit,
                                        ..info
                                    };
                                    out.push((e.eval5(r.map(|k| 4 * k + suit)) >> CLASS_SHIFT, f));
                                }
                            }
                        }
                    }
                }
            }
        }
    } else {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    let info = groups(&[a, b, c]);
                    out.push((e.eval3([4 * a, 4 * b + 1, 4 * c + 2]) >> CLASS_SHIFT, info));
                }
            }
        }
    }
    out.sort_unstable_by_key(|x| x.0);
    // one class for several suits of a flush (unless the suit ranks it)
    out.dedup_by(|later, first| {
        if later.0 == first.0 {
            first.1.suits |= later.1.suits;
            true
        } else {
            false
        }
    });
    out
}

pub(super) fn fast_of(o: &RowOutcome) -> [f32; 3] {
    [o.total() as f32, o.prob[0] as f32, o.prob[2] as f32]
}

#[inline(always)]
fn hash(k: u32, bits: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

fn royalty_of_class(rules: &Rules, row: usize, class: u32) -> f64 {
    if rules.royalty_mode == RoyaltyMode::None {
        return 0.0;
    }
    // total for any class: a category beyond the royalty table pays nothing
    let category = (class >> (28 - CLASS_SHIFT)) as usize;
    rules.royalties[row].get(category).copied().unwrap_or(0) as f64
}

impl Solver {
    /// Outcomes of a row hand of strength `s` in `row`.
    pub fn row_outcome(&self, row: usize, s: u32) -> RowOutcome {
        let md = &self.model[row];
        let (i, hit) = md.locate(s >> CLASS_SHIFT);
        self.outcome_in(row, s, &md.cum(), i, hit)
    }

    /// Outcomes of a row hand of strength `s` against the cumulative
    /// distribution `md`, where `i` is the position of the first class >= the
    /// hand's and `hit` whether it is equal.
    #[inline(always)]
    pub(super) fn outcome_in(
        &self,
        row: usize,
        s: u32,
        md: &Cum,
        i: usize,
        hit: bool,
    ) -> RowOutcome {
        let rules = &self.rules;
        let total = md.cp[md.keys.len()];
        let lt = md.cp[i];
        let eq = if hit { md.cp[i + 1] - md.cp[i] } else { 0.0 };
        let gt = (total - lt - eq).max(0.0);
        let above = if hit { i + 1 } else { i };
        let n = md.keys.len();
        // Σ over classes above mine of p*R etc.
        let r_gt = md.cr[n] - md.cr[above];
        let big_gt = md.cbig[n] - md.cbig[above];
        let small_gt = md.csmall[n] - md.csmall[above];
        let r_lt = md.cr[i];
        let rp = rules.row_points as f64;
        let mine = if rules.royalty_mode == RoyaltyMode::None {
            0.0
        } else {
            rules.royalty(row, s) as f64
        };
        // equal classes: a tie, or half and half under the suit tie-break
        let (w, t, l, eq_l) = if rules.evaluator.ranking.tie_break_suit {
            (lt + 0.5 * eq, 0.0, gt + 0.5 * eq, 0.5 * eq)
        } else {
            (lt, eq, gt, 0.0)
        };
        let mut o = RowOutcome {
            prob: [w, t, l],
            ..RowOutcome::default()
        };
        match rules.royalty_mode {
            RoyaltyMode::Winner | RoyaltyMode::None => {
                let adds = rules.royalty_adds || rules.royalty_mode == RoyaltyMode::None;
                if adds {
                    o.points = [rp * w, 0.0, -rp * l];
                    o.royalty = [mine * w, 0.0, -(r_gt + mine * eq_l)];
                } else {
                    if mine > rp {
                        o.points[0] = 0.0;
                        o.royalty[0] = mine * w;
                    } else {
                        o.points[0] = rp * w;
                    }
                    let (eq_small, eq_big) = if mine > rp {
                        (0.0, mine * eq_l)
                    } else {
                        (eq_l, 0.0)
                    };
                    o.points[2] = -rp * (small_gt + eq_small);
                    o.royalty[2] = -(big_gt + eq_big);
                }
            }
            RoyaltyMode::Always => {
                o.points = [rp * w, 0.0, -rp * l];
                let r_eq = mine * eq;
                // opponent royalty mass per outcome region
                let (ow, ot, ol) = if rules.evaluator.ranking.tie_break_suit {
                    (r_lt + 0.5 * r_eq, 0.0, r_gt + 0.5 * r_eq)
                } else {
                    (r_lt, r_eq, r_gt)
                };
                o.royalty = [mine * w - ow, mine * t - ot, mine * l - ol];
            }
        }
        o
    }

    /// Exact expected points of a split for the whole hand (all opponents),
    /// under the row-independence model.
    pub fn exact_value(&self, rows: &[RowOutcome; 3]) -> f64 {
        self.finish(&self.pair_sums(rows))
    }

    /// The per-opponent sums of a split under independent rows: a sum over
    /// the 27 win/tie/lose patterns.
    pub(super) fn pair_sums(&self, rows: &[RowOutcome; 3]) -> PairSums {
        let mut out = PairSums::default();
        for o in PATTERNS {
            let p = [rows[0].prob[o[0]], rows[1].prob[o[1]], rows[2].prob[o[2]]];
            let pp = p[0] * p[1] * p[2];
            if pp == 0.0 {
                continue;
            }
            // E[rows * 1(pattern)], E[roy * 1(pattern)]
            let ev = rows[0].points[o[0]] * p[1] * p[2]
                + rows[1].points[o[1]] * p[0] * p[2]
                + rows[2].points[o[2]] * p[0] * p[1];
            let er = rows[0].royalty[o[0]] * p[1] * p[2]
                + rows[1].royalty[o[1]] * p[0] * p[2]
                + rows[2].royalty[o[2]] * p[0] * p[1];
            self.add_pattern(&mut out, o, pp, ev, er);
        }
        out
    }

    /// The per-opponent sums of a split when the patterns have the
    /// probabilities `joint` (pattern index `9 * top + 3 * middle +
    /// bottom`); each row's points and royalties given its outcome are its
    /// mean on that outcome.
    pub(super) fn pair_sums_joint(&self, rows: &[RowOutcome; 3], joint: &[f64; 27]) -> PairSums {
        let mean = |x: f64, p: f64| if p > 0.0 { x / p } else { 0.0 };
        let points: [[f64; 3]; 3] = std::array::from_fn(|r| {
            std::array::from_fn(|k| mean(rows[r].points[k], rows[r].prob[k]))
        });
        let royalty: [[f64; 3]; 3] = std::array::from_fn(|r| {
            std::array::from_fn(|k| mean(rows[r].royalty[k], rows[r].prob[k]))
        });
        let mut out = PairSums::default();
        for (o, &pp) in PATTERNS.iter().zip(joint) {
            if pp == 0.0 {
                continue;
            }
            let ev = pp * (points[0][o[0]] + points[1][o[1]] + points[2][o[2]]);
            let er = pp * (royalty[0][o[0]] + royalty[1][o[1]] + royalty[2][o[2]]);
            self.add_pattern(&mut out, *o, pp, ev, er);
        }
        out
    }

    /// Adds one pattern of probability `pp`, with `ev` and `er` its row
    /// points and royalties times the probability.
    #[inline(always)]
    fn add_pattern(&self, out: &mut PairSums, o: [usize; 3], pp: f64, ev: f64, er: f64) {
        let r = &self.rules;
        let m = r.scoop_multiplier as f64;
        let b = r.scoop_bonus as f64;
        let roy_m = if r.scoop_multiply_royalties { m } else { 1.0 };
        let wins = o.iter().filter(|&&x| x == 0).count();
        let losses = o.iter().filter(|&&x| x == 2).count();
        let overall = r.overall_point as f64 * (wins.cmp(&losses) as i8) as f64;
        if wins == 3 && !self.separable {
            out.pair += (ev + overall * pp) * m + b * pp + er * roy_m;
            out.rows_w += ev + overall * pp;
            out.roy_w += er;
            out.pw3 += pp;
        } else if losses == 3 && !self.separable {
            out.pair += (ev + overall * pp) * m - b * pp + er * roy_m;
            out.rows_l += ev + overall * pp;
            out.roy_l += er;
            out.pl3 += pp;
        } else {
            out.pair += ev + overall * pp + er;
        }
    }

    /// The hand's value from its per-opponent sums: the pair value times
    /// the opponents, and the sweep-all terms.
    pub(super) fn finish(&self, s: &PairSums) -> f64 {
        let r = &self.rules;
        let m = r.scoop_multiplier as f64;
        let opp = (self.seats - 1) as f64;
        let mut total = opp * s.pair;
        if self.sweep_on && !self.separable {
            let ms = r.sweep_all_multiplier as f64;
            let extra_b = r.sweep_all_bonus as f64 - r.scoop_bonus as f64;
            let roy_m = if r.scoop_multiply_royalties {
                ms - m
            } else {
                0.0
            };
            // per opponent, conditional on sweeping all: E[gain; all win]
            let gain_w = (ms - m) * s.rows_w + extra_b * s.pw3 + roy_m * s.roy_w;
            let gain_l = (ms - m) * s.rows_l - extra_b * s.pl3 + roy_m * s.roy_l;
            let others = (self.seats - 2) as i32;
            // I sweep all: win all three against every opponent.
            total += opp * gain_w * s.pw3.powi(others);
            // An opponent sweeps all (including me).
            total += opp * gain_l * self.scoop_rate.powi(others);
        }
        total
    }
}

/// The 27 win/tie/lose patterns of (top, middle, bottom), 0 win, 1 tie,
/// 2 lose; index `9 * top + 3 * middle + bottom`.
pub(super) const PATTERNS: [[usize; 3]; 27] = {
    let mut out = [[0; 3]; 27];
    let mut i = 0;
    while i < 27 {
        out[i] = [i / 9, (i / 3) % 3, i % 3];
        i += 1;
    }
    out
};

/// What the value of a split against one opponent is made of, each an
/// expectation over the opponent's rows (so a mixture of opponents mixes
/// them linearly): the pair value, and for the sweep-all terms the row
/// points (with the overall point) and royalties on the patterns that win
/// or lose all three, and those patterns' probabilities.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PairSums {
    pub(super) pair: f64,
    pub(super) rows_w: f64,
    pub(super) roy_w: f64,
    pub(super) rows_l: f64,
    pub(super) roy_l: f64,
    pub(super) pw3: f64,
    pub(super) pl3: f64,
}

impl PairSums {
    pub(super) fn add_scaled(&mut self, o: &PairSums, k: f64) {
        self.pair += k * o.pair;
        self.rows_w += k * o.rows_w;
        self.roy_w += k * o.roy_w;
        self.rows_l += k * o.rows_l;
        self.roy_l += k * o.roy_l;
        self.pw3 += k * o.pw3;
        self.pl3 += k * o.pl3;
    }
}
