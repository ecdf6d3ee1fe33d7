//! Readers of the plain arguments: integers in a range (a count, a seed,
//! the seat count), with the type name of anything else for messages.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use super::errors::err;
use crate::error::ErrorKind;
use crate::settle::{check_seat_count, seat_count_error};

/// The name of `obj`'s type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

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

/// The seat count argument: an integer (TypeError) that
/// [`check_seat_count`] accepts (else its TableError, naming `seats`).
pub(crate) fn seats_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let i = integer(obj, "seats")?;
    let checked = match usize::try_from(saturating_value(&i)?) {
        Ok(n) => check_seat_count(n).map(|()| n),
        Err(_) => Err(seat_count_error(int_text(&i))),
    };
    checked.map_err(|e| e.context("seats").into())
}

/// A count argument that must be at least 1 (ArgumentError), read as usize
/// (larger values are refused: nothing can be that many).
pub(crate) fn count_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    Ok(int_in_range(obj, what, 1, usize::MAX as i128, ErrorKind::Argument)? as usize)
}

/// A seed argument: 0 <= seed < 2**64 (ArgumentError).
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in_range(obj, "seed", 0, u64::MAX as i128, ErrorKind::Argument)? as u64)
}
