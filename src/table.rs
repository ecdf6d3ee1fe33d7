//! The size of a table: how many seats can play one deal.

use crate::error::{Error, Result};

/// Fewest seats at one table.
pub const MIN_SEATS: usize = 2;
/// Most seats at one table (one deck of 52 cards, 13 each).
pub const MAX_SEATS: usize = 4;

/// The error for a table of `got` seats (a count, or e.g. "more than 4"
/// when a reader stopped counting): the one wording of the seat-count rule.
pub fn seat_count_error(got: impl std::fmt::Display) -> Error {
    Error::table(format!(
        "a table has {MIN_SEATS} to {MAX_SEATS} seats, got {got}"
    ))
}

/// Checks that a table of `n` seats can be played: [`MIN_SEATS`] to
/// [`MAX_SEATS`] (docs/rules.md, "Settlement").
pub fn check_seat_count(n: usize) -> Result<()> {
    if (MIN_SEATS..=MAX_SEATS).contains(&n) {
        Ok(())
    } else {
        Err(seat_count_error(n))
    }
}
