//! The splits of 13 cards: `splits`, `is_foul`, `count_splits`,
//! `count_splits_batch`.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::conversion::cards::{card_rows, read_hand_of};
use super::conversion::choices::RulesArg;
use crate::errors::py_err;
use capsa_core::hands;

/// Every split of 13 cards into a top, middle and bottom row.
///
/// ``cards`` is 13 cards: text, or a list, tuple or other iterable (a numpy array,
/// an iterator) of ``Card`` objects, integer ids of the rules' deck (0..51 for the
/// 52-card deck) and one-card texts. ``rules`` is a ``capsa.Rules`` or None (the
/// capsa-susun preset). ``valid_only`` (a bool or numpy bool, default True) keeps
/// only the splits that do not foul under the rules; False gives all 72,072.
///
/// Returns a uint8 array of shape (K, 13) of card ids, each row laid out top 0-2,
/// middle 3-7, bottom 8-12 (each row's cards by ascending id), in the order of
/// docs/rules.md, "Split order".
///
/// Raises ``CardError`` for a card that cannot be read or an id or card the rules'
/// deck does not hold; ``HandError`` for other than 13 cards or a card given twice;
/// ``TypeError`` for cards of another type, a ``valid_only`` that is not a bool, or
/// ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, valid_only=true))]
fn splits<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
    valid_only: bool,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let ids = read_hand_of(cards, &[13], "a hand to split", r)?;
    let rows = py
        .detach(|| hands::splits(r, &ids, valid_only))
        .map_err(py_err)?;
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    let arr = Array2::from_shape_vec((rows.len(), 13), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// True when 13 cards laid out top 0-2, middle 3-7, bottom 8-12 foul: their rows
/// are out of order under the rules (the check settlement makes).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn is_foul(cards: &Bound<'_, PyAny>, rules: Option<RulesArg<'_>>) -> PyResult<bool> {
    let rules = rules.unwrap_or_default();
    let ids = read_hand_of(cards, &[13], "a 13-card hand", rules.get())?;
    Ok(hands::fouls(rules.get(), &ids))
}

/// Counts the valid splits of 13 cards.
///
/// ``cards`` is 13 cards in any form ``splits`` takes (text, or an iterable of
/// ``Card`` objects, ids of the rules' deck and one-card texts); ``rules`` is a
/// ``capsa.Rules`` or None (the capsa-susun preset).
///
/// Returns the number of the 72,072 splits that do not foul under the rules (at
/// least 1: a hand always has a valid split), as ``len(splits(...))``.
///
/// Raises ``CardError`` for a card that cannot be read or an id or card the rules'
/// deck does not hold; ``HandError`` for other than 13 cards or a card given twice;
/// ``TypeError`` for cards of another type or ``rules`` that is not a
/// ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn count_splits(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<usize> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let ids = read_hand_of(cards, &[13], "a hand to split", r)?;
    py.detach(|| hands::count_splits(r, &ids)).map_err(py_err)
}

/// Counts the valid splits of N hands at once, without the GIL, on every core.
///
/// ``ids`` is a numpy array of card ids of shape (N, 13), of any integer dtype,
/// byte order and strides (uint8 C-contiguous is read in place, other arrays are
/// copied); N may be 0. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
/// preset).
///
/// Returns a uint32 array of shape (N,): each row's ``count_splits``.
///
/// Raises ``CardError`` for an id or card the rules' deck does not hold and
/// ``HandError`` for a card repeated in a row (each naming the row); ``TableError``
/// for another shape; ``TypeError`` for a non-array, a non-integer dtype (bool and
/// float included) or ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (ids, rules=None))]
fn count_splits_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rules = rules.unwrap_or_default();
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let r = rules.get();
    let out = py
        .detach(|| hands::count_splits_batch(r, data))
        .map_err(py_err)?;
    Ok(out.into_pyarray(py))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits_batch, m)?)?;
    Ok(())
}
