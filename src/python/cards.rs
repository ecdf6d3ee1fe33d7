//! The `Card` class and the readers of cards: a text, a sequence or any
//! iterable of `Card`s, ids or card texts, read at most one card past what
//! is wanted.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use super::args::{as_index, int_in_range, int_text, seats_arg, seed_arg, type_name};
use super::errors::err;
use crate::cards::{
    card_text, check_distinct, check_hand, parse_text, rank_index, suit, SUIT_CHARS,
};
use crate::error::{Error, ErrorKind};

/// A playing card: ``Card("As")``, ``Card(51)``, ``Card(card)``.
///
/// Takes a ``Card``, the text of one card (rank then suit, either case:
/// ``"As"``, ``"Td"``, ``"10h"``, ``"7♣"``) or an integer id 0..51 (a Python
/// int or a numpy integer): ``id = 4 * (rank - 2) + suit`` with d=0, c=1, h=2,
/// s=3. Cards are immutable and hashable, pickle, and order by id;
/// ``str(card)`` is its text (``"As"``), ``int(card)`` its id.
///
/// Raises ``CardError`` for an id outside 0..51 or text that is not exactly one
/// card (lone surrogates included), ``TypeError`` for any other type (a bool, a
/// float, bytes).
#[pyclass(frozen, eq, ord, hash, module = "capsa")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub(crate) id: u8,
}

/// A card id given as an integer (already known not to be a bool).
fn card_id_from_int(i: &Bound<'_, PyInt>) -> Result<u8, Error> {
    match i.extract::<i64>() {
        Ok(v) if (0..52).contains(&v) => Ok(v as u8),
        _ => Err(Error::card(format!(
            "card id {} is outside 0..51",
            int_text(i)
        ))),
    }
}

/// The text of a str; one with lone surrogates (not encodable) is read with
/// them written as `\udXXX`, so that the card holding one is named.
fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    if let Ok(text) = s.to_str() {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let escaped = s.call_method1("encode", ("utf-8", "backslashreplace"))?;
    let bytes = escaped.cast::<pyo3::types::PyBytes>()?.as_bytes();
    Ok(std::borrow::Cow::Owned(
        String::from_utf8_lossy(bytes).into_owned(),
    ))
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
            parse_text(&text, &mut ids)?;
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
                id: card_id_from_int(&i)?,
            });
        }
        Err(PyTypeError::new_err(format!(
            "Card() takes a card text or an integer id 0..51, not {}",
            type_name(card)
        )))
    }

    /// The card id 0..51: ``4 * (rank - 2) + suit`` with d=0, c=1, h=2, s=3.
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }

    /// The rank, 2..14 (11 jack, 12 queen, 13 king, 14 ace).
    #[getter]
    fn rank(&self) -> u8 {
        rank_index(self.id) + 2
    }

    /// The suit letter: ``"d"``, ``"c"``, ``"h"`` or ``"s"``.
    #[getter]
    fn suit(&self) -> &'static str {
        ["d", "c", "h", "s"][suit(self.id) as usize]
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

/// An error met while reading cards: a core error (a bad card, too many
/// cards), which callers can place in a seat, or a Python error (a wrong type,
/// an iterator that raised).
pub(crate) enum ReadError {
    Core(Error),
    Py(PyErr),
}

impl From<Error> for ReadError {
    fn from(e: Error) -> Self {
        ReadError::Core(e)
    }
}

impl From<PyErr> for ReadError {
    fn from(e: PyErr) -> Self {
        ReadError::Py(e)
    }
}

impl From<ReadError> for PyErr {
    fn from(e: ReadError) -> PyErr {
        match e {
            ReadError::Core(e) => e.into(),
            ReadError::Py(e) => e,
        }
    }
}

impl ReadError {
    /// The same error, found in seat `seat` (core errors only).
    pub(crate) fn in_seat(self, seat: usize) -> Self {
        match self {
            ReadError::Core(e) => {
                ReadError::Core(e.context(format_args!("seat {seat}")).at_seat(seat))
            }
            other => other,
        }
    }
}

/// How many cards a reader expects: one of `sizes` (any number up to 52
/// distinct cards when empty), named `what` in messages.
#[derive(Clone, Copy)]
pub(crate) struct Want<'a> {
    pub(crate) sizes: &'a [usize],
    pub(crate) what: &'a str,
}

