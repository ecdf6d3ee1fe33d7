//! Measurement: duplicate tournaments between arranging strategies, and the
//! best-response check of the solver.
//!
//! Both are reproducible by seed: deal `i` of a run with seed `s` is the
//! deck shuffled by `ChaCha20::from_seed(deal_seed(s, i))`, whatever the
//! number of threads.

use rayon::prelude::*;

use crate::deal::{shuffled_ids, ChaCha20};
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::settle::{check_table_seats, settle_points, SeatInput, Stakes};
use crate::solver::{arranger, deal_seed, Strategy, Tables};
pub use crate::stats::mean_ci;

/// Result of a duplicate tournament.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    pub strategies: Vec<Strategy>,
    pub seats: usize,
    pub deals: usize,
    /// Seat assignments played per deal (strategy index per seat).
    pub patterns: Vec<Vec<usize>>,
    /// Mean points per hand played, per strategy, and its 95% CI half-width
    /// (over deals).
    pub mean: Vec<f64>,
    pub ci95: Vec<f64>,
    /// Strategy 0 minus strategy 1, per hand, with its 95% CI half-width.
    pub diff: f64,
    pub diff_ci95: f64,
}

/// The seat assignments of a duplicate deal: every rotation of the pattern
/// "seat s plays strategy s mod k", without repeats. With two strategies
/// every hand is played once by each.
pub fn patterns(seats: usize, strategies: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for rotation in 0..seats {
        let pattern: Vec<usize> = (0..seats)
            .map(|seat| (seat + rotation) % strategies)
            .collect();
        if !out.contains(&pattern) {
            out.push(pattern);
        }
    }
    out
}

/// Plays `deals` deals of `seats` hands; each deal is replayed under every
/// pattern of [`patterns`] and settled by the settlement core (stake 1).
pub fn duplicate_tournament(
    rules: &Rules,
    tables: Option<&Tables>,
    strategies: &[Strategy],
    seats: usize,
    deals: usize,
    seed: u64,
) -> Result<TournamentReport> {
    if strategies.len() < 2 {
        return Err(Error::table("a tournament needs at least two strategies"));
    }
    check_table_seats(&rules.deck, seats)?;
    let count = strategies.len();
    let arrangers: Vec<_> = strategies
        .iter()
        .map(|&strategy| arranger(rules, tables, seats, strategy))
        .collect::<Result<_>>()?;
    let seatings = patterns(seats, count);
    let per_deal: Vec<Result<Vec<f64>>> = (0..deals)
        .into_par_iter()
        .map(|deal| {
            let mut rng = ChaCha20::from_seed(deal_seed(seed, deal as u64));
            let deck = shuffled_ids(&rules.deck, &mut rng);
            // choices[strategy][seat]
            let mut choices = Vec::with_capacity(count);
            for arranger in &arrangers {
                let mut by_seat = Vec::with_capacity(seats);
                for seat in 0..seats {
                    by_seat.push(arranger.choose(&deck[13 * seat..13 * seat + 13])?);
                }
                choices.push(by_seat);
            }
            let mut sum = vec![0.0f64; count];
            let mut plays = vec![0.0f64; count];
            let mut points = vec![0i64; seats];
            let mut money = vec![0i64; seats];
            for pattern in &seatings {
                let inputs: Vec<SeatInput> = (0..seats)
                    .map(|seat| {
                        let choice = choices[pattern[seat]][seat];
                        // in a banker game the first seat banks; the
                        // rotations give it to every strategy alike
                        SeatInput {
                            banker: rules.banker_enabled && seat == 0,
                            ..SeatInput::playing(choice.cards, choice.declare_natural)
                        }
                    })
                    .collect();
                settle_points(rules, &inputs, &Stakes::Uniform(1), &mut points, &mut money)?;
                for (seat, &strategy) in pattern.iter().enumerate() {
                    sum[strategy] += points[seat] as f64;
                    plays[strategy] += 1.0;
                }
            }
            Ok((0..count).map(|i| sum[i] / plays[i].max(1.0)).collect())
        })
        .collect();
    let per_deal: Vec<Vec<f64>> = per_deal.into_iter().collect::<Result<_>>()?;
    let mut mean = Vec::new();
    let mut ci95 = Vec::new();
    for strategy in 0..count {
        let points: Vec<f64> = per_deal.iter().map(|v| v[strategy]).collect();
        let (strategy_mean, strategy_ci95) = mean_ci(&points);
        mean.push(strategy_mean);
        ci95.push(strategy_ci95);
    }
    let diffs: Vec<f64> = per_deal.iter().map(|v| v[0] - v[1]).collect();
    let (diff, diff_ci95) = mean_ci(&diffs);
    Ok(TournamentReport {
        strategies: strategies.to_vec(),
        seats,
        deals,
        patterns: seatings,
        mean,
        ci95,
        diff,
        diff_ci95,
    })
}

#[cfg(test)]
mod tests;
