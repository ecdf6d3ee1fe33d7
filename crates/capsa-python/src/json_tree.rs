//! Python JSON data read into the engine's JSON tree ([`Json`]): the one
//! reader of JSON data given as Python values (a round state's fields, a
//! record given as a dict). The tree's text is the Python strs' own, read
//! through the C API with borrowed references, so that no text is copied
//! and no reference counted: see [`json_of`] for what that asks of a
//! caller.

use std::borrow::Cow;
use std::fmt::Display;
use std::marker::PhantomData;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::{ffi, Borrowed};

use super::conversion::text::type_name;
use capsa_core::canonical::{self, Json};

/// Deeper than any state or record capsa writes.
const MAX_DEPTH: usize = 32;

/// Where a value being read is from, for messages: the field's name and
/// what the data is (`"state data"`).
#[derive(Clone, Copy)]
pub(crate) struct Origin<'a> {
    pub(crate) field: &'a str,
    pub(crate) data: &'a str,
}

/// The tree of `value`: None, bool, int of at most 64 bits, str, list,
/// tuple, dict with str keys (members in the dict's order). A `ValueError`
/// naming the field for anything else, a value nested deeper than 32, or
/// a str that is not UTF-8 (a lone surrogate).
///
/// The tree's text is borrowed from the strs inside `value`, read as the
/// containers hold them (no `__iter__` or other Python code runs).
///
/// # Safety
/// No Python code may run while the tree lives: code that changed a
/// container inside `value` could free a str the tree borrows.
pub(crate) unsafe fn json_of<'a>(
    value: &'a Bound<'_, PyAny>,
    from: Origin<'_>,
) -> PyResult<Json<'a>> {
    Reader {
        from,
        root: PhantomData,
    }
    .value(value.as_borrowed(), 0)
}

/// Appends the canonical JSON text of `value`, read as [`json_of`] reads
/// it.
pub(crate) fn write_value(
    out: &mut String,
    value: &Bound<'_, PyAny>,
    from: Origin<'_>,
) -> PyResult<()> {
    // SAFETY: the tree is written and dropped without running Python code
    let tree = unsafe { json_of(value, from)? };
    canonical::write(out, &tree);
    Ok(())
}

struct Reader<'a, 'o> {
    from: Origin<'o>,
    root: PhantomData<&'a ()>,
}

impl<'a> Reader<'a, '_> {
    fn refuse(&self, why: impl Display) -> PyErr {
        PyValueError::new_err(format!("{}: {why}", self.from.field))
    }

    /// The text of a str inside the root value.
    fn text(&self, text: Borrowed<'a, '_, PyAny>) -> PyResult<Cow<'a, str>> {
        let mut size: ffi::Py_ssize_t = 0;
        // SAFETY: `text` is a str (checked by the caller); its UTF-8 form
        // lives as long as it does, which the contract of `json_of` makes
        // at least as long as the tree
        unsafe {
            let data = ffi::PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size);
            if data.is_null() {
                // the UnicodeEncodeError of a lone surrogate, named here
                drop(PyErr::fetch(text.py()));
                return Err(self.refuse(
                    "a text holds a lone surrogate, which is not a character of UTF-8 text",
                ));
            }
            let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
            Ok(Cow::Borrowed(std::str::from_utf8_unchecked(bytes)))
        }
    }

    fn value(&self, value: Borrowed<'a, '_, PyAny>, depth: usize) -> PyResult<Json<'a>> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(format_args!("nested deeper than {MAX_DEPTH}")));
        }
        if value.is_exact_instance_of::<PyString>() {
            return Ok(Json::Str(self.text(value)?));
        }
        if value.is_none() {
            return Ok(Json::Null);
        }
        if let Ok(flag) = value.cast::<PyBool>() {
            return Ok(Json::Bool(flag.is_true()));
        }
        if value.is_exact_instance_of::<PyInt>() {
            // i64 first: a wider extraction is slow under the stable ABI
            if let Ok(v) = value.extract::<i64>() {
                return Ok(Json::Int(i128::from(v)));
            }
            return match value.extract::<u64>() {
                Ok(v) => Ok(Json::Int(i128::from(v))),
                Err(_) => Err(self.refuse("an integer beyond 64 bits")),
            };
        }
        if value.is_instance_of::<PyString>() {
            return Ok(Json::Str(self.text(value)?));
        }
        if value.is_instance_of::<PyDict>() {
            return self.object(value, depth);
        }
        let list = value.is_instance_of::<PyList>();
        if list || value.is_instance_of::<PyTuple>() {
            return self.array(value, list, depth);
        }
        Err(self.refuse(format_args!(
            "a {} is not {}",
            type_name(&value),
            self.from.data
        )))
    }

    fn array(
        &self,
        value: Borrowed<'a, '_, PyAny>,
        list: bool,
        depth: usize,
    ) -> PyResult<Json<'a>> {
        let py = value.py();
        let at = |k: ffi::Py_ssize_t| {
            // SAFETY: `value` is a list or tuple and `k` within its length;
            // the item is borrowed from it
            unsafe {
                let item = if list {
                    ffi::PyList_GetItem(value.as_ptr(), k)
                } else {
                    ffi::PyTuple_GetItem(value.as_ptr(), k)
                };
                Borrowed::from_ptr(py, item)
            }
        };
        // SAFETY: `value` is a list or tuple
        let len = unsafe {
            if list {
                ffi::PyList_Size(value.as_ptr())
            } else {
                ffi::PyTuple_Size(value.as_ptr())
            }
        };
        let mut items = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        for k in 0..len {
            items.push(self.value(at(k), depth + 1)?);
        }
        Ok(Json::Array(items))
    }

    fn object(&self, map: Borrowed<'a, '_, PyAny>, depth: usize) -> PyResult<Json<'a>> {
        let py = map.py();
        // SAFETY: `map` is a dict
        let len = unsafe { ffi::PyDict_Size(map.as_ptr()) };
        let mut members = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        let mut at: ffi::Py_ssize_t = 0;
        let mut key = std::ptr::null_mut();
        let mut item = std::ptr::null_mut();
        // SAFETY: `map` is a dict; PyDict_Next lends its keys and values,
        // which the contract of `json_of` keeps alive
        while unsafe { ffi::PyDict_Next(map.as_ptr(), &mut at, &mut key, &mut item) } != 0 {
            let (key, item) =
                unsafe { (Borrowed::from_ptr(py, key), Borrowed::from_ptr(py, item)) };
            if !key.is_instance_of::<PyString>() {
                return Err(self.refuse(format_args!("a key of type {}", type_name(&key))));
            }
            members.push((self.text(key)?, self.value(item, depth + 1)?));
        }
        Ok(Json::Object(members))
    }
}
