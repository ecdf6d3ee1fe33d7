//! Readers of the seats of a table: by their public attributes, never by
//! their class (an arrangement, a seat with flags, text or 13 cards).

use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::super::errors::err;
use super::cards::{read_cards, ReadError, Want};
use super::flags::bool_arg;
use super::text::type_name;
use crate::error::{Error, ErrorKind};
use crate::settle::{seat_count_error, SeatInput, MAX_SEATS, MIN_SEATS};

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
    bool_arg(&value, &format!("seat {index}: {name}"))
}

/// The ids of an arrangement: its `ids` when it has them (a plain getattr:
/// the common case is `capsa.Arrangement`, which has), else the object, to
/// be read as cards.
fn arrangement_ids<'py>(arrangement: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if is_cards(&arrangement) {
        return Ok(arrangement);
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
    };
    let arrangement = if is_cards(obj) {
        obj.clone()
    } else if let Some(arrangement) = optional_attr(obj, pyo3::intern!(py, "arrangement"))? {
        seat.surrender = seat_flag(obj, pyo3::intern!(py, "surrender"), index)?;
        seat.declare_natural = seat_flag(obj, pyo3::intern!(py, "declare_natural"), index)?;
        arrangement_ids(arrangement)?
    } else {
        arrangement_ids(obj.clone())?
    };
    // "top / middle / bottom" text, as the stream reads it
    if let Ok(text) = arrangement.cast::<PyString>() {
        let text = text.to_str().map_err(|_| {
            err(
                ErrorKind::Card,
                format!("seat {index}: the arrangement text is not valid Unicode"),
            )
        })?;
        let mut ids = Vec::with_capacity(13);
        crate::arrangement::read_arrangement_text(text, &mut ids)
            .map_err(|e| PyErr::from(e.context(format_args!("seat {index}")).at_seat(index)))?;
        seat.cards.copy_from_slice(&ids);
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
        return Err(Error::hand(format!(
            "seat {index}: an arrangement has 13 cards, got {}",
            ids.len()
        ))
        .at_seat(index)
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

/// Reads the seats of one table (at most one more than a table can have).
pub(crate) fn read_seats(seats: &Bound<'_, PyAny>) -> PyResult<Vec<SeatInput>> {
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
    let mut inputs: Vec<SeatInput> = Vec::with_capacity(MAX_SEATS);
    for (k, item) in iter.enumerate() {
        if k == MAX_SEATS {
            return Err(seat_count_error(format_args!("more than {MAX_SEATS}")).into());
        }
        inputs.push(read_seat(&item?, k)?);
    }
    Ok(inputs)
}
