//! capsa-core: the Capsa Susun / Chinese poker game core.
//!
//! Cards, hand ranking, the legal splits, naturals, the rules (their knob
//! table and the shipped presets, [`presets`]), settlement, the arranging
//! solver and its shipped tables, and the batch and bulk entry points. Plain
//! Rust with no Python in its tree: the records and the provably fair deal
//! are the `capsa-records` crate, the Python binding `capsa-python`.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

pub mod arrangement;
pub mod auto_arrange;
pub mod batch;
pub mod bulk;
pub mod canonical;
pub mod cards;
pub mod deal;
pub mod deck;
pub mod error;
pub mod flags;
pub mod hands;
pub mod lines;
pub mod natural_kind;
pub mod naturals;
pub mod presets;
pub mod rank;
pub mod rows;
pub mod rules;
pub mod settle;
pub mod settlement_text;
pub mod solver;
pub mod splits;
pub mod stakes;
pub mod stats;
pub mod stream;
pub mod table;
pub mod texts;
pub mod tournament;

#[cfg(test)]
pub(crate) mod test_support;

pub use error::{Error, Result};
