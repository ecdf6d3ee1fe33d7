//! The reader of the server's notes for a round record (`meta`): a
//! mapping or JSON object text, checked by `record::check_meta`.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use super::numbers::int_text;
use super::text::{kind_name, text_arg, type_name};
use crate::errors::{err, py_err};
use capsa_core::canonical::{self, Json};
use capsa_core::error::ErrorKind;
use capsa_records::record::{self, Members};

/// One value of the server's notes, from Python: a str, an int of at most
/// 64 bits, a bool or None (a TypeError names any other type).
fn meta_value(value: &Bound<'_, PyAny>, key: &str) -> PyResult<Json<'static>> {
    if value.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(Json::Bool(flag.is_true()));
    }
    if let Ok(i) = value.cast::<PyInt>() {
        return match i.extract::<i128>() {
            Ok(v) if (i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&v) => Ok(Json::Int(v)),
            _ => Err(err(
                ErrorKind::Argument,
                format!("meta[{key:?}] must fit in 64 bits, got {}", int_text(i)),
            )),
        };
    }
    if value.is_instance_of::<PyString>() {
        return Ok(Json::Str(Cow::Owned(text_arg(
            value,
            &format!("meta[{key:?}]"),
        )?)));
    }
    Err(PyTypeError::new_err(format!(
        "meta[{key:?}] must be a text, an integer, a boolean or null, not {}",
        kind_name(value)
    )))
}

/// The server's notes from a mapping of str keys.
fn meta_members(obj: &Bound<'_, PyAny>) -> PyResult<Members<'static>> {
    let items = match obj.cast::<PyDict>() {
        Ok(d) => d.items().into_any(),
        Err(_) => obj.call_method0(pyo3::intern!(obj.py(), "items"))?,
    };
    let mut members = Vec::new();
    for item in items.try_iter()? {
        let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        if !key.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "meta keys must be str, not {}",
                type_name(&key)
            )));
        }
        let key = text_arg(&key, "a meta key")?;
        let value = meta_value(&value, &key)?;
        members.push((Cow::Owned(key), value));
    }
    Ok(members)
}

/// True for a `collections.abc.Mapping`.
fn is_mapping(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    static MAPPING: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let py = obj.py();
    let mapping = MAPPING.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("collections.abc")?.getattr("Mapping")?.unbind())
    })?;
    obj.is_instance(mapping.bind(py))
}

/// The server's notes for a record: None (none), a mapping of str to str,
/// int, bool or None, or the same as JSON object text; checked by
/// `record::check_meta`.
pub(crate) fn meta_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Members<'static>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let members = if obj.is_instance_of::<PyString>() {
        let text = text_arg(obj, "meta")?;
        match canonical::parse_str(&text).map_err(py_err)?.into_owned() {
            Json::Object(members) => members,
            other => {
                return Err(err(
                    ErrorKind::Argument,
                    format!("meta must be an object, not {}", other.kind()),
                ))
            }
        }
    } else if is_mapping(obj)? {
        meta_members(obj)?
    } else {
        return Err(PyTypeError::new_err(format!(
            "meta must be a mapping or None, not {}",
            type_name(obj)
        )));
    };
    record::check_meta(&members).map_err(py_err)?;
    Ok(members)
}
