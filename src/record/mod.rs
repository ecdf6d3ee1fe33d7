//! Round records, format 1: everything needed to recreate one round of one
//! table, as canonical JSON (see [`crate::canonical`]) with a SHA-256 digest,
//! and their replay. `docs/records.md` documents the format field by field;
//! `python/capsa/schema/record-1.json` is its JSON Schema.
//!
//! [`write`] turns the inputs of a played round (the seeds, each seat's
//! arrangement and decisions, the rules and stakes) into its record: the
//! hands are dealt again from the seeds and the table settled, so a record
//! can only hold what those inputs give. [`read`] reads a record strictly (a
//! [`Problem`] names the first field that is not as format 1 writes it);
//! [`Record::replay`] recomputes every derived field from the inputs in the
//! record and names every field that differs; [`Record::verify_deal`] checks
//! only the provably fair deal (the commitment and the hands), from the
//! record alone.
//!
//! `format` holds the fields, limits and types; `write`, `read` and `replay`
//! the three jobs.

mod format;
mod read;
mod replay;
mod write;

pub use crate::arrangement::arrangement_text;
pub(crate) use format::check_round_id;
pub use format::{
    Members, PlayedSeat, Problem, StakeSpec, FORMAT, FORMAT_VERSION, MAX_META_ENTRIES,
    MAX_META_KEY_BYTES, MAX_META_TEXT_BYTES, MAX_PROBLEMS, MAX_RECORD_BYTES, MAX_ROUND_ID_BYTES,
};
pub use read::{read, Record};
pub use write::{check_meta, write, RoundInputs, Written};

#[cfg(test)]
mod tests;
