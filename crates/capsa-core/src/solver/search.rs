//! The search: every valid split scored by the fast form, the best refined
//! by the exact value; [`Solver`], its [`Solver::rank`] and [`Solver::best`].

use super::classes::CLASS_SHIFT;
use super::five_values::FiveValues;
use super::joint::JointModel;
use super::model::{fast_of, RowModel, RowOutcome};
use super::scan::{scan, scan_unordered, Candidate, FiveCardScores, ScanArgs};
use super::tables::Tables;
use crate::error::{Error, Result};
use crate::hands;
use crate::naturals;
use crate::rules::{FoulMode, Rules, BOTTOM, MIDDLE, TOP};
use crate::splits::{self, SubsetStrengths, HALVINGS_PER_TOP, SUBSETS3};
use crate::table::check_table_seats;

/// Candidates that get the exact expected value.
pub const REFINE: usize = 24;

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
    /// The fast values of the five-card classes both rows' models hold.
    five_values: FiveValues,
}

/// The scoop multiplier at a table of `seats` players: the number of
/// players under `scoop.by_seats`, else the rules' own.
pub(super) fn scoop_multiplier(rules: &Rules, seats: usize) -> i64 {
    if rules.scoop_by_seats {
        seats as i64
    } else {
        rules.scoop_multiplier
    }
}

impl Solver {
    /// How many opponents a seat settles against: the banker alone in a
    /// banker game (the solver arranges a player's hand), else every other
    /// seat.
    pub(super) fn opponents(&self) -> f64 {
        if self.rules.banker_enabled {
            1.0
        } else {
            (self.seats - 1) as f64
        }
    }

    /// Compiles the solver. `seats` is the table size (as
    /// [`check_table_seats`] takes for the rules' deck).
    pub fn new(rules: &Rules, tables: &Tables, seats: usize) -> Result<Solver> {
        check_table_seats(&rules.deck, seats)?;
        // tables built in Rust rather than read by `from_bytes` are checked too
        tables.validate()?;
        let rp = rules.row_points as f64;
        let op = rules.overall_point as f64;
        let m = scoop_multiplier(rules, seats) as f64;
        // in a banker game the solver plays a player, and only the banker sweeps all
        let sweep_on = seats >= rules.sweep_all_min_players && !rules.banker_enabled;
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
            five_values: FiveValues::new(&[]),
        };
        for row in 0..3 {
            let fast: Vec<[f32; 3]> = solver.model[row]
                .keys
                .iter()
                .map(|&k| fast_of(&solver.row_outcome(row, k << CLASS_SHIFT)))
                .collect();
            solver.model[row].fast = fast;
        }
        solver.five_values = solver.five_values_table();
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

    /// The fast values of every class both five-card rows' models hold, as
    /// [`Self::fast_outcome`] gives them.
    fn five_values_table(&self) -> FiveValues {
        let bottom = &self.model[BOTTOM];
        let entries: Vec<(u32, [f32; 3], [f32; 3])> = self.model[MIDDLE]
            .keys
            .iter()
            .filter(|&&k| bottom.locate(k).1)
            .map(|&k| {
                let s = k << CLASS_SHIFT;
                (
                    k,
                    self.fast_outcome(MIDDLE, s),
                    self.fast_outcome(BOTTOM, s),
                )
            })
            .collect();
        FiveValues::new(&entries)
    }

    /// The same solver with the scoop and sweep terms switched off.
    pub fn separable(mut self) -> Solver {
        self.separable = true;
        self
    }

    /// Checks and sorts the 13 cards (of the rules' deck) and ranks every
    /// subset.
    pub(super) fn subsets(&self, cards: &[u8]) -> Result<SubsetStrengths> {
        let sorted = hands::sorted_hand(&self.rules, cards, "a hand to arrange")?;
        Ok(hands::subset_strengths(&self.rules, &sorted))
    }

