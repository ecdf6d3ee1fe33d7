//! A JSON document (one round object, or a list of them) read whole and
//! settled, each round's error naming the line it starts on.

use rayon::prelude::*;
use serde_json::value::RawValue;

use super::error_record::write_error_record;
use super::json::{bad, elements, kind, malformed, utf8, Kind};
use super::round::{settle_text, LineOutcome, RulesFor};
use crate::error::Error;
use crate::lines::strip_bom;

/// The largest JSON document the stream reads whole, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 64 << 20;

/// True when the bytes (one line) hold one complete JSON object: how the
/// stream tells a JSON Lines input from a document at its first line.
pub fn is_json_object(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(strip_bom(bytes)) else {
        return false;
    };
    serde_json::from_str::<&RawValue>(text).is_ok_and(|v| v.get().starts_with('{'))
}

/// The rounds of a JSON document (one round object, or a list of them),
/// each as its raw text with the line it starts on; `is_list` says which.
pub struct Document<'a> {
    pub is_list: bool,
    pub rounds: Vec<(usize, &'a str)>,
}

/// The line numbers of parts of one text, asked in the order they appear:
/// each call counts only the line feeds since the part before.
struct LineCounter<'t> {
    text: &'t str,
    offset: usize,
    line: usize,
}

impl<'t> LineCounter<'t> {
    fn new(text: &'t str) -> Self {
        LineCounter {
            text,
            offset: 0,
            line: 1,
        }
    }

    /// The line `part` (a slice of the text) starts on.
    fn line_of(&mut self, part: &str) -> usize {
        let offset = (part.as_ptr() as usize)
            .saturating_sub(self.text.as_ptr() as usize)
            .min(self.text.len());
        if offset < self.offset {
            *self = LineCounter::new(self.text);
        }
        let bytes = &self.text.as_bytes()[self.offset..offset];
        self.line += bytes.iter().filter(|&&b| b == b'\n').count();
        self.offset = offset;
        self.line
    }
}

/// Reads a JSON document into its rounds. The error (malformed JSON, not
/// UTF-8, neither a round nor a list) comes with the line it was found on.
pub fn read_document(bytes: &[u8]) -> std::result::Result<Document<'_>, (usize, Error)> {
    let bytes = strip_bom(bytes);
    let text = utf8(bytes).map_err(|e| (line_of_invalid_utf8(bytes), e))?;
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| (e.line().max(1), malformed(e)))?;
    let mut lines = LineCounter::new(text);
    let start = lines.line_of(raw.get());
    match kind(raw) {
        Kind::Object => Ok(Document {
            is_list: false,
            rounds: vec![(start, raw.get())],
        }),
        Kind::Array => {
            let items = elements(raw).map_err(|e| (start, e))?;
            Ok(Document {
                is_list: true,
                rounds: items
                    .into_iter()
                    .map(|v| (lines.line_of(v.get()), v.get()))
                    .collect(),
            })
        }
        _ => Err((
            start,
            bad("a JSON document is a round object or a list of rounds"),
        )),
    }
}

fn line_of_invalid_utf8(bytes: &[u8]) -> usize {
    let at = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
}

/// Settles a JSON document: a list of records for a list of rounds, one
/// record for one round; `failed` counts the error records.
pub fn settle_document(bytes: &[u8], rules_for: &RulesFor) -> (String, usize) {
    let (parts, failed) = settle_document_parts(bytes, rules_for);
    (parts.concat(), failed)
}

/// [`settle_document`]'s output in consecutive parts (so that a caller can
/// copy them once into its own buffer).
pub fn settle_document_parts(bytes: &[u8], rules_for: &RulesFor) -> (Vec<String>, usize) {
    let doc = match read_document(bytes) {
        Err((line, e)) => {
            let mut out = String::new();
            write_error_record(&mut out, line, None, &e);
            return (vec![out], 1);
        }
        Ok(doc) => doc,
    };
    let (mut parts, failed) = settle_rounds(&doc.rounds, rules_for);
    if doc.is_list {
        parts.insert(0, "[".to_string());
        parts.push("]".to_string());
    }
    (parts, failed)
}

/// Settles rounds of a document in parallel: their records in order,
/// separated by commas, in consecutive parts, and how many failed.
pub fn settle_rounds(rounds: &[(usize, &str)], rules_for: &RulesFor) -> (Vec<String>, usize) {
    const CHUNK: usize = 256;
    let chunks = rounds.len().div_ceil(CHUNK);
    let parts: Vec<(String, usize)> = rounds
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut part = String::with_capacity(chunk.len() * 2048);
            let mut failed = 0;
            for (k, (line, text)) in chunk.iter().enumerate() {
                if k > 0 {
                    part.push(',');
                }
                if settle_text(text, *line, rules_for, &mut part) == LineOutcome::Failed {
                    failed += 1;
                }
            }
            if c + 1 < chunks {
                part.push(',');
            }
            (part, failed)
        })
        .collect();
    let failed = parts.iter().map(|(_, f)| f).sum();
    (parts.into_iter().map(|(p, _)| p).collect(), failed)
}
