//! The one error type of the core. The binding maps each kind to a Python
//! exception class in one place (`python/errors.rs`), and the stream's error
//! records take their `error` name from [`ErrorKind::name`].

use std::fmt;

use crate::rows::ROW_NAMES;

/// What kind of input was wrong; each kind is one Python exception class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A card id outside 0..=51, or unparsable card text.
    Card,
    /// A hand or row with the wrong number of cards, or repeated cards.
    Hand,
    /// A rules value, rules file or solver table the engine cannot use.
    Rules,
    /// A table (seats, stakes, flags, a round record) that cannot be settled.
    Table,
    /// An argument outside its range (a count, `k`, a training size).
    Argument,
}

impl ErrorKind {
    /// The Python exception class name, also the `error` of a stream record.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Card => "CardError",
            ErrorKind::Hand => "HandError",
            ErrorKind::Rules => "RulesError",
            ErrorKind::Table => "TableError",
            ErrorKind::Argument => "ArgumentError",
        }
    }
}

/// An error: its kind, a message naming what was wrong, and where in a table
/// it was found (the seat and the row), when it is in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    seat: Option<usize>,
    row: Option<usize>,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            seat: None,
            row: None,
        }
    }

    pub fn card(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Card, message)
    }

    pub fn hand(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Hand, message)
    }

    pub fn rules(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Rules, message)
    }

    pub fn table(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Table, message)
    }

    pub fn argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Argument, message)
    }

    /// The same error, found in seat `seat` (kept if already set).
    pub fn at_seat(mut self, seat: usize) -> Self {
        self.seat.get_or_insert(seat);
        self
    }

    /// The same error, found in row `row` (0 top, 1 middle, 2 bottom).
    pub fn at_row(mut self, row: usize) -> Self {
        self.row.get_or_insert(row);
        self
    }

    /// The same error with `prefix` put before its message.
    pub fn context(mut self, prefix: impl fmt::Display) -> Self {
        self.message = format!("{prefix}: {}", self.message);
        self
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn seat(&self) -> Option<usize> {
        self.seat
    }

    /// The row's name ("top", "middle", "bottom"), when the error is in one.
    pub fn row(&self) -> Option<&'static str> {
        self.row.and_then(|r| ROW_NAMES.get(r).copied())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
