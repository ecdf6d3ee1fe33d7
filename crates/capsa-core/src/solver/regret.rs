//! The best-response check of any strategy at any effort, against
//! opponents of any strategy.
//!
//! For each sampled hand (deal `i` of the seed), `opponents` hands are
//! dealt from the cards of the rules' deck the hand does not hold (39 of
//! the 52-card deck) and arranged by the opponents' strategy
//! (fast, heads-up); every valid arrangement of the hand (and declaring its
//! natural) is settled against each by the settlement core, and the pick's
//! regret is the best mean minus the pick's.
//!
//! The check's opponents come from the `deal_seed` stream of the seed; the
//! deep mode samples its own from a generator seeded by the hand's cards, so
//! the two never share samples (a pick fitted to the very opponents it is
//! scored against would show a regret biased low).

use std::collections::HashMap;

use rayon::prelude::*;

use super::baselines::{Arranger, Strategy};
use super::cache::arranger;
use super::deep::Effort;
use super::search::Choice;
use super::tables::Tables;
use super::train::deal_seed;
use crate::deal::{shuffled_ids, ChaCha20};
use crate::error::{Error, Result};
use crate::hands;
use crate::naturals;
use crate::rules::Rules;
use crate::settle::{settle_points, SeatInput, Stakes};
use crate::splits;
use crate::stats::mean_ci;

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

/// Who is checked and against whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The strategy whose pick is checked.
    pub strategy: Strategy,
    /// The effort of the pick.
    pub effort: Effort,
    /// The strategy the opponents play (fast).
    pub opponents: Strategy,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            strategy: Strategy::Solver,
            effort: Effort::Fast,
            opponents: Strategy::Solver,
        }
    }
}

fn heads_up_points(rules: &Rules, seat: SeatInput, opponent: SeatInput) -> Result<i64> {
    let mut points = [0i64; 2];
    let mut money = [0i64; 2];
    // in a banker game the seat is a player and its opponent the banker
    let banker = SeatInput {
        banker: rules.banker_enabled,
        ..opponent
    };
    let seats = [seat, banker];
    settle_points(rules, &seats, &Stakes::Uniform(1), &mut points, &mut money)?;
    Ok(points[0])
}

/// The arrangements scored for a hand: one seat per distinct scoring (row
/// strengths; a seat that does not declare is settled from them alone),
/// grouped by royalty class so that the core is asked once per outcome of
/// the three rows and class; `scored_as` maps each arrangement, in split
/// order and then the natural, to its seat.
struct Arrangements {
    distinct: Vec<SeatInput>,
    strengths: Vec<[u32; 3]>,
    royalty_class: Vec<Option<usize>>,
    royalty_classes: usize,
    scored_as: Vec<usize>,
    pick: usize,
}

impl Arrangements {
    fn new(rules: &Rules, hand: &[u8; 13], pick: &Choice) -> Result<Arrangements> {
        let subsets = hands::subset_strengths(rules, hand);
        let pick_strengths = hands::row_strengths(rules, &pick.cards);
        let mut a = Arrangements {
            distinct: Vec::new(),
            strengths: Vec::new(),
            royalty_class: Vec::new(),
            royalty_classes: 0,
            scored_as: Vec::new(),
            pick: 0,
        };
        let mut entry_of: HashMap<[u32; 3], usize> = HashMap::new();
        let mut class_of: HashMap<[i64; 3], usize> = HashMap::new();
        let mut pick_split = None;
        for k in 0..splits::SPLITS {
            let (top, middle, bottom) = subsets.split(k);
            if rules.fouls(top, middle, bottom) {
                continue;
            }
            let strengths = [top, middle, bottom];
            if pick_split.is_none() && strengths == pick_strengths {
                pick_split = Some(a.scored_as.len());
            }
            let entry = match entry_of.get(&strengths) {
                Some(&e) => e,
                None => {
                    a.distinct
                        .push(SeatInput::playing(subsets.layout(k), false));
                    a.strengths.push(strengths);
                    let royalties = [0, 1, 2].map(|row| rules.royalty(row, strengths[row]));
                    let next = class_of.len();
                    a.royalty_class
                        .push(Some(*class_of.entry(royalties).or_insert(next)));
                    entry_of.insert(strengths, a.distinct.len() - 1);
                    a.distinct.len() - 1
                }
            };
            a.scored_as.push(entry);
        }
        a.royalty_classes = class_of.len();
        let natural = naturals::declared(hand, rules, true).is_some();
        if natural {
            a.distinct.push(SeatInput::playing(pick.cards, true));
            a.strengths.push(pick_strengths);
            a.royalty_class.push(None);
            a.scored_as.push(a.distinct.len() - 1);
        }
        a.pick = match (pick.declare_natural, pick_split) {
            (true, _) if natural => a.scored_as.len() - 1,
            (false, Some(split)) => split,
            _ => return Err(Error::table("the checked pick is not a valid split")),
        };
        Ok(a)
    }

