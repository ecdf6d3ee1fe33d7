//! Readers of integer arguments: any int in a range, the seat count,
//! counts, seeds, nonces, deal indices, thread counts and training sizes.

use capsa_core::deck::{Deck, CARD_IDS};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use super::text::type_name;
use crate::errors::{err, py_err};
use capsa_core::error::{Error, ErrorKind};
use capsa_core::settle::{check_seat_count, check_table_seats, seat_count_error};
use capsa_core::table::table_seats_error;

/// The most words or shuffles one generator call returns (the command line
/// asks in chunks, so memory stays flat).
pub(crate) const MAX_RNG_CHUNK: usize = 1 << 22;

/// `obj` as a Python int when it is an integer: an `int` or anything with
/// `__index__` (numpy integers), but not a bool (a bool is a flag, never a
/// number here; numpy bools have no `__index__`).
pub(crate) fn as_index<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyInt>>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Ok(Some(i.clone()));
    }
    if obj.is_instance_of::<PyString>() || !obj.hasattr(pyo3::intern!(obj.py(), "__index__"))? {
        return Ok(None);
    }
    // a numpy array has `__index__` but only a 0-d integer one answers it
    match obj.call_method0(pyo3::intern!(obj.py(), "__index__")) {
        Ok(index) => Ok(index.cast_into::<PyInt>().ok()),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The value of a Python int of any size, saturated to the i128 range (a
/// saturated value is outside every range the binding checks).
pub(crate) fn saturating_value(i: &Bound<'_, PyInt>) -> PyResult<i128> {
    match i.extract::<i128>() {
        Ok(v) => Ok(v),
        Err(_) if i.lt(0)? => Ok(i128::MIN),
        Err(_) => Ok(i128::MAX),
    }
}

/// An int for a message: its digits, or its size when it has very many
/// (Python refuses to print ints of more than 4300 digits).
pub(crate) fn int_text(i: &Bound<'_, PyInt>) -> String {
    match i.extract::<i128>() {
        Ok(v) => v.to_string(),
        Err(_) => {
            let bits = i
                .call_method0("bit_length")
                .and_then(|b| b.extract::<u64>())
                .unwrap_or(0);
            let sign = if i.lt(0).unwrap_or(false) { "-" } else { "" };
            format!("{sign}(an integer of {bits} bits)")
        }
    }
}

/// `obj` as a Python int (see [`as_index`]), else a TypeError naming `what`.
pub(crate) fn integer<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyInt>> {
    as_index(obj)?.ok_or_else(|| {
        PyTypeError::new_err(format!("{what} must be an integer, not {}", type_name(obj)))
    })
}

/// Reads an integer argument in `lo..=hi` (`hi` = `i128::MAX`: no upper
/// bound, and any larger Python int is read as `i128::MAX`). Bools, floats
/// and other types are a TypeError; a value outside the range an error of
/// `kind` naming the argument and the range.
pub(crate) fn int_in_range(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i128,
    hi: i128,
    kind: ErrorKind,
) -> PyResult<i128> {
    let i = integer(obj, what)?;
    let v = saturating_value(&i)?;
    if (lo..=hi).contains(&v) {
        return Ok(v);
    }
    let range = if hi == i128::MAX {
        format!(">= {lo}")
    } else {
        format!("in {lo}..{hi}")
    };
    Err(err(
        kind,
        format!("{what} must be {range}, got {}", int_text(&i)),
    ))
}

/// A seat count: an integer (TypeError), then whether
/// [`check_seat_count`] accepts it.
fn seat_count(obj: &Bound<'_, PyAny>) -> PyResult<Result<usize, Error>> {
    let i = integer(obj, "seats")?;
    Ok(match usize::try_from(saturating_value(&i)?) {
        Ok(n) => check_seat_count(n).map(|()| n),
        Err(_) => Err(seat_count_error(int_text(&i))),
    })
}

/// A table's seat count: an integer (TypeError) that [`check_seat_count`]
/// accepts (else its TableError, as every channel words it).
pub(crate) fn seat_count_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    seat_count(obj)?.map_err(py_err)
}

/// The seat count of a table of `deck`: an integer (TypeError) that
/// [`check_table_seats`] accepts (else its TableError, which for the
/// 52-card deck words it as [`seat_count_arg`] does).
pub(crate) fn table_seats_arg(obj: &Bound<'_, PyAny>, deck: &Deck) -> PyResult<usize> {
    table_seats(obj, deck)?.map_err(py_err)
}

/// A seat count of a table of `deck`: an integer (TypeError), then whether
/// [`check_table_seats`] accepts it.
fn table_seats(obj: &Bound<'_, PyAny>, deck: &Deck) -> PyResult<Result<usize, Error>> {
    let i = integer(obj, "seats")?;
    Ok(match usize::try_from(saturating_value(&i)?) {
        Ok(n) => check_table_seats(deck, n).map(|()| n),
        // below zero or beyond the machine's integers: no deck seats it
        Err(_) => Err(table_seats_error(deck, int_text(&i))),
    })
}

/// The `seats` argument of the solver's entry points under the rules'
/// deck: 4 when left out, else as [`table_seats_arg`] reads it, its
/// TableError naming the argument.
pub(crate) fn solver_seats(seats: Option<&Bound<'_, PyAny>>, deck: &Deck) -> PyResult<usize> {
    match seats {
        None => Ok(4),
        Some(s) => table_seats(s, deck)?.map_err(|e| py_err(e.context("seats"))),
    }
}

/// The `seats` argument of the tools (solver, simulation, dealing): as
/// [`seat_count_arg`], its TableError naming the argument.
pub(crate) fn seats_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    seat_count(obj)?.map_err(|e| py_err(e.context("seats")))
}

