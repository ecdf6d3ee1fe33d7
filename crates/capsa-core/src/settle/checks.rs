//! The checks of a table before it is settled: the seats' cards, their
//! arrangements and decisions, each fault with the seat and row it is in.

use super::inputs::SeatInput;
use crate::cards::{card_text, DECK};
use crate::error::{Error, Result};
use crate::naturals::{self, EntryScan, Natural};
use crate::rules::Rules;
use crate::table::{check_seat_count, check_table_seats};

/// Checks the table: seat count, card ids, repeated cards, surrender flags.
#[inline(always)]
pub(super) fn check_seats(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    let n = seats.len();
    if !rules.deck.is_standard() {
        return check_deck_seats(rules, seats);
    }
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

/// [`check_seats`] for a deck with copies or jokers: the table's size for
/// the deck, each card the deck's and dealt once, the surrender flags.
#[cold]
fn check_deck_seats(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    check_table_seats(&rules.deck, seats.len())?;
    let held = rules.deck.mask();
    let mut seen = 0u128;
    for (s, seat) in seats.iter().enumerate() {
        for (pos, &c) in seat.cards.iter().enumerate() {
            let bit = 1u128.checked_shl(c as u32).unwrap_or(0);
            if held & bit == 0 {
                let e = rules.deck.not_held(c, pos);
                return Err(Error::card(format!("seat {s}: {}", e.message()))
                    .at_seat(s)
                    .at_row(row_of(pos)));
            }
            if seen & bit != 0 {
                return Err(repeated(seats, s, pos));
            }
            seen |= bit;
        }
        if seat.surrender && !rules.surrender_enabled {
            return Err(Error::table(format!(
                "seat {s} asks to surrender, but the rules do not enable surrender"
            ))
            .at_seat(s));
        }
    }
    Ok(())
}

/// The first thing wrong with a table that failed the screen, seat by seat.
#[cold]
pub(super) fn table_error(rules: &Rules, seats: &[SeatInput]) -> Error {
    let mut mask = 0u64;
    for (s, seat) in seats.iter().enumerate() {
        for (pos, &c) in seat.cards.iter().enumerate() {
            if c as usize >= DECK {
                let held = crate::deck::Deck::default().not_held(c, pos);
                return Error::card(format!("seat {s}: {}", held.message()))
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

/// A seat's declared natural as settlement uses it.
#[derive(Clone, Copy)]
pub(super) struct Decl {
    pub(super) natural: Natural,
    pub(super) points: i64,
    /// Its tier: the position in `rules.naturals` of the tier's first entry.
    pub(super) tier: usize,
    /// A bonus natural: the seat plays its rows and collects on top.
    pub(super) bonus: bool,
}

/// The natural a seat declares (`naturals::declared_in`): the earliest
/// enabled entry its cards qualify for, when it chooses to declare or the
/// entry must be declared, with its points (raised where the cards raise
/// them) and tier; `scan` is the entries' scan, made once a table.
#[inline(always)]
pub(super) fn declared_natural(rules: &Rules, scan: &EntryScan, seat: &SeatInput) -> Option<Decl> {
    let d = naturals::declared_scanned(&seat.cards, &rules.naturals, scan, seat.declare_natural)?;
    Some(Decl {
        natural: d.entry.natural,
        points: d.points,
        tier: d.tier,
        bonus: d.entry.bonus,
    })
}

/// Checks the banker and the seats' multipliers
/// (docs/rules.md, "Banker games"): outside a banker game no seat is the
/// banker and every multiplier is 1; in one, exactly one seat is the banker, its multiplier
/// is 1 and every other seat's is in `1..=banker.max_multiplier`.
#[inline(always)]
pub fn check_banker(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    let plain = seats.iter().all(|s| !s.banker & (s.multiplier == 1));
    if !rules.banker_enabled && plain {
        return Ok(());
    }
    banker_error(rules, seats).map_or(Ok(()), Err)
}

/// What is wrong with the banker or the multipliers of a table, if anything.
#[cold]
fn banker_error(rules: &Rules, seats: &[SeatInput]) -> Option<Error> {
    if !rules.banker_enabled {
        return seats.iter().enumerate().find_map(|(s, seat)| {
            if seat.banker {
                Some(Error::table(format!(
                    "seat {s} is named the banker, but the rules do not play a banker game \
                     (banker.enabled is false)"
                )))
            } else if seat.multiplier != 1 {
                Some(Error::table(format!(
                    "seat {s}'s multiplier must be 1 outside a banker game, got {}",
                    seat.multiplier
                )))
            } else {
                None
            }
            .map(|e| e.at_seat(s))
        });
    }
    let mut bankers = seats.iter().enumerate().filter(|(_, seat)| seat.banker);
    let Some((first, _)) = bankers.next() else {
        return Some(Error::table(
            "the rules play a banker game (banker.enabled), but no seat is named the banker",
        ));
    };
    if let Some((second, _)) = bankers.next() {
        return Some(
            Error::table(format!(
                "seats {first} and {second} are both named the banker; a table has one banker"
            ))
            .at_seat(second),
        );
    }
    let most = rules.banker_max_multiplier;
    seats.iter().enumerate().find_map(|(s, seat)| {
        let m = seat.multiplier;
        if seat.banker && m != 1 {
            Some(Error::table(format!(
                "seat {s} is the banker, whose multiplier must be 1, got {m}"
            )))
        } else if !(1..=most).contains(&m) {
            Some(Error::table(format!(
                "seat {s}'s multiplier must be in 1..={most} (banker.max_multiplier), got {m}"
            )))
        } else {
            None
        }
        .map(|e| e.at_seat(s))
    })
}

/// The error for a table whose seat `s` fouled under `foul.mode = "refuse"`.
#[cold]
pub(super) fn refused_foul(s: usize) -> Error {
    Error::table(format!(
        "seat {s}'s arrangement fouls and the rules refuse fouled arrangements"
    ))
    .at_seat(s)
}
