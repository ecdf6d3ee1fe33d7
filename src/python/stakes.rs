//! Stakes from Python (an int, nested sequences, a 2-d numpy integer
//! array), read by the core's one stakes reader (`crate::stakes`).

use numpy::{PyArrayDescrMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::args::{as_index, int_text, type_name};
use crate::error::Error;
use crate::stakes::{read_stakes, StakeSpec, StakesFault, StakesInput, StakesValue};

/// At most `n` items of `obj`; None when it is not a sequence of items
/// (not iterable, or a str, bytes or mapping).
fn sequence_items<'py>(
    obj: &Bound<'py, PyAny>,
    n: usize,
) -> Option<PyResult<Vec<Bound<'py, PyAny>>>> {
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyDict>()
    {
        return None;
    }
    let iter = obj.try_iter().ok()?;
    Some(iter.take(n).collect())
}

impl<'py> StakesInput for Bound<'py, PyAny> {
    type Fail = PyErr;

    fn look(&self, limit: usize) -> PyResult<StakesValue<Self>> {
        if let Some(i) = as_index(self)? {
            return Ok(StakesValue::Int(
                i.extract::<i128>().map_err(|_| int_text(&i)),
            ));
        }
        let items = if let Ok(arr) = self.cast::<numpy::PyUntypedArray>() {
            let kind = arr.dtype().kind();
            if kind != b'i' && kind != b'u' {
                return Ok(StakesValue::Other);
            }
            sequence_items(&self.call_method0("tolist")?, limit)
        } else {
            sequence_items(self, limit)
        };
        match items {
            Some(items) => Ok(StakesValue::List(items?)),
            None => Ok(StakesValue::Other),
        }
    }

    fn describe(&self) -> String {
        match self.cast::<numpy::PyUntypedArray>() {
            Ok(arr) => format!(
                "a {}-d array of dtype {}",
                arr.ndim(),
                arr.dtype()
                    .str()
                    .map_or_else(|_| "?".into(), |s| s.to_string())
            ),
            Err(_) => type_name(self),
        }
    }
}

impl From<StakesFault> for PyErr {
    fn from(f: StakesFault) -> PyErr {
        if f.wrong_type {
            PyTypeError::new_err(f.message)
        } else {
            Error::table(f.message).into()
        }
    }
}

/// Reads `stakes` for a table of `seats`; None (or no argument) is None.
pub(crate) fn stakes_arg(
    stakes: Option<&Bound<'_, PyAny>>,
    seats: usize,
) -> PyResult<Option<StakeSpec>> {
    match stakes {
        Some(obj) if !obj.is_none() => Ok(Some(read_stakes(obj, seats)?)),
        _ => Ok(None),
    }
}
