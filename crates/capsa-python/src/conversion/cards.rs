//! Readers of cards: one card, a hand (a text, a sequence or any iterable
//! of `Card`s, ids or card texts, read at most one card past what is
//! wanted), and the one reader of card-id numpy arrays for every batch
//! entry point.

use capsa_core::deck::CARD_IDS;
use capsa_core::rules::Rules;
use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::super::card::Card;
use super::numbers::{as_index, card_id};
use super::text::{text_of, type_name};
use crate::errors::{err, py_err};
use capsa_core::cards::{check_distinct, check_hand, not_a_card, parse_text};
use capsa_core::deck::Deck;
use capsa_core::error::{Error, ErrorKind};
use capsa_core::table::{check_table_seats, most_seats, MIN_SEATS};

/// An error met while reading cards: a core error (a bad card, too many
/// cards), which callers can place in a seat, or a Python error (a wrong type,
/// an iterator that raised).
pub(crate) enum ReadError {
    Core(Error),
    Py(PyErr),
    /// A TypeError for one item that is not a card (the list holding it
    /// is of the right type).
    Item(PyErr),
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
            ReadError::Core(e) => py_err(e),
            ReadError::Py(e) | ReadError::Item(e) => e,
        }
    }
}

impl ReadError {
    /// The same error, found in seat `seat` (core errors and items only).
    pub(crate) fn in_seat(self, seat: usize) -> Self {
        match self {
            ReadError::Core(e) => {
                ReadError::Core(e.context(format_args!("seat {seat}")).at_seat(seat))
            }
            ReadError::Item(e) => {
                let py_err = Python::attach(|py| {
                    PyTypeError::new_err(format!("seat {seat}: {}", e.value(py)))
                });
                ReadError::Item(py_err)
            }
            other => other,
        }
    }
}

/// How many cards a reader expects: one of `sizes` (any number up to
/// [`CARD_IDS`] distinct cards, every deck's, when empty), named `what` in
/// messages.
#[derive(Clone, Copy)]
pub(crate) struct Want<'a> {
    pub(crate) sizes: &'a [usize],
    pub(crate) what: &'a str,
}

