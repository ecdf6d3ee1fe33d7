//! JSON values between Python and the engine's canonical JSON
//! (`capsa_core::canonical`) without going through Python's `json` module:
//! Python data built straight from JSON text (a record or a settlement as
//! a dict), and the canonical text of Python data (read by
//! [`super::json_tree`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;

use super::json_tree::{write_value, Origin};
use crate::errors::py_err;
use capsa_core::canonical::{self, Key};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Most distinct object keys kept between calls: the records and
/// settlements capsa writes use a few dozen, so the bound only matters for
/// data with keys of its own.
const MAX_KEPT_KEYS: usize = 512;

/// A cheap hash of the short keys kept: there are at most
/// [`MAX_KEPT_KEYS`] of them, so SipHash's guard against crafted
/// collisions buys nothing here and cost a few percent of a record.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // the length and the first and last 8 bytes: keys that share them
        // only collide, and the map tells them apart by comparing
        let (head, tail) = match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
            _ => (
                bytes
                    .iter()
                    .fold(0u64, |word, &b| (word << 8) | u64::from(b)),
                0,
            ),
        };
        self.mix(head ^ ((bytes.len() as u64) << 56));
        self.mix(tail);
    }

    fn write_u8(&mut self, b: u8) {
        self.mix(u64::from(b));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type KeptKeys = HashMap<String, Py<PyString>, BuildHasherDefault<KeyHasher>>;

thread_local! {
    /// Each object key's str, kept between calls: a record's ~300 objects
    /// reuse a few dozen keys, and making them again was much of the cost.
    static KEPT_KEYS: RefCell<KeptKeys> = RefCell::new(KeptKeys::default());
}

/// The str of an object key, made once.
fn key_str<'py>(py: Python<'py>, keys: &mut KeptKeys, key: &str) -> Bound<'py, PyString> {
    if let Some(name) = keys.get(key) {
        return name.bind(py).clone();
    }
    let name = PyString::new(py, key);
    if keys.len() < MAX_KEPT_KEYS {
        keys.insert(key.to_owned(), name.clone().unbind());
    }
    name
}

/// Members of the outermost object taken as given rather than read: each
/// one's value in the text must be `null` (the caller put it in place of
/// the value's text) and the given value is put there; a member found is
/// taken out of the list.
pub(crate) type Given<'py> = Vec<(&'static str, Bound<'py, PyAny>)>;

/// Builds the Python value of JSON text as it is read, with no tree in
/// between; a Python error met on the way is kept in `fault`.
struct Build<'a, 'py> {
    py: Python<'py>,
    keys: &'a mut KeptKeys,
    fault: &'a mut Option<PyErr>,
    /// The given members: the outermost object's builder holds them, the
    /// builders of the values inside it none.
    given: Option<&'a mut Given<'py>>,
}

impl<'py> Build<'_, 'py> {
    /// The builder of a value inside this one.
    fn inner(&mut self) -> Build<'_, 'py> {
        Build {
            py: self.py,
            keys: &mut *self.keys,
            fault: &mut *self.fault,
            given: None,
        }
    }

    /// The given value of the member `key` of the outermost object, taken.
    fn take_given(&mut self, key: &str) -> Option<Bound<'py, PyAny>> {
        let given = self.given.as_deref_mut()?;
        let at = given.iter().position(|(name, _)| *name == key)?;
        Some(given.swap_remove(at).1)
    }

    /// Keeps a Python error for the caller, stopping the reading.
    fn failed<E: serde::de::Error>(&mut self, e: PyErr) -> E {
        *self.fault = Some(e);
        E::custom("a Python error")
    }
}

