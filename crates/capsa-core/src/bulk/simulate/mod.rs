//! The variant simulator (docs/bulk.md, "Simulating a variant"): deal,
//! arrange every seat with a strategy, settle at the rules' stake and count
//! what happened, over a range of deal indices.
//!
//! Deal `i` of a run with seed `s` is the rules' deck shuffled by
//! `ChaCha20::from_seed(deal_seed(s, i))`, as in the tournaments (the
//! seeded deal of [`crate::deal::deal_deck`]): a function of `(s, i)` only.
//! A summary holds only integer counts, so the
//! summaries of any partition of a deal range, however many threads,
//! processes or machines computed them, merge into exactly the summary of
//! the whole range.

mod summary;

use std::sync::Arc;

use rayon::prelude::*;

pub use summary::{RoundCounts, Summary, NATURALS};

use crate::deal::{shuffled_deck, shuffled_ids, ChaCha20};
use crate::deck::Deck;
use crate::error::{Error, Result};
use crate::naturals;
use crate::rules::Rules;
use crate::settle::{self, SeatInput, Stakes, MAX_SEATS};
use crate::solver::{arranger, deal_seed, Arranger, Effort, Strategy, Tables};
use crate::table::{check_table_seats, MAX_TABLE_SEATS};

/// Deals a task of the parallel loop plays (a summary is merged per task).
const DEALS_PER_TASK: u64 = 256;

/// The sorted hands of deal `index` of a run seeded `seed` from the
/// 52-card deck.
pub fn deal_hands(seed: u64, index: u64, seats: usize) -> [[u8; 13]; MAX_SEATS] {
    let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, index)));
    let mut hands = [[0u8; 13]; MAX_SEATS];
    for (s, hand) in hands.iter_mut().enumerate().take(seats) {
        hand.copy_from_slice(&deck[13 * s..13 * s + 13]);
        hand.sort_unstable();
    }
    hands
}

/// [`deal_hands`] from `deck`: its ids in ascending order shuffled alike,
/// so that the 52-card deck deals the same hands.
pub fn deal_deck_hands(
    deck: &Deck,
    seed: u64,
    index: u64,
    seats: usize,
) -> [[u8; 13]; MAX_TABLE_SEATS] {
    let mut hands = [[0u8; 13]; MAX_TABLE_SEATS];
    if deck.is_standard() {
        hands[..MAX_SEATS].copy_from_slice(&deal_hands(seed, index, seats.min(MAX_SEATS)));
        return hands;
    }
    let ids = shuffled_ids(deck, &mut ChaCha20::from_seed(deal_seed(seed, index)));
    for (s, hand) in hands.iter_mut().enumerate().take(seats) {
        hand.copy_from_slice(&ids[13 * s..13 * s + 13]);
        hand.sort_unstable();
    }
    hands
}

/// Per natural (in `NATURAL_NAMES` order), how many hands of deals `start
/// .. start + count` of a run seeded `seed` qualify for it: the deals of a
/// [`Simulation`], neither arranged nor settled (the fast check of the
/// dealing against the exact probabilities).
pub fn dealt_naturals(seed: u64, start: u64, count: u64, seats: usize) -> Result<[u64; NATURALS]> {
    if !(2..=MAX_SEATS).contains(&seats) {
        return Err(Error::table(format!(
            "a table has 2 to {MAX_SEATS} seats, got {seats}"
        )));
    }
    let end = deal_range_end(start, count)?;
    let tasks = count.div_ceil(DEALS_PER_TASK * 16);
    Ok((0..tasks)
        .into_par_iter()
        .map(|t| {
            let first = start + t * DEALS_PER_TASK * 16;
            let mut counts = [0u64; NATURALS];
            for index in first..first.saturating_add(DEALS_PER_TASK * 16).min(end) {
                for hand in &deal_hands(seed, index, seats)[..seats] {
                    let bits = naturals::qualifying(hand);
                    for (k, c) in counts.iter_mut().enumerate() {
                        *c += u64::from((bits >> k) & 1);
                    }
                }
            }
            counts
        })
        .reduce(
            || [0u64; NATURALS],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        ))
}

/// The end of the deal range `start .. start + count`, if it fits.
fn deal_range_end(start: u64, count: u64) -> Result<u64> {
    start.checked_add(count).ok_or_else(|| {
        Error::argument(format!(
            "deals {start} + {count} run past 2**64 (deal indices are below 2**64 - 1)"
        ))
    })
}

/// A simulation ready to play: rules, table size, strategy and seed.
pub struct Simulation {
    rules: Rules,
    seats: usize,
    strategy: Strategy,
    /// The strategy's arranger.
    arranger: Arc<Arranger>,
    seed: u64,
}

