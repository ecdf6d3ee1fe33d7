//! Naturals: `naturals`, `natural`, `naturals_batch`, `natural_split`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::conversion::cards::{card_rows, hand13, read_full_hand, read_hand_of};
use super::conversion::choices::{natural_arg, rules_arg_52, RulesArg};
use crate::errors::py_err;
use capsa_core::batch;
use capsa_core::naturals::{self as natural_core, NATURAL_NAMES};

/// Every natural 13 cards qualify for, whatever the rules enable (each by its
/// default definition: all-high from the 8, all-low to the 8, twelve-royals
/// from 12, twelve-same-color at least 12).
///
/// ``cards`` is 13 cards: text, or a list, tuple or other iterable (a numpy
/// array, an iterator) of ``Card`` objects, integer ids and one-card texts.
/// ``rules`` is None (the cards are of the 52-card deck) or a ``capsa.Rules``,
/// whose deck the cards are of: under a larger deck a second copy counts as
/// its face and a natural is held when some way of playing the jokers holds
/// it (docs/rules.md, "Naturals of larger decks"). See ``natural`` for the one
/// the rules pay.
///
/// Returns the names, in ``NATURAL_NAMES`` order (empty when none).
///
/// Raises ``CardError`` for a card that cannot be read or an id the deck does
/// not hold (outside 0..51 without rules); ``HandError`` for other than 13
/// cards or a card given twice; ``TypeError`` for cards of another type or
/// ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn naturals(cards: &Bound<'_, PyAny>, rules: Option<RulesArg<'_>>) -> PyResult<Vec<&'static str>> {
    let bits = match rules {
        None => natural_core::qualifying(&hand13(&read_full_hand(cards)?)),
        Some(rules) => {
            let ids = read_hand_of(cards, &[13], "a 13-card hand", rules.get())?;
            natural_core::qualifying_any_deck(&hand13(&ids))
        }
    };
    Ok((0..NATURAL_NAMES.len())
        .filter(|&b| (bits >> b) & 1 != 0)
        .map(|b| NATURAL_NAMES[b])
        .collect())
}

/// The natural 13 cards would declare under the rules.
///
/// ``cards`` is 13 cards of the rules' deck, in any form ``naturals`` takes
/// (second copies and jokers too under a larger deck); ``rules`` is a
/// ``capsa.Rules`` or None (the capsa-susun preset).
///
/// Returns the name of the strongest natural the rules enable (the earliest
/// entry of ``naturals.enabled``) that the cards qualify for, each entry's
/// parameters applied and jokers played as the cards that qualify, or None.
/// A seat that declares is assumed.
///
/// Raises ``CardError`` for a card that cannot be read or is not in the
/// rules' deck; ``HandError`` for other than 13 cards or a card given twice;
/// ``TypeError`` for cards of another type or ``rules`` that is not a
/// ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn natural(
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<Option<&'static str>> {
    let rules = rules.unwrap_or_default();
    let ids = read_hand_of(cards, &[13], "a 13-card hand", rules.get())?;
    Ok(natural_core::declared(&hand13(&ids), rules.get(), true).map(|d| d.entry.natural.name()))
}

/// The naturals of N hands at once, without the GIL, on every core.
///
/// ``ids`` is a numpy array of card ids of shape (N, 13), of any integer dtype,
/// byte order and strides (uint8 C-contiguous is read in place, other arrays
/// are copied); N may be 0. Whatever the rules, as ``naturals``.
///
/// Returns a uint16 array of shape (N,): bit i of a row's value is set when the
/// hand qualifies for ``NATURAL_NAMES[i]``.
///
/// Raises ``CardError`` for an id outside 0..51 and ``HandError`` for a card
/// repeated in a row (each naming the row); ``TableError`` for another shape;
/// ``TypeError`` for a non-array or a non-integer dtype (bool and float
/// included).
#[pyfunction]
fn naturals_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let out = py.detach(|| batch::naturals(data)).map_err(py_err)?;
    Ok(out.into_pyarray(py))
}

// the core's `naturals::natural_split`
/// The split that shows a row-shaped natural of 13 cards, or ``None``.
///
/// For ``three-flushes``, ``three-straights``, ``three-straight-flushes``
/// and ``two-full-houses``: 13 ids laid out top 0-2, middle 3-7, bottom
/// 8-12 (each row by ascending id) whose three rows have the natural's
/// shape (for ``two-full-houses`` a pair and a single on top and two full
/// houses): the first such split in ``splits()`` order that does not foul
/// under the rules, or the first such split when every one fouls (only
/// possible under ``foul_check = "strict"``); when the rules' entry of the
/// natural is raised by a straight flush and the cards raise it, among the
/// splits with a straight flush as
/// a five-card row. ``None`` for any other natural (their cards, not their
/// rows, make them) and when the cards do not qualify. ``natural`` is a
/// name from ``NATURAL_NAMES`` (``ArgumentError`` otherwise, ``TypeError``
/// when not a str).
#[pyfunction]
#[pyo3(signature = (cards, natural, rules=None))]
fn natural_split(
    cards: &Bound<'_, PyAny>,
    natural: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<Option<Vec<u32>>> {
    let natural = natural_arg(natural)?;
    let rules = rules_arg_52(rules, "natural_split")?;
    let ids = read_full_hand(cards)?;
    let split = natural_core::natural_split(rules.get(), &hand13(&ids), natural);
    // a list of ints, as `card_ids` gives them
    Ok(split.map(|layout| layout.iter().map(|&id| u32::from(id)).collect()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NATURAL_NAMES", PyTuple::new(m.py(), NATURAL_NAMES)?)?;
    m.add_function(wrap_pyfunction!(naturals, m)?)?;
    m.add_function(wrap_pyfunction!(natural, m)?)?;
    m.add_function(wrap_pyfunction!(naturals_batch, m)?)?;
    m.add_function(wrap_pyfunction!(natural_split, m)?)?;
    Ok(())
}