/// A count of things to do (deals, hands, opponents, threads): at least 1
/// (ArgumentError), read as usize (larger values are refused: nothing can
/// be that many).
pub(crate) fn count_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    Ok(int_in_range(obj, what, 1, usize::MAX as i128, ErrorKind::Argument)? as usize)
}

/// A size that may be 0, up to `max` (ArgumentError): how many words or
/// shuffles one generator call returns, or a training size (whose own
/// range the core checks).
pub(crate) fn size_arg(obj: &Bound<'_, PyAny>, what: &str, max: usize) -> PyResult<usize> {
    Ok(int_in_range(obj, what, 0, max as i128, ErrorKind::Argument)? as usize)
}

/// An unsigned 64-bit argument, 0 <= value < 2**64 (ArgumentError): a
/// seed, a nonce, a deal index or a word position.
pub(crate) fn u64_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    Ok(int_in_range(obj, what, 0, u64::MAX as i128, ErrorKind::Argument)? as u64)
}

/// A seed argument: 0 <= seed < 2**64 (ArgumentError).
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    u64_arg(obj, "seed")
}

/// The nonce of a fair deal: 0 <= nonce < 2**64 (ArgumentError).
pub(crate) fn nonce_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    u64_arg(obj, "nonce")
}

/// The `threads` argument: None (every core) or a count >= 1.
pub(crate) fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads
        .filter(|t| !t.is_none())
        .map(|t| count_arg(t, "threads"))
        .transpose()
}

/// The `hands` of a training (any size; the core checks the range).
pub(crate) fn train_hands(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_arg(obj, "hands", usize::MAX)
}

/// The `iterations` of a training (any size; the core checks the range).
pub(crate) fn train_iterations(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_arg(obj, "iterations", usize::MAX)
}

/// A card id given as an integer (already known not to be a bool): 0..105,
/// the ids of every deck (whether the rules' deck holds it is checked
/// where the rules are known).
pub(crate) fn card_id(i: &Bound<'_, PyInt>) -> Result<u8, capsa_core::error::Error> {
    match i.extract::<i64>() {
        Ok(v) if (0..CARD_IDS as i64).contains(&v) => Ok(v as u8),
        _ => Err(capsa_core::error::Error::card(format!(
            "card id {} is outside 0..{}",
            int_text(i),
            CARD_IDS - 1
        ))),
    }
}
