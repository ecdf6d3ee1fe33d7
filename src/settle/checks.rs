//! The checks of a table before it is settled: the seats' cards, their
//! arrangements and decisions, each fault with the seat and row it is in.

use super::inputs::SeatInput;
use crate::cards::{card_text, DECK};
use crate::error::{Error, Result};
use crate::naturals::{self, Natural};
use crate::rules::Rules;
use crate::table::check_seat_count;

/// Checks the table: seat count, card ids, repeated cards, surrender flags.
#[inline(always)]
pub(super) fn check_seats(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    let n = seats.len();
    check_seat_count(n)?;
    // branch-free screen; the slow pass finds and words the error
    let mut mask = 0u64;
    let mut high = 0u8;
    let mut surrender = false;
    for seat in seats {
        for &c in &seat.cards {
            high = high.max(c);
            mask |= 1u64 << (c & 63);
        }
        surrender |= seat.surrender;
    }
    if (high as usize) < DECK
        && mask.count_ones() as usize == 13 * n
        && (rules.surrender_enabled || !surrender)
    {
        Ok(())
    } else {
        Err(table_error(rules, seats))
    }
}

/// The first thing wrong with a table that failed the screen, seat by seat.
#[cold]
pub(super) fn table_error(rules: &Rules, seats: &[SeatInput]) -> Error {
    let mut mask = 0u64;
    for (s, seat) in seats.iter().enumerate() {
        for (pos, &c) in seat.cards.iter().enumerate() {
            if c as usize >= DECK {
                return Error::card(format!(
                    "seat {s}: card id {c} at position {pos} is outside 0..51"
                ))
                .at_seat(s)
                .at_row(row_of(pos));
            }
            let bit = 1u64 << c;
            if mask & bit != 0 {
                return repeated(seats, s, pos);
            }
            mask |= bit;
        }
        if seat.surrender && !rules.surrender_enabled {
            return Error::table(format!(
                "seat {s} asks to surrender, but the rules do not enable surrender"
            ))
            .at_seat(s);
        }
    }
    Error::table("the table cannot be settled")
}

/// The error for the card at `seats[s].cards[pos]`, already seen earlier.
pub(super) fn repeated(seats: &[SeatInput], s: usize, pos: usize) -> Error {
    let c = seats[s].cards[pos];
    let first = seats
        .iter()
        .enumerate()
        .flat_map(|(t, seat)| seat.cards.iter().enumerate().map(move |(p, &d)| (t, p, d)))
        .find(|&(_, _, d)| d == c)
        .map_or((s, pos), |(t, p, _)| (t, p));
    let text = card_text(c);
    let e = if first.0 == s {
        Error::hand(format!(
            "seat {s}: card {text} (id {c}) appears twice, at positions {} and {pos}",
            first.1
        ))
    } else {
        Error::hand(format!(
            "card {text} (id {c}) is held by seat {} and by seat {s}",
            first.0
        ))
    };
    e.at_seat(s).at_row(row_of(pos))
}

/// The row (0 top, 1 middle, 2 bottom) of position `pos` of an arrangement.
pub(super) fn row_of(pos: usize) -> usize {
    match pos {
        0..=2 => 0,
        3..=7 => 1,
        _ => 2,
    }
}

/// The natural a seat declares: the strongest enabled one its cards qualify
/// for, when it chooses to declare.
#[inline]
pub(super) fn declared_natural(rules: &Rules, seat: &SeatInput) -> Option<(Natural, i64)> {
    naturals::declared(&seat.cards, rules, seat.declare_natural)
        .map(|d| (d.entry.natural, d.points))
}
