//! Lines of a text input as every line reader takes them: a byte-order
//! mark at the start of a line is skipped, a line of JSON whitespace is
//! blank, and a line is at most [`MAX_LINE_BYTES`] long.

/// The longest line (one round, one record) a line reader takes, in bytes; a
/// round of four seats in the most verbose form allowed is under 4 KB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// JSON whitespace (RFC 8259): space, tab, line feed, carriage return.
fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The bytes without a leading UTF-8 byte-order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// True when the bytes hold only JSON whitespace (after a byte-order mark).
pub fn is_blank(bytes: &[u8]) -> bool {
    strip_bom(bytes).iter().all(|&b| is_json_space(b))
}
