//! Binding of the `capsa settle` stream: lines or a document of JSON rounds,
//! settled in parallel into output records (see `capsa_core::stream`).

use super::conversion::choices::NamedRules;
use super::conversion::text::stream_lines;
use super::errors::os_error;
use capsa_core::batch::{self, StreamLine};
use capsa_core::stream as core;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// The parts joined into one bytes object, copied once.
fn joined_bytes<'py>(py: Python<'py>, parts: &[String]) -> PyResult<Bound<'py, PyBytes>> {
    let size = parts.iter().map(|t| t.len()).sum();
    PyBytes::new_with(py, size, |buf| {
        let mut at = 0;
        for t in parts {
            buf[at..at + t.len()].copy_from_slice(t.as_bytes());
            at += t.len();
        }
        Ok(())
    })
}

/// Settles lines of a JSON Lines stream in parallel.
///
/// Each item is a line's bytes without its line feed, or (for a line too
/// long to read) its length. Line ``first_line + k`` is ``lines[k]``.
/// Returns the output records, UTF-8, one line per round (a settlement or
/// an error record; a blank line gives none), and how many rounds failed.
#[pyfunction]
#[pyo3(signature = (lines, rules, default=None, first_line=1))]
fn settle_json_lines<'py>(
    py: Python<'py>,
    lines: Vec<Bound<'py, PyAny>>,
    rules: &Bound<'py, PyDict>,
    default: Option<String>,
    first_line: usize,
) -> PyResult<(Bound<'py, PyBytes>, usize)> {
    let named = NamedRules::read(rules, default)?;
    let lines = stream_lines(&lines)?;
    let lookup = |name: Option<&str>| named.lookup(name);
    let (parts, failed) = py.detach(|| batch::settle_lines(&lines, first_line, &lookup));
    let joined = joined_bytes(py, &parts)?;
    batch::recycle(parts);
    Ok((joined, failed))
}

/// The lines of a block of a JSON Lines stream: the text between line
/// feeds (a block of n line feeds holds n + 1 lines), each line longer than a
/// round may be given as its length.
fn block_lines(block: &[u8]) -> Vec<StreamLine<'_>> {
    block
        .split(|&b| b == b'\n')
        .map(|line| match line.len() {
            n if n > core::MAX_LINE_BYTES => StreamLine::Overlong(n),
            _ => StreamLine::Bytes(line),
        })
        .collect()
}

/// Settles a block of a JSON Lines stream in parallel.
///
/// The block is lines separated by line feeds (none after the last: a block
/// of n line feeds holds n + 1 lines), line ``first_line`` first; a line
/// longer than ``MAX_LINE_BYTES`` gets the error record of a line too long.
/// Returns the output records as ``settle_json_lines`` does, how many
/// records they are, how many of them failed, and how many lines the block
/// held. Given ``fd`` (an open file descriptor, on a Unix system), the
/// records are written to it, in order, and None is returned in their
/// place; ``OSError`` when writing fails.
#[pyfunction]
#[pyo3(signature = (block, rules, default=None, first_line=1, fd=None))]
fn settle_json_block<'py>(
    py: Python<'py>,
    block: &Bound<'py, PyBytes>,
    rules: &Bound<'py, PyDict>,
    default: Option<String>,
    first_line: usize,
    fd: Option<i32>,
) -> PyResult<(Option<Bound<'py, PyBytes>>, usize, usize, usize)> {
    let named = NamedRules::read(rules, default)?;
    let bytes = block.as_bytes();
    let lookup = |name: Option<&str>| named.lookup(name);
    let (parts, records, failed, count, written) = py.detach(|| {
        let lines = block_lines(bytes);
        let records = lines
            .iter()
            .filter(|line| match line {
                StreamLine::Bytes(b) => !core::is_blank(core::strip_bom(b)),
                StreamLine::Overlong(_) => true,
            })
            .count();
        let (parts, failed) = batch::settle_lines(&lines, first_line, &lookup);
        let written = fd.map(|fd| write_parts(fd, &parts));
        (parts, records, failed, lines.len(), written)
    });
    let joined = match written {
        Some(outcome) => outcome.map(|()| None),
        None => joined_bytes(py, &parts).map(Some),
    };
    batch::recycle(parts);
    Ok((joined?, records, failed, count))
}

