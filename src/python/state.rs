//! Binding of a round state's MAC (`crate::state_mac`): the fields of a
//! Python dict written as canonical JSON and sealed under the server key in
//! one call. `capsa.round_state` is the Python layer.

use std::fmt::Write;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};

use super::conversion::text::type_name;
use crate::canonical::write_str;
use crate::fair::hex;
use crate::state_mac;

/// Deeper than any state capsa writes.
const MAX_DEPTH: usize = 32;

/// Appends the canonical JSON text of `value` (None, bool, int, str, list,
/// tuple, dict with str keys); a `ValueError` naming `field` otherwise.
fn write_value(
    out: &mut String,
    value: &Bound<'_, PyAny>,
    field: &str,
    depth: usize,
) -> PyResult<()> {
    let refuse = |why: String| PyValueError::new_err(format!("{field}: {why}"));
    if depth > MAX_DEPTH {
        return Err(refuse(format!("nested deeper than {MAX_DEPTH}")));
    }
    if value.is_none() {
        out.push_str("null");
    } else if let Ok(flag) = value.cast::<PyBool>() {
        out.push_str(if flag.is_true() { "true" } else { "false" });
    } else if let Ok(text) = value.cast::<PyString>() {
        write_str(out, text.to_str()?);
    } else if value.is_exact_instance_of::<pyo3::types::PyInt>() {
        match value.extract::<i128>() {
            Ok(v) if i64::try_from(v).is_ok() || u64::try_from(v).is_ok() => {
                let _ = write!(out, "{v}");
            }
            _ => return Err(refuse("an integer beyond 64 bits".into())),
        }
    } else if let Ok(map) = value.cast::<PyDict>() {
        let mut members = Vec::with_capacity(map.len());
        for (key, item) in map.iter() {
            let key = key
                .cast::<PyString>()
                .map_err(|_| refuse(format!("a key of type {}", type_name(&key))))?
                .to_str()?
                .to_owned();
            members.push((key, item));
        }
        members.sort_by(|a, b| a.0.cmp(&b.0));
        out.push('{');
        for (k, (key, item)) in members.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_str(out, key);
            out.push(':');
            write_value(out, item, field, depth + 1)?;
        }
        out.push('}');
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        out.push('[');
        for (k, item) in value.try_iter()?.enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_value(out, &item?, field, depth + 1)?;
        }
        out.push(']');
    } else {
        return Err(refuse(format!("a {} is not state data", type_name(value))));
    }
    Ok(())
}

/// The MAC of a round state's `fields` under `key` (bytes, at least
/// `state_mac::MIN_KEY_BYTES`): each field's by name, and the whole's
/// (lowercase hex).
#[pyfunction]
fn state_macs<'py>(
    key: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyDict>, String)> {
    let key = key.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err(format!(
            "key must be bytes (at least {} of them, 32 recommended), not {}",
            state_mac::MIN_KEY_BYTES,
            type_name(key)
        ))
    })?;
    let mut texts = Vec::with_capacity(fields.len());
    let mut out = String::with_capacity(256);
    for (name, value) in fields.iter() {
        let name = name
            .cast::<PyString>()
            .map_err(|_| PyValueError::new_err("a round state's keys are text"))?
            .to_str()?
            .to_owned();
        out.clear();
        write_value(&mut out, &value, &name, 0)?;
        texts.push((name, out.clone()));
    }
    texts.sort();
    let pairs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let (macs, whole) = state_mac::state_macs(key.as_bytes(), &pairs)?;
    let by_name = PyDict::new(fields.py());
    for ((name, _), mac) in texts.iter().zip(macs) {
        by_name.set_item(name, hex(&mac))?;
    }
    Ok((by_name, hex(&whole)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MIN_STATE_KEY_BYTES", state_mac::MIN_KEY_BYTES)?;
    m.add_function(wrap_pyfunction!(state_macs, m)?)?;
    Ok(())
}
