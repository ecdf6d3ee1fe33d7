//! Stakes from Python: a table's (an int, nested sequences, a 2-d numpy
//! integer array), read by the core's one stakes reader (`capsa_core::stakes`),
//! and bulk settlement's one stake per round (a 1-d int64 array).

use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::numbers::{as_index, int_text};
use super::text::{kind_name, type_name};
use crate::errors::{err, py_err};
use capsa_core::error::{Error, ErrorKind};
use capsa_core::stakes::{read_stakes, StakeSpec, StakesFault, StakesInput, StakesValue};

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

/// A Python value as the core's stakes reader reads it.
struct PyStakes<'py>(Bound<'py, PyAny>);

/// Why a Python value is not stakes: the reader's fault, or an exception
/// raised while reading the value.
struct StakesFail(PyErr);

impl From<PyErr> for StakesFail {
    fn from(e: PyErr) -> Self {
        StakesFail(e)
    }
}

impl From<StakesFault> for StakesFail {
    fn from(f: StakesFault) -> Self {
        StakesFail(if f.wrong_type {
            PyTypeError::new_err(f.message)
        } else {
            py_err(Error::table(f.message))
        })
    }
}

impl<'py> StakesInput for PyStakes<'py> {
    type Fail = StakesFail;

    fn look(&self, limit: usize) -> Result<StakesValue<Self>, StakesFail> {
        let value = &self.0;
        if let Some(i) = as_index(value)? {
            return Ok(StakesValue::Int(
                i.extract::<i128>().map_err(|_| int_text(&i)),
            ));
        }
        let items = if let Ok(arr) = value.cast::<numpy::PyUntypedArray>() {
            let kind = arr.dtype().kind();
            if kind != b'i' && kind != b'u' {
                return Ok(StakesValue::Other);
            }
            sequence_items(&value.call_method0("tolist")?, limit)
        } else {
            sequence_items(value, limit)
        };
        match items {
            Some(items) => Ok(StakesValue::List(
                items?.into_iter().map(PyStakes).collect(),
            )),
            None => Ok(StakesValue::Other),
        }
    }

    fn describe(&self) -> String {
        match self.0.cast::<numpy::PyUntypedArray>() {
            Ok(arr) => format!(
                "a {}-d array of dtype {}",
                arr.ndim(),
                arr.dtype()
                    .str()
                    .map_or_else(|_| "?".into(), |s| s.to_string())
            ),
            Err(_) => kind_name(&self.0),
        }
    }
}

/// Reads the stakes of a table of `seats` with the core's one stakes reader.
pub(crate) fn table_stakes(stakes: &Bound<'_, PyAny>, seats: usize) -> PyResult<StakeSpec> {
    read_stakes(&PyStakes(stakes.clone()), seats).map_err(|StakesFail(e)| e)
}

/// Reads `stakes` for a table of `seats`; None (or no argument) is None.
pub(crate) fn stakes_arg(
    stakes: Option<&Bound<'_, PyAny>>,
    seats: usize,
) -> PyResult<Option<StakeSpec>> {
    match stakes {
        Some(obj) if !obj.is_none() => Ok(Some(table_stakes(obj, seats)?)),
        _ => Ok(None),
    }
}

/// Reads `stakes` for a round record of `seats`: as [`stakes_arg`], and
/// every entry >= 0 and the diagonal 0, as records hold them
/// ([`StakeSpec::check`], `record::check_stakes_diagonal`).
pub(crate) fn record_stakes_arg(stakes: &Bound<'_, PyAny>, seats: usize) -> PyResult<StakeSpec> {
    let spec = table_stakes(stakes, seats)?;
    spec.check(seats).map_err(py_err)?;
    capsa_records::record::check_stakes_diagonal(&spec, seats)
        .map_err(|p| err(ErrorKind::Table, p.message))?;
    Ok(spec)
}

/// Bulk settlement's stakes: one stake per round, a 1-d numpy int64 array
/// of `rounds` entries, or None (the rules' stake). The core checks each
/// stake and reports a bad one as an error of its round.
pub(crate) fn stake_per_round_arg(
    obj: Option<&Bound<'_, PyAny>>,
    rounds: usize,
) -> PyResult<Option<Vec<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let Ok(arr) = obj.cast::<numpy::PyArray1<i64>>() else {
        return Err(PyTypeError::new_err(format!(
            "stakes must be a 1-d numpy int64 array of one stake per round, not {}",
            type_name(obj)
        )));
    };
    let ro = arr.readonly();
    if ro.len() != rounds {
        return Err(err(
            ErrorKind::Table,
            format!(
                "stakes must have one entry per round ({rounds}), got {}",
                ro.len()
            ),
        ));
    }
    Ok(Some(ro.as_array().iter().copied().collect()))
}
