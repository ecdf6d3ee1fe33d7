//! Binding of a round state's MAC (`capsa_records::state_mac`): the fields of a
//! Python dict written as canonical JSON and sealed under the server key in
//! one call. `capsa.round.state` is the Python layer.

use std::cell::RefCell;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::conversion::text::type_name;
use super::json_tree::{write_value, Origin};
use crate::errors::py_err;
use capsa_core::canonical::write_str;
use capsa_records::fair::hex;
use capsa_records::state_mac::{self, StateKey};

fn key_bytes<'a, 'py>(key: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyBytes>> {
    key.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err(format!(
            "key must be bytes (at least {} of them, 32 recommended), not {}",
            state_mac::MIN_KEY_BYTES,
            type_name(key)
        ))
    })
}

/// A text field at least this long (a state's rules) has its MAC
/// remembered: a server's states share a few rule sets, and writing and
/// hashing their text is most of the work of a state's MAC.
const REMEMBERED_TEXT_BYTES: usize = 256;
const REMEMBERED_FIELDS: usize = 16;

struct RememberedMac {
    key: Vec<u8>,
    name: String,
    text: String,
    mac: [u8; 32],
}

thread_local! {
    static LONG_FIELDS: RefCell<Vec<RememberedMac>> = const { RefCell::new(Vec::new()) };
}

fn long_text_mac(key: &StateKey, key_bytes: &[u8], name: &str, text: &str) -> [u8; 32] {
    LONG_FIELDS.with_borrow_mut(|remembered| {
        let found = remembered
            .iter()
            .find(|r| r.text == text && r.name == name && r.key == key_bytes);
        if let Some(found) = found {
            return found.mac;
        }
        let mut canonical = String::with_capacity(text.len() + 64);
        write_str(&mut canonical, text);
        let mac = key.field_mac(name, &canonical);
        if remembered.len() >= REMEMBERED_FIELDS {
            remembered.remove(0);
        }
        remembered.push(RememberedMac {
            key: key_bytes.to_vec(),
            name: name.to_owned(),
            text: text.to_owned(),
            mac,
        });
        mac
    })
}

/// At most this many short fields' MACs are remembered a thread.
const REMEMBERED_SHORT_FIELDS: usize = 128;
/// A field longer than this (a saved ledger's entries) is not remembered.
const REMEMBERED_INPUT_BYTES: usize = 4096;

/// The MACs of short fields lately sealed or checked under one key, by
/// the field's name, a zero byte and its canonical text (the MAC's input):
/// a server restores a state, acts and seals it again, and most fields
/// come back unchanged. A MAC is a function of its input and the key, so
/// a remembered one is the one that would be computed.
struct ShortFieldMacs {
    key: Vec<u8>,
    macs: std::collections::HashMap<String, [u8; 32]>,
}

thread_local! {
    static SHORT_FIELDS: RefCell<ShortFieldMacs> = RefCell::new(ShortFieldMacs {
        key: Vec::new(),
        macs: std::collections::HashMap::new(),
    });
}

/// The MAC of a field whose name, a zero byte and canonical text are
/// `input`.
fn short_field_mac(key: &StateKey, key_bytes: &[u8], input: &str) -> [u8; 32] {
    SHORT_FIELDS.with_borrow_mut(|remembered| {
        if remembered.key != key_bytes {
            remembered.key = key_bytes.to_vec();
            remembered.macs.clear();
        }
        if let Some(mac) = remembered.macs.get(input) {
            return *mac;
        }
        let mac = key.mac_of(input.as_bytes());
        if input.len() > REMEMBERED_INPUT_BYTES {
            return mac;
        }
        if remembered.macs.len() >= REMEMBERED_SHORT_FIELDS {
            remembered.macs.clear();
        }
        remembered.macs.insert(input.to_owned(), mac);
        mac
    })
}

/// A state's fields as given, each key and value, in the dict's order.
type GivenFields<'py> = Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

fn given_fields<'py>(fields: &Bound<'py, PyDict>) -> GivenFields<'py> {
    fields.iter().collect()
}

