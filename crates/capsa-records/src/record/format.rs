//! The record format's fields and limits, and the types a record holds:
//! its stakes, its seats, and a [`Problem`] naming a field.

use std::borrow::Cow;
use std::cell::RefCell;

use crate::fair::sha256;
use capsa_core::canonical::Json;
use capsa_core::flags::not_a_flag;
use capsa_core::settle::SeatInput;
pub use capsa_core::stakes::StakeSpec;

/// The `format` of every round record.
pub const FORMAT: &str = "capsa-round-record";

/// The format version this engine writes and the newest it reads.
pub const FORMAT_VERSION: i128 = 5;

/// The oldest format version this engine reads (and still writes, for the
/// golden records of that version).
pub const FIRST_FORMAT_VERSION: i128 = 1;

/// The first format version with a table id, players and a solver (formats
/// 3 and 4 have the same fields; their rules hold the rake in basis points).
pub(super) const TABLE_FORMAT_VERSION: i128 = 2;

/// The first format version whose `solver` names the round's auto-arrange
/// policy (`solver`, `greedy` or `foul`), checked at replay; before it, a
/// seat arranged at the close is the solver's.
pub const POLICY_FORMAT_VERSION: i128 = 4;

/// The first format version whose settlement names the settlement version
/// it was settled under (`settlement.version`); before it, version 1.
pub const SETTLEMENT_VERSION_FORMAT: i128 = 5;

/// The settlement version this engine writes: the settlement of the rules
/// of every house (banker games, the horse card, caps, ranked royalties),
/// which with those knobs at their defaults settles exactly as version 1.
pub const SETTLEMENT_VERSION: i128 = 2;

/// The oldest settlement version this engine replays.
pub const FIRST_SETTLEMENT_VERSION: i128 = 1;

/// The field a [`Problem`] names for a settlement version this engine does
/// not settle (told apart from a malformed record by its field).
pub const SETTLEMENT_VERSION_FIELD: &str = "settlement.version";

/// The problem of a record written under a settlement version this engine
/// does not settle.
pub fn settlement_version_problem(version: i128) -> Problem {
    Problem::new(
        SETTLEMENT_VERSION_FIELD,
        format!(
            "written under settlement version {version}; this capsa settles versions \
             {FIRST_SETTLEMENT_VERSION} and {SETTLEMENT_VERSION}"
        ),
    )
}

/// The largest record read, in bytes (a four-seat record is about 5 KB).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The longest round id, in bytes of UTF-8 (an id, [`capsa_core::texts`]).
pub const MAX_ROUND_ID_BYTES: usize = capsa_core::texts::MAX_ID_BYTES;

thread_local! {
    /// The last rules text digested and its digest: a server's records, and
    /// a log's, share one rule set, and its text is ~1 KB to hash.
    static LAST_RULES_DIGEST: RefCell<(String, [u8; 32])> =
        const { RefCell::new((String::new(), [0; 32])) };
}

/// A record's `rules_digest`: the SHA-256 of its rules' canonical text.
pub(crate) fn rules_digest(rules_text: &str) -> [u8; 32] {
    LAST_RULES_DIGEST.with_borrow_mut(|(text, digest)| {
        if text.is_empty() || text != rules_text {
            *digest = sha256(rules_text.as_bytes());
            rules_text.clone_into(text);
        }
        *digest
    })
}

/// The most entries of `meta`.
pub const MAX_META_ENTRIES: usize = 32;

pub use capsa_core::texts::{MAX_META_KEY_BYTES, MAX_META_TEXT_BYTES};

/// The most differences a replay lists (a settlement made up from nothing
/// would otherwise list hundreds).
pub const MAX_PROBLEMS: usize = 64;

pub(super) const RECORD_KEYS_1: [&str; 13] = [
    "capsa_version",
    "deal",
    "digest",
    "format",
    "format_version",
    "meta",
    "previous_digest",
    "round_id",
    "rules",
    "rules_digest",
    "seats",
    "settlement",
    "stakes",
];

pub(super) const RECORD_KEYS_2: [&str; 15] = [
    "capsa_version",
    "deal",
    "digest",
    "format",
    "format_version",
    "meta",
    "previous_digest",
    "round_id",
    "rules",
    "rules_digest",
    "seats",
    "settlement",
    "solver",
    "stakes",
    "table_id",
];

pub(super) const DEAL_KEYS: [&str; 5] = [
    "algorithm",
    "client_seeds",
    "commitment",
    "nonce",
    "server_seed",
];

