//! Round records, formats 1 to 3: everything needed to recreate one round of
//! one table, as canonical JSON (see [`crate::canonical`]) with a SHA-256
//! digest, and their replay. `docs/records.md` documents the format field by
//! field; `python/capsa/schema/record-3.json` is its JSON Schema (the older
//! formats' are `record-1.json` and `record-2.json`). Format 2 adds the
//! table id, each seat's player and the solver's identity, and binds the
//! `auto` flags and the stakes diagonal (see [`table`]). Format 3 has the
//! fields of format 2; its rules hold the rake in basis points with a
//! minimum pot and caps, where the rules of formats 1 and 2 hold a whole
//! percent (the rules text is the caller's: this module does not read it).
//!
//! [`write`] turns the inputs of a played round (the seeds, each seat's
//! arrangement and decisions, the rules and stakes) into its record: the
//! hands are dealt again from the seeds and the table settled, so a record
//! can only hold what those inputs give. [`read`] reads a record strictly (a
//! [`Problem`] names the first field that is not as its format writes it);
//! [`Record::replay`] recomputes every derived field from the inputs in the
//! record and names every field that differs; [`Record::verify_deal`] checks
//! only the provably fair deal (the commitment and the hands), from the
//! record alone.
//!
//! `format` holds the fields, limits and types; `table` the fields format 2
//! adds (format 3 has them too); `write`, `read` and `replay` the three jobs.

mod format;
mod read;
mod replay;
mod table;
mod write;

pub use crate::arrangement::arrangement_text;
pub use format::{
    check_stakes_diagonal, Members, PlayedSeat, Problem, StakeSpec, FIRST_FORMAT_VERSION, FORMAT,
    FORMAT_VERSION, MAX_META_ENTRIES, MAX_META_KEY_BYTES, MAX_META_TEXT_BYTES, MAX_PROBLEMS,
    MAX_RECORD_BYTES, MAX_ROUND_ID_BYTES,
};
pub use read::{read, read_value, Record, RecordText};
pub use table::{
    check_players, check_table_id, installed_solver, players_error, Player, SolverId,
    MAX_PLAYER_BYTES, MAX_TABLE_ID_BYTES,
};
#[cfg(feature = "python")]
pub(crate) use write::seat_inputs;
pub use write::{check_meta, write, MemberSpans, RoundInputs, Written};

#[cfg(test)]
mod tests;
