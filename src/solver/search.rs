//! The search: every valid split scored by the fast form, the best refined
//! by the exact value; [`Solver`], its [`Solver::rank`] and [`Solver::best`].

use super::joint::JointModel;
use super::model::{fast_of, RowModel};
use super::tables::Tables;
use super::{CLASS_SHIFT, REFINE};
use crate::error::{Error, Result};
use crate::naturals;
use crate::rules::{Rules, BOTTOM, MIDDLE, TOP};
use crate::settle::check_seat_count;
use crate::splits::{self, SubsetStrengths, SUBSETS3};

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
    /// The copula of the opponent's rows, when the tables have one and the
    /// rules score the rows jointly (scoop, overall point, sweep-all).
    pub(super) joint: Option<JointModel>,
}

/// A split the fast scan keeps: its fast score and the indices of its top
/// (into the 3-subsets), middle and bottom (into the 5-subsets).
#[derive(Clone, Copy)]
struct Candidate {
    score: f32,
    top: u16,
    middle: u16,
    bottom: u16,
}

/// Fast-score values of one five-card subset: strength, then (value,
/// P(win), P(lose)) as a middle and as a bottom.
#[derive(Clone, Copy, Default)]
struct FiveCardScores {
    strength: u32,
    as_middle: [f32; 3],
    as_bottom: [f32; 3],
}

/// The unordered halvings of the ten cards a top leaves: C(10, 5) / 2.
const HALVINGS_PER_TOP: usize = 126;

/// What the fast scan reads: the tops' strengths and fast scores, the
/// five-card subsets' scores, the scoop and sweep-all gains (the loss of
/// being swept already weighted by the other opponents' scoop rate), and
/// how many splits to keep.
struct ScanArgs<'a> {
    top_strengths: &'a [u32],
    top_scores: &'a [[f32; 3]; SUBSETS3],
    five_scores: &'a [FiveCardScores; 2048],
    scoop_gain: f32,
    sweep_gain: f32,
    swept_loss: f32,
    keep: usize,
}

#[cold]
#[inline(never)]
fn insert(best: &mut Vec<Candidate>, keep: usize, c: Candidate) -> f32 {
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
fn scan<const STRICT: bool, const SWEEP: u8>(a: &ScanArgs) -> Vec<Candidate> {
    let halvings = &splits::table().halvings;
    let mut best: Vec<Candidate> = Vec::with_capacity(a.keep + 1);
    let mut threshold = f32::NEG_INFINITY;
    for t in 0..SUBSETS3 {
        let st = a.top_strengths[t];
        let [tv, tw, tl] = a.top_scores[t];
        // the middle and bottom of a halving are in either order
        for &[_, x, y] in &halvings[t * HALVINGS_PER_TOP..(t + 1) * HALVINGS_PER_TOP] {
            let (px, py) = (
                &a.five_scores[x as usize & 2047],
                &a.five_scores[y as usize & 2047],
            );
            let (pm, pb, m, b) = if px.strength <= py.strength {
                (px, py, x, y)
            } else {
                (py, px, y, x)
            };
            let ok = if STRICT {
                (pb.strength > pm.strength) & (pm.strength > st)
            } else {
                pm.strength >= st
            };
            let pw3 = tw * pm.as_middle[1] * pb.as_bottom[1];
            let pl3 = tl * pm.as_middle[2] * pb.as_bottom[2];
            let mut score = tv + pm.as_middle[0] + pb.as_bottom[0] + a.scoop_gain * (pw3 - pl3);
            if SWEEP > 0 {
                let sw = match SWEEP {
                    1 => pw3,
                    2 => pw3 * pw3,
                    _ => pw3 * pw3 * pw3,
                };
                score += a.sweep_gain * sw - a.swept_loss * pl3;
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
                    Candidate {
                        score,
                        top: t as u16,
                        middle: m,
                        bottom: b,
                    },
                );
            }
        }
    }
    best
}