    /// Heads-up points of every distinct seat against `opponent`.
    fn points_against(&self, rules: &Rules, opponent: SeatInput, out: &mut [i64]) -> Result<()> {
        let theirs = hands::row_strengths(rules, &opponent.cards);
        let mut known: Vec<Option<i64>> = vec![None; 27 * self.royalty_classes];
        for (entry, (&seat, x)) in self.distinct.iter().zip(out.iter_mut()).enumerate() {
            let Some(class) = self.royalty_class[entry] else {
                *x = heads_up_points(rules, seat, opponent)?;
                continue;
            };
            let ours = self.strengths[entry];
            let outcome = (0..3).fold(0, |code, row| {
                3 * code + (ours[row].cmp(&theirs[row]) as i8 + 1) as usize
            });
            let slot = &mut known[27 * class + outcome];
            *x = match *slot {
                Some(v) => v,
                None => *slot.insert(heads_up_points(rules, seat, opponent)?),
            };
        }
        Ok(())
    }
}

fn check_hand(
    rules: &Rules,
    checked: &Arranger,
    effort: Effort,
    opponents_play: &Arranger,
    opponents: usize,
    seed: u64,
    index: u64,
) -> Result<HandRegret> {
    let mut rng = ChaCha20::from_seed(deal_seed(seed, index));
    let deck = shuffled_ids(&rules.deck, &mut rng);
    let mut hand: [u8; 13] = deck[..13].try_into().expect("13");
    hand.sort_unstable();
    let mut rest: Vec<u8> = deck[13..].to_vec();
    let pick = checked.choose_with(&hand, effort)?;
    let arrangements = Arrangements::new(rules, &hand, &pick)?;
    let scorings = arrangements.distinct.len();
    // points summed per distinct scoring, over the even and the odd opponents
    let mut sums = [vec![0i64; scorings], vec![0i64; scorings]];
    let mut points = vec![0i64; scorings];
    for j in 0..opponents {
        for i in 0..13 {
            let x = i + rng.below((rest.len() - i) as u32) as usize;
            rest.swap(i, x);
        }
        let reply = opponents_play.choose(&rest[..13])?;
        let opponent = SeatInput::playing(reply.cards, reply.declare_natural);
        arrangements.points_against(rules, opponent, &mut points)?;
        for (sum, &p) in sums[j % 2].iter_mut().zip(&points) {
            *sum += p;
        }
    }
    let [even, odd] = sums.map(|half| {
        arrangements
            .scored_as
            .iter()
            .map(|&entry| half[entry])
            .collect::<Vec<i64>>()
    });
    let pick_index = arrangements.pick;
    let count = arrangements.scored_as.len();
    let n = opponents as f64;
    let (n_even, n_odd) = (opponents.div_ceil(2) as f64, (opponents / 2).max(1) as f64);
    let total: Vec<f64> = (0..count).map(|c| (even[c] + odd[c]) as f64 / n).collect();
    let best = total.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best_on_even = (0..count)
        .max_by(|&x, &y| (even[x] as f64 / n_even).total_cmp(&(even[y] as f64 / n_even)))
        .unwrap_or(0);
    Ok(HandRegret {
        cards: hand,
        arrangements: count,
        solver_points: total[pick_index],
        best_points: best,
        regret: best - total[pick_index],
        holdout_regret: (odd[best_on_even] - odd[pick_index]) as f64 / n_odd,
    })
}

/// The best-response check of `cfg.strategy` at `cfg.effort` against
/// opponents playing `cfg.opponents`, heads-up (see the module
/// documentation).
pub fn best_response_check(
    rules: &Rules,
    tables: Option<&Tables>,
    hands: usize,
    opponents: usize,
    seed: u64,
    cfg: &CheckConfig,
) -> Result<RegretReport> {
    if opponents < 2 {
        return Err(Error::table("the check needs at least two opponents"));
    }
    let checked = arranger(rules, tables, 2, cfg.strategy)?;
    let opponents_play = arranger(rules, tables, 2, cfg.opponents)?;
    let per: Vec<Result<HandRegret>> = (0..hands)
        .into_par_iter()
        .map(|i| {
            check_hand(
                rules,
                &checked,
                cfg.effort,
                &opponents_play,
                opponents,
                seed,
                i as u64,
            )
        })
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