/// A field's name, the state's key naming it, and its MAC.
type FieldMac<'a, 'py> = (&'a str, &'a Bound<'py, PyString>, [u8; 32]);

/// Each field's name (as text and as the state's key) and MAC (of its
/// canonical JSON text), sorted by name, leaving out the field `skip`.
fn field_macs<'a, 'py>(
    key: &StateKey,
    key_bytes: &[u8],
    given: &'a GivenFields<'py>,
    skip: Option<&str>,
) -> PyResult<Vec<FieldMac<'a, 'py>>> {
    let mut macs = Vec::with_capacity(given.len());
    let mut out = String::with_capacity(256);
    for (name_key, value) in given {
        let name_key = name_key
            .cast::<PyString>()
            .map_err(|_| PyValueError::new_err("a round state's keys are text"))?;
        let name = name_key.to_str().map_err(|_| {
            PyValueError::new_err("a key of the state holds a lone surrogate, which is not text")
        })?;
        if skip == Some(name) {
            continue;
        }
        let long_text = match value.cast_exact::<PyString>() {
            Ok(text) => Some(text.to_str().map_err(|_| {
                PyValueError::new_err(format!(
                    "{name} holds a lone surrogate, which is not a character of UTF-8 text"
                ))
            })?)
            .filter(|t| t.len() >= REMEMBERED_TEXT_BYTES),
            Err(_) => None,
        };
        let mac = match long_text {
            Some(text) => long_text_mac(key, key_bytes, name, text),
            None => {
                out.clear();
                out.push_str(name);
                out.push('\0');
                let from = Origin {
                    field: name,
                    data: "state data",
                };
                write_value(&mut out, value, from)?;
                short_field_mac(key, key_bytes, &out)
            }
        };
        macs.push((name, name_key, mac));
    }
    macs.sort_unstable_by(|a, b| a.0.cmp(b.0));
    Ok(macs)
}

fn whole_of(key: &StateKey, macs: &[FieldMac<'_, '_>]) -> [u8; 32] {
    key.whole_mac(macs.iter().map(|(n, _, m)| (*n, m)))
}

thread_local! {
    /// The last server key made ready: a server seals and checks every
    /// state under one key.
    static LAST_KEY: RefCell<Option<(Vec<u8>, StateKey)>> = const { RefCell::new(None) };
}

/// `key_bytes` made ready to MAC (at least `state_mac::MIN_KEY_BYTES`).
fn state_key(key_bytes: &[u8]) -> PyResult<StateKey> {
    LAST_KEY.with_borrow_mut(|last| {
        if let Some((_, key)) = last.as_ref().filter(|(b, _)| b == key_bytes) {
            return Ok(key.clone());
        }
        let key = StateKey::new(key_bytes).map_err(py_err)?;
        *last = Some((key_bytes.to_vec(), key.clone()));
        Ok(key)
    })
}

// the key's least length is `state_mac::MIN_KEY_BYTES`
/// The MAC of a round state's ``fields`` under ``key`` (HMAC-SHA256;
/// ``capsa.round.state``): each field's by name, and the whole's
/// (lowercase hex).
///
/// ``TypeError`` for a key that is not bytes, ``ArgumentError`` for one
/// shorter than ``MIN_STATE_KEY_BYTES``, ``ValueError`` naming a field that
/// is not JSON data (a float, an integer beyond 64 bits, a key not text).
#[pyfunction]
fn state_macs<'py>(
    key: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyDict>, String)> {
    let key_bytes = key_bytes(key)?.as_bytes();
    let key = state_key(key_bytes)?;
    let given = given_fields(fields);
    let macs = field_macs(&key, key_bytes, &given, None)?;
    let by_name = PyDict::new(fields.py());
    for (_, name, mac) in &macs {
        by_name.set_item(name, hex(mac))?;
    }
    Ok((by_name, hex(&whole_of(&key, &macs))))
}

/// Whether the MAC of the whole of ``state`` under ``key``, every field but
/// ``skip`` taken, is ``whole`` (hex), compared in constant time: the check
/// of a state that was not changed, in one call. Raises as :func:`state_macs`
/// does.
#[pyfunction]
fn state_mac_matches(
    key: &Bound<'_, PyAny>,
    state: &Bound<'_, PyDict>,
    whole: &str,
    skip: &str,
) -> PyResult<bool> {
    let key_bytes = key_bytes(key)?.as_bytes();
    let key = state_key(key_bytes)?;
    let given = given_fields(state);
    let macs = field_macs(&key, key_bytes, &given, Some(skip))?;
    Ok(state_mac::same_mac(&whole_of(&key, &macs), whole))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MIN_STATE_KEY_BYTES", state_mac::MIN_KEY_BYTES)?;
    m.add_function(wrap_pyfunction!(state_macs, m)?)?;
    m.add_function(wrap_pyfunction!(state_mac_matches, m)?)?;
    Ok(())
}
