//! capsa: the Capsa Susun / Chinese poker engine core.
//!
//! The core modules are plain Rust; the Python binding lives in `python.rs`
//! behind the `python` cargo feature.

pub mod bulk;
pub mod cards;
pub mod deal;
pub mod error;
pub mod naturals;
pub mod rank;
pub mod report;
pub mod rules;
pub mod settle;
pub mod solver;
pub mod splits;
pub mod stream;
pub mod tournament;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
