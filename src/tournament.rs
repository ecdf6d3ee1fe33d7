//! Measurement: duplicate tournaments between arranging strategies, and the
//! best-response check of the solver.
//!
//! Both are reproducible by seed: deal `i` of a run with seed `s` is the
//! deck shuffled by `ChaCha20::from_seed(deal_seed(s, i))`, whatever the
//! number of threads.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::deal::{shuffled_deck, ChaCha20};
use crate::error::{Error, Result};
use crate::naturals;
use crate::rules::Rules;
use crate::settle::{check_seat_count, settle_points, SeatInput, Stakes};
use crate::solver::{arranger, deal_seed, Arranger, Choice, Strategy, Tables};
use crate::splits;

/// Mean and 95% confidence half-width (normal approximation).
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

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
    check_seat_count(seats)?;
    let count = strategies.len();
    let arrangers: Vec<_> = strategies
        .iter()
        .map(|&strategy| arranger(rules, tables, seats, strategy))
        .collect::<Result<_>>()?;
    let seatings = patterns(seats, count);
    let per_deal: Vec<Result<Vec<f64>>> = (0..deals)
        .into_par_iter()
        .map(|deal| {
            let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, deal as u64)));
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
                        seat_playing(choice.cards, choice.declare_natural)
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

/// One sampled hand of the best-response check.
#[derive(Clone, Debug)]
pub struct HandRegret {
    pub cards: [u8; 13],
    /// Valid arrangements scored (plus one if a natural can be declared).
    pub arrangements: usize,
    /// Mean heads-up points of the solver's pick against all opponents.
    pub solver_points: f64,
    /// The best mean over every arrangement.
    pub best_points: f64,
    /// `best_points - solver_points` (>= 0; biased up by the max of noise).
    pub regret: f64,
    /// Best arrangement chosen on half of the opponents, compared with the
    /// solver's pick on the other half (unbiased; may be negative).
    pub holdout_regret: f64,
}

#[derive(Clone, Debug)]
pub struct RegretReport {
    pub hands: Vec<HandRegret>,
    pub opponents: usize,
    pub mean_regret: f64,
    pub regret_ci95: f64,
    pub mean_holdout_regret: f64,
    pub holdout_ci95: f64,
}

/// The strengths of the three rows of an arrangement (top, middle, bottom).
fn row_strengths(rules: &Rules, cards: &[u8; 13]) -> [u32; 3] {
    let e = &rules.evaluator;
    [
        e.eval3([cards[0], cards[1], cards[2]]),
        e.eval5(cards[3..8].try_into().expect("5")),
        e.eval5(cards[8..].try_into().expect("5")),
    ]
}

/// Points of `seat` against `opponent` at a two-seat table, stake 1, as the
/// settlement core pays them.
fn heads_up_points(rules: &Rules, seat: SeatInput, opponent: SeatInput) -> Result<i64> {
    let mut points = [0i64; 2];
    let mut money = [0i64; 2];
    settle_points(
        rules,
        &[seat, opponent],
        &Stakes::Uniform(1),
        &mut points,
        &mut money,
    )?;
    Ok(points[0])
}

/// A seat that plays `cards` as arranged, declaring a natural or not.
fn seat_playing(cards: [u8; 13], declare_natural: bool) -> SeatInput {
    SeatInput {
        cards,
        surrender: false,
        declare_natural,
    }
}

/// The arrangements the check scores for `hand`: each valid split, then
/// declaring the natural if the hand has one.
struct Candidates {
    /// One seat per distinct scoring: the settlement core sees a seat that
    /// does not declare only through its row strengths, so splits with the
    /// same strengths score the same against every opponent.
    distinct: Vec<SeatInput>,
    /// The row strengths of each entry of `distinct`.
    strengths: Vec<[u32; 3]>,
    /// The royalty class of each entry of `distinct` (entries with the same
    /// royalties per row share one), or `None` for declaring the natural.
    royalty_class: Vec<Option<usize>>,
    royalty_classes: usize,
    /// For each arrangement, in split order, its entry in `distinct`.
    scored_as: Vec<usize>,
    /// The arrangement the solver picked.
    pick: usize,
}

fn candidates(rules: &Rules, hand: &[u8; 13], pick: &Choice) -> Result<Candidates> {
    let subsets = splits::subset_strengths(&rules.evaluator, hand);
    let pick_strengths = row_strengths(rules, &pick.cards);
    let mut distinct = Vec::new();
    let mut entry_of: HashMap<[u32; 3], usize> = HashMap::new();
    let mut strengths_of = Vec::new();
    let mut royalty_class = Vec::new();
    let mut class_of: HashMap<[i64; 3], usize> = HashMap::new();
    let mut scored_as = Vec::new();
    let mut pick_split = None;
    for k in 0..splits::SPLITS {
        let (top, middle, bottom) = subsets.split(k);
        if !splits::is_valid(top, middle, bottom, rules.foul_strict) {
            continue;
        }
        let strengths = [top, middle, bottom];
        if pick_split.is_none() && strengths == pick_strengths {
            pick_split = Some(scored_as.len());
        }
        let entry = *entry_of.entry(strengths).or_insert_with(|| {
            distinct.push(seat_playing(subsets.layout(k), false));
            strengths_of.push(strengths);
            let royalties = [0, 1, 2].map(|row| rules.royalty(row, strengths[row]));
            let classes = class_of.len();
            royalty_class.push(Some(*class_of.entry(royalties).or_insert(classes)));
            distinct.len() - 1
        });
        scored_as.push(entry);
    }
    let natural = naturals::strongest(hand, &rules.naturals).is_some();
    if natural {
        distinct.push(seat_playing(pick.cards, true));
        strengths_of.push(pick_strengths);
        royalty_class.push(None);
        scored_as.push(distinct.len() - 1);
    }
    let pick = match (pick.declare_natural, pick_split) {
        (true, _) if natural => scored_as.len() - 1,
        (false, Some(split)) => split,
        _ => return Err(Error::table("the solver's pick is not a valid split")),
    };
    Ok(Candidates {
        distinct,
        strengths: strengths_of,
        royalty_class,
        royalty_classes: class_of.len(),
        scored_as,
        pick,
    })
}

