//! The deep mode: the fast model's best candidates re-scored exactly
//! against opponent hands sampled at decision time.
//!
//! The cards of the rules' deck the hand does not hold (39 of the 52-card
//! deck) are shuffled by a generator seeded from the hand's own cards (so
//! the answer is reproducible) and dealt into three opponent hands, or one
//! per other seat at a larger table; each is arranged by the fast solver,
//! as the opponents of the tables are assumed to play. Every candidate is
//! settled by the settlement core against the same opponents (common
//! random numbers), at the solver's table size: heads-up each opponent is
//! one sample; three seats play the three pairs of opponents; four seats
//! and more play the whole table, sweep-all included.
//!
//! Each candidate's value has two parts: the sum over its rows (row points
//! and royalties, each row against the opponent's row) and the rest (the
//! scoop multiplier and bonus, the overall point, the sweep-all), which
//! depends on how the three rows come out together. The model values the
//! rows well (card removal makes their marginals exact up to the
//! opponent's shifting choice) and the rest worst (it rests on the copula);
//! the samples measure either without bias, with noise. Each part is
//! blended on its own: the sampled difference between a candidate and the
//! fast pick, of standard error `se`, takes weight `b^2 / (b^2 + se^2)`,
//! with `b` the typical error of the model's difference
//! ([`DeepConfig::model_error`] for the rows, 0 by default: the model's;
//! [`DeepConfig::rest_error`] for the rest, infinite by default: the
//! samples'). Rules that pay nothing beyond the rows leave the samples
//! nothing to add, and the deep mode is then the fast ranking.

use super::fnv::fnv1a;
use super::search::{no_valid_split, Choice, Solver};
use crate::deal::ChaCha20;
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::settle::{settle, PairOutcome, SeatInput, Settlement, Stakes};
use crate::table::MAX_TABLE_SEATS;

/// How much work an arrangement gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effort {
    /// The model alone (about 150 us a hand).
    Fast,
    /// The model's best candidates re-scored against sampled opponents
    /// (about 50 ms a hand).
    Deep,
}

/// The efforts' names, as [`Effort::from_name`] reads them.
pub const EFFORT_NAMES: [&str; 2] = ["fast", "deep"];

impl Effort {
    /// The effort of a name in [`EFFORT_NAMES`] (an `ArgumentError` otherwise).
    pub fn from_name(name: &str) -> Result<Effort> {
        match name {
            "fast" => Ok(Effort::Fast),
            "deep" => Ok(Effort::Deep),
            _ => Err(Error::argument(format!(
                "unknown effort {name:?}; the efforts are {}",
                EFFORT_NAMES.join(", ")
            ))),
        }
    }

    /// The effort's name in [`EFFORT_NAMES`].
    pub fn name(self) -> &'static str {
        match self {
            Effort::Fast => "fast",
            Effort::Deep => "deep",
        }
    }
}

/// The most choices a deep ranking lists (each is settled against every
/// sample).
pub const MAX_DEEP_CHOICES: usize = 64;

/// Settings of the deep mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepConfig {
    /// Deals of the unseen cards (three opponent hands each, or one per
    /// other seat at a table of more than four).
    pub deals: usize,
    /// Candidates of the fast model re-scored (at least the choices asked).
    pub candidates: usize,
    /// The typical error of the model's difference between two candidates'
    /// row values, in points: the prior the sampled differences of the rows
    /// are weighed against (0: the model's rows).
    pub model_error: f64,
    /// The same for the rest of the value: the scoop, the overall point
    /// and the sweep-all, where the rows' joint outcome decides (infinite:
    /// the samples' rest).
    pub rest_error: f64,
}

impl Default for DeepConfig {
    fn default() -> Self {
        DeepConfig {
            deals: 88,
            candidates: 32,
            model_error: 0.0,
            rest_error: f64::INFINITY,
        }
    }
}

/// Seeds the sampler from the sorted hand and the table size, apart from
/// every other stream of the crate (`deal_seed` streams, the random
/// baseline's `fnv1a` of the cards alone).
fn sampler_seed(hand: &[u8; 13], seats: usize) -> u64 {
    let mut bytes = *b"capsa-deep-sampler\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
    bytes[18..31].copy_from_slice(hand);
    bytes[31] = seats as u8;
    fnv1a(&bytes)
}

