//! Binding of a round state's MAC (`crate::state_mac`): the fields of a
//! Python dict written as canonical JSON and sealed under the server key in
//! one call. `capsa.round_state` is the Python layer.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::conversion::text::type_name;
use super::json_values::{write_value, Origin};
use crate::fair::hex;
use crate::state_mac;

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
        let from = Origin {
            field: &name,
            data: "state data",
        };
        write_value(&mut out, &value, from, 0)?;
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