    /// The `keep` best valid splits by the fast score, best first (see the
    /// `scan` module; `bounded` false scans every top).
    pub(super) fn fast_scan(
        &self,
        subsets: &SubsetStrengths,
        keep: usize,
        bounded: bool,
    ) -> Vec<Candidate> {
        let mut top_scores = [[0f32; 3]; SUBSETS3];
        for (f, &s) in top_scores.iter_mut().zip(subsets.s3.iter()) {
            *f = self.fast_outcome(TOP, s);
        }
        if self.rules.two_jokers_on_top(&subsets.cards[11..]) {
            // sorted: the jokers, the highest ids, are the last two cards
            let sure = fast_of(&self.two_jokers_top(&self.model[TOP].cum()));
            for (f, pos) in top_scores.iter_mut().zip(&splits::table().positions3) {
                if pos[1..] == [11, 12] {
                    *f = sure;
                }
            }
        }
        // 2048 entries so that masked u16 indices need no bounds checks
        let mut five_scores = [FiveCardScores::default(); 2048];
        for (f, &s) in five_scores.iter_mut().zip(subsets.s5.iter()) {
            let (as_middle, as_bottom) = self
                .five_values
                .get(s >> CLASS_SHIFT)
                .unwrap_or_else(|| (self.fast_outcome(MIDDLE, s), self.fast_outcome(BOTTOM, s)));
            *f = FiveCardScores {
                strength: s,
                as_middle,
                as_bottom,
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
        let sweep = if sweep_gain != 0.0 {
            others as u8 + 1
        } else {
            0
        };
        if self.rules.foul_mode == FoulMode::NoFoul {
            scan_unordered(&args, sweep)
        } else {
            scan(&args, self.rules.foul_strict, sweep, bounded)
        }
    }

    /// The `keep` best valid splits by the fast score, refined by the exact
    /// value and sorted best first.
    fn candidates(&self, subsets: &SubsetStrengths, keep: usize) -> Vec<(f64, u16, u16, u16)> {
        let best = self.fast_scan(subsets, keep, true);
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
                let top =
                    splits::table().positions3[c.top as usize].map(|p| subsets.cards[p as usize]);
                let rows = [
                    self.top_outcome_adjusted(&top, subsets.s3[c.top as usize], &adj[TOP]),
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
        self.opponents() * pts as f64
    }

    /// The natural the hand would declare under the rules (parameters and
    /// raised points applied), if any.
    fn natural_of(&self, cards: &[u8; 13]) -> Option<naturals::Declared> {
        naturals::declared_in(cards, &self.rules.naturals, true)
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
        if let Some(nat) = self.natural_of(&subsets.cards) {
            if let Some(first) = out.first().copied() {
                let v = nat.value(self, first.expected_points);
                let pos = if nat.forced() {
                    0
                } else {
                    out.partition_point(|c| c.expected_points >= v)
                };
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
        if let Some(nat) = self.natural_of(&subsets.cards) {
            let nv = nat.value(self, v);
            if nv > v || nat.forced() {
                choice.declare_natural = true;
                choice.expected_points = nv;
            }
        }
        Ok(choice)
    }

    /// The expected points the model gives an arrangement (top 0-2, middle
    /// 3-7, bottom 8-12), or `None` when it fouls.
    pub fn value_of(&self, arranged: &[u8; 13]) -> Option<f64> {
        Some(self.value(&self.rows_of(std::slice::from_ref(arranged))[0]?))
    }

    /// The part of [`Solver::value_of`] that is a sum over the rows, for
    /// arrangements of one hand: each row's expected points and royalties
    /// as if no scoop, overall point or sweep-all were paid (all
    /// opponents), or `None` for an arrangement that fouls.
    pub fn row_values_of(&self, arranged: &[[u8; 13]]) -> Vec<Option<f64>> {
        let opponents = self.opponents();
        self.rows_of(arranged)
            .iter()
            .map(|rows| Some(opponents * rows.as_ref()?.iter().map(|r| r.total()).sum::<f64>()))
            .collect()
    }

    /// The card-removal outcomes of the rows of arrangements of one hand
    /// (one reweighting pass for all), `None` for one that fouls.
    fn rows_of(&self, arranged: &[[u8; 13]]) -> Vec<Option<[RowOutcome; 3]>> {
        let strengths: Vec<Option<[u32; 3]>> = arranged
            .iter()
            .map(|a| {
                let s = hands::row_strengths(&self.rules, a);
                (!self.rules.fouls(s[0], s[1], s[2])).then_some(s)
            })
            .collect();
        let valid = || strengths.iter().flatten();
        let Some(cards) = arranged.first().filter(|_| valid().next().is_some()) else {
            return vec![None; arranged.len()];
        };
        let adj = self.adjusted(
            cards,
            std::array::from_fn(|row| valid().map(|s| s[row]).collect()),
        );
        strengths
            .iter()
            .zip(arranged)
            .map(|(s, a)| {
                let s = (*s)?;
                Some([
                    self.top_outcome_adjusted(&a[..3], s[TOP], &adj[TOP]),
                    self.row_outcome_adjusted(MIDDLE, s[MIDDLE], &adj[MIDDLE]),
                    self.row_outcome_adjusted(BOTTOM, s[BOTTOM], &adj[BOTTOM]),
                ])
            })
            .collect()
    }
}

pub(super) fn no_valid_split() -> Error {
    Error::hand("no arrangement of these 13 cards passes the rules' foul check")
}

#[cfg(test)]
mod tests;

/// How declaring a natural scores against arranging the rows.
trait NaturalChoice {
    /// The expected points of declaring it, `rows` the best arrangement's:
    /// a bonus natural is collected on top of the rows, any other settles
    /// every pair by itself.
    fn value(&self, solver: &Solver, rows: f64) -> f64;
    /// Whether it is declared whatever it is worth: a bonus natural (it only
    /// adds) or one that must be declared.
    fn forced(&self) -> bool;
}

impl NaturalChoice for naturals::Declared {
    fn value(&self, solver: &Solver, rows: f64) -> f64 {
        if self.entry.bonus {
            rows + solver.natural_value(self.points)
        } else {
            solver.natural_value(self.points)
        }
    }

    fn forced(&self) -> bool {
        self.entry.bonus || self.entry.must_declare
    }
}
