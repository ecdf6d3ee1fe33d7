//! Readers of flags: one bool, and the per-seat flag arrays (surrender,
//! declare_natural) of the batch entry points.

use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use super::super::errors::err;
use super::cards::shape_text;
use super::text::{kind_name, type_name};
use capsa_core::error::ErrorKind;
use capsa_core::flags::not_a_flag;

/// A bool argument, named `what` (TypeError for any other type, ints too,
/// worded as every channel words a flag that is not one).
pub(crate) fn bool_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(PyTypeError::new_err(not_a_flag(what, &kind_name(value)))),
    }
}

/// Reads a surrender or declare_natural flag array, or None: numpy bool of
/// shape (n, p), any strides (copied row-major).
pub(crate) fn read_flags(
    obj: Option<&Bound<'_, PyAny>>,
    n: usize,
    p: usize,
    what: &str,
) -> PyResult<Option<Vec<bool>>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    let Ok(arr) = obj.cast::<numpy::PyArrayDyn<bool>>() else {
        let got = match obj.cast::<numpy::PyUntypedArray>() {
            Ok(a) => format!("dtype {}", a.dtype().str()?),
            Err(_) => type_name(obj),
        };
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy bool array of shape ({n}, {p}), got {got}"
        )));
    };
    let ro = arr.readonly();
    if ro.shape() != [n, p] {
        return Err(err(
            ErrorKind::Table,
            format!(
                "{what} must have shape ({n}, {p}), got shape {}",
                shape_text(ro.shape())
            ),
        ));
    }
    Ok(Some(ro.as_array().iter().copied().collect()))
}
