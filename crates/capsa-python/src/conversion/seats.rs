//! Readers of seats: the seats of a table to settle, by their public
//! attributes, never by their class (an arrangement, a seat with flags,
//! text or 13 cards; a `capsa.Arrangement` itself is read from the slot
//! behind its `ids`, the same ids); a seat's submission to a round; the seats of a
//! played round, for its record.

use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple, PyType};

use super::cards::{read_cards, read_plain_arrangement, ReadError, Want};
use super::flags::bool_arg;
use super::roles::seat_roles;
use super::text::type_name;
use crate::errors::py_err;
use capsa_core::arrangement::arrangement_size_error;
use capsa_core::deck::Deck;
use capsa_core::error::Error;
use capsa_core::rules::Rules;
use capsa_core::settle::{most_seats, seat_count_error, SeatInput, MAX_SEATS, MIN_SEATS};
use capsa_records::record::{self, PlayedSeat};

/// `getattr(obj, name, None)`: the attribute, or None when `obj` has none.
/// Python's own `getattr` with a default finds out without raising (and
/// so without the cost of an exception) for plain classes.
fn optional_attr<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    static GETATTR: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let py = obj.py();
    let getattr = GETATTR.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("builtins")?.getattr("getattr")?.unbind())
    })?;
    let value = getattr.bind(py).call1((obj, name, py.None()))?;
    Ok((!value.is_none()).then_some(value))
}

/// The ids tuple of a `capsa.Arrangement` itself (not a subclass, nor
/// another class with `ids`): what its `ids` property returns, read from
/// the slot behind it, so that the commonest seat costs no Python call.
/// `None` for any other object, read by its attributes as below.
fn exact_arrangement_ids<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    static ARRANGEMENT: pyo3::sync::PyOnceLock<Py<PyType>> = pyo3::sync::PyOnceLock::new();
    let py = obj.py();
    let arrangement = ARRANGEMENT.get_or_try_init(py, || {
        let class = py.import("capsa.arrangement")?.getattr("Arrangement")?;
        Ok::<_, PyErr>(class.cast_into::<PyType>()?.unbind())
    })?;
    if !obj.get_type().is(arrangement.bind(py)) {
        return Ok(None);
    }
    Ok(Some(obj.getattr(pyo3::intern!(py, "_ids"))?))
}

/// A seat's flag `name`: a bool attribute it must have.
fn seat_flag(seat: &Bound<'_, PyAny>, name: &Bound<'_, PyString>, index: usize) -> PyResult<bool> {
    let py = seat.py();
    let value = seat.getattr(name).map_err(|e| {
        if e.is_instance_of::<PyAttributeError>(py) {
            PyTypeError::new_err(format!(
                "seat {index}: a seat with an arrangement has bool surrender and \
                 declare_natural attributes; this {} has no {name}",
                type_name(seat)
            ))
        } else {
            e
        }
    })?;
    // the common case first: the message is written only for a bad flag
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => bool_arg(&value, &format!("seat {index}: {name}")),
    }
}

/// The ids of an arrangement: its `ids` when it has them (a plain getattr:
/// the common case is `capsa.Arrangement`, which has), else the object, to
/// be read as cards.
fn arrangement_ids<'py>(arrangement: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if is_cards(&arrangement) {
        return Ok(arrangement);
    }
    if let Some(ids) = exact_arrangement_ids(&arrangement)? {
        return Ok(ids);
    }
    let py = arrangement.py();
    match arrangement.getattr(pyo3::intern!(py, "ids")) {
        Ok(ids) => Ok(ids),
        Err(e) if e.is_instance_of::<PyAttributeError>(py) => Ok(arrangement),
        Err(e) => Err(e),
    }
}

