//! Rounds read from JSON, as `capsa settle` reads them (the schema is in the
//! README), settled into output records.
//!
//! Input is read leniently where JSON allows it and strictly where the game
//! needs it: a byte-order mark at the start of a line is ignored, any JSON
//! whitespace (a bare carriage return included) may stand between tokens, a
//! round's `id` is echoed exactly as written, and every value that names a
//! card, a seat, a stake or a flag is checked. Keys given twice are refused
//! (JSON leaves them ambiguous). One line yields one record: the settlement,
//! or an error record of one shape everywhere (see [`write_error_record`]).
//!
//! `json` reads JSON values, `seat` and `round` a round (`plain` the most
//! common shape of one in one pass), `error_record`
//! writes the error records, `document` reads and settles whole documents,
//! `pretty` re-indents the output.

mod document;
mod error_record;
mod json;
mod plain;
mod pretty;
mod round;
mod seat;

pub use crate::lines::{is_blank, strip_bom, MAX_LINE_BYTES};
pub use document::{
    is_json_object, read_document, settle_document, settle_document_parts, settle_rounds, Document,
    MAX_DOCUMENT_BYTES,
};
pub use error_record::{write_error_record, write_overlong_record};
pub use pretty::indent_json;
pub use round::{settle_line, LineOutcome, RulesFor};

#[cfg(test)]
mod plain_tests;
#[cfg(test)]
mod tests;