/// Writes the parts, in order, to the open file descriptor `fd` (not
/// closed). A write cut short (by a signal: a pipe's write then returns
/// what it wrote, or is refused if it wrote nothing) runs Python's signal
/// handlers before writing again, as Python's own buffered writes do, so
/// that Ctrl-C stops a write to a pipe nobody reads; their exception
/// (`KeyboardInterrupt`) is the error.
#[cfg(unix)]
fn write_parts(fd: i32, parts: &[String]) -> PyResult<()> {
    use std::io::{ErrorKind, Write};
    use std::os::fd::BorrowedFd;
    if fd < 0 {
        return Err(os_error(std::io::Error::from_raw_os_error(9))); // EBADF
    }
    // SAFETY: the caller's descriptor, open for the call (the command line
    // passes its output's `fileno()`); it is only duplicated here, and the
    // duplicate is what is written to and closed
    let owned = unsafe { BorrowedFd::borrow_raw(fd) }.try_clone_to_owned();
    let mut file = std::fs::File::from(owned.map_err(os_error)?);
    for part in parts {
        let mut rest = part.as_bytes();
        while !rest.is_empty() {
            let cut_short = match file.write(rest) {
                Ok(0) => return Err(os_error(ErrorKind::WriteZero.into())),
                Ok(n) => {
                    rest = &rest[n..];
                    !rest.is_empty()
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => true,
                Err(e) => return Err(os_error(e)),
            };
            if cut_short {
                Python::attach(|py| py.check_signals())?;
            }
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn write_parts(_fd: i32, _parts: &[String]) -> PyResult<()> {
    Err(os_error(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "writing to a file descriptor needs a Unix system",
    )))
}

/// Settles one JSON document (a round, or a list of rounds): its record or
/// list of records, UTF-8, indented by ``indent`` spaces when given, and how
/// many rounds failed.
#[pyfunction]
#[pyo3(signature = (document, rules, default=None, indent=None))]
fn settle_json_document<'py>(
    py: Python<'py>,
    document: &Bound<'py, PyBytes>,
    rules: &Bound<'py, PyDict>,
    default: Option<String>,
    indent: Option<usize>,
) -> PyResult<(Bound<'py, PyBytes>, usize)> {
    let named = NamedRules::read(rules, default)?;
    let bytes = document.as_bytes();
    let lookup = |name: Option<&str>| named.lookup(name);
    let (parts, failed) = py.detach(|| {
        let (parts, failed) = core::settle_document_parts(bytes, &lookup);
        match indent {
            Some(n) => (vec![core::indent_json(&parts.concat(), n)], failed),
            None => (parts, failed),
        }
    });
    Ok((joined_bytes(py, &parts)?, failed))
}

/// Settles one JSON document as ``settle_json_document`` does (not indented),
/// handing the output to ``out`` (its ``write`` method) a batch of rounds at
/// a time, so that it is never held whole; returns how many rounds failed.
#[pyfunction]
#[pyo3(signature = (document, rules, out, default=None))]
fn write_json_document(
    py: Python<'_>,
    document: &Bound<'_, PyBytes>,
    rules: &Bound<'_, PyDict>,
    out: &Bound<'_, PyAny>,
    default: Option<String>,
) -> PyResult<usize> {
    const BATCH: usize = 8192;
    let named = NamedRules::read(rules, default)?;
    let bytes = document.as_bytes();
    let lookup = |name: Option<&str>| named.lookup(name);
    let doc = match py.detach(|| core::read_document(bytes)) {
        Ok(doc) => doc,
        Err((line, e)) => {
            let mut text = String::new();
            core::write_error_record(&mut text, line, None, &e);
            out.call1((PyBytes::new(py, text.as_bytes()),))?;
            return Ok(1);
        }
    };
    if doc.is_list {
        out.call1((PyBytes::new(py, b"["),))?;
    }
    let mut failed = 0;
    for (b, rounds) in doc.rounds.chunks(BATCH).enumerate() {
        let (mut parts, f) = py.detach(|| core::settle_rounds(rounds, &lookup));
        if b > 0 {
            parts.insert(0, ",".to_string());
        }
        out.call1((joined_bytes(py, &parts)?,))?;
        failed += f;
    }
    if doc.is_list {
        out.call1((PyBytes::new(py, b"]"),))?;
    }
    Ok(failed)
}

/// True when the line holds one complete JSON object (the first line of a
/// JSON Lines stream does).
#[pyfunction]
fn is_json_object_line(line: &Bound<'_, PyBytes>) -> bool {
    core::is_json_object(line.as_bytes())
}

/// True when the bytes are one valid JSON document (a round or a list).
#[pyfunction]
fn is_json_document(document: &Bound<'_, PyBytes>) -> bool {
    core::read_document(document.as_bytes()).is_ok()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(settle_json_lines, m)?)?;
    m.add_function(wrap_pyfunction!(settle_json_block, m)?)?;
    m.add_function(wrap_pyfunction!(settle_json_document, m)?)?;
    m.add_function(wrap_pyfunction!(write_json_document, m)?)?;
    m.add_function(wrap_pyfunction!(is_json_object_line, m)?)?;
    m.add_function(wrap_pyfunction!(is_json_document, m)?)?;
    m.add("MAX_LINE_BYTES", core::MAX_LINE_BYTES)?;
    m.add("MAX_DOCUMENT_BYTES", core::MAX_DOCUMENT_BYTES)?;
    Ok(())
}
