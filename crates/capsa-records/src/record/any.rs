//! A record of either kind: a round record or a void record, told apart by
//! its `format` and read by the reader of its kind.

use super::format::{Problem, Read};
use super::read::{check_size, read_parsed, read_value, Record, RecordText};
use super::void::{is_void, read_void, VoidRecord};
use capsa_core::canonical::{self, Json};

/// A record of either kind, as read.
#[derive(Clone, Debug)]
pub enum AnyRecord {
    Round(Box<Record>),
    Void(Box<VoidRecord>),
}

/// Reads a round record or a void record (by its `format`) from its JSON
/// text, as [`super::read()`] reads a round record: the first field that is not as
/// its format version writes it is a [`Problem`].
pub fn read_any<T: RecordText + ?Sized>(given: &T) -> Read<AnyRecord> {
    let written = given.record_text()?;
    let value = canonical::parse_str(written).map_err(|e| Problem::new("", e.message()))?;
    if is_void(&value) {
        let whole = written.len() == given.given_len();
        return read_void(&value, written, whole).map(|v| AnyRecord::Void(Box::new(v)));
    }
    read_parsed(&value, written, given.given_len()).map(|r| AnyRecord::Round(Box::new(r)))
}

/// [`read_any`] of a record's JSON value, as [`read_value`] reads a round
/// record.
pub fn read_any_value(value: &Json<'_>) -> Read<AnyRecord> {
    if is_void(value) {
        let written = canonical::to_string(value);
        check_size(written.len())?;
        return read_void(value, &written, false).map(|v| AnyRecord::Void(Box::new(v)));
    }
    read_value(value).map(|r| AnyRecord::Round(Box::new(r)))
}
