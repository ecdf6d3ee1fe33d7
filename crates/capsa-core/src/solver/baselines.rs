//! The strategies: the solver, and the baselines it is measured against
//! (separable, greedy, random); [`Arranger`] plays any of them.

use super::deep::{DeepConfig, Effort};
use super::fnv::fnv1a;
use super::greedy::{greedy_layout, greedy_layout_of};
use super::search::{no_valid_split, Choice, Solver};
use super::tables::Tables;
use crate::deal::ChaCha20;
use crate::error::{Error, Result};
use crate::hands;
use crate::naturals;
use crate::rules::Rules;
use crate::splits::{self, SubsetStrengths};

/// The solver's strategies (and baselines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Maximises the expected points (the model above).
    Solver,
    /// The model without the scoop and sweep-all terms: rows scored apart.
    Separable,
    /// Strongest bottom, then the strongest middle of the rest.
    Greedy,
    /// A uniformly random valid split (seeded by the cards: deterministic).
    Random,
}

/// The strategies' names, as [`Strategy::from_name`] reads them.
pub const STRATEGY_NAMES: [&str; 4] = ["solver", "separable", "greedy", "random"];

impl Strategy {
    /// The strategy of a name in [`STRATEGY_NAMES`] (a `RulesError` otherwise).
    pub fn from_name(name: &str) -> Result<Strategy> {
        match name {
            "solver" => Ok(Strategy::Solver),
            "separable" => Ok(Strategy::Separable),
            "greedy" => Ok(Strategy::Greedy),
            "random" => Ok(Strategy::Random),
            _ => Err(Error::rules(format!(
                "unknown strategy {name:?}; the strategies are {}",
                STRATEGY_NAMES.join(", ")
            ))),
        }
    }

    /// The strategy's name in [`STRATEGY_NAMES`].
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Solver => "solver",
            Strategy::Separable => "separable",
            Strategy::Greedy => "greedy",
            Strategy::Random => "random",
        }
    }
}

/// The valid split with the strongest bottom, then middle, then top: greedy
/// play where its first choice fouls. It consults no tables, so that
/// training from greedy play depends on the rules alone.
fn strongest_valid_split(subsets: &SubsetStrengths, strict: bool) -> Result<[u8; 13]> {
    (0..splits::SPLITS)
        .filter(|&k| {
            let (a, b, c) = subsets.split(k);
            splits::is_valid(a, b, c, strict)
        })
        .max_by_key(|&k| {
            let (top, middle, bottom) = subsets.split(k);
            (bottom, middle, top, std::cmp::Reverse(k))
        })
        .map(|k| subsets.layout(k))
        .ok_or_else(no_valid_split)
}

/// Greedy's arrangement of a sorted hand under `rules`: the strongest
/// bottom, then the strongest middle of the rest ([`greedy_layout`]), or
/// where that fouls the valid split with the strongest bottom, then middle,
/// then top. It never fouls and consults no tables (what the `greedy`
/// auto-arrange policy of a round plays). A deck with copies or jokers is
/// ranked by its own evaluator, every subset of the hand ranked. A `HandError` only for a hand
/// with no valid split, which no hand is.
pub fn greedy_arrangement(rules: &Rules, sorted: &[u8; 13]) -> Result<[u8; 13]> {
    let strict = rules.foul_strict;
    if !rules.deck.is_standard() {
        let subsets = hands::subset_strengths(rules, sorted);
        return greedy_layout_of(&subsets, strict)
            .map_or_else(|| strongest_valid_split(&subsets, strict), Ok);
    }
    if let Some(a) = greedy_layout(&rules.evaluator, strict, sorted) {
        return Ok(a);
    }
    strongest_valid_split(&splits::subset_strengths(&rules.evaluator, sorted), strict)
}

/// A uniformly random valid split, seeded by the hand's cards.
fn random_split(subsets: &SubsetStrengths, strict: bool) -> Result<[u8; 13]> {
    let valid: Vec<usize> = (0..splits::SPLITS)
        .filter(|&k| {
            let (a, b, c) = subsets.split(k);
            splits::is_valid(a, b, c, strict)
        })
        .collect();
    let seed = fnv1a(&subsets.cards);
    if valid.is_empty() {
        return Err(no_valid_split());
    }
    let mut rng = ChaCha20::from_seed(seed);
    let k = valid[rng.below(valid.len() as u32) as usize];
    Ok(subsets.layout(k))
}

