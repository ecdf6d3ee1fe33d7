//! The size of a table: how many seats can play one deal.

use crate::deck::Deck;
use crate::error::{Error, Result};

/// Fewest seats at one table.
pub const MIN_SEATS: usize = 2;
/// Most seats at one table of the 52-card deck (13 cards each).
pub const MAX_SEATS: usize = 4;
/// Most seats any deck seats: two decks and jokers deal 13 cards to eight.
pub const MAX_TABLE_SEATS: usize = 8;

/// The error for a table of `got` seats (a count, or e.g. "more than 4"
/// when a reader stopped counting): the one wording of the seat-count rule
/// of the 52-card deck.
pub fn seat_count_error(got: impl std::fmt::Display) -> Error {
    Error::table(format!(
        "a table has {MIN_SEATS} to {MAX_SEATS} seats, got {got}"
    ))
}

/// Checks that a table of `n` seats can be played with the 52-card deck:
/// [`MIN_SEATS`] to [`MAX_SEATS`] (docs/rules.md, "Settlement").
pub fn check_seat_count(n: usize) -> Result<()> {
    if (MIN_SEATS..=MAX_SEATS).contains(&n) {
        Ok(())
    } else {
        Err(seat_count_error(n))
    }
}

/// Most seats `deck` deals 13 cards to (at most [`MAX_TABLE_SEATS`]).
pub fn most_seats(deck: &Deck) -> usize {
    (deck.size() / 13).min(MAX_TABLE_SEATS)
}

/// Checks that `deck` deals 13 cards to each of `n` seats: the 52-card
/// deck's rule as [`check_seat_count`] words it, a larger deck's naming
/// the deck.
pub fn check_table_seats(deck: &Deck, n: usize) -> Result<()> {
    if (MIN_SEATS..=most_seats(deck)).contains(&n) {
        Ok(())
    } else {
        Err(table_seats_error(deck, n))
    }
}

/// The error for a table of `deck` of `got` seats (a count, or the text of
/// one beyond any machine integer): [`seat_count_error`] for the 52-card
/// deck, else naming the deck.
pub fn table_seats_error(deck: &Deck, got: impl std::fmt::Display) -> Error {
    if deck.is_standard() {
        return seat_count_error(got);
    }
    Error::table(format!(
        "a table of {} has {MIN_SEATS} to {} seats, got {got}",
        deck.describe(),
        most_seats(deck)
    ))
}
