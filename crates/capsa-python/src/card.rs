//! The `Card` class: one playing card, read from a card, a text or an id.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

use super::conversion::numbers::{as_index, card_id};
use super::conversion::text::{text_of, type_name};
use crate::errors::{err, py_err};
use capsa_core::cards::{card_text, parse_text, rank_index, suit};
use capsa_core::deck::{copy_of, face, is_joker, CARD_IDS};
use capsa_core::error::ErrorKind;

/// A playing card: ``Card("As")``, ``Card(51)``, ``Card(card)``.
///
/// Takes a ``Card``, the text of one card (rank then suit, either case:
/// ``"As"``, ``"Td"``, ``"10h"``, ``"7♣"``; a second copy ``"As'"``; the
/// jokers ``"BJ"`` and ``"RJ"``) or an integer id 0..105 (a Python int or a
/// numpy integer): ``id = 52 * copy + 4 * (rank - 2) + suit`` with d=0, c=1,
/// h=2, s=3, and the jokers 104 and 105. Whether a deck holds the card is the
/// rules' to say. Cards are immutable and hashable, pickle, and order by id;
/// ``str(card)`` is its text (``"As"``), ``int(card)`` its id.
///
/// Raises ``CardError`` for an id outside 0..105 or text that is not exactly
/// one card (lone surrogates included), ``TypeError`` for any other type (a
/// bool, a float, bytes).
#[pyclass(frozen, eq, ord, hash, module = "capsa")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub(crate) id: u8,
}

/// Every card of every deck as Python objects, made once: a `Card` is
/// immutable, so the engine hands out these rather than making one per
/// card it returns. Index them by id (`ids` of valid cards only).
pub(crate) fn card_objects(py: Python<'_>) -> PyResult<&[Py<Card>]> {
    static CARDS: PyOnceLock<Vec<Py<Card>>> = PyOnceLock::new();
    let cards = CARDS.get_or_try_init(py, || {
        (0..CARD_IDS as u8)
            .map(|id| Py::new(py, Card { id }))
            .collect()
    })?;
    Ok(cards)
}

/// The `Card` objects of valid card ids.
pub(crate) fn cards_of(py: Python<'_>, ids: &[u8]) -> PyResult<Vec<Py<Card>>> {
    let cards = card_objects(py)?;
    Ok(ids
        .iter()
        .map(|&id| cards[usize::from(id) % CARD_IDS].clone_ref(py))
        .collect())
}

#[pymethods]
impl Card {
    #[new]
    fn py_new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(c) = card.cast::<Card>() {
            return Ok(*c.get());
        }
        if let Ok(s) = card.cast::<PyString>() {
            let text = text_of(s)?;
            let mut ids = Vec::with_capacity(1);
            parse_text(&text, &mut ids).map_err(py_err)?;
            if ids.len() != 1 {
                return Err(err(
                    ErrorKind::Card,
                    format!("Card() takes one card, got {} in {text:?}", ids.len()),
                ));
            }
            return Ok(Card { id: ids[0] });
        }
        if let Some(i) = as_index(card)? {
            return Ok(Card {
                id: card_id(&i).map_err(py_err)?,
            });
        }
        Err(PyTypeError::new_err(format!(
            "Card() takes a card text or an integer id 0..105, not {}",
            type_name(card)
        )))
    }

    /// The card id 0..105: ``52 * copy + 4 * (rank - 2) + suit`` with d=0,
    /// c=1, h=2, s=3; the jokers 104 (black) and 105 (red).
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }

    /// The rank, 2..14 (11 jack, 12 queen, 13 king, 14 ace); 0 for a joker,
    /// which has none.
    #[getter]
    fn rank(&self) -> u8 {
        if is_joker(self.id) {
            0
        } else {
            rank_index(face(self.id)) + 2
        }
    }

    /// The suit letter: ``"d"``, ``"c"``, ``"h"`` or ``"s"``; ``""`` for a
    /// joker.
    #[getter]
    fn suit(&self) -> &'static str {
        if is_joker(self.id) {
            ""
        } else {
            ["d", "c", "h", "s"][suit(face(self.id)) as usize]
        }
    }

    /// Which copy of its face the card is: 0, or 1 for the second (``As'``);
    /// 0 for a joker.
    #[getter]
    fn copy(&self) -> u8 {
        copy_of(self.id)
    }

    /// Whether the card is a joker (``BJ`` or ``RJ``), wild in every row.
    #[getter]
    fn joker(&self) -> bool {
        is_joker(self.id)
    }

    fn __str__(&self) -> String {
        card_text(self.id)
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", card_text(self.id))
    }

    fn __int__(&self) -> u8 {
        self.id
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u8,))> {
        Ok((slf.get_type().into_any(), (slf.get().id,)))
    }
}
