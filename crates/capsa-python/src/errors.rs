//! The one place where core errors become Python exceptions: one class per
//! [`ErrorKind`], each a subclass of `capsa.CapsaError` (a `ValueError`),
//! carrying the seat and row the error was found in (`None` elsewhere).

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use capsa_core::error::{Error, ErrorKind};

create_exception!(
    capsa,
    CapsaError,
    PyValueError,
    "Base class of every capsa error, a ``ValueError``: a value that is not\n\
     valid.\n\n\
     ``seat`` (the seat index) and ``row`` (``\"top\"``, ``\"middle\"`` or\n\
     ``\"bottom\"``) say where in a table the error was found, or are ``None``.\n\
     A wrong Python type raises ``TypeError`` instead."
);
create_exception!(
    capsa,
    CardError,
    CapsaError,
    "A card that cannot be read (naming the token and its position), a card\n\
     id outside 0..105 (in a batch, naming the row and column) or a card the\n\
     rules' deck does not hold."
);
create_exception!(
    capsa,
    HandError,
    CapsaError,
    "A hand, row or arrangement with the wrong number of cards, or a card\n\
     given twice."
);
create_exception!(
    capsa,
    RulesError,
    CapsaError,
    "Rules that are not valid: an unknown preset or knob, a bad value (naming\n\
     the key), malformed TOML, an unreadable rules file; also an unknown\n\
     solver strategy and solver tables that fail validation."
);
create_exception!(
    capsa,
    TableError,
    CapsaError,
    "A table that cannot be settled or a table-shaped argument that is wrong:\n\
     other than 2 to 4 seats, bad stakes or flags, a surrender the rules do\n\
     not enable, figures past 64 bits, a batch array of the wrong shape."
);
create_exception!(
    capsa,
    ArgumentError,
    CapsaError,
    "An argument outside its range: a card count, ``k``, a seed, a number of\n\
     deals, hands or opponents, a training size."
);

/// The one error mapping: a core error as the Python exception of its kind
/// (a `CardError` for `ErrorKind::Card`, ...), with its seat and row as
/// attributes when it names them. Every core result crosses with
/// `.map_err(py_err)`.
pub(crate) fn py_err(e: Error) -> PyErr {
    let message = e.message().to_string();
    let err = match e.kind() {
        ErrorKind::Card => CardError::new_err(message),
        ErrorKind::Hand => HandError::new_err(message),
        ErrorKind::Rules => RulesError::new_err(message),
        ErrorKind::Table => TableError::new_err(message),
        ErrorKind::Argument => ArgumentError::new_err(message),
    };
    if e.seat().is_none() && e.row().is_none() {
        return err;
    }
    Python::attach(|py| {
        let value = err.value(py);
        // setting an attribute on a fresh exception instance cannot fail
        // in practice; if it did, the error still has its kind and message
        let _ = value.setattr("seat", e.seat());
        let _ = value.setattr("row", e.row());
        err.clone_ref(py)
    })
}

/// A system input or output error as Python's own `OSError` would be: the
/// subclass of its errno (`BrokenPipeError` for a closed pipe), and the
/// system's text as `strerror`, without Rust's "(os error N)".
pub(crate) fn os_error(e: std::io::Error) -> PyErr {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => {
            let suffix = format!(" (os error {code})");
            let reason = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
            PyOSError::new_err((code, reason))
        }
        None => PyOSError::new_err(text),
    }
}

/// A core error of `kind` as a Python exception (for checks the binding does).
pub(crate) fn err(kind: ErrorKind, message: impl Into<String>) -> PyErr {
    py_err(Error::new(kind, message))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let base = py.get_type::<CapsaError>();
    base.setattr("seat", py.None())?;
    base.setattr("row", py.None())?;
    m.add("CapsaError", base)?;
    m.add("CardError", py.get_type::<CardError>())?;
    m.add("HandError", py.get_type::<HandError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    Ok(())
}