impl Solver {
    /// Compiles the solver. `seats` is the table size (as
    /// [`check_seat_count`] takes).
    pub fn new(rules: &Rules, tables: &Tables, seats: usize) -> Result<Solver> {
        check_seat_count(seats)?;
        // tables built in Rust rather than read by `from_bytes` are checked too
        tables.validate()?;
        let rp = rules.row_points as f64;
        let op = rules.overall_point as f64;
        let m = rules.scoop_multiplier as f64;
        let sweep_on = seats >= rules.sweep_all_min_players;
        let ms = rules.sweep_all_multiplier as f64;
        let scoop_gain = (m - 1.0) * (3.0 * rp + op) + rules.scoop_bonus as f64;
        let sweep_gain = if sweep_on {
            (ms - m) * (3.0 * rp + op) + rules.sweep_all_bonus as f64 - rules.scoop_bonus as f64
        } else {
            0.0
        };
        let joint_scored = scoop_gain != 0.0 || op != 0.0 || sweep_gain != 0.0;
        let mut solver = Solver {
            model: [
                RowModel::new(rules, TOP, &tables.rows[TOP]),
                RowModel::new(rules, MIDDLE, &tables.rows[MIDDLE]),
                RowModel::new(rules, BOTTOM, &tables.rows[BOTTOM]),
            ],
            scoop_gain,
            sweep_gain,
            sweep_on,
            scoop_rate: tables.get_f64("scoop_rate").unwrap_or(0.05),
            rules: rules.clone(),
            seats,
            separable: false,
            joint: tables
                .joint
                .as_ref()
                .filter(|_| joint_scored)
                .map(JointModel::new),
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

    /// Checks and sorts the 13 cards and ranks every subset.
    pub(super) fn subsets(&self, cards: &[u8]) -> Result<SubsetStrengths> {
        let sorted = splits::sorted_hand_for(cards, "a hand to arrange")?;
        Ok(splits::subset_strengths(&self.rules.evaluator, &sorted))
    }

    /// The `keep` best valid splits by the fast score, refined by the exact
    /// value and sorted best first.
    fn candidates(&self, subsets: &SubsetStrengths, keep: usize) -> Vec<(f64, u16, u16, u16)> {
        let strict = self.rules.foul_strict;
        let mut top_scores = [[0f32; 3]; SUBSETS3];
        for (f, &s) in top_scores.iter_mut().zip(subsets.s3.iter()) {
            *f = self.fast_outcome(TOP, s);
        }
        // 2048 entries so that masked u16 indices need no bounds checks
        let mut five_scores = [FiveCardScores::default(); 2048];
        for (f, &s) in five_scores.iter_mut().zip(subsets.s5.iter()) {
            *f = FiveCardScores {
                strength: s,
                as_middle: self.fast_outcome(MIDDLE, s),
                as_bottom: self.fast_outcome(BOTTOM, s),
            };
        }
        let scoop_gain = if self.separable {
            0.0
        } else {
            self.scoop_gain as f32
        };
        let others = (self.seats as i32 - 2).max(0);
        let sweep_gain = if self.separable {
            0.0
        } else {
            self.sweep_gain as f32
        };
        let swept_loss = sweep_gain * self.scoop_rate.powi(others) as f32;
        let args = ScanArgs {
            top_strengths: &subsets.s3,
            top_scores: &top_scores,
            five_scores: &five_scores,
            scoop_gain,
            sweep_gain,
            swept_loss,
            keep,
        };
        let best = match (strict, if sweep_gain != 0.0 { others + 1 } else { 0 }) {
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
            &subsets.cards,
            [
                best.iter().map(|c| subsets.s3[c.top as usize]).collect(),
                best.iter().map(|c| subsets.s5[c.middle as usize]).collect(),
                best.iter().map(|c| subsets.s5[c.bottom as usize]).collect(),
            ],
        );
        let mut out: Vec<(f64, u16, u16, u16)> = best
            .iter()
            .map(|c| {
                let rows = [
                    self.row_outcome_adjusted(TOP, subsets.s3[c.top as usize], &adj[TOP]),
                    self.row_outcome_adjusted(MIDDLE, subsets.s5[c.middle as usize], &adj[MIDDLE]),
                    self.row_outcome_adjusted(BOTTOM, subsets.s5[c.bottom as usize], &adj[BOTTOM]),
                ];
                (self.value(&rows), c.top, c.middle, c.bottom)
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
        let subsets = self.subsets(cards)?;
        // more candidates than valid splits can never be kept
        let cands = self.candidates(&subsets, k.clamp(REFINE, SUBSETS3 * HALVINGS_PER_TOP));
        let mut out: Vec<Choice> = cands
            .iter()
            .map(|&(v, t, m, b)| Choice {
                cards: splits::layout_of(&subsets.cards, t, m, b),
                declare_natural: false,
                expected_points: v,
            })
            .collect();
        if let Some((_, pts)) = naturals::strongest(&subsets.cards, &self.rules.naturals) {
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
        let subsets = self.subsets(cards)?;
        let cands = self.candidates(&subsets, REFINE);
        let &(v, t, m, b) = cands.first().ok_or_else(no_valid_split)?;
        let mut choice = Choice {
            cards: splits::layout_of(&subsets.cards, t, m, b),
            declare_natural: false,
            expected_points: v,
        };
        if let Some((_, pts)) = naturals::strongest(&subsets.cards, &self.rules.naturals) {
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
        Some(self.value(&rows))
    }
}

pub(super) fn no_valid_split() -> Error {
    Error::hand("no arrangement of these 13 cards passes the rules' foul check")
}

#[cfg(test)]
mod tests;
