//! The search: every valid split scored by the fast form, the best refined
//! by the exact value; [`Solver`], its [`Solver::rank`] and [`Solver::best`].

use std::sync::OnceLock;

use super::model::{fast_of, RowModel};
use super::tables::Tables;
use super::{CLASS_SHIFT, REFINE};
use crate::cards::check_hand;
use crate::error::{Error, Result};
use crate::naturals;
use crate::rank::Evaluator;
use crate::rules::{Rules, BOTTOM, MIDDLE, TOP};
use crate::splits::{self, SUBSETS3, SUBSETS5};

/// One arrangement choice: the 13 ids laid out top 0-2, middle 3-7, bottom
/// 8-12 (each row by ascending id), whether to declare the hand's natural,
/// and the estimated expected points of the hand (summed over opponents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    pub cards: [u8; 13],
    pub declare_natural: bool,
    pub expected_points: f64,
}

/// A solver compiled for one rules, tables and table size.
pub struct Solver {
    pub(super) rules: Rules,
    pub(super) seats: usize,
    pub(super) model: [RowModel; 3],
    /// Fast-score scoop gain per pattern probability.
    scoop_gain: f64,
    /// Sweep-all gain over the scoop rate per opponent, 0 when not possible.
    sweep_gain: f64,
    pub(super) sweep_on: bool,
    pub(super) scoop_rate: f64,
    pub(super) separable: bool,
}

#[derive(Clone, Copy)]
struct Cand {
    score: f32,
    t: u16,
    m: u16,
    b: u16,
}

/// Fast-score values of one five-card subset: strength, then (value,
/// P(win), P(lose)) as a middle and as a bottom.
#[derive(Clone, Copy, Default)]
struct P5 {
    s: u32,
    m: [f32; 3],
    b: [f32; 3],
}

/// The strengths of every 3- and 5-card subset of a sorted hand, in the
/// split table's subset order (lexicographic position lists), on the stack.
pub struct Hand {
    pub cards: [u8; 13],
    pub s3: [u32; SUBSETS3],
    pub s5: [u32; SUBSETS5],
}

impl Hand {
    /// Checks and sorts the 13 cards and ranks every subset.
    pub fn new(e: &Evaluator, cards: &[u8]) -> Result<Hand> {
        check_hand(cards, &[13], "a hand to arrange")?;
        let mut c: [u8; 13] = cards.try_into().expect("13 cards");
        c.sort_unstable();
        let mut s3 = [0u32; SUBSETS3];
        let mut k = 0;
        for a in 0..11 {
            for b in a + 1..12 {
                for d in b + 1..13 {
                    s3[k] = e.eval3([c[a], c[b], c[d]]);
                    k += 1;
                }
            }
        }
        let mut s5 = [0u32; SUBSETS5];
        k = 0;
        for a in 0..9 {
            for b in a + 1..10 {
                for x in b + 1..11 {
                    for y in x + 1..12 {
                        for z in y + 1..13 {
                            s5[k] = e.eval5([c[a], c[b], c[x], c[y], c[z]]);
                            k += 1;
                        }
                    }
                }
            }
        }
        Ok(Hand { cards: c, s3, s5 })
    }
}

struct ScanArgs<'a> {
    s3: &'a [u32; SUBSETS3],
    ft: &'a [[f32; 3]; SUBSETS3],
    f5: &'a [P5; 2048],
    gain: f32,
    sweep: f32,
    sweep_l: f32,
    keep: usize,
}

#[cold]
#[inline(never)]
fn insert(best: &mut Vec<Cand>, keep: usize, c: Cand) -> f32 {
    let pos = best.partition_point(|x| x.score >= c.score);
    best.insert(pos, c);
    if best.len() > keep {
        best.pop();
    }
    if best.len() == keep {
        best[keep - 1].score
    } else {
        f32::NEG_INFINITY
    }
}

/// The fast-score scan over every valid split; `SWEEP` is the power of
/// P(win all three) in the sweep-all term (0: no term).
fn scan<const STRICT: bool, const SWEEP: u8>(a: &ScanArgs) -> Vec<Cand> {
    let pairs = pair_table();
    let mut best: Vec<Cand> = Vec::with_capacity(a.keep + 1);
    let mut threshold = f32::NEG_INFINITY;
    for t in 0..SUBSETS3 {
        let st = a.s3[t];
        let [tv, tw, tl] = a.ft[t];
        for &[x, y] in &pairs[t * 126..t * 126 + 126] {
            let (px, py) = (&a.f5[x as usize & 2047], &a.f5[y as usize & 2047]);
            let (pm, pb, m, b) = if px.s <= py.s {
                (px, py, x, y)
            } else {
                (py, px, y, x)
            };
            let ok = if STRICT {
                (pb.s > pm.s) & (pm.s > st)
            } else {
                pm.s >= st
            };
            let pw3 = tw * pm.m[1] * pb.b[1];
            let pl3 = tl * pm.m[2] * pb.b[2];
            let mut score = tv + pm.m[0] + pb.b[0] + a.gain * (pw3 - pl3);
            if SWEEP > 0 {
                let sw = match SWEEP {
                    1 => pw3,
                    2 => pw3 * pw3,
                    _ => pw3 * pw3 * pw3,
                };
                score += a.sweep * sw - a.sweep_l * pl3;
            }
            // branch-free validity: an invalid split never passes, a valid
            // one always does (a NaN or -inf score from extreme rules
            // becomes the lowest finite score, so the scan keeps a split)
            let score = if ok {
                score.max(f32::MIN)
            } else {
                f32::NEG_INFINITY
            };
            if score > threshold {
                threshold = insert(
                    &mut best,
                    a.keep,
                    Cand {
                        score,
                        t: t as u16,
                        m,
                        b,
                    },
                );
            }
        }
    }
    best
}