impl Candidates {
    /// Heads-up points of every entry of `distinct` against `opponent`, from
    /// the settlement core. Two valid rows that do not declare are settled
    /// from their row comparisons and royalties only, so the core is asked
    /// once per outcome of the three rows and royalty class.
    fn points_against(&self, rules: &Rules, opponent: SeatInput) -> Result<Vec<i64>> {
        let theirs = row_strengths(rules, &opponent.cards);
        let mut known: Vec<Option<i64>> = vec![None; 27 * self.royalty_classes];
        let mut points = Vec::with_capacity(self.distinct.len());
        for (entry, &seat) in self.distinct.iter().enumerate() {
            let Some(class) = self.royalty_class[entry] else {
                points.push(heads_up_points(rules, seat, opponent)?);
                continue;
            };
            let ours = self.strengths[entry];
            let outcome = (0..3).fold(0, |code, row| {
                3 * code + (ours[row].cmp(&theirs[row]) as i8 + 1) as usize
            });
            let slot = &mut known[27 * class + outcome];
            let value = match *slot {
                Some(value) => value,
                None => *slot.insert(heads_up_points(rules, seat, opponent)?),
            };
            points.push(value);
        }
        Ok(points)
    }
}

fn check_hand_regret(
    rules: &Rules,
    solver: &Arranger,
    opponents: usize,
    seed: u64,
    index: u64,
) -> Result<HandRegret> {
    let mut rng = ChaCha20::from_seed(deal_seed(seed, index));
    let deck = shuffled_deck(&mut rng);
    let mut hand: [u8; 13] = deck[..13].try_into().expect("13");
    hand.sort_unstable();
    let mut rest: Vec<u8> = deck[13..].to_vec();
    let pick = solver.choose(&hand)?;
    let candidates = candidates(rules, &hand, &pick)?;
    // points summed per distinct scoring, over the even and the odd opponents
    let scorings = candidates.distinct.len();
    let mut distinct_sums = [vec![0i64; scorings], vec![0i64; scorings]];
    for j in 0..opponents {
        for i in 0..13 {
            let x = i + rng.below((rest.len() - i) as u32) as usize;
            rest.swap(i, x);
        }
        let opponent_hand: [u8; 13] = rest[..13].try_into().expect("13");
        let reply = solver.choose(&opponent_hand)?;
        let opponent = seat_playing(reply.cards, reply.declare_natural);
        let points = candidates.points_against(rules, opponent)?;
        for (sum, entry_points) in distinct_sums[j % 2].iter_mut().zip(points) {
            *sum += entry_points;
        }
    }
    let sums = distinct_sums.map(|half| {
        candidates
            .scored_as
            .iter()
            .map(|&entry| half[entry])
            .collect::<Vec<i64>>()
    });
    let pick_index = candidates.pick;
    let arrangements = candidates.scored_as.len();
    let n = opponents as f64;
    let (even, odd) = (opponents.div_ceil(2) as f64, (opponents / 2).max(1) as f64);
    let total: Vec<f64> = (0..arrangements)
        .map(|c| (sums[0][c] + sums[1][c]) as f64 / n)
        .collect();
    let best = total.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best_on_even = (0..arrangements)
        .max_by(|&x, &y| (sums[0][x] as f64 / even).total_cmp(&(sums[0][y] as f64 / even)))
        .unwrap_or(0);
    let holdout = (sums[1][best_on_even] - sums[1][pick_index]) as f64 / odd;
    Ok(HandRegret {
        cards: hand,
        arrangements,
        solver_points: total[pick_index],
        best_points: best,
        regret: best - total[pick_index],
        holdout_regret: holdout,
    })
}

/// For `hands` sampled hands: sample `opponents` heads-up opponent hands
/// from the other 39 cards, arranged by the solver (2 seats); score every
/// valid arrangement (and declaring a natural) of the hand against all of
/// them, and report the regret of the solver's pick.
pub fn best_response_check(
    rules: &Rules,
    tables: Option<&Tables>,
    hands: usize,
    opponents: usize,
    seed: u64,
) -> Result<RegretReport> {
    if opponents < 2 {
        return Err(Error::table("the check needs at least two opponents"));
    }
    let solver = arranger(rules, tables, 2, Strategy::Solver)?;
    let per: Vec<Result<HandRegret>> = (0..hands)
        .into_par_iter()
        .map(|i| check_hand_regret(rules, &solver, opponents, seed, i as u64))
        .collect();
    let hands: Vec<HandRegret> = per.into_iter().collect::<Result<_>>()?;
    let (mean_regret, regret_ci95) = mean_ci(&hands.iter().map(|h| h.regret).collect::<Vec<_>>());
    let (mean_holdout_regret, holdout_ci95) =
        mean_ci(&hands.iter().map(|h| h.holdout_regret).collect::<Vec<_>>());
    Ok(RegretReport {
        hands,
        opponents,
        mean_regret,
        regret_ci95,
        mean_holdout_regret,
        holdout_ci95,
    })
}

#[cfg(test)]
mod tests;