impl Want<'_> {
    fn limit(&self) -> usize {
        self.sizes.iter().copied().max().unwrap_or(CARD_IDS)
    }

    /// The error for more cards than the limit (`got` when the count is known).
    fn too_many(&self, got: Option<usize>) -> Error {
        let want = if self.sizes.is_empty() {
            format!("at most {CARD_IDS}")
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
    // the common case first: a plain int (exactly int, so never a bool, nor
    // a Card), before the subclass walk of the Card check
    if let Ok(i) = item.cast_exact::<PyInt>() {
        out.push(card_id(i)?);
        return Ok(());
    }
    if let Ok(c) = item.cast::<Card>() {
        out.push(c.get().id);
        return Ok(());
    }
    if let Some(i) = as_index(item)? {
        out.push(card_id(&i)?);
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
    // a value JSON can hold too (a bool, a number, None) is worded as the
    // JSON channels word it, still a TypeError
    let shown = if item.is_none() {
        Some("null".to_string())
    } else if let Ok(flag) = item.cast::<PyBool>() {
        Some(flag.is_true().to_string())
    } else if item.is_instance_of::<PyFloat>() {
        Some(item.str()?.to_string())
    } else {
        None
    };
    if let Some(shown) = shown {
        let message = not_a_card(shown).message().to_string();
        return Err(ReadError::Item(PyTypeError::new_err(message)));
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
    check_hand(&ids, sizes, what).map_err(py_err)?;
    Ok(ids)
}

/// Reads one hand of `sizes` cards of the rules' deck, each once.
pub(crate) fn read_hand_of(
    obj: &Bound<'_, PyAny>,
    sizes: &[usize],
    what: &str,
    rules: &Rules,
) -> PyResult<Vec<u8>> {
    let mut ids = Vec::with_capacity(13);
    read_cards(obj, &mut ids, Want { sizes, what })?;
    capsa_core::hands::check(rules, &ids, sizes, what).map_err(py_err)?;
    Ok(ids)
}

/// Reads a 13-card hand (13 distinct cards).
pub(crate) fn read_full_hand(cards: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    read_hand(cards, &[13], "a 13-card hand")
}

/// 13 ids already checked to be 13.
pub(crate) fn hand13(ids: &[u8]) -> [u8; 13] {
    ids.try_into().expect("13 cards checked")
}

/// Reads a 3- or 5-card hand of the rules' deck into a fixed buffer
/// without allocating; the hand is called `what` in messages.
///
/// A list or tuple of 3 or 5 `Card`s or exact ints 0..51 (the per-call
/// ranking's common inputs) is read in one pass; anything else, and every
/// error, goes through the general reader, so messages do not depend on
/// which path read the hand.
pub(crate) fn read_small_hand(
    obj: &Bound<'_, PyAny>,
    buf: &mut [u8; 5],
    what: &str,
    rules: &Rules,
) -> PyResult<usize> {
    let read = if let Ok(list) = obj.cast::<PyList>() {
        read_small_list(list, buf)
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        read_small_tuple(tuple, buf)
    } else {
        None
    };
    match read {
        Some(n) if check_distinct(&buf[..n]).is_ok() => Ok(n),
        _ => read_small_hand_slow(obj, buf, what, rules),
    }
}

/// The ids of a list of 3 or 5 plain cards, or None (read it the long way).
fn read_small_list(list: &Bound<'_, PyList>, buf: &mut [u8; 5]) -> Option<usize> {
    let n = list.len();
    if n != 3 && n != 5 {
        return None;
    }
    plain_list_ids(list, &mut buf[..n])?;
    Some(n)
}

/// The ids of a tuple of 3 or 5 plain cards, or None (read it the long way).
fn read_small_tuple(tuple: &Bound<'_, PyTuple>, buf: &mut [u8; 5]) -> Option<usize> {
    let n = tuple.len();
    if n != 3 && n != 5 {
        return None;
    }
    plain_tuple_ids(tuple, &mut buf[..n])?;
    Some(n)
}

/// Reads 13 ids in row order into `buf` without allocating when `obj` is
/// an exact list or tuple of 13 `Card`s or exact ints 0..51 (what a
/// `capsa.Arrangement` holds); false for anything else, left to the
/// general reader, so that messages do not depend on which path read it.
/// Whether the 13 are distinct is not checked here, as the general reader
/// does not either.
pub(crate) fn read_plain_arrangement(obj: &Bound<'_, PyAny>, buf: &mut [u8; 13]) -> bool {
    if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        return tuple.len() == 13 && plain_tuple_ids(tuple, buf).is_some();
    }
    if let Ok(list) = obj.cast_exact::<PyList>() {
        return list.len() == 13 && plain_list_ids(list, buf).is_some();
    }
    false
}

/// The ids of the first `out.len()` items of a list (its length checked by
/// the caller), each a plain card, or None.
fn plain_list_ids(list: &Bound<'_, PyList>, out: &mut [u8]) -> Option<()> {
    // by index (the list's iterator asks the list's length at every step),
    // each item borrowed: an owned item costs an incref and a decref, two
    // calls into the interpreter on the stable ABI
    let py = list.py();
    let small = small_ids(py);
    for (k, slot) in out.iter_mut().enumerate() {
        // SAFETY: the GIL is held and no Python code runs until the item
        // is read (`plain_card_id` checks exact types and reads an exact
        // int's value, which calls nothing), so the list, which holds a
        // reference to the item, cannot change meanwhile; a null (an index
        // out of range) becomes an error that is fetched and dropped.
        let item = unsafe {
            let ptr = pyo3::ffi::PyList_GetItem(list.as_ptr(), k as pyo3::ffi::Py_ssize_t);
            pyo3::Borrowed::from_ptr_or_err(py, ptr)
        };
        *slot = plain_card_id(&*item.ok()?, small)?;
    }
    Some(())
}

/// The ids of the first `out.len()` items of a tuple (its length checked
/// by the caller), each a plain card, or None.
fn plain_tuple_ids(tuple: &Bound<'_, PyTuple>, out: &mut [u8]) -> Option<()> {
    let small = small_ids(tuple.py());
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = plain_card_id(&*tuple.get_borrowed_item(k).ok()?, small)?;
    }
    Some(())
}

/// The ints 0..51 as the interpreter hands them out, when it keeps one
/// object per small int and those 52 lie evenly spaced in memory, a power
/// of two apart (CPython keeps them in one array): an item at one of these
/// addresses is that int, found without a call into the interpreter (nor a
/// division).
struct SmallIds {
    first: usize,
    /// log2 of the spacing.
    shift: u32,
    /// Held so that no other object can ever live at these addresses.
    _held: Vec<Py<PyInt>>,
}

impl SmallIds {
    #[inline(always)]
    fn id_of(&self, item: &Bound<'_, PyAny>) -> Option<u8> {
        let offset = (item.as_ptr() as usize).wrapping_sub(self.first);
        let k = offset >> self.shift;
        (k < 52 && k << self.shift == offset).then_some(k as u8)
    }
}

/// The interpreter's small ints 0..51, or None when they are not one
/// object each, evenly spaced a power of two apart (then every int is read
/// by its value).
fn small_ids(py: Python<'_>) -> Option<&SmallIds> {
    static SMALL_IDS: pyo3::sync::PyOnceLock<Option<SmallIds>> = pyo3::sync::PyOnceLock::new();
    SMALL_IDS
        .get_or_init(py, || {
            let held: Vec<Py<PyInt>> = (0..52u8).map(|k| PyInt::new(py, k).unbind()).collect();
            let again = PyInt::new(py, 51u8);
            let first = held[0].as_ptr() as usize;
            let stride = (held[1].as_ptr() as usize).wrapping_sub(first);
            let even = held
                .iter()
                .enumerate()
                .all(|(k, i)| i.as_ptr() as usize == first.wrapping_add(k * stride));
            let cached = again.as_ptr() == held[51].as_ptr();
            let spaced = stride.is_power_of_two() && stride < 1024;
            (spaced && even && cached).then_some(SmallIds {
                first,
                shift: stride.trailing_zeros(),
                _held: held,
            })
        })
        .as_ref()
}

/// The id of a `Card` or of an exact int in 0..51; None for anything else
/// (a subclass of either, a bool, an id out of range, a text), which the
/// general reader then reads or refuses.
#[inline(always)]
fn plain_card_id(item: &Bound<'_, PyAny>, small: Option<&SmallIds>) -> Option<u8> {
    if let Some(id) = small.and_then(|s| s.id_of(item)) {
        return Some(id);
    }
    if let Ok(c) = item.cast_exact::<Card>() {
        return Some(c.get().id);
    }
    let i = item.cast_exact::<PyInt>().ok()?;
    match i.extract::<i64>() {
        Ok(v) if (0..52).contains(&v) => Some(v as u8),
        _ => None,
    }
}

fn read_small_hand_slow(
    obj: &Bound<'_, PyAny>,
    buf: &mut [u8; 5],
    what: &str,
    rules: &Rules,
) -> PyResult<usize> {
    let ids = read_hand_of(obj, &[3, 5], what, rules)?;
    buf[..ids.len()].copy_from_slice(&ids);
    Ok(ids.len())
}

/// Card ids of an (N, ...) numpy array: borrowed when it is uint8 and
/// C-contiguous (the fast path), else a checked uint8 copy.
pub(crate) struct CardArray<'py> {
    borrowed: Option<numpy::PyReadonlyArrayDyn<'py, u8>>,
    owned: Vec<u8>,
    pub(crate) shape: Vec<usize>,
}