/// Reads one seat by the protocol `settle` documents, by its public
/// attributes, never by its class: a str ("top / middle / bottom", or 13
/// cards in row order); a list or tuple of 13 cards in row order; an object
/// with `arrangement` (a seat, as `capsa.Seat`: that arrangement, read as
/// below, and its bool `surrender` and `declare_natural`, both required);
/// an object with `ids` (an arrangement, as `capsa.Arrangement`: 13 ids,
/// top, middle, bottom); or any other iterable of 13 cards.
pub(crate) fn read_seat(obj: &Bound<'_, PyAny>, index: usize) -> PyResult<SeatInput> {
    let py = obj.py();
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
        banker: false,
        multiplier: 1,
    };
    let arrangement = if is_cards(obj) {
        obj.clone()
    } else if let Some(ids) = exact_arrangement_ids(obj)? {
        ids
    } else if let Some(arrangement) = optional_attr(obj, pyo3::intern!(py, "arrangement"))? {
        seat.surrender = seat_flag(obj, pyo3::intern!(py, "surrender"), index)?;
        seat.declare_natural = seat_flag(obj, pyo3::intern!(py, "declare_natural"), index)?;
        arrangement_ids(arrangement)?
    } else {
        arrangement_ids(obj.clone())?
    };
    if let Ok(text) = arrangement.cast::<PyString>() {
        seat.cards.copy_from_slice(&arrangement_text(text, index)?);
        return Ok(seat);
    }
    if read_plain_arrangement(&arrangement, &mut seat.cards) {
        return Ok(seat);
    }
    let mut ids = Vec::with_capacity(13);
    let want = Want {
        sizes: &[13],
        what: "an arrangement",
    };
    match read_cards(&arrangement, &mut ids, want) {
        Ok(()) => {}
        Err(ReadError::Py(e)) if e.is_instance_of::<PyTypeError>(py) => {
            return Err(PyTypeError::new_err(format!(
                "seat {index}: a seat is an Arrangement, a Seat or 13 card ids, not {} ({})",
                type_name(obj),
                e.value(py)
            )))
        }
        Err(e) => return Err(e.in_seat(index).into()),
    }
    if ids.len() != 13 {
        return Err(ReadError::Core(arrangement_size_error(ids.len()))
            .in_seat(index)
            .into());
    }
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}

/// True for the types read as cards (or text) as they are.
fn is_cards(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
}

/// Reads the seats of one table of `deck` (reading stops one seat past the
/// most it seats).
pub(crate) fn read_seats(seats: &Bound<'_, PyAny>, deck: &Deck) -> PyResult<Vec<SeatInput>> {
    let most = most_seats(deck);
    let not_seats = seats.is_instance_of::<PyString>()
        || seats.is_instance_of::<pyo3::types::PyBytes>()
        || seats.is_instance_of::<pyo3::types::PyDict>();
    let iter = if not_seats {
        None
    } else {
        seats.try_iter().ok()
    };
    let Some(iter) = iter else {
        return Err(PyTypeError::new_err(format!(
            "seats must be a list of {MIN_SEATS} to {MAX_SEATS} seats \
             (Arrangement, Seat or 13 card ids), not {}",
            type_name(seats)
        )));
    };
    let mut inputs: Vec<SeatInput> = Vec::with_capacity(most);
    for (k, item) in iter.enumerate() {
        if k == most {
            return Err(py_err(too_many_seats(deck)));
        }
        inputs.push(read_seat(&item?, k)?);
    }
    Ok(inputs)
}

/// The error for more seats than a table of `deck` has, worded as
/// [`capsa_core::table::check_table_seats`] words it.
fn too_many_seats(deck: &Deck) -> Error {
    let most = most_seats(deck);
    if deck.is_standard() {
        seat_count_error(format_args!("more than {MAX_SEATS}"))
    } else {
        Error::table(format!(
            "a table of {} has {MIN_SEATS} to {most} seats, got more than {most}",
            deck.describe()
        ))
    }
}