pub(super) const SEAT_KEYS_1: [&str; 5] = [
    "arrangement",
    "auto",
    "declare_natural",
    "hand",
    "surrender",
];

pub(super) const SEAT_KEYS_2: [&str; 6] = [
    "arrangement",
    "auto",
    "declare_natural",
    "hand",
    "player",
    "surrender",
];

/// A seat's keys from format 5 on: a banker game's seat may name itself the
/// banker and its multiplier (written only when true, and when not 1).
pub(super) const SEAT_KEYS_5: [&str; 8] = [
    "arrangement",
    "auto",
    "banker",
    "declare_natural",
    "hand",
    "multiplier",
    "player",
    "surrender",
];

/// Checks that a stakes matrix holds 0 on its diagonal (a seat plays no
/// one at its own seat), as formats 2 and 3 write and reads stakes; the message
/// names the entry.
pub fn check_stakes_diagonal(stakes: &StakeSpec, seats: usize) -> Result<(), Problem> {
    if let StakeSpec::Matrix(m) = stakes {
        for k in 0..seats {
            let v = m.get(k * seats + k).copied().unwrap_or(0);
            if v != 0 {
                let field = format!("stakes[{k}][{k}]");
                return Err(Problem::new(
                    field.as_str(),
                    format!("{field} must be 0 (a seat does not play itself), got {v}"),
                ));
            }
        }
    }
    Ok(())
}

/// A field of a record that is not as it should be, by its path
/// (`seats[2].arrangement`, `settlement.pairs[0].money`; empty for the
/// record as a whole), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

impl Problem {
    pub(super) fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            field: field.into(),
            message: message.into(),
        }
    }
}

pub(super) type Read<T> = std::result::Result<T, Problem>;

/// The members of a JSON object.
pub type Members<'a> = Vec<(Cow<'a, str>, Json<'a>)>;

/// What one seat played: its arrangement (top 0-2, middle 3-7, bottom
/// 8-12), whether the server arranged it at the close (`auto`), its
/// decisions, and in a banker game whether it is the banker and its
/// multiplier (outside one, false and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedSeat {
    pub arrangement: [u8; 13],
    pub auto: bool,
    pub surrender: bool,
    pub declare_natural: bool,
    pub banker: bool,
    pub multiplier: i64,
}

impl PlayedSeat {
    pub(super) fn input(&self) -> SeatInput {
        SeatInput {
            cards: self.arrangement,
            surrender: self.surrender,
            declare_natural: self.declare_natural,
            banker: self.banker,
            multiplier: self.multiplier,
        }
    }
}

/// A member's path: `key` under `path` (`key` alone at the top).
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A boolean field.
pub(super) fn boolean(value: &Json, field: &str) -> Read<bool> {
    match value {
        Json::Bool(b) => Ok(*b),
        other => Err(Problem::new(field, not_a_flag(field, other.kind()))),
    }
}

/// An integer field in `lo..=hi`.
pub(super) fn integer(value: &Json, field: &str, lo: i128, hi: i128) -> Read<i128> {
    match value {
        Json::Int(v) if (lo..=hi).contains(v) => Ok(*v),
        Json::Int(v) => Err(Problem::new(
            field,
            format!("{field} must be in {lo}..{hi}, got {v}"),
        )),
        other => Err(Problem::new(
            field,
            format!("{field} must be an integer, not {}", other.kind()),
        )),
    }
}

/// The members of an object at `path`, refusing any key not in `known`.
pub(super) fn object<'a, 'j>(
    value: &'a Json<'j>,
    path: &str,
    known: &[&str],
) -> Read<&'a Members<'j>> {
    let Json::Object(members) = value else {
        return Err(Problem::new(
            path,
            format!("{path} must be an object, not {}", value.kind()),
        ));
    };
    if let Some((key, _)) = members.iter().find(|(k, _)| !known.contains(&k.as_ref())) {
        // a key may be anything: name it by its first 40 characters
        let field = join(path, &key.chars().take(40).collect::<String>());
        let place = if path.is_empty() {
            String::new()
        } else {
            format!(" in {path}")
        };
        return Err(Problem::new(
            field.as_str(),
            format!(
                "{field}: unknown key{place}; the format has {}",
                known.join(", ")
            ),
        ));
    }
    Ok(members)
}

/// Card ids in order: a hand, or an arrangement's cards, compared as sets.
pub(super) fn sorted(ids: &[u8]) -> Vec<u8> {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v
}
