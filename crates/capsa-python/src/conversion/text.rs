//! Readers of text and bytes arguments: type names for messages, str and
//! bytes, strings as a record's fields are, server seeds and keys, the
//! items of per-seat lists, client seeds, digests, round and table ids and
//! the lines of the `capsa settle` stream.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::errors::{err, py_err};
use capsa_core::batch::StreamLine;
use capsa_core::error::ErrorKind;
use capsa_core::texts;
use capsa_records::fair::{self, parse_hex32, ServerSeed};

/// The name of `obj`'s type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// What `obj` is, named as a JSON value's kind is ("an integer", "a
/// string", "null", see `Json::kind`), so that a fault reads the same from
/// Python as from JSON; a value of another type is named by its type
/// ("numpy.bool", "set").
pub(crate) fn kind_name(obj: &Bound<'_, PyAny>) -> String {
    let kind = if obj.is_none() {
        "null"
    } else if obj.is_instance_of::<PyBool>() {
        "a boolean"
    } else if obj.is_instance_of::<PyInt>() {
        "an integer"
    } else if obj.is_instance_of::<PyFloat>() {
        "a number"
    } else if obj.is_instance_of::<PyString>() {
        "a string"
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        "an array"
    } else if obj.is_instance_of::<PyDict>() {
        "an object"
    } else {
        return obj
            .get_type()
            .fully_qualified_name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
    };
    kind.to_string()
}

/// The text of a str; one with lone surrogates (not encodable) is read with
/// them written as `\udXXX`, so that the card holding one is named.
pub(crate) fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    if let Ok(text) = s.to_str() {
        return Ok(Cow::Borrowed(text));
    }
    let escaped = s.call_method1("encode", ("utf-8", "backslashreplace"))?;
    let bytes = escaped.cast::<PyBytes>()?.as_bytes();
    Ok(Cow::Owned(String::from_utf8_lossy(bytes).into_owned()))
}

/// A str argument as UTF-8 text: a TypeError for another type, an
/// ArgumentError for a lone surrogate.
pub(crate) fn text_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a str, not {}", type_name(obj)))
    })?;
    s.to_str().map(str::to_owned).map_err(|_| {
        err(
            ErrorKind::Argument,
            format!("{what} holds a lone surrogate, which is not a character of UTF-8 text"),
        )
    })
}

/// A bytes argument (TypeError for any other type).
pub(crate) fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    obj.cast::<PyBytes>()
        .map(|b| b.as_bytes())
        .map_err(|_| PyTypeError::new_err(format!("{what} must be bytes, not {}", type_name(obj))))
}

/// Exactly 32 bytes, named `what` (ArgumentError for another length).
fn bytes32_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 32]> {
    let bytes = bytes_arg(obj, what)?;
    bytes.try_into().map_err(|_| {
        err(
            ErrorKind::Argument,
            format!("{what} must be 32 bytes, got {}", bytes.len()),
        )
    })
}

/// The server seed of a fair deal: `fair::SERVER_SEED_BYTES` bytes.
pub(crate) fn server_seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<ServerSeed> {
    const _: () = assert!(fair::SERVER_SEED_BYTES == 32);
    bytes32_arg(obj, "server_seed")
}

/// A ChaCha20 key: 32 bytes.
pub(crate) fn key32_arg(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 32]> {
    bytes32_arg(obj, "key")
}

/// The items of a per-seat list argument `what`: a list or tuple (at most
/// `seats + 1` of its items are taken, enough to tell a wrong count), or a
/// TypeError naming `expected` for another type. The caller checks the
/// count.
pub(crate) fn per_seat_items<'py>(
    obj: &Bound<'py, PyAny>,
    seats: usize,
    what: &str,
    expected: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        Ok(list.iter().take(seats + 1).collect())
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        Ok(tuple.iter().take(seats + 1).collect())
    } else {
        Err(PyTypeError::new_err(format!(
            "{what} must be {expected} (one per seat) or None, not {}",
            type_name(obj)
        )))
    }
}

/// Client seeds: None (none), or a list or tuple of str, one per seat,
/// checked by `fair::check_client_seeds`.
pub(crate) fn client_seeds_arg(
    obj: Option<&Bound<'_, PyAny>>,
    seats: usize,
) -> PyResult<Vec<String>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let items = per_seat_items(obj, seats, "client_seeds", "a list of str")?;
    let seeds = items
        .iter()
        .enumerate()
        .map(|(k, s)| text_arg(s, &format!("client_seeds[{k}]")))
        .collect::<PyResult<Vec<String>>>()?;
    fair::check_client_seeds(&seeds, seats).map_err(py_err)?;
    Ok(seeds)
}

/// A SHA-256 written as 64 lowercase hexadecimal digits, or None.
pub(crate) fn digest_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<[u8; 32]>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let text = text_arg(obj, what)?;
    parse_hex32(&text).map(Some).ok_or_else(|| {
        err(
            ErrorKind::Argument,
            format!(
                "{what} must be 64 lowercase hexadecimal digits (a SHA-256), got {:?}",
                text.chars().take(80).collect::<String>()
            ),
        )
    })
}

/// A string as a record's field is one, named `what`: a TypeError naming
/// the value's kind as a record's reader does ("must be a string, not an
/// integer"), an ArgumentError for a lone surrogate.
pub(crate) fn string_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a string, not {}",
            kind_name(obj)
        )));
    }
    text_arg(obj, what)
}

/// An id (of a table, a round or a player) at `field`, as a writer takes
/// it ([`texts::check_id`]).
pub(crate) fn id_arg(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<String> {
    let id = string_arg(obj, field)?;
    texts::check_id(&id, field).map_err(|m| err(ErrorKind::Argument, m))?;
    Ok(id)
}

/// A round id, as a writer takes an id.
pub(crate) fn round_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    id_arg(obj, "round_id")
}

/// A table id: None, or an id as a writer takes it.
pub(crate) fn table_id_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match obj.filter(|o| !o.is_none()) {
        Some(obj) => id_arg(obj, "table_id").map(Some),
        None => Ok(None),
    }
}

/// The lines of the `capsa settle` stream: each line's bytes, or (for a
/// line longer than the stream reads) its length.
pub(crate) fn stream_lines<'a, 'py>(
    lines: &'a [Bound<'py, PyAny>],
) -> PyResult<Vec<StreamLine<'a>>> {
    lines
        .iter()
        .map(|item| {
            if let Ok(b) = item.cast::<PyBytes>() {
                Ok(StreamLine::Bytes(b.as_bytes()))
            } else if item.is_instance_of::<PyInt>() {
                Ok(StreamLine::Overlong(item.extract()?))
            } else {
                Err(PyTypeError::new_err(
                    "each line is bytes, or the length of a line too long to read",
                ))
            }
        })
        .collect()
}