/// The opponents (indices into the hands of a deal) at each table of one
/// deal: every opponent once, heads-up; each pair, three seats; all of
/// them from four seats on.
fn tables_of_deal(seats: usize) -> Vec<&'static [usize]> {
    const EVERY: [usize; MAX_TABLE_SEATS - 1] = [0, 1, 2, 3, 4, 5, 6];
    match seats {
        2 => vec![&[0], &[1], &[2]],
        3 => vec![&[0, 1], &[1, 2], &[2, 0]],
        _ => vec![&EVERY[..seats - 1]],
    }
}

/// How many opponent hands a deal holds: three (enough for every table up
/// to four seats), or one fewer than the seats of a larger table.
fn opponents_per_deal(seats: usize) -> usize {
    (seats - 1).max(3)
}

fn seat(c: &Choice) -> SeatInput {
    SeatInput {
        cards: c.cards,
        surrender: false,
        declare_natural: c.declare_natural,
        banker: false,
        multiplier: 1,
    }
}

/// Sums over the samples of each candidate's points and of the squared
/// difference from candidate 0's.
struct Tally {
    samples: usize,
    sum: Vec<f64>,
    diff_sq: Vec<f64>,
    first_sq: f64,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            samples: 0,
            sum: vec![0.0; n],
            diff_sq: vec![0.0; n],
            first_sq: 0.0,
        }
    }

    fn add(&mut self, points: &[f64]) {
        self.samples += 1;
        let first = points[0];
        self.first_sq += first * first;
        for ((s, d), &x) in self.sum.iter_mut().zip(&mut self.diff_sq).zip(points) {
            *s += x;
            *d += (x - first) * (x - first);
        }
    }

    /// The candidates' estimates: the model's (`model`) blended with the
    /// sampled means, the level of candidate 0 and each candidate's
    /// difference from it, each weighted by its precision against the
    /// model's error `b` (b = inf trusts the samples alone, b = 0 the model
    /// alone unless the samples never differ).
    fn blend(&self, model: &[f64], b: f64) -> Vec<f64> {
        let n = self.samples.max(1) as f64;
        let weight = |variance: f64| {
            if b.is_infinite() {
                1.0
            } else if b * b + variance > 0.0 {
                b * b / (b * b + variance)
            } else {
                0.0
            }
        };
        let w = weight(self.mean_variance(self.sum[0], self.first_sq));
        let level = w * self.sum[0] / n + (1.0 - w) * model[0];
        let mut out = vec![level; model.len()];
        for (c, est) in out.iter_mut().enumerate().skip(1) {
            let sampled = (self.sum[c] - self.sum[0]) / n;
            let w = weight(self.mean_variance(self.sum[c] - self.sum[0], self.diff_sq[c]));
            *est = level + w * sampled + (1.0 - w) * (model[c] - model[0]);
        }
        out
    }

    /// The variance of a sampled mean whose samples have sum `sum` and sum
    /// of squares `sq`.
    fn mean_variance(&self, sum: f64, sq: f64) -> f64 {
        let n = self.samples as f64;
        let var = ((sq - sum * sum / n) / (n - 1.0).max(1.0)).max(0.0);
        var / n
    }
}

impl Solver {
    /// The `k` best choices by the deep estimate, best first (see the
    /// module documentation); `k` is at most [`MAX_DEEP_CHOICES`].
    pub fn rank_deep(&self, cards: &[u8], k: usize, cfg: &DeepConfig) -> Result<Vec<Choice>> {
        if !(1..=MAX_DEEP_CHOICES).contains(&k) {
            return Err(Error::argument(format!(
                "effort 'deep' ranks 1 to {MAX_DEEP_CHOICES} choices, got k = {k}"
            )));
        }
        let hand = crate::hands::sorted_hand(&self.rules, cards, "a hand to arrange")?;
        let mut cands = self.rank(&hand, k.max(cfg.candidates).min(MAX_DEEP_CHOICES))?;
        if cands.is_empty() {
            return Err(no_valid_split());
        }
        if cfg.model_error == 0.0 && !pays_beyond_rows(&self.rules, self.seats) {
            // the samples could only re-estimate the rows, which the model
            // is trusted for: the fast ranking is the answer
            cands.truncate(k);
            return Ok(cands);
        }
        let (model_rows, model_rest) = self.split_values(&cands);
        let (rows_tally, rest_tally) = self.sample(&hand, &cands, cfg.deals)?;
        let rows_est = rows_tally.blend(&model_rows, cfg.model_error);
        let rest_est = rest_tally.blend(&model_rest, cfg.rest_error);
        for ((c, r), x) in cands.iter_mut().zip(rows_est).zip(rest_est) {
            c.expected_points = r + x;
        }
        // stable: equal estimates keep the fast order (deterministic)
        cands.sort_by(|x, y| y.expected_points.total_cmp(&x.expected_points));
        cands.truncate(k);
        Ok(cands)
    }

