//! `HandValue` and the ranking entry points: `evaluate`, `compare`,
//! `evaluate_batch`, `category_of_strength`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyTuple;

use super::card::{cards_of, Card};
use super::conversion::cards::{card_rows, read_small_hand};
use super::conversion::choices::RulesArg;
use crate::errors::py_err;
use capsa_core::cards::card_text;
use capsa_core::hands;
use capsa_core::rank::{category_of, CATEGORY_NAMES};
use capsa_core::rules::Rules;

/// The value of a three- or five-card hand under some rules (what ``evaluate``
/// returns; not built directly).
///
/// Values compare and hash by ``strength``: under the same rules a higher
/// strength is a stronger hand, across three- and five-card hands too. Ordering
/// a ``HandValue`` against another type raises ``TypeError``.
#[pyclass(frozen, module = "capsa")]
pub struct HandValue {
    strength: u32,
    cards: [u8; 5],
    size: u8,
}

#[pymethods]
impl HandValue {
    /// The strength, an unsigned 32-bit int: bits 28-31 the category (its index
    /// in ``CATEGORIES``), bits 10-27 the rank key, bits 0-9 the suit key (0
    /// under ``tie_break = "none"``). Higher is stronger, under the same rules.
    #[getter]
    fn strength(&self) -> u32 {
        self.strength
    }

    /// The category name, one of ``CATEGORIES`` (``"high-card"`` to
    /// ``"royal-flush"``; a three-card hand is at most ``"trips"``).
    #[getter]
    fn category(&self) -> &'static str {
        CATEGORY_NAMES[category_of(self.strength) as usize]
    }

    /// The number of cards: 3 or 5.
    #[getter]
    fn size(&self) -> u8 {
        self.size
    }

    /// The hand's cards, in the order they were given.
    #[getter]
    fn cards(&self, py: Python<'_>) -> PyResult<Vec<Py<Card>>> {
        cards_of(py, &self.cards[..self.size as usize])
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<HandValue>() else {
            return Ok(py.NotImplemented());
        };
        let b = other.get().strength;
        Ok(
            pyo3::types::PyBool::new(py, op.matches(self.strength.cmp(&b)))
                .to_owned()
                .into_any()
                .unbind(),
        )
    }

    fn __hash__(&self) -> u64 {
        self.strength as u64
    }

    fn __repr__(&self) -> String {
        let cards: Vec<String> = self.cards[..self.size as usize]
            .iter()
            .map(|&c| card_text(c))
            .collect();
        format!(
            "HandValue(category='{}', cards='{}', strength={})",
            CATEGORY_NAMES[category_of(self.strength) as usize],
            cards.join(" "),
            self.strength
        )
    }
}

fn hand_value(rules: &Rules, ids: &[u8]) -> HandValue {
    let mut cards = [0u8; 5];
    cards[..ids.len()].copy_from_slice(ids);
    HandValue {
        strength: hands::strength(rules, ids),
        cards,
        size: ids.len() as u8,
    }
}

/// Ranks a three- or five-card hand.
///
/// ``cards`` is 3 or 5 cards: text (``"As Kd Th"``), or a list, tuple or other
/// iterable (a numpy array, an iterator) of ``Card`` objects, integer ids of the
/// rules' deck (0..51 for the 52-card deck) (Python or numpy integers) and one-card
/// texts, mixed freely. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
/// preset).
///
/// Returns the hand's ``HandValue`` (``category``, ``strength``, ``cards``) under
/// the rules.
///
/// Raises ``CardError`` for a card that cannot be read or an id or card the rules'
/// deck does not hold; ``HandError`` for other than 3 or 5 cards (reading stops at
/// the sixth), a single ``Card`` instead of a list, or a card given twice;
/// ``TypeError`` for cards of another type (a mapping, bytes, bytearray,
/// memoryview, a set, a number), an id that is a bool or float, or ``rules`` that
/// is not a ``capsa.Rules`` or None (a preset name is not taken: use
/// ``Rules.preset(name)``).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn evaluate(cards: &Bound<'_, PyAny>, rules: Option<RulesArg<'_>>) -> PyResult<HandValue> {
    let rules = rules.unwrap_or_default();
    let mut buf = [0u8; 5];
    let n = read_small_hand(cards, &mut buf, "a hand", rules.get())?;
    Ok(hand_value(rules.get(), &buf[..n]))
}