/// The ids of "top / middle / bottom" text (or 13 cards in row order), as
/// the stream reads it; an error names the seat.
fn arrangement_text(text: &Bound<'_, PyString>, seat: usize) -> PyResult<Vec<u8>> {
    let at_seat = |e: Error| py_err(e.context(format_args!("seat {seat}")).at_seat(seat));
    let text = text
        .to_str()
        .map_err(|_| at_seat(Error::card("the arrangement text holds a lone surrogate")))?;
    let mut ids = Vec::with_capacity(13);
    capsa_core::arrangement::read_arrangement_text(text, &mut ids).map_err(at_seat)?;
    Ok(ids)
}

/// A seat's submission: an `Arrangement` (its `ids`), "top / middle /
/// bottom" text or 13 cards in row order; its 13 distinct ids. An error
/// names the seat.
pub(crate) fn submitted_arrangement(
    arrangement: &Bound<'_, PyAny>,
    seat: usize,
    rules: &Rules,
) -> PyResult<Vec<u8>> {
    let check = |ids: &[u8]| {
        capsa_core::hands::check(rules, ids, &[13], "an arrangement")
            .map_err(|e| ReadError::Core(e).in_seat(seat))
    };
    if let Ok(text) = arrangement.cast::<PyString>() {
        let ids = arrangement_text(text, seat)?;
        check(&ids)?;
        return Ok(ids);
    }
    let py = arrangement.py();
    let source = match arrangement.getattr(pyo3::intern!(py, "ids")) {
        Ok(ids) if !arrangement.is_instance_of::<PyList>() => ids,
        _ => arrangement.clone(),
    };
    let want = Want {
        sizes: &[13],
        what: "an arrangement",
    };
    let mut ids = Vec::with_capacity(13);
    match read_cards(&source, &mut ids, want) {
        Ok(()) => {}
        Err(ReadError::Py(e)) if e.is_instance_of::<PyTypeError>(py) => {
            return Err(PyTypeError::new_err(format!(
                "seat {seat}: an arrangement is an Arrangement, \"top / middle / bottom\" \
                 text or 13 cards in row order, not {}",
                type_name(arrangement)
            )))
        }
        Err(e) => return Err(e.in_seat(seat).into()),
    }
    if ids.len() != 13 {
        return Err(ReadError::Core(arrangement_size_error(ids.len()))
            .in_seat(seat)
            .into());
    }
    check(&ids)?;
    Ok(ids)
}

/// One seat as the Python layer passes a played round: a tuple (13 ids in
/// row order, whether the arrangement was made by the server, surrender,
/// declare_natural).
#[derive(FromPyObject)]
pub(crate) struct SubmittedSeat {
    #[pyo3(item(0))]
    ids: Vec<u8>,
    #[pyo3(item(1))]
    auto: bool,
    #[pyo3(item(2))]
    surrender: bool,
    #[pyo3(item(3))]
    declare_natural: bool,
}

/// The seats of a played round, each with its 13 ids (a HandError names a
/// seat with another number).
pub(crate) fn played_seats(seats: Vec<SubmittedSeat>) -> PyResult<Vec<PlayedSeat>> {
    let mut played = Vec::with_capacity(seats.len());
    for (k, seat) in seats.into_iter().enumerate() {
        let SubmittedSeat {
            ids,
            auto,
            surrender,
            declare_natural,
        } = seat;
        let arrangement: [u8; 13] = ids.as_slice().try_into().map_err(|_| {
            PyErr::from(ReadError::Core(arrangement_size_error(ids.len())).in_seat(k))
        })?;
        played.push(PlayedSeat {
            arrangement,
            auto,
            surrender,
            declare_natural,
            banker: false,
            multiplier: 1,
        });
    }
    Ok(played)
}

/// The played seats with the banker and multipliers given (`None`: no
/// banker, every multiplier 1), read as `settle` reads them.
pub(crate) fn with_roles(
    mut played: Vec<PlayedSeat>,
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PlayedSeat>> {
    let mut inputs = record::seat_inputs(&played);
    seat_roles(banker, multipliers, &mut inputs)?;
    for (seat, input) in played.iter_mut().zip(&inputs) {
        seat.banker = input.banker;
        seat.multiplier = input.multiplier;
    }
    Ok(played)
}