/// An arranging strategy ready to play: a solver for the model strategies.
pub struct Arranger {
    pub strategy: Strategy,
    pub(super) solver: Solver,
}

impl Arranger {
    /// Compiles the solver for `strategy` (see [`Solver::new`]).
    pub fn new(strategy: Strategy, rules: &Rules, tables: &Tables, seats: usize) -> Result<Self> {
        let mut solver = Solver::new(rules, tables, seats)?;
        if strategy == Strategy::Separable {
            solver = solver.separable();
        }
        Ok(Arranger { strategy, solver })
    }

    /// The solver behind the strategy (the model strategies' own, the
    /// baselines' for expected values).
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The choice at an effort: [`Arranger::choose`] when fast; the deep
    /// mode ([`Solver::best_deep`]) for the model strategies, which the
    /// baselines refuse (an `ArgumentError`).
    pub fn choose_with(&self, cards: &[u8], effort: Effort) -> Result<Choice> {
        match effort {
            Effort::Fast => self.choose(cards),
            Effort::Deep => {
                self.check_deep()?;
                self.solver.best_deep(cards, &DeepConfig::default())
            }
        }
    }

    /// The `k` best choices of a model strategy at an effort, best first
    /// ([`Solver::rank`], [`Solver::rank_deep`]); the baselines rank
    /// nothing (an `ArgumentError`).
    pub fn rank_with(&self, cards: &[u8], k: usize, effort: Effort) -> Result<Vec<Choice>> {
        self.check_ranks()?;
        match effort {
            Effort::Fast => self.solver.rank(cards, k),
            Effort::Deep => self.solver.rank_deep(cards, k, &DeepConfig::default()),
        }
    }

    fn check_ranks(&self) -> Result<()> {
        match self.strategy {
            Strategy::Solver | Strategy::Separable => Ok(()),
            other => Err(Error::argument(format!(
                "strategy {:?} plays one arrangement and ranks none; \
                 ranking and effort 'deep' are for solver and separable",
                other.name()
            ))),
        }
    }

    fn check_deep(&self) -> Result<()> {
        self.check_ranks().map_err(|_| {
            Error::argument(format!(
                "effort 'deep' re-scores a model's candidates: strategy {:?} has none \
                 (use solver or separable)",
                self.strategy.name()
            ))
        })
    }

    /// The arrangement alone (no natural, no expected points) at an
    /// effort: what [`Arranger::choose_with`] lays out, without valuing
    /// the baselines' choices.
    pub fn arrangement(&self, cards: &[u8], effort: Effort) -> Result<[u8; 13]> {
        match (self.strategy, effort) {
            (Strategy::Greedy, Effort::Fast) => {
                let rules = &self.solver.rules;
                self.baseline_arrangement(&hands::sorted_hand(rules, cards, "a hand to arrange")?)
            }
            _ => Ok(self.choose_with(cards, effort)?.cards),
        }
    }

    /// A baseline's arrangement of a sorted hand. Greedy's first choice
    /// needs no subset table; the table is built only when it fouls.
    fn baseline_arrangement(&self, sorted: &[u8; 13]) -> Result<[u8; 13]> {
        let rules = &self.solver.rules;
        match self.strategy {
            Strategy::Greedy => greedy_arrangement(rules, sorted),
            _ => random_split(&hands::subset_strengths(rules, sorted), rules.foul_strict),
        }
    }

    /// The arrangement and whether to declare a natural. Baselines declare
    /// any natural the rules pay.
    pub fn choose(&self, cards: &[u8]) -> Result<Choice> {
        match self.strategy {
            Strategy::Solver | Strategy::Separable => self.solver.best(cards),
            Strategy::Greedy | Strategy::Random => {
                let sorted = hands::sorted_hand(&self.solver.rules, cards, "a hand to arrange")?;
                let arranged = self.baseline_arrangement(&sorted)?;
                let declare = naturals::declared(&sorted, &self.solver.rules, true).is_some();
                let expected_points = self.solver.value_of(&arranged).unwrap_or(f64::NAN);
                Ok(Choice {
                    cards: arranged,
                    declare_natural: declare,
                    expected_points,
                })
            }
        }
    }
}