impl CardArray<'_> {
    /// The ids, row-major.
    pub(crate) fn ids(&self) -> PyResult<&[u8]> {
        match &self.borrowed {
            Some(a) => Ok(a.as_slice()?),
            None => Ok(&self.owned),
        }
    }
}

/// An array shape as numpy writes it: `(2, 3)`, `(5,)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if shape.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    }
}

/// Where flat index `index` of an array of `shape` is, for messages:
/// "row r, column c" (with "seat s" between for (N, P, 13) tables).
fn position(shape: &[usize], index: usize) -> (String, Option<usize>) {
    let width = shape.last().copied().unwrap_or(1).max(1);
    let (rest, column) = (index / width, index % width);
    if shape.len() == 3 {
        let seats = shape[1].max(1);
        let (row, seat) = (rest / seats, rest % seats);
        (
            format!("row {row}, seat {seat}, column {column}"),
            Some(seat),
        )
    } else {
        (format!("row {rest}, column {column}"), None)
    }
}

/// Narrows checked integer ids to u8, naming the first one outside every
/// deck's ids (0..105); the rows' checks name a card the deck lacks.
fn narrow_ids<T: Copy + Into<i128>>(values: &[T], shape: &[usize]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(values.len());
    for (index, &v) in values.iter().enumerate() {
        let v: i128 = v.into();
        if !(0..CARD_IDS as i128).contains(&v) {
            let (place, seat) = position(shape, index);
            let e = Error::card(format!(
                "{place}: card id {v} is outside 0..{}",
                CARD_IDS - 1
            ));
            return Err(match seat {
                Some(s) => e.at_seat(s),
                None => e,
            });
        }
        out.push(v as u8);
    }
    Ok(out)
}

