//! The deep mode: the fast model's best candidates re-scored exactly
//! against opponent hands sampled at decision time.
//!
//! The 39 cards the hand does not hold are shuffled by a generator seeded
//! from the hand's own cards (so the answer is reproducible) and dealt into
//! three opponent hands; each is arranged by the fast solver, as the
//! opponents of the tables are assumed to play. Every candidate is settled
//! by the settlement core against the same opponents (common random
//! numbers), at the solver's table size: heads-up each opponent is one
//! sample; three seats play the three pairs of opponents; four seats play
//! the whole table, sweep-all included.
//!
//! The sampled difference between a candidate and the fast pick is exact in
//! expectation but noisy; the model's difference is smooth but biased. The
//! estimate blends the two by their precision: a candidate whose sampled
//! difference has standard error `se` takes weight `b^2 / (b^2 + se^2)` on
//! it, with `b` ([`DeepConfig::model_error`]) the typical error of the
//! model's difference. Candidates that share most rows with the pick differ
//! on few samples, have a small `se`, and are decided by the samples.

use super::fnv1a;
use super::search::{no_valid_split, Choice, Solver};
use crate::deal::ChaCha20;
use crate::error::{Error, Result};
use crate::settle::{settle_points, SeatInput, Stakes};
use crate::splits;

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
    /// Deals of the 39 unseen cards (three opponent hands each).
    pub deals: usize,
    /// Candidates of the fast model re-scored (at least the choices asked).
    pub candidates: usize,
    /// The typical error of the model's difference between two candidates,
    /// in points: the prior the sampled differences are weighed against.
    pub model_error: f64,
}

impl Default for DeepConfig {
    fn default() -> Self {
        DeepConfig {
            deals: 88,
            candidates: 32,
            model_error: 0.1,
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

/// The opponents (indices into the three hands of a deal) at each table of
/// one deal: every opponent once, heads-up; each pair, three seats; all
/// three, four seats.
fn tables_of_deal(seats: usize) -> &'static [&'static [usize]] {
    match seats {
        2 => &[&[0], &[1], &[2]],
        3 => &[&[0, 1], &[1, 2], &[2, 0]],
        _ => &[&[0, 1, 2]],
    }
}

fn seat(c: &Choice) -> SeatInput {
    SeatInput {
        cards: c.cards,
        surrender: false,
        declare_natural: c.declare_natural,
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
        let hand = splits::sorted_hand_for(cards, "a hand to arrange")?;
        let mut cands = self.rank(&hand, k.max(cfg.candidates).min(MAX_DEEP_CHOICES))?;
        if cands.is_empty() {
            return Err(no_valid_split());
        }
        let mut unseen: Vec<u8> = (0..52u8).filter(|c| !hand.contains(c)).collect();
        let mut rng = ChaCha20::from_seed(sampler_seed(&hand, self.seats));
        let mut tally = Tally::new(cands.len());
        let mut inputs = [seat(&cands[0]); 4];
        let mut points = [0i64; 4];
        let mut money = [0i64; 4];
        let mut sample = vec![0f64; cands.len()];
        for _ in 0..cfg.deals {
            for i in 0..unseen.len() - 1 {
                let j = i + rng.below((unseen.len() - i) as u32) as usize;
                unseen.swap(i, j);
            }
            let mut opponents = [inputs[0]; 3];
            for (o, hand) in opponents.iter_mut().zip(unseen.chunks_exact(13)) {
                *o = seat(&self.best(hand)?);
            }
            for table in tables_of_deal(self.seats) {
                let n = table.len() + 1;
                for (slot, &o) in inputs[1..].iter_mut().zip(table.iter()) {
                    *slot = opponents[o];
                }
                for (x, c) in sample.iter_mut().zip(&cands) {
                    inputs[0] = seat(c);
                    settle_points(
                        &self.rules,
                        &inputs[..n],
                        &Stakes::Uniform(1),
                        &mut points[..n],
                        &mut money[..n],
                    )?;
                    *x = points[0] as f64;
                }
                tally.add(&sample);
            }
        }
        self.blend(&mut cands, &tally, cfg.model_error);
        // stable: equal estimates keep the fast order (deterministic)
        cands.sort_by(|x, y| y.expected_points.total_cmp(&x.expected_points));
        cands.truncate(k);
        Ok(cands)
    }

    /// The best choice by the deep estimate.
    pub fn best_deep(&self, cards: &[u8], cfg: &DeepConfig) -> Result<Choice> {
        Ok(self.rank_deep(cards, 1, cfg)?[0])
    }

    /// Replaces the model's estimates by their blend with the sampled ones:
    /// the level of candidate 0 and each candidate's difference from it,
    /// each weighted by its precision against the model's error `b`.
    fn blend(&self, cands: &mut [Choice], tally: &Tally, b: f64) {
        let n = tally.samples.max(1) as f64;
        // b = inf trusts the samples alone, b = 0 the model alone (unless
        // the samples never differ)
        let weight = |variance: f64| {
            if b.is_infinite() {
                1.0
            } else if b * b + variance > 0.0 {
                b * b / (b * b + variance)
            } else {
                0.0
            }
        };
        let model_first = cands[0].expected_points;
        let sampled_first = tally.sum[0] / n;
        let w = weight(tally.mean_variance(tally.sum[0], tally.first_sq));
        let level = w * sampled_first + (1.0 - w) * model_first;
        for (c, choice) in cands.iter_mut().enumerate().skip(1) {
            let sampled = (tally.sum[c] - tally.sum[0]) / n;
            let model = choice.expected_points - model_first;
            let sq = tally.diff_sq[c];
            let w = weight(tally.mean_variance(tally.sum[c] - tally.sum[0], sq));
            choice.expected_points = level + w * sampled + (1.0 - w) * model;
        }
        cands[0].expected_points = level;
    }
}

#[cfg(test)]
mod tests;