impl Want<'_> {
    fn limit(&self) -> usize {
        self.sizes.iter().copied().max().unwrap_or(52)
    }

    /// The error for more cards than the limit (`got` when the count is known).
    fn too_many(&self, got: Option<usize>) -> Error {
        let want = if self.sizes.is_empty() {
            "at most 52".to_string()
        } else {
            self.sizes
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let got = match got {
            Some(n) => n.to_string(),
            None => format!("more than {}", self.limit()),
        };
        Error::hand(format!("{} needs {want} cards, got {got}", self.what))
    }
}

/// `collections.abc.Mapping` and `collections.abc.Set`, looked up once.
fn mapping_and_set(py: Python<'_>) -> PyResult<&Bound<'_, PyTuple>> {
    static TYPES: pyo3::sync::PyOnceLock<Py<PyTuple>> = pyo3::sync::PyOnceLock::new();
    TYPES
        .get_or_try_init(py, || {
            let abc = py.import("collections.abc")?;
            Ok::<_, PyErr>(
                PyTuple::new(py, [abc.getattr("Mapping")?, abc.getattr("Set")?])?.unbind(),
            )
        })
        .map(|t| t.bind(py))
}

/// A TypeError when `obj` is a kind of collection that is never a list of
/// cards: a mapping (it iterates its keys), bytes-like (it iterates ints) or
/// a set (no order, so no rows).
fn refuse_non_sequence(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    let bytes_like = obj.is_instance_of::<pyo3::types::PyBytes>()
        || obj.is_instance_of::<pyo3::types::PyByteArray>()
        || obj.is_instance_of::<pyo3::types::PyMemoryView>();
    if bytes_like || obj.is_instance(mapping_and_set(obj.py())?)? {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a text or a sequence of cards, not {}",
            type_name(obj)
        )));
    }
    Ok(())
}

/// Reads one card: a `Card`, an integer id (not a bool) or a one-card text.
fn push_card(item: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> Result<(), ReadError> {
    if let Ok(c) = item.cast::<Card>() {
        out.push(c.get().id);
        return Ok(());
    }
    // the common case first: a plain int (exactly int, so never a bool)
    if let Ok(i) = item.cast_exact::<PyInt>() {
        out.push(card_id_from_int(i)?);
        return Ok(());
    }
    if let Some(i) = as_index(item)? {
        out.push(card_id_from_int(&i)?);
        return Ok(());
    }
    if let Ok(s) = item.cast::<PyString>() {
        let text = text_of(s)?;
        let before = out.len();
        parse_text(&text, out)?;
        if out.len() != before + 1 {
            return Err(Error::card(format!("expected one card, got {text:?}")).into());
        }
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "a card is a Card, an integer id 0..51 or a text like 'As', not {}",
        type_name(item)
    ))
    .into())
}

/// Reads cards given as text, a sequence of `Card`s, ids or card texts, or
/// any iterable of them (a numpy array too), reading at most one card more
/// than `want` allows: an endless iterator is an error, not a hang.
pub(crate) fn read_cards(
    obj: &Bound<'_, PyAny>,
    out: &mut Vec<u8>,
    want: Want<'_>,
) -> Result<(), ReadError> {
    let limit = want.limit();
    if let Ok(s) = obj.cast::<PyString>() {
        parse_text(&text_of(s)?, out)?;
        if out.len() > limit {
            return Err(want.too_many(Some(out.len())).into());
        }
        return Ok(());
    }
    if let Ok(list) = obj.cast::<PyList>() {
        if list.len() > limit {
            return Err(want.too_many(Some(list.len())).into());
        }
        for item in list.iter() {
            push_card(&item, out)?;
        }
        return Ok(());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        if tuple.len() > limit {
            return Err(want.too_many(Some(tuple.len())).into());
        }
        for item in tuple.iter() {
            push_card(&item, out)?;
        }
        return Ok(());
    }
    if obj.cast::<Card>().is_ok() {
        return Err(Error::hand(format!(
            "{} needs several cards, got a single Card",
            want.what
        ))
        .into());
    }
    refuse_non_sequence(obj, "cards")?;
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "cards must be a text or a sequence of Card, ids or card texts, not {}",
            type_name(obj)
        ))
    })?;
    for (count, item) in iter.enumerate() {
        if count == limit {
            return Err(want.too_many(None).into());
        }
        push_card(&item?, out)?;
    }
    Ok(())
}

/// Reads one hand of `sizes` distinct cards, called `what` in messages.
pub(crate) fn read_hand(obj: &Bound<'_, PyAny>, sizes: &[usize], what: &str) -> PyResult<Vec<u8>> {
    let mut ids = Vec::with_capacity(13);
    read_cards(obj, &mut ids, Want { sizes, what })?;
    check_hand(&ids, sizes, what)?;
    Ok(ids)
}