    /// The model's value of each candidate, split into the sum over its
    /// rows (a declared natural: all of it) and the rest.
    fn split_values(&self, cands: &[Choice]) -> (Vec<f64>, Vec<f64>) {
        let arranged: Vec<[u8; 13]> = cands.iter().map(|c| c.cards).collect();
        let rows: Vec<f64> = cands
            .iter()
            .zip(self.row_values_of(&arranged))
            .map(|(c, row_value)| match c.declare_natural {
                true => c.expected_points,
                false => row_value.unwrap_or(c.expected_points),
            })
            .collect();
        let rest = cands
            .iter()
            .zip(&rows)
            .map(|(c, r)| c.expected_points - r)
            .collect();
        (rows, rest)
    }

    /// Every candidate settled against the opponents of `deals` deals of
    /// the cards `hand` does not hold: the tallies of the rows' points and
    /// of the rest (see [`split_points`]).
    fn sample(&self, hand: &[u8; 13], cands: &[Choice], deals: usize) -> Result<(Tally, Tally)> {
        let mut unseen: Vec<u8> = self.rules.deck.ids();
        unseen.retain(|c| !hand.contains(c));
        let mut rng = ChaCha20::from_seed(sampler_seed(hand, self.seats));
        let mut tallies = (Tally::new(cands.len()), Tally::new(cands.len()));
        let mut inputs = [seat(&cands[0]); MAX_TABLE_SEATS];
        let dealt = 13 * opponents_per_deal(self.seats);
        let tables = tables_of_deal(self.seats);
        let mut rows = vec![0f64; cands.len()];
        let mut rest = vec![0f64; cands.len()];
        for _ in 0..deals {
            for i in 0..unseen.len() - 1 {
                let j = i + rng.below((unseen.len() - i) as u32) as usize;
                unseen.swap(i, j);
            }
            let mut opponents = [inputs[0]; MAX_TABLE_SEATS - 1];
            for (o, hand) in opponents.iter_mut().zip(unseen[..dealt].chunks_exact(13)) {
                *o = seat(&self.best(hand)?);
            }
            for table in &tables {
                let n = table.len() + 1;
                for (slot, &o) in inputs[1..].iter_mut().zip(table.iter()) {
                    *slot = opponents[o];
                }
                // in a banker game the hand is a player's, and the table's
                // first opponent the banker
                inputs[1].banker = self.rules.banker_enabled;
                for ((r, x), c) in rows.iter_mut().zip(rest.iter_mut()).zip(cands) {
                    inputs[0] = seat(c);
                    let s = settle(&self.rules, &inputs[..n], &Stakes::Uniform(1))?;
                    (*r, *x) = split_points(&s);
                }
                tallies.0.add(&rows);
                tallies.1.add(&rest);
            }
        }
        Ok(tallies)
    }

    /// The best choice by the deep estimate.
    pub fn best_deep(&self, cards: &[u8], cfg: &DeepConfig) -> Result<Choice> {
        Ok(self.rank_deep(cards, 1, cfg)?[0])
    }
}

/// Whether a pair settled on the rows can pay anything beyond the sum
/// over its rows at a table of `seats`: a scoop multiplier or bonus, an
/// overall point, a sweep-all multiplier or bonus.
fn pays_beyond_rows(rules: &Rules, seats: usize) -> bool {
    let sweep = seats >= rules.sweep_all_min_players
        && (rules.sweep_all_multiplier != 1 || rules.sweep_all_bonus != 0);
    rules.scoop_multiplier != 1 || rules.scoop_bonus != 0 || rules.overall_point != 0 || sweep
}

/// Seat 0's points split into the sum over its rows (for each pair
/// settled on the rows, the row points and royalties before any
/// multiplier; a pair settled otherwise, by a natural, counts whole) and
/// the rest (the scoop, the overall point, the sweep-all).
fn split_points(s: &Settlement) -> (f64, f64) {
    let rows: i64 = s
        .pairs
        .iter()
        .filter(|p| p.i == 0)
        .map(|p| match p.outcome {
            PairOutcome::Rows => p.row_points + p.royalties,
            _ => p.points,
        })
        .sum();
    (rows as f64, (s.seats[0].points - rows) as f64)
}

#[cfg(test)]
mod tests;
