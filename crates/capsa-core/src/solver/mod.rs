//! The arranging solver.
//!
//! # Model
//!
//! For each row (top, middle, bottom) a [`Tables`] value holds the
//! distribution of the row hand a well-playing opponent sets there, over
//! *rank classes*: `strength >> 10` (category and rank key; suits ignored).
//! The tables are computed by simulation (iterated best response, see
//! [`train`]) and shipped per preset in this crate's `tables/*.bin`, which
//! are compiled into the library.
//!
//! Against one such opponent, a row hand of strength `s` wins, ties or
//! loses with the probabilities read off the distribution (with
//! `tie_break = "suit"` an equal rank class is split half and half), and the
//! expected royalties of each outcome follow from the rules' own royalty
//! table. The expected points of a split against one opponent is a sum over
//! the 27 win/tie/lose patterns (row points, overall point, scoop multiplier
//! and bonus, royalties in every mode), each pattern's probability from the
//! copula of the opponent's rows the tables also hold (see the `joint`
//! module; the rows alone would be taken as independent). Sweep-all adds
//! `P(win all three)^(seats-1)` times the extra over the scoop rate (and
//! subtracts the symmetric term for being swept, with the scoop rate
//! between two self-play hands recorded in the tables).
//!
//! # Card removal
//!
//! The opponent's cards come from the ones the hand does not hold (39 of
//! the 52-card deck), so the distribution is reweighted per hand: each
//! class's probability is multiplied by the share of its card combinations
//! the opponent can still hold (the product over its rank groups of
//! C(left, n) / C(4, n); for five distinct ranks the non-flush combinations
//! left, for a flush the suits still complete at every rank), then
//! renormalised. A deck with copies or jokers counts the deck's cards per
//! rank instead (see the `removal` module). The reweighting is
//! exact for which row hands remain possible and ignores how the own cards
//! change the opponent's choice among them. It is applied to the refined
//! candidates (one pass over the opponent's classes per row, summed into
//! the buckets those candidates' classes cut them into); the fast score
//! uses the unconditioned tables.
//!
//! # Search
//!
//! Every valid split is enumerated as (top, {A, B}) with the stronger of the
//! two five-card hands in the bottom (validity forces it), about 36,000
//! candidates. Each is scored by a cheap form (separable row values plus
//! the scoop term), and the best [`REFINE`] get the exact 27-pattern value.
//! The scan visits the tops best bound first and stops when no split of the
//! remaining tops can enter the kept list (the `scan` module); what it keeps
//! is exactly what the scan of every top keeps.
//! A natural is declared when its points beat the best arrangement's value.
//!
//! # Deep mode
//!
//! [`Effort::Deep`] re-scores the fast model's best candidates exactly:
//! opponent hands are sampled from the unseen cards of the deck (seeded by the
//! hand's cards), arranged by the fast solver, and every candidate is
//! settled against the same ones by the settlement core. The rows' points
//! are the model's and the rest (scoop, overall point, sweep-all) the
//! samples', each part's sampled differences blended with the model's by
//! their precision (see [`DeepConfig`] and the `deep` module); rules that
//! pay only rows get the fast ranking. [`best_response_check`] measures
//! any strategy at any effort against opponents of any strategy.
//!
//! # Decks
//!
//! Every deck the rules deal is played: the hand's subsets are ranked by
//! the rules' deck's evaluator (`crate::hands`), five of a kind is a rank
//! class, and tables trained for a deck with copies or jokers name it in
//! their header; [`Tables::nearest`] takes the rules' own deck first.
//!
//! # Custom rules
//!
//! Tables depend on the ranking and on how opponents play, which depends on
//! the scoring. For rules that are not a preset, [`Tables::nearest`] picks
//! the shipped tables with the same ranking and the closest scoring; the
//! expected value is always computed with the given rules' own numbers.
//! [`train`] computes tables for any rules on demand.
//!
//! # Layout
//!
//! From the bottom up, each module using only those before it: `classes`
//! (rank classes and their cards), `fnv`, `varint`; `model` (a row's
//! opponent distribution), `five_values` (its fast values of five-card
//! classes for two rows at once), `removal` (its card-removal reweighting),
//! `joint` (the copula of the rows); `scan` (the bounded enumeration of splits),
//! `tables` (the files); `search` ([`Solver`]), `value` (a split's expected
//! value), `deep`; `baselines` (the other strategies), `cache`, `train`,
//! `regret`.

mod baselines;
mod cache;
mod classes;
mod deep;
mod five_values;
mod fnv;
mod greedy;
mod joint;
mod model;
mod regret;
mod removal;
mod scan;
mod search;
mod tables;
mod train;
mod value;
mod varint;

pub use baselines::{greedy_arrangement, Arranger, Strategy, STRATEGY_NAMES};
pub use cache::arranger;
pub use classes::CLASS_SHIFT;
pub use deep::{DeepConfig, Effort, EFFORT_NAMES, MAX_DEEP_CHOICES};
pub use greedy::{greedy_layout, greedy_layout_of};
pub use joint::{Joint, JOINT_BINS};
pub use model::RowOutcome;
pub use regret::{best_response_check, CheckConfig};
pub use search::{Choice, Solver, REFINE};
pub use tables::{
    check_tables_name, rules_meta, scoring_distance, shipped_bytes, shipped_presets, Tables,
    MAX_HEADER_BYTES, MAX_NAME_LEN, MAX_ROW_ENTRIES, MAX_TRAIN_HANDS, MAX_TRAIN_ITERATIONS,
    META_KEYS,
};
pub use train::{
    deal_seed, train, train_deals, train_with, TrainConfig, TrainProgress, DEFAULT_TRAIN_HANDS,
    DEFAULT_TRAIN_ITERATIONS, DEFAULT_TRAIN_SEATS, DEFAULT_TRAIN_SEED, TRAINER_VERSION,
};

#[cfg(test)]
mod tests;