/// Reads cards written as text: ``parse_cards("As, kd 10h 7♣")``.
///
/// ``text`` is a str of cards, each rank then suit (``2``-``9``, ``T`` or
/// ``10``, ``J``, ``Q``, ``K``, ``A``; suits ``d c h s`` or ``♦ ♣ ♥ ♠`` and ``♢
/// ♧ ♡ ♤``; either case), separated by spaces or commas; empty text gives no
/// cards.
///
/// Returns the cards as a list of ``Card``, in the order written.
///
/// Raises ``CardError`` for a token that is not a card (naming it and its
/// position), ``HandError`` for a card written twice, ``TypeError`` when
/// ``text`` is not a str.
#[pyfunction]
fn parse_cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let s = text
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("parse_cards() takes a str"))?;
    let mut ids = Vec::new();
    parse_text(&text_of(s)?, &mut ids)?;
    check_distinct(&ids)?;
    Ok(ids.into_iter().map(|id| Card { id }).collect())
}

/// Checks any accepted form of cards and returns their ids.
///
/// ``cards`` is text (``"As Kd 10h"``), or a list, tuple or other iterable (a
/// numpy array, an iterator) of ``Card`` objects, integer ids 0..51 (Python or
/// numpy integers) and one-card texts, mixed freely. ``count`` (an int 0..52)
/// is the number of cards required; without it any number up to 52 is taken.
///
/// Returns the ids as a list of ints, in the order given, distinct.
///
/// Raises ``CardError`` for a card that cannot be read or an id outside 0..51;
/// ``HandError`` for other than ``count`` cards (or more than 52; reading stops
/// one card past the limit), a single ``Card`` instead of a list, or a card
/// given twice; ``ArgumentError`` for a ``count`` outside 0..52; ``TypeError``
/// for a ``count`` that is not an int, cards of another type (a mapping, bytes,
/// bytearray, memoryview, a set, a number) or an id that is a bool or float.
#[pyfunction]
#[pyo3(signature = (cards, count=None))]
fn card_ids(cards: &Bound<'_, PyAny>, count: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    let count = match count {
        Some(c) if !c.is_none() => {
            Some(int_in_range(c, "count", 0, 52, ErrorKind::Argument)? as usize)
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
    match count {
        Some(n) => check_hand(&ids, &[n], "the cards")?,
        None => check_distinct(&ids)?,
    };
    // a list of ints, as documented (a Vec<u8> would become bytes)
    Ok(ids.into_iter().map(u32::from).collect())
}

/// Deals 13 cards to each seat from one shuffled deck.
///
/// ``seats`` is an int 2..4 (default 4). ``seed`` is None (the deck is shuffled
/// from 32 bytes of operating-system entropy) or an int ``0 <= seed < 2**64``
/// (the same deal on every platform and every version: ChaCha20 keyed with the
/// seed, Fisher-Yates with rejection sampling). Python and numpy integers are
/// taken.
///
/// Returns ``seats`` lists of 13 ``Card``, each sorted by id; seat s holds deck
/// positions 13s..13s+12.
///
/// Raises ``TableError`` for ``seats`` outside 2..4, ``ArgumentError`` for a
/// seed outside ``0..2**64-1``, ``TypeError`` for either given as a bool, a
/// float or another non-integer.
#[pyfunction]
#[pyo3(signature = (seats=None, seed=None), text_signature = "(seats=4, seed=None)")]
fn deal(
    seats: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<Card>>> {
    let seats = match seats {
        Some(s) => seats_arg(s)?,
        None => 4,
    };
    let seed = match seed {
        Some(s) if !s.is_none() => Some(seed_arg(s)?),
        _ => None,
    };
    let hands = crate::deal::deal(seats, seed)?;
    Ok(hands
        .iter()
        .map(|h| h.iter().map(|&id| Card { id }).collect())
        .collect())
}

/// Reads a 13-card hand (13 distinct cards).
pub(crate) fn read_full_hand(cards: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    read_hand(cards, &[13], "a 13-card hand")
}

/// 13 ids already checked to be 13.
pub(crate) fn hand13(ids: &[u8]) -> [u8; 13] {
    ids.try_into().expect("13 cards checked")
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Card>()?;
    m.add("SUITS", std::str::from_utf8(SUIT_CHARS).unwrap_or("dchs"))?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    Ok(())
}
