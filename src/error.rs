//! The one error type of the core. The binding maps each variant to a Python
//! exception class in one place (`python.rs`).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A card id outside 0..=51, or unparsable card text.
    Card(String),
    /// A hand or row with the wrong number of cards, or repeated cards.
    Hand(String),
    /// A rules value the engine cannot use.
    Rules(String),
    /// A table (seats, stakes, flags) that cannot be settled.
    Table(String),
}

impl Error {
    pub fn message(&self) -> &str {
        match self {
            Error::Card(m) | Error::Hand(m) | Error::Rules(m) | Error::Table(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