/// `np.ascontiguousarray(arr, dtype)` as an array of `T`.
fn contiguous_as<'py, T: numpy::Element>(
    arr: &Bound<'py, PyAny>,
    dtype: &str,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, T>> {
    let np = arr.py().import(pyo3::intern!(arr.py(), "numpy"))?;
    let copy = np.call_method1(
        pyo3::intern!(arr.py(), "ascontiguousarray"),
        (arr, np.getattr(dtype)?),
    )?;
    Ok(copy.cast_into::<numpy::PyArrayDyn<T>>()?.readonly())
}

/// The one reader of card-id arrays for every batch entry point. Accepts a
/// numpy array of any integer dtype (any byte order, any strides, read-only
/// too) whose shape `shape_ok` accepts (`want` describes it, e.g.
/// "(N, 13)"). Refuses other dtypes and non-arrays (TypeError naming the
/// dtype or type) and other shapes (TableError naming the shape). A uint8
/// C-contiguous array is borrowed as is (its ids are checked by the row
/// code, as before); any other is copied, each id checked to be in 0..51
/// (CardError naming the row and column).
pub(crate) fn card_array<'py>(
    arr: &Bound<'py, PyAny>,
    what: &str,
    want: &str,
    shape_ok: impl Fn(&[usize]) -> bool,
) -> PyResult<CardArray<'py>> {
    let Ok(untyped) = arr.cast::<numpy::PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape {want}, not {}",
            type_name(arr)
        )));
    };
    let dtype = untyped.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array (uint8 is fastest), got dtype {}",
            dtype.str().map(|d| d.to_string()).unwrap_or_default()
        )));
    }
    let shape = untyped.shape().to_vec();
    if !shape_ok(&shape) {
        return Err(err(
            ErrorKind::Table,
            format!(
                "{what} must have shape {want}, got shape {}",
                shape_text(&shape)
            ),
        ));
    }
    if let Ok(typed) = arr.cast::<numpy::PyArrayDyn<u8>>() {
        let ro = typed.readonly();
        if ro.is_c_contiguous() {
            return Ok(CardArray {
                borrowed: Some(ro),
                owned: Vec::new(),
                shape,
            });
        }
        let owned = ro.as_array().iter().copied().collect();
        return Ok(CardArray {
            borrowed: None,
            owned,
            shape,
        });
    }
    let owned = if kind == b'u' {
        narrow_ids(contiguous_as::<u64>(arr, "uint64")?.as_slice()?, &shape).map_err(py_err)?
    } else {
        narrow_ids(contiguous_as::<i64>(arr, "int64")?.as_slice()?, &shape).map_err(py_err)?
    };
    Ok(CardArray {
        borrowed: None,
        owned,
        shape,
    })
}

/// [`card_array`] for (N, width) hands, one of `widths` cards a row.
pub(crate) fn card_rows<'py>(
    arr: &Bound<'py, PyAny>,
    widths: &[usize],
    what: &str,
) -> PyResult<CardArray<'py>> {
    let want = widths
        .iter()
        .map(|w| format!("(N, {w})"))
        .collect::<Vec<_>>()
        .join(" or ");
    card_array(arr, what, &want, |shape| {
        shape.len() == 2 && widths.contains(&shape[1])
    })
}

/// [`card_array`] for N tables of P seats, 13 cards a seat: `cards` of
/// shape (N, P, 13), P a seat count the rules' deck seats
/// ([`check_table_seats`]).
pub(crate) fn table_cards<'py>(cards: &Bound<'py, PyAny>, deck: &Deck) -> PyResult<CardArray<'py>> {
    let want = format!("(N, P, 13) with P from {MIN_SEATS} to {}", most_seats(deck));
    card_array(cards, "cards", &want, |shape| {
        shape.len() == 3 && shape[2] == 13 && check_table_seats(deck, shape[1]).is_ok()
    })
}
