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

fn key_bytes<'a, 'py>(key: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyBytes>> {
    key.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err(format!(
            "key must be bytes (at least {} of them, 32 recommended), not {}",
            state_mac::MIN_KEY_BYTES,
            type_name(key)
        ))
    })
}

/// Each field's name and canonical JSON text, sorted by name, leaving out
/// the field `skip`.
fn field_texts(fields: &Bound<'_, PyDict>, skip: Option<&str>) -> PyResult<Vec<(String, String)>> {
    let mut texts = Vec::with_capacity(fields.len());
    for (name, value) in fields.iter() {
        let name = name
            .cast::<PyString>()
            .map_err(|_| PyValueError::new_err("a round state's keys are text"))?
            .to_str()?;
        if skip == Some(name) {
            continue;
        }
        let mut out = String::with_capacity(64);
        let from = Origin {
            field: name,
            data: "state data",
        };
        write_value(&mut out, &value, from, 0)?;
        texts.push((name.to_owned(), out));
    }
    texts.sort_unstable();
    Ok(texts)
}

fn macs_of(key: &[u8], texts: &[(String, String)]) -> PyResult<(Vec<[u8; 32]>, [u8; 32])> {
    let pairs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    Ok(state_mac::state_macs(key, &pairs)?)
}

/// The MAC of a round state's `fields` under `key` (bytes, at least
/// `state_mac::MIN_KEY_BYTES`): each field's by name, and the whole's
/// (lowercase hex).
#[pyfunction]
fn state_macs<'py>(
    key: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyDict>, String)> {
    let key = key_bytes(key)?;
    let texts = field_texts(fields, None)?;
    let (macs, whole) = macs_of(key.as_bytes(), &texts)?;
    let by_name = PyDict::new(fields.py());
    for ((name, _), mac) in texts.iter().zip(macs) {
        by_name.set_item(name, hex(&mac))?;
    }
    Ok((by_name, hex(&whole)))
}

/// Whether the MAC of the whole of `state` under `key`, every field but
/// `skip` taken, is `whole` (hex), compared in constant time: the check of
/// a state that was not changed, in one call.
#[pyfunction]
fn state_mac_matches(
    key: &Bound<'_, PyAny>,
    state: &Bound<'_, PyDict>,
    whole: &str,
    skip: &str,
) -> PyResult<bool> {
    let key = key_bytes(key)?;
    let texts = field_texts(state, Some(skip))?;
    let (_, mac) = macs_of(key.as_bytes(), &texts)?;
    Ok(state_mac::same_mac(&mac, whole))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MIN_STATE_KEY_BYTES", state_mac::MIN_KEY_BYTES)?;
    m.add_function(wrap_pyfunction!(state_macs, m)?)?;
    m.add_function(wrap_pyfunction!(state_mac_matches, m)?)?;
    Ok(())
}