impl Simulation {
    /// Compiles (or takes from the cache) the strategy's arranger. `tables
    /// = None` uses the tables of the nearest preset.
    pub fn new(
        rules: &Rules,
        tables: Option<&Tables>,
        seats: usize,
        strategy: Strategy,
        seed: u64,
    ) -> Result<Self> {
        check_table_seats(&rules.deck, seats)?;
        let arranger = arranger(rules, tables, seats, strategy)?;
        Ok(Simulation {
            rules: rules.clone(),
            seats,
            strategy,
            arranger,
            seed,
        })
    }

    /// How a seat plays its hand. The model strategies surrender (when the
    /// rules allow it) a hand whose expected points are below what the
    /// surrender costs against every opponent; the baselines never do.
    fn play_seat(&self, hand: &[u8; 13]) -> Result<SeatInput> {
        // the baseline's arrangement alone: its expected points are not needed
        if self.strategy == Strategy::Greedy {
            return Ok(SeatInput {
                cards: self.arranger.arrangement(hand, Effort::Fast)?,
                surrender: false,
                declare_natural: naturals::declared(hand, &self.rules, true).is_some(),
                banker: false,
                multiplier: 1,
            });
        }
        let choice = self.arranger.choose(hand)?;
        let model = matches!(self.strategy, Strategy::Solver | Strategy::Separable);
        let cost = (self.seats - 1) as f64 * self.rules.surrender_cost as f64;
        let surrender = model
            && self.rules.surrender_enabled
            && !choice.declare_natural
            && choice.expected_points < -cost;
        Ok(SeatInput {
            cards: choice.cards,
            surrender,
            declare_natural: choice.declare_natural,
            banker: false,
            multiplier: 1,
        })
    }

    /// Plays deal `index` and counts it into `summary`.
    fn play(&self, index: u64, summary: &mut Summary) -> Result<()> {
        let hands = deal_deck_hands(&self.rules.deck, self.seed, index, self.seats);
        let mut seats = [SeatInput {
            cards: [0; 13],
            surrender: false,
            declare_natural: true,
            banker: false,
            multiplier: 1,
        }; MAX_TABLE_SEATS];
        let mut qualifying = [0u32; MAX_TABLE_SEATS];
        for s in 0..self.seats {
            qualifying[s] = naturals::qualifying_any_deck(&hands[s]);
            seats[s] = self.play_seat(&hands[s])?;
        }
        if self.rules.banker_enabled {
            // the bank passes round the table, one seat a deal, so that every
            // seat banks as often over a run
            seats[(index % self.seats as u64) as usize].banker = true;
        }
        let settled = settle::settle(
            &self.rules,
            &seats[..self.seats],
            &Stakes::Uniform(self.rules.stake),
        )
        .map_err(|e| e.context(format_args!("deal {index}")))?;
        summary.record(&settled, &qualifying[..self.seats]);
        Ok(())
    }

