//! The expected value of a split: a row hand's outcomes against the row
//! model (with or without the card-removal reweighting), and the 27-pattern
//! value with the joint correction.

use super::classes::CLASS_SHIFT;
use super::joint::independent_of;
use super::model::{Cumulative, PairSums, RowOutcome, PATTERNS};
use super::removal::{Adjusted, Removal};
use super::search::{scoop_multiplier, Solver};
use crate::rules::{RoyaltyMode, Rules, TOP};

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
        md: &Cumulative,
        i: usize,
        hit: bool,
    ) -> RowOutcome {
        let mine = if self.rules.royalty_mode == RoyaltyMode::None {
            0.0
        } else {
            self.rules.royalty(row, s) as f64
        };
        self.outcome_with(mine, md, i, hit)
    }

    /// Outcomes of a top holding both jokers under `royalties.top_two_jokers`
    /// against `md`: it wins its row against every top (the opponents'
    /// distributions hold no such top: the hand holds both jokers) and its
    /// royalty is the knob's.
    pub(super) fn two_jokers_top(&self, md: &Cumulative) -> RowOutcome {
        let mine = if self.rules.royalty_mode == RoyaltyMode::None {
            0.0
        } else {
            self.rules.top_two_jokers as f64
        };
        self.outcome_with(mine, md, md.keys.len(), false)
    }

    /// [`Self::outcome_in`] of a row hand whose royalty is `mine`.
    #[inline(always)]
    fn outcome_with(&self, mine: f64, md: &Cumulative, i: usize, hit: bool) -> RowOutcome {
        let rules = &self.rules;
        let total = md.prob[md.keys.len()];
        let lt = md.prob[i];
        let eq = if hit {
            md.prob[i + 1] - md.prob[i]
        } else {
            0.0
        };
        let gt = (total - lt - eq).max(0.0);
        let above = if hit { i + 1 } else { i };
        let n = md.keys.len();
        // Σ over classes above mine of p*R etc.
        let r_gt = md.royalty_sum[n] - md.royalty_sum[above];
        let big_gt = md.big_royalty[n] - md.big_royalty[above];
        let small_gt = md.small_prob[n] - md.small_prob[above];
        let r_lt = md.royalty_sum[i];
        let rp = rules.row_points as f64;
        // equal classes: a tie, half and half under the suit tie-break, or
        // the banker's when the banker wins ties (the solver plays a player)
        let eq_lost = tie_share_lost(rules);
        let (w, t, l, eq_l) = match eq_lost {
            Some(f) => (lt + (1.0 - f) * eq, 0.0, gt + f * eq, f * eq),
            None => (lt, eq, gt, 0.0),
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
                let (ow, ot, ol) = match eq_lost {
                    Some(f) => (r_lt + (1.0 - f) * r_eq, 0.0, r_gt + f * r_eq),
                    None => (r_lt, r_eq, r_gt),
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
        let m = scoop_multiplier(r, self.seats) as f64;
        let b = r.scoop_bonus as f64;
        let roy_m = if r.scoop_multiply_royalties { m } else { 1.0 };
        let wins = o.iter().filter(|&&x| x == 0).count();
        let losses = o.iter().filter(|&&x| x == 2).count();
        let overall = r.overall_point as f64 * (wins.cmp(&losses) as i8) as f64;
        if wins == 3 && !self.separable {
            out.pair += capped(
                (ev + overall * pp) * m + b * pp + er * roy_m,
                pp,
                scoop_cap(r),
            );
            out.rows_w += ev + overall * pp;
            out.roy_w += er;
            out.pw3 += pp;
        } else if losses == 3 && !self.separable {
            out.pair += capped(
                (ev + overall * pp) * m - b * pp + er * roy_m,
                pp,
                scoop_cap(r),
            );
            out.rows_l += ev + overall * pp;
            out.roy_l += er;
            out.pl3 += pp;
        } else {
            out.pair += capped(ev + overall * pp + er, pp, r.cap_pair);
        }
    }

    /// The hand's value from its per-opponent sums: the pair value times
    /// the opponents, and the sweep-all terms.
    pub(super) fn finish(&self, s: &PairSums) -> f64 {
        let r = &self.rules;
        let m = scoop_multiplier(r, self.seats) as f64;
        let opp = self.opponents();
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

impl Solver {
    /// Outcomes of a row hand against the distribution reweighted for the
    /// card removal of the hand it comes from.
    pub(super) fn row_outcome_adjusted(&self, row: usize, s: u32, adj: &Adjusted) -> RowOutcome {
        let (i, hit) = adj.locate(s >> CLASS_SHIFT);
        self.outcome_in(row, s, &adj.cum(), i, hit)
    }

    /// [`Self::row_outcome_adjusted`] of the top row `top` (its cards), of
    /// strength `s`: a top holding both jokers under `royalties.top_two_jokers`
    /// wins its row.
    pub(super) fn top_outcome_adjusted(&self, top: &[u8], s: u32, adj: &Adjusted) -> RowOutcome {
        if self.rules.two_jokers_on_top(top) {
            return self.two_jokers_top(&adj.cum());
        }
        self.row_outcome_adjusted(TOP, s, adj)
    }

    /// The opponent distributions of the three rows given the hand's cards.
    /// `strengths[row]` lists the row hands to be asked about.
    pub(super) fn adjusted(&self, cards: &[u8], strengths: [Vec<u32>; 3]) -> [Adjusted; 3] {
        let rm = Removal::new(cards, &self.rules.deck);
        let mut q = strengths;
        std::array::from_fn(|row| {
            let q = &mut q[row];
            for s in q.iter_mut() {
                *s >>= CLASS_SHIFT;
            }
            q.sort_unstable();
            q.dedup();
            Adjusted::new(&self.model[row], &rm, q)
        })
    }
}

impl Solver {
    /// Expected points of a split for the whole hand: the row-independence
    /// value with the joint correction when the tables have a copula and the
    /// rules score the rows jointly (see the module documentation).
    pub fn value(&self, rows: &[RowOutcome; 3]) -> f64 {
        let mut sums = self.pair_sums(rows);
        if let Some(jm) = self.joint.as_ref().filter(|_| !self.separable) {
            let joint = jm.patterns(rows);
            sums.add_scaled(&self.pair_sums_joint(rows, &joint), 1.0);
            sums.add_scaled(&self.pair_sums_joint(rows, &independent_of(&joint)), -1.0);
        }
        self.finish(&sums)
    }
}

/// The share of a row's equal hands the solver's seat loses: half under
/// the suit tie-break, all of them when the banker wins ties (the solver
/// arranges a player's hand), `None` when they tie.
#[inline(always)]
fn tie_share_lost(rules: &Rules) -> Option<f64> {
    if rules.banker_enabled && rules.banker_wins_ties {
        Some(1.0)
    } else if rules.evaluator.ranking.tie_break_suit {
        Some(0.5)
    } else {
        None
    }
}

/// The cap of a pair with a scoop: `cap.scoop`, else `cap.pair` (0: none).
/// A sweep-all's own cap is not modelled apart (it is rare and its pair's
/// points are mostly past any cap already).
fn scoop_cap(rules: &Rules) -> i64 {
    if rules.cap_scoop != 0 {
        rules.cap_scoop
    } else {
        rules.cap_pair
    }
}

/// `x`, a pattern's points times its probability `pp`, with the pattern's
/// mean points clamped to `[-cap, cap]` (0: no cap): points past a cap are
/// worth nothing.
#[inline(always)]
fn capped(x: f64, pp: f64, cap: i64) -> f64 {
    if cap == 0 {
        return x;
    }
    let c = cap as f64 * pp;
    x.clamp(-c, c)
}
