//! capsa: the Capsa Susun / Chinese poker engine core.
//!
//! The core modules are plain Rust; the Python binding lives in `python/`
//! behind the `python` cargo feature and only converts types, releases the
//! GIL around core calls and maps errors.

pub mod arrangement;
pub mod auto_arrange;
pub mod batch;
pub mod bulk;
pub mod canonical;
pub mod cards;
pub mod deal;
pub mod deck;
pub mod error;
pub mod fair;
pub mod flags;
pub mod hands;
pub mod lines;
pub mod natural_kind;
pub mod naturals;
pub mod rank;
pub mod record;
pub mod rows;
pub mod rules;
pub mod settle;
pub mod settlement_text;
pub mod solver;
pub mod splits;
pub mod stakes;
pub mod state_mac;
pub mod stats;
pub mod stream;
pub mod table;
pub mod texts;
pub mod tournament;

#[cfg(test)]
pub(crate) mod test_support;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
