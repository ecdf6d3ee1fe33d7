//! JSON values between Python and the engine's canonical JSON
//! (`crate::canonical`) without going through Python's `json` module:
//! canonical text written straight from Python data (a round state's
//! fields, a record given as a dict), and Python data built straight from
//! JSON text (a record or a settlement as a dict).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::conversion::text::type_name;
use crate::canonical::{self, write_str, Json};

/// Deeper than any state or record capsa writes.
const MAX_DEPTH: usize = 32;

/// Where a value being written is from, for messages: the field's name and
/// what the data is (`"state data"`).
#[derive(Clone, Copy)]
pub(crate) struct Origin<'a> {
    pub(crate) field: &'a str,
    pub(crate) data: &'a str,
}

/// Appends the canonical JSON text of `value` (None, bool, int of at most
/// 64 bits, str, list, tuple, dict with str keys); a `ValueError` naming
/// the field otherwise.
pub(crate) fn write_value(
    out: &mut String,
    value: &Bound<'_, PyAny>,
    from: Origin<'_>,
    depth: usize,
) -> PyResult<()> {
    let field = from.field;
    let refuse = |why: String| PyValueError::new_err(format!("{field}: {why}"));
    if depth > MAX_DEPTH {
        return Err(refuse(format!("nested deeper than {MAX_DEPTH}")));
    }
    if let Ok(text) = value.cast_exact::<PyString>() {
        write_str(out, text.to_str()?);
    } else if value.is_none() {
        out.push_str("null");
    } else if let Ok(flag) = value.cast::<PyBool>() {
        out.push_str(if flag.is_true() { "true" } else { "false" });
    } else if value.is_exact_instance_of::<PyInt>() {
        // i64 first: a wider extraction is slow under the stable ABI
        if let Ok(v) = value.extract::<i64>() {
            let _ = write!(out, "{v}");
        } else if let Ok(v) = value.extract::<u64>() {
            let _ = write!(out, "{v}");
        } else {
            return Err(refuse("an integer beyond 64 bits".into()));
        }
    } else if let Ok(text) = value.cast::<PyString>() {
        write_str(out, text.to_str()?);
    } else if let Ok(map) = value.cast::<PyDict>() {
        write_dict(out, map, from, depth)?;
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        out.push('[');
        for (k, item) in value.try_iter()?.enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_value(out, &item?, from, depth + 1)?;
        }
        out.push(']');
    } else {
        return Err(refuse(format!(
            "a {} is not {}",
            type_name(value),
            from.data
        )));
    }
    Ok(())
}

fn write_dict(
    out: &mut String,
    map: &Bound<'_, PyDict>,
    from: Origin<'_>,
    depth: usize,
) -> PyResult<()> {
    let mut members = Vec::with_capacity(map.len());
    for (key, item) in map.iter() {
        let key = key.cast_into::<PyString>().map_err(|e| {
            PyValueError::new_err(format!(
                "{}: a key of type {}",
                from.field,
                type_name(e.into_inner().as_any())
            ))
        })?;
        members.push((key, item));
    }
    let mut texts = Vec::with_capacity(members.len());
    for (key, item) in &members {
        texts.push((key.to_str()?, item));
    }
    texts.sort_unstable_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (k, (key, item)) in texts.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        write_str(out, key);
        out.push(':');
        write_value(out, item, from, depth + 1)?;
    }
    out.push('}');
    Ok(())
}

/// Most distinct object keys kept between calls: the records and
/// settlements capsa writes use a few dozen, so the bound only matters for
/// data with keys of its own.
const MAX_KEPT_KEYS: usize = 512;

thread_local! {
    /// Each object key's str, kept between calls: a record's ~300 objects
    /// reuse a few dozen keys, and making them again was much of the cost.
    static KEPT_KEYS: RefCell<HashMap<String, Py<PyString>>> = RefCell::new(HashMap::new());
}

/// The Python value of `value`: dicts, lists, str, int, bool and None, as
/// `json.loads` gives them; each distinct key is one str object.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Json<'_>) -> PyResult<Bound<'py, PyAny>> {
    KEPT_KEYS.with(|kept| match kept.try_borrow_mut() {
        Ok(mut keys) => build(py, value, &mut keys),
        // reentered (not through capsa's own calls): keys of this call only
        Err(_) => build(py, value, &mut HashMap::new()),
    })
}

fn build<'py>(
    py: Python<'py>,
    value: &Json<'_>,
    keys: &mut HashMap<String, Py<PyString>>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Int(v) => match i64::try_from(*v) {
            Ok(small) => small.into_bound_py_any(py)?,
            Err(_) => v.into_bound_py_any(py)?,
        },
        Json::Str(text) | Json::Raw(text) => PyString::new(py, text).into_any(),
        Json::Array(items) => {
            let built = items
                .iter()
                .map(|item| build(py, item, keys))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, built)?.into_any()
        }
        Json::Object(members) => {
            let dict = PyDict::new(py);
            for (key, item) in members {
                let key: &str = key.as_ref();
                let name = match keys.get(key) {
                    Some(name) => name.bind(py).clone(),
                    None => {
                        let name = PyString::new(py, key);
                        if keys.len() < MAX_KEPT_KEYS {
                            keys.insert(key.to_owned(), name.clone().unbind());
                        }
                        name
                    }
                };
                dict.set_item(name, build(py, item, keys)?)?;
            }
            dict.into_any()
        }
    })
}

/// The Python value of JSON text the engine wrote (canonical JSON, as
/// `json.loads` reads it, keys in the order written).
pub(crate) fn text_to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let value = canonical::parse_str(text)?;
    to_python(py, &value)
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
    write_value(&mut out, value, from, 0)?;
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(json_value, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_json_of, m)?)?;
    Ok(())
}