impl<'de, 'py> DeserializeSeed<'de> for Build<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for Build<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.py.None().into_bound(self.py))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(PyBool::new(self.py, v).to_owned().into_any())
    }

    fn visit_i64<E: serde::de::Error>(mut self, v: i64) -> Result<Self::Value, E> {
        v.into_bound_py_any(self.py).map_err(|e| self.failed(e))
    }

    fn visit_u64<E: serde::de::Error>(mut self, v: u64) -> Result<Self::Value, E> {
        v.into_bound_py_any(self.py).map_err(|e| self.failed(e))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(canonical::not_an_integer())
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PyString::new(self.py, v).into_any())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self.inner())? {
            items.push(item);
        }
        match PyList::new(self.py, items) {
            Ok(list) => Ok(list.into_any()),
            Err(e) => Err(self.failed(e)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        let dict = PyDict::new(self.py);
        // keys in order (canonical text) are distinct; once one is out of
        // order, each is looked for among those already read
        let mut last: Option<Cow<'de, str>> = None;
        let mut in_order = true;
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let name = key_str(self.py, self.keys, &key);
            in_order = in_order && last.as_ref().is_none_or(|l| *l < key);
            if !in_order
                && dict
                    .contains(&name)
                    .map_err(|e| self.failed::<A::Error>(e))?
            {
                return Err(canonical::given_twice(&key));
            }
            let value = match self.take_given(&key) {
                Some(value) => {
                    // the null put in place of the value given
                    map.next_value::<()>()?;
                    value
                }
                None => map.next_value_seed(self.inner())?,
            };
            dict.set_item(name, value)
                .map_err(|e| self.failed::<A::Error>(e))?;
            last = Some(key);
        }
        Ok(dict.into_any())
    }
}

/// The Python value of JSON text (dicts, lists, str, int, bool and None,
/// as `json.loads` gives them, keys in the order written; each distinct key
/// one str object), read as [`canonical::parse_str`] reads it.
pub(crate) fn text_to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    text_to_python_given(py, text, &mut Given::new())
}

/// [`text_to_python`] with members of the outermost object given (see
/// [`Given`]); those not met are left in `given`.
pub(crate) fn text_to_python_given<'py>(
    py: Python<'py>,
    text: &str,
    given: &mut Given<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    KEPT_KEYS.with(|kept| match kept.try_borrow_mut() {
        Ok(mut keys) => build(py, text, &mut keys, given),
        // reentered (not through capsa's own calls): keys of this call only
        Err(_) => build(py, text, &mut KeptKeys::default(), given),
    })
}

fn build<'py>(
    py: Python<'py>,
    text: &str,
    keys: &mut KeptKeys,
    given: &mut Given<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut fault = None;
    let built = canonical::parse_seeded(
        text,
        Build {
            py,
            keys,
            fault: &mut fault,
            given: Some(given),
        },
    );
    match (built, fault) {
        (_, Some(e)) => Err(e),
        (built, None) => Ok(built.map_err(py_err)?),
    }
}

/// A copy of JSON-ready Python data as [`text_to_python`] builds it: every
/// dict and list new, the keys and the values inside (str, int, bool,
/// None) shared, as they cannot change.
pub(crate) fn copy_value<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(dict) = value.cast_exact::<PyDict>() {
        // the table of keys and values copied whole, then each container
        // among the values replaced by its copy
        let out = dict.copy()?;
        for (key, item) in dict.iter() {
            if item.is_exact_instance_of::<PyDict>() || item.is_exact_instance_of::<PyList>() {
                out.set_item(key, copy_value(&item)?)?;
            }
        }
        return Ok(out.into_any());
    }
    if let Ok(list) = value.cast_exact::<PyList>() {
        let items = list
            .iter()
            .map(|item| copy_value(&item))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyList::new(value.py(), items)?.into_any());
    }
    Ok(value.clone())
}

/// The Python value of JSON text (``json.loads`` of it), for the canonical
/// JSON capsa writes: integers only, keys in the order written.
#[pyfunction]
fn json_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    text_to_python(py, text)
}

/// The canonical JSON text of Python data (``dict`` with str keys,
/// ``list``, ``tuple``, ``str``, ``int`` of at most 64 bits, ``bool``,
/// ``None``); ``ValueError`` for anything else.
#[pyfunction]
fn canonical_json_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut out = String::with_capacity(4096);
    let from = Origin {
        field: "the value",
        data: "JSON data",
    };
    write_value(&mut out, value, from)?;
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(json_value, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_json_of, m)?)?;
    Ok(())
}
