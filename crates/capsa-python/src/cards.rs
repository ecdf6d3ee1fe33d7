//! The card entry points: `parse_cards`, `arrangement_ids`, `card_ids` and
//! `deal`, and the `Card` class and `SUITS` registered with them.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::card::{cards_of, Card};
use super::conversion::cards::{read_cards, Want};
use super::conversion::choices::RulesArg;
use super::conversion::numbers::{int_in_range, seats_arg, seed_arg};
use super::conversion::text::text_of;
use crate::errors::py_err;
use capsa_core::cards::{parse_text, SUIT_CHARS};
use capsa_core::deck::{CARD_IDS, EVERY_CARD};
use capsa_core::error::ErrorKind;

/// Reads cards written as text: ``parse_cards("As, kd 10h 7♣")``.
///
/// ``text`` is a str of cards, each rank then suit (``2``-``9``, ``T`` or
/// ``10``, ``J``, ``Q``, ``K``, ``A``; suits ``d c h s`` or ``♦ ♣ ♥ ♠`` and ``♢
/// ♧ ♡ ♤``; either case; a second copy marked ``'``: ``As'``), or a joker
/// (``BJ``, ``RJ``), separated by spaces or commas; empty text gives no cards.
///
/// Returns the cards as a list of ``Card``, in the order written.
///
/// Raises ``CardError`` for a token that is not a card (naming it and its
/// position), ``HandError`` for a card written twice, ``TypeError`` when
/// ``text`` is not a str.
#[pyfunction]
fn parse_cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Card>>> {
    let s = text
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("parse_cards() takes a str"))?;
    let mut ids = Vec::new();
    parse_text(&text_of(s)?, &mut ids).map_err(py_err)?;
    EVERY_CARD.check(&ids).map_err(py_err)?;
    cards_of(text.py(), &ids)
}

/// Reads an arrangement written as text, as every reader of capsa does:
/// ``"top / middle / bottom"`` (rows separated by ``/`` or ``|``) or 13
/// cards in row order.
///
/// Returns the 13 ids laid out as top 0-2, middle 3-7, bottom 8-12.
///
/// Raises ``HandError`` for rows of the wrong size (naming the row) or text
/// that is neither form, ``CardError`` for a card that cannot be read (its
/// ``row`` set), ``TypeError`` when ``text`` is not a str.
#[pyfunction]
fn arrangement_ids(text: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let s = text
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("an arrangement's text is a str"))?;
    let mut ids = Vec::with_capacity(13);
    capsa_core::arrangement::read_arrangement_text(&text_of(s)?, &mut ids).map_err(py_err)?;
    EVERY_CARD.check(&ids).map_err(py_err)?;
    Ok(ids.into_iter().map(u32::from).collect())
}

/// Checks any accepted form of cards and returns their ids.
///
/// ``cards`` is text (``"As Kd 10h"``), or a list, tuple or other iterable (a
/// numpy array, an iterator) of ``Card`` objects, integer ids 0..105 (Python or
/// numpy integers; 52 and up are second copies and jokers) and one-card texts,
/// mixed freely. ``count`` (an int 0..106) is the number of cards required;
/// without it any number up to 106 is taken.
///
/// Returns the ids as a list of ints, in the order given, distinct.
///
/// Raises ``CardError`` for a card that cannot be read or an id outside
/// 0..105; ``HandError`` for other than ``count`` cards (or more than 106;
/// reading stops one card past the limit), a single ``Card`` instead of a list,
/// or a card given twice; ``ArgumentError`` for a ``count`` outside 0..106;
/// ``TypeError`` for a ``count`` that is not an int, cards of another type (a
/// mapping, bytes, bytearray, memoryview, a set, a number) or an id that is a
/// bool or float.
#[pyfunction]
#[pyo3(signature = (cards, count=None))]
fn card_ids(cards: &Bound<'_, PyAny>, count: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    let count = match count {
        Some(c) if !c.is_none() => {
            Some(int_in_range(c, "count", 0, CARD_IDS as i128, ErrorKind::Argument)? as usize)
        }
        _ => None,
    };
    let sizes: &[usize] = match &count {
        Some(n) => std::slice::from_ref(n),
        None => &[],
    };
    let mut ids = Vec::with_capacity(13);
    read_cards(
        cards,
        &mut ids,
        Want {
            sizes,
            what: "the cards",
        },
    )?;
    // every deck's cards: whether a deck holds them is the rules' to say
    match count {
        Some(n) => EVERY_CARD
            .check_hand(&ids, &[n], "the cards")
            .map_err(py_err)?,
        None => EVERY_CARD.check(&ids).map_err(py_err)?,
    };
    // a list of ints, as documented (a Vec<u8> would become bytes)
    Ok(ids.into_iter().map(u32::from).collect())
}

/// Deals 13 cards to each seat from one shuffled deck.
///
/// ``seats`` is an int 2..4 (default 4; up to as many as the rules' deck
/// deals 13 cards to under a larger deck). ``seed`` is None (the deck is
/// shuffled from 32 bytes of operating-system entropy) or an int
/// ``0 <= seed < 2**64`` (the same deal on every platform and every version:
/// ChaCha20 keyed with the seed, Fisher-Yates with rejection sampling).
/// Python and numpy integers are taken. ``rules`` is a ``capsa.Rules`` or
/// None (the 52-card deck): the deck shuffled is the rules' deck, its ids in
/// ascending order, so that the 52-card deck deals the same cards either way.
///
/// Returns ``seats`` lists of 13 ``Card``, each sorted by id; seat s holds deck
/// positions 13s..13s+12.
///
/// Raises ``TableError`` for ``seats`` outside 2..4 (outside 2 to the most
/// the rules' deck seats), ``ArgumentError`` for a seed outside
/// ``0..2**64-1``, ``TypeError`` for either given as a bool, a float or
/// another non-integer, or ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (seats=None, seed=None, rules=None), text_signature = "(seats=4, seed=None, rules=None)")]
fn deal(
    py: Python<'_>,
    seats: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<Vec<Vec<Py<Card>>>> {
    let seed = match seed {
        Some(s) if !s.is_none() => Some(seed_arg(s)?),
        _ => None,
    };
    let hands = match rules {
        Some(rules) => {
            // the deck's own check names it and its seat counts
            let seats = match seats {
                Some(s) => int_in_range(s, "seats", 0, 255, ErrorKind::Table)? as usize,
                None => 4,
            };
            capsa_core::deal::deal_deck(&rules.get().deck, seats, seed).map_err(py_err)?
        }
        None => capsa_core::deal::deal(seats.map_or(Ok(4), seats_arg)?, seed).map_err(py_err)?,
    };
    hands.iter().map(|h| cards_of(py, h)).collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Card>()?;
    m.add("SUITS", std::str::from_utf8(SUIT_CHARS).unwrap_or("dchs"))?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(arrangement_ids, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    Ok(())
}