    /// The summary of deals `start .. start + count`, on the current rayon
    /// pool.
    pub fn run(&self, start: u64, count: u64) -> Result<Summary> {
        let end = deal_range_end(start, count)?;
        let tasks = count.div_ceil(DEALS_PER_TASK);
        (0..tasks)
            .into_par_iter()
            .map(|t| {
                let first = start + t * DEALS_PER_TASK;
                let mut part = Summary::new(self.seats);
                for index in first..first.saturating_add(DEALS_PER_TASK).min(end) {
                    self.play(index, &mut part)?;
                }
                Ok(part)
            })
            .try_reduce(
                || Summary::new(self.seats),
                |mut a, b| {
                    a.merge(&b)?;
                    Ok(a)
                },
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulk::with_threads;
    use crate::deal::deal;
    use crate::solver::Strategy;

    #[test]
    fn a_deal_is_the_seeded_deal_of_its_seed() {
        for index in [0u64, 1, 99, u64::MAX] {
            let hands = deal_hands(5, index, 3);
            let direct = deal(3, Some(deal_seed(5, index))).unwrap();
            assert_eq!(&hands[..3], &direct[..]);
            assert_eq!(hands[3], [0; 13]);
        }
    }

    #[test]
    fn greedy_plays_as_the_greedy_baseline() {
        let strict = Rules {
            foul_strict: true,
            ..Rules::default()
        };
        for rules in [Rules::default(), strict] {
            let sim = Simulation::new(&rules, None, 4, Strategy::Greedy, 3).unwrap();
            for index in 0..300 {
                let hands = deal_hands(3, index, 4);
                for hand in &hands {
                    let fast = sim.play_seat(hand).unwrap();
                    let slow = sim.arranger.choose(hand).unwrap();
                    assert_eq!(fast.cards, slow.cards, "{hand:?}");
                    assert_eq!(fast.declare_natural, slow.declare_natural);
                    assert!(!fast.surrender);
                }
            }
        }
    }

    #[test]
    fn any_partition_of_the_deals_gives_the_same_summary() {
        let rules = Rules::default();
        let sim = Simulation::new(&rules, None, 4, Strategy::Greedy, 11).unwrap();
        let whole = sim.run(0, 3000).unwrap();
        let mut parts = sim.run(0, 1).unwrap();
        for (start, count) in [(1, 700), (701, 1299), (2000, 1000)] {
            parts.merge(&sim.run(start, count).unwrap()).unwrap();
        }
        assert_eq!(parts, whole);
        let one_thread = with_threads(Some(1), || sim.run(0, 3000)).unwrap().unwrap();
        assert_eq!(one_thread, whole);
        assert_eq!(whole.deals, 3000);
        assert_eq!(whole.pairs, 6 * 3000);
        for seat in &whole.points {
            assert_eq!(seat.values().sum::<u64>(), 3000);
        }
        let total: i128 = whole
            .points
            .iter()
            .flat_map(|h| h.iter().map(|(&v, &c)| v as i128 * c as i128))
            .sum();
        assert_eq!(total, 0, "points are zero-sum");
        assert!(whole.scoops > 0 && whole.rounds.scoop > 0);
        assert!(
            whole.house_rake.keys().any(|&r| r > 0),
            "{:?}",
            whole.house_rake
        );
    }

    #[test]
    fn dealt_naturals_count_the_hands_a_simulation_deals() {
        let sim = Simulation::new(&Rules::default(), None, 3, Strategy::Greedy, 21).unwrap();
        let counts = dealt_naturals(21, 40, 5000, 3).unwrap();
        assert_eq!(counts, sim.run(40, 5000).unwrap().qualifying);
        assert!(counts.iter().sum::<u64>() > 0);
        assert!(dealt_naturals(21, u64::MAX, 1, 3).is_err());
        assert!(dealt_naturals(21, 0, 1, 1).is_err());
    }

    #[test]
    fn the_solver_surrenders_only_where_the_rules_allow_it() {
        let mut rules = Rules::default();
        let sim = Simulation::new(&rules, None, 4, Strategy::Solver, 2).unwrap();
        assert_eq!(sim.run(0, 64).unwrap().surrenders, 0);
        rules.surrender_enabled = true;
        rules.surrender_cost = 1;
        let sim = Simulation::new(&rules, None, 4, Strategy::Solver, 2).unwrap();
        let summary = sim.run(0, 64).unwrap();
        assert!(summary.surrenders > 0, "{summary:?}");
        assert_eq!(summary.fouls, 0, "the solver never fouls");
    }

    #[test]
    fn a_larger_deck_is_dealt_as_its_seeded_deal_and_played() {
        let rules = Rules {
            deck: Deck {
                added_suits: 0,
                decks: 2,
                jokers: 2,
            },
            ..Rules::default()
        };
        for index in [0u64, 7, u64::MAX] {
            let hands = deal_deck_hands(&rules.deck, 5, index, 8);
            let direct = crate::deal::deal_deck(&rules.deck, 8, Some(deal_seed(5, index))).unwrap();
            assert_eq!(&hands[..], &direct[..]);
            let standard = deal_deck_hands(&Deck::default(), 5, index, 3);
            assert_eq!(&standard[..4], &deal_hands(5, index, 3)[..]);
        }
        let sim = Simulation::new(&rules, None, 8, Strategy::Greedy, 5).unwrap();
        let summary = sim.run(0, 200).unwrap();
        assert_eq!(
            (summary.deals, summary.pairs, summary.fouls),
            (200, 28 * 200, 0)
        );
        let total: i128 = summary
            .points
            .iter()
            .flat_map(|h| h.iter().map(|(&v, &c)| v as i128 * c as i128))
            .sum();
        assert_eq!(total, 0, "points are zero-sum");
        let solver = Simulation::new(&rules, None, 8, Strategy::Solver, 5).unwrap();
        let summary = solver.run(0, 8).unwrap();
        assert_eq!((summary.deals, summary.fouls), (8, 0));
        let nine = Simulation::new(&rules, None, 9, Strategy::Greedy, 5).err();
        assert_eq!(nine.map(|e| e.kind()), Some(crate::error::ErrorKind::Table));
    }

    #[test]
    fn a_range_past_the_last_index_is_refused() {
        let sim = Simulation::new(&Rules::default(), None, 2, Strategy::Greedy, 0).unwrap();
        let e = sim.run(u64::MAX, 2).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Argument);
        assert_eq!(sim.run(u64::MAX - 1, 1).unwrap().deals, 1);
        let e = Simulation::new(&Rules::default(), None, 5, Strategy::Greedy, 0).err();
        assert_eq!(e.map(|e| e.kind()), Some(crate::error::ErrorKind::Table));
    }
}