/// The cards a row of 3 or 5 cards plays as under the rules' deck: each
/// joker as the card it stands for in the row's strongest hand (of the
/// cards that make it, the first found), a second copy as its first copy,
/// every other card as itself.
///
/// ``cards`` takes any form ``evaluate`` takes; ``rules`` is a
/// ``capsa.Rules`` or None (the capsa-susun preset).
///
/// Returns a list of ``Card`` in the row's order, each of the 52-card deck.
///
/// Raises what ``evaluate`` raises: ``CardError``, ``HandError``,
/// ``TypeError``.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn played_cards(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<Vec<Py<Card>>> {
    let rules = rules.unwrap_or_default();
    let mut buf = [0u8; 5];
    let n = read_small_hand(cards, &mut buf, "a hand", rules.get())?;
    cards_of(py, &hands::played(rules.get(), &buf[..n]))
}

/// Compares two hands of 3 or 5 cards each (sizes may differ).
///
/// ``a`` and ``b`` each take any form ``evaluate`` takes: text, or an iterable of
/// ``Card`` objects, ids of the rules' deck and one-card texts. ``rules`` is a
/// ``capsa.Rules`` or None (the capsa-susun preset).
///
/// Returns -1, 0 or 1 as ``a`` is weaker than, equal to or stronger than ``b``
/// under the rules.
///
/// Raises what ``evaluate`` raises, for either hand: ``CardError``, ``HandError``
/// (other than 3 or 5 cards, a card given twice within a hand), ``TypeError`` (a
/// wrong type of cards or ``rules``).
#[pyfunction]
#[pyo3(signature = (a, b, rules=None))]
fn compare(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<i8> {
    let rules = rules.unwrap_or_default();
    let (mut x, mut y) = ([0u8; 5], [0u8; 5]);
    let r = rules.get();
    let n = read_small_hand(a, &mut x, "the first hand", r)?;
    let m = read_small_hand(b, &mut y, "the second hand", r)?;
    Ok(hands::strength(r, &x[..n]).cmp(&hands::strength(r, &y[..m])) as i8)
}

/// Ranks N hands at once, without the GIL, on every core.
///
/// ``ids`` is a numpy array of card ids of shape (N, 5) or (N, 3), of any integer
/// dtype, byte order and strides (uint8 C-contiguous is read in place, other arrays
/// are copied); N may be 0. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
/// preset).
///
/// Returns a uint32 array of shape (N,): each row's strength, as ``evaluate(row,
/// rules).strength``.
///
/// Raises ``CardError`` for an id or card the rules' deck does not hold and
/// ``HandError`` for a card repeated in a row (each naming the row); ``TableError``
/// for another shape; ``TypeError`` for a non-array, a non-integer dtype (bool and
/// float included) or ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (ids, rules=None))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rules = rules.unwrap_or_default();
    let arr = card_rows(ids, &[5, 3], "ids")?;
    let width = arr.shape[1];
    let data = arr.ids()?;
    let r = rules.get();
    let out = py
        .detach(|| hands::strengths(r, data, width))
        .map_err(py_err)?;
    Ok(out.into_pyarray(py))
}

/// The category name of a strength (``ValueError`` for one that is not).
#[pyfunction]
fn category_of_strength(strength: u32) -> PyResult<&'static str> {
    CATEGORY_NAMES
        .get(category_of(strength) as usize)
        .copied()
        .ok_or_else(|| PyValueError::new_err(format!("{strength} is not a hand strength")))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HandValue>()?;
    m.add("CATEGORIES", PyTuple::new(m.py(), CATEGORY_NAMES)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(played_cards, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(category_of_strength, m)?)?;
    Ok(())
}