/// For each top (index into the 3-subsets): the 126 unordered pairs of
/// complementary 5-subsets of the other ten cards.
fn pair_table() -> &'static Vec<[u16; 2]> {
    static PAIRS: OnceLock<Vec<[u16; 2]>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let t = splits::table();
        let mut index5 = vec![u16::MAX; 1 << 13];
        for (i, &m) in t.masks5.iter().enumerate() {
            index5[m as usize] = i as u16;
        }
        let full: u16 = (1 << 13) - 1;
        let mut out = Vec::with_capacity(SUBSETS3 * 126);
        for &top in &t.masks3 {
            let rest = full & !top;
            let low = rest & rest.wrapping_neg();
            for &m in &t.masks5 {
                if m & top == 0 && m & low != 0 {
                    out.push([index5[m as usize], index5[(rest & !m) as usize]]);
                }
            }
        }
        debug_assert_eq!(out.len(), SUBSETS3 * 126);
        out
    })
}

impl Solver {
    /// Compiles the solver. `seats` is the table size (2..=4).
    pub fn new(rules: &Rules, tables: &Tables, seats: usize) -> Result<Solver> {
        if !(2..=4).contains(&seats) {
            return Err(Error::table(format!(
                "a table has 2 to 4 seats, got {seats}"
            )));
        }
        // tables built in Rust rather than read by `from_bytes` are checked too
        tables.validate()?;
        let rp = rules.row_points as f64;
        let op = rules.overall_point as f64;
        let m = rules.scoop_multiplier as f64;
        let sweep_on = seats >= rules.sweep_all_min_players;
        let ms = rules.sweep_all_multiplier as f64;
        let mut solver = Solver {
            model: [
                RowModel::new(rules, TOP, &tables.rows[TOP]),
                RowModel::new(rules, MIDDLE, &tables.rows[MIDDLE]),
                RowModel::new(rules, BOTTOM, &tables.rows[BOTTOM]),
            ],
            scoop_gain: (m - 1.0) * (3.0 * rp + op) + rules.scoop_bonus as f64,
            sweep_gain: if sweep_on {
                (ms - m) * (3.0 * rp + op) + rules.sweep_all_bonus as f64 - rules.scoop_bonus as f64
            } else {
                0.0
            },
            sweep_on,
            scoop_rate: tables.get_f64("scoop_rate").unwrap_or(0.05),
            rules: rules.clone(),
            seats,
            separable: false,
        };
        for row in 0..3 {
            let fast: Vec<[f32; 3]> = solver.model[row]
                .keys
                .iter()
                .map(|&k| fast_of(&solver.row_outcome(row, k << CLASS_SHIFT)))
                .collect();
            solver.model[row].fast = fast;
        }
        Ok(solver)
    }

    /// (value, P(win), P(lose)) of a row hand, as the fast score uses them.
    #[inline(always)]
    fn fast_outcome(&self, row: usize, s: u32) -> [f32; 3] {
        let md = &self.model[row];
        match md.locate(s >> CLASS_SHIFT) {
            (i, true) => md.fast[i],
            _ => fast_of(&self.row_outcome(row, s)),
        }
    }

    /// The same solver with the scoop and sweep terms switched off.
    pub fn separable(mut self) -> Solver {
        self.separable = true;
        self
    }

    pub(super) fn strengths(&self, cards: &[u8]) -> Result<Hand> {
        Hand::new(&self.rules.evaluator, cards)
    }

