//! The one error record shape of the stream.

use std::fmt::Write;

use super::json::bad;
use crate::error::Error;
use crate::lines::MAX_LINE_BYTES;

/// The error record of a line longer than [`MAX_LINE_BYTES`].
pub fn write_overlong_record(out: &mut String, line: usize, length: usize) {
    let e = bad(format!(
        "the line is {length} bytes long; a round is at most {MAX_LINE_BYTES} bytes"
    ));
    write_error_record(out, line, None, &e);
}

/// Writes the one error record shape (keys sorted, compact):
/// `{"error": kind, "id": id or null, "line": n, "message": text,
/// "row": "top"|"middle"|"bottom"|null, "seat": k|null}`.
pub fn write_error_record(out: &mut String, line: usize, id: Option<&str>, e: &Error) {
    let message = serde_json::to_string(e.message()).unwrap_or_else(|_| "\"\"".into());
    let _ = write!(
        out,
        "{{\"error\":\"{}\",\"id\":{},\"line\":{line},\"message\":{message},\"row\":",
        e.kind().name(),
        id.unwrap_or("null"),
    );
    match e.row() {
        Some(r) => {
            let _ = write!(out, "\"{r}\"");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"seat\":");
    match e.seat() {
        Some(s) => {
            let _ = write!(out, "{s}");
        }
        None => out.push_str("null"),
    }
    out.push('}');
}
