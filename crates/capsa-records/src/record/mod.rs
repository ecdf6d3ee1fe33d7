//! Round records, formats 1 to 5: everything needed to recreate one round of
//! one table, as canonical JSON (see [`capsa_core::canonical`]) with a SHA-256
//! digest, and their replay. `docs/records.md` documents the format field by
//! field; `python/capsa/schema/record-4.json` is its JSON Schema (the older
//! formats' are `record-1.json` to `record-3.json`). Format 2 adds the
//! table id, each seat's player and the solver's identity, and binds the
//! `auto` flags and the stakes diagonal (see [`table`]). Format 3 has the
//! fields of format 2; its rules hold the rake in basis points with a
//! minimum pot and caps, where the rules of formats 1 and 2 hold a whole
//! percent (the rules text is the caller's to compile: this module reads
//! only its deck, [`deck`], against which the seats and cards are read).
//! Format 4 has the fields of format 3; its `solver` names the round's
//! auto-arrange policy ([`capsa_core::auto_arrange`]), against which replay
//! checks each seat arranged at the close. Format 5 has the fields of
//! format 4; its settlement names the settlement version it was settled
//! under (`settlement.version`, 2 as this engine writes; a record naming a
//! version this engine does not settle is refused by the reader, the
//! problem's field [`SETTLEMENT_VERSION_FIELD`]), and a banker game's seats
//! name the banker and their multipliers ([`roles`]). `void` holds the void record,
//! which closes a round never played in its table's chain.
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
//! adds (formats 3 and 4 have them too); `write`, `read` and `replay` the
//! three jobs; `void` the void record, written, read and checked.

mod any;
mod deck;
mod format;
mod read;
mod replay;
mod roles;
mod table;
mod void;
mod write;

pub use any::{read_any, read_any_value, AnyRecord};
pub use capsa_core::arrangement::arrangement_text;
pub use format::{
    check_stakes_diagonal, Members, PlayedSeat, Problem, StakeSpec, FIRST_FORMAT_VERSION,
    FIRST_SETTLEMENT_VERSION, FORMAT, FORMAT_VERSION, MAX_META_ENTRIES, MAX_META_KEY_BYTES,
    MAX_META_TEXT_BYTES, MAX_PROBLEMS, MAX_RECORD_BYTES, MAX_ROUND_ID_BYTES, POLICY_FORMAT_VERSION,
    SETTLEMENT_VERSION, SETTLEMENT_VERSION_FIELD, SETTLEMENT_VERSION_FORMAT,
};
pub use read::{read, read_value, Record, RecordText};
pub use table::{
    check_players, check_table_id, installed_solver, players_error, policy_of, policy_solver,
    Player, SolverId, MAX_PLAYER_BYTES, MAX_TABLE_ID_BYTES, NO_TABLES,
};
pub use void::{
    check_reason, write_void, VoidInputs, VoidRecord, MAX_REASON_BYTES, VOID_FORMAT,
    VOID_FORMAT_VERSION,
};
pub use write::seat_inputs;
pub use write::{check_meta, write, MemberSpans, RoundInputs, Written};

#[cfg(test)]
mod tests;