    /// The `keep` best valid splits by the fast score, refined by the exact
    /// value and sorted best first.
    fn candidates(&self, h: &Hand, keep: usize) -> Vec<(f64, u16, u16, u16)> {
        let strict = self.rules.foul_strict;
        let mut ft = [[0f32; 3]; SUBSETS3];
        for (f, &s) in ft.iter_mut().zip(h.s3.iter()) {
            *f = self.fast_outcome(TOP, s);
        }
        // 2048 entries so that masked u16 indices need no bounds checks
        let mut f5 = [P5::default(); 2048];
        for (f, &s) in f5.iter_mut().zip(h.s5.iter()) {
            *f = P5 {
                s,
                m: self.fast_outcome(MIDDLE, s),
                b: self.fast_outcome(BOTTOM, s),
            };
        }
        let gain = if self.separable {
            0.0
        } else {
            self.scoop_gain as f32
        };
        let others = (self.seats as i32 - 2).max(0);
        let sweep = if self.separable {
            0.0
        } else {
            self.sweep_gain as f32
        };
        let sweep_l = sweep * self.scoop_rate.powi(others) as f32;
        let args = ScanArgs {
            s3: &h.s3,
            ft: &ft,
            f5: &f5,
            gain,
            sweep,
            sweep_l,
            keep,
        };
        let best = match (strict, if sweep != 0.0 { others + 1 } else { 0 }) {
            (false, 0) => scan::<false, 0>(&args),
            (false, 1) => scan::<false, 1>(&args),
            (false, 2) => scan::<false, 2>(&args),
            (false, _) => scan::<false, 3>(&args),
            (true, 0) => scan::<true, 0>(&args),
            (true, 1) => scan::<true, 1>(&args),
            (true, 2) => scan::<true, 2>(&args),
            (true, _) => scan::<true, 3>(&args),
        };
        let adj = self.adjusted(
            &h.cards,
            [
                best.iter().map(|c| h.s3[c.t as usize]).collect(),
                best.iter().map(|c| h.s5[c.m as usize]).collect(),
                best.iter().map(|c| h.s5[c.b as usize]).collect(),
            ],
        );
        let mut out: Vec<(f64, u16, u16, u16)> = best
            .iter()
            .map(|c| {
                let rows = [
                    self.row_outcome_adjusted(TOP, h.s3[c.t as usize], &adj[TOP]),
                    self.row_outcome_adjusted(MIDDLE, h.s5[c.m as usize], &adj[MIDDLE]),
                    self.row_outcome_adjusted(BOTTOM, h.s5[c.b as usize], &adj[BOTTOM]),
                ];
                (self.exact_value(&rows), c.t, c.m, c.b)
            })
            .collect();
        // stable: equal values keep the fast order (deterministic)
        out.sort_by(|x, y| y.0.total_cmp(&x.0));
        out
    }

    /// Expected points of declaring the hand's natural (all opponents).
    fn natural_value(&self, pts: i64) -> f64 {
        (self.seats - 1) as f64 * pts as f64
    }

    /// The `k` best choices, best first. When declaring the natural scores
    /// more than the best arrangement, the first entry declares it (with
    /// the best arrangement's cards).
    pub fn rank(&self, cards: &[u8], k: usize) -> Result<Vec<Choice>> {
        let ss = self.strengths(cards)?;
        // more candidates than valid splits can never be kept
        let cands = self.candidates(&ss, k.clamp(REFINE, SUBSETS3 * 126));
        let mut out: Vec<Choice> = cands
            .iter()
            .map(|&(v, t, m, b)| Choice {
                cards: splits::layout_of(&ss.cards, t, m, b),
                declare_natural: false,
                expected_points: v,
            })
            .collect();
        if let Some((_, pts)) = naturals::strongest(&ss.cards, &self.rules.naturals) {
            let v = self.natural_value(pts);
            if let Some(first) = out.first().copied() {
                let pos = out.partition_point(|c| c.expected_points >= v);
                out.insert(
                    pos,
                    Choice {
                        cards: first.cards,
                        declare_natural: true,
                        expected_points: v,
                    },
                );
            }
        }
        out.truncate(k);
        Ok(out)
    }

    /// The best choice.
    pub fn best(&self, cards: &[u8]) -> Result<Choice> {
        let ss = self.strengths(cards)?;
        let cands = self.candidates(&ss, REFINE);
        let &(v, t, m, b) = cands.first().ok_or_else(no_valid_split)?;
        let mut choice = Choice {
            cards: splits::layout_of(&ss.cards, t, m, b),
            declare_natural: false,
            expected_points: v,
        };
        if let Some((_, pts)) = naturals::strongest(&ss.cards, &self.rules.naturals) {
            let nv = self.natural_value(pts);
            if nv > v {
                choice.declare_natural = true;
                choice.expected_points = nv;
            }
        }
        Ok(choice)
    }

    /// The expected points the model gives an arrangement (top 0-2, middle
    /// 3-7, bottom 8-12), or `None` when it fouls.
    pub fn value_of(&self, arranged: &[u8; 13]) -> Option<f64> {
        let e = &self.rules.evaluator;
        let s = [
            e.eval3([arranged[0], arranged[1], arranged[2]]),
            e.eval5(arranged[3..8].try_into().expect("5")),
            e.eval5(arranged[8..].try_into().expect("5")),
        ];
        if !splits::is_valid(s[0], s[1], s[2], self.rules.foul_strict) {
            return None;
        }
        let adj = self.adjusted(arranged, [vec![s[0]], vec![s[1]], vec![s[2]]]);
        let rows = [
            self.row_outcome_adjusted(TOP, s[0], &adj[TOP]),
            self.row_outcome_adjusted(MIDDLE, s[1], &adj[MIDDLE]),
            self.row_outcome_adjusted(BOTTOM, s[2], &adj[BOTTOM]),
        ];
        Some(self.exact_value(&rows))
    }
}

pub(super) fn no_valid_split() -> Error {
    Error::hand("no arrangement of these 13 cards passes the rules' foul check")
}
