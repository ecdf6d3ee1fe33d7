//! Void records: a round whose commitment was published (a pending round)
//! but whose round record never will be, because the server died before it
//! was written, is closed in its table's chain by a void record naming its
//! round id, nonce, commitment and the reason, so that the round id and
//! nonce are never dealt again under another commitment. Canonical JSON
//! with a SHA-256 digest, as round records are; `docs/records.md`, "Void
//! records", documents it field by field and
//! `python/capsa/schema/void-1.json` is its JSON Schema.

use std::borrow::Cow;

use super::format::{join, object, Members, Problem, Read, MAX_META_TEXT_BYTES, MAX_PROBLEMS};
use super::read::{read_meta, text};
use super::table::{check_table_id, read_table_id};
use super::write::check_meta;
use crate::fair::{self, hex, parse_hex32, sha256};
use capsa_core::canonical::{self, Json};
use capsa_core::error::{Error, Result};
use capsa_core::texts;

/// The `format` of every void record.
pub const VOID_FORMAT: &str = "capsa-void-record";

/// The void record format version this engine writes and the newest it
/// reads.
pub const VOID_FORMAT_VERSION: i128 = 1;

/// The longest reason, in bytes of UTF-8 (a `meta` text's bound).
pub const MAX_REASON_BYTES: usize = MAX_META_TEXT_BYTES;

const VOID_KEYS: [&str; 10] = [
    "capsa_version",
    "deal",
    "digest",
    "format",
    "format_version",
    "meta",
    "previous_digest",
    "reason",
    "round_id",
    "table_id",
];

const VOID_DEAL_KEYS: [&str; 3] = ["algorithm", "commitment", "nonce"];

/// What a void record is made from: the pending round (its table, id,
/// nonce and commitment, and the digest it follows) and why it is void.
pub struct VoidInputs<'a> {
    pub table_id: Option<&'a str>,
    pub round_id: &'a str,
    pub previous_digest: Option<[u8; 32]>,
    pub commitment: [u8; 32],
    pub nonce: u64,
    pub reason: &'a str,
    /// The server's own notes, as a round record's `meta`.
    pub meta: &'a [(Cow<'a, str>, Json<'a>)],
}

/// A void record as read, every field checked for its form.
#[derive(Clone, Debug)]
pub struct VoidRecord {
    pub format_version: i128,
    pub capsa_version: String,
    pub table_id: Option<String>,
    pub round_id: String,
    pub previous_digest: Option<[u8; 32]>,
    pub commitment: [u8; 32],
    pub nonce: u64,
    pub reason: String,
    pub meta: Members<'static>,
    pub digest: [u8; 32],
    /// The SHA-256 of the canonical form of the record without `digest`.
    pub content_digest: [u8; 32],
    /// Whether the text read was the record's canonical form as it stands.
    pub canonical_as_read: bool,
}

/// Checks a void record's reason: 1 to [`MAX_REASON_BYTES`] bytes of
/// UTF-8, no U+0000.
pub fn check_reason(reason: &str) -> std::result::Result<(), String> {
    if reason.is_empty() || reason.len() > MAX_REASON_BYTES {
        return Err(format!(
            "reason must be 1 to {MAX_REASON_BYTES} bytes of UTF-8, got {}",
            reason.len()
        ));
    }
    if reason.contains('\0') {
        return Err("reason must not hold U+0000".into());
    }
    Ok(())
}

fn digest_json(digest: Option<[u8; 32]>) -> Json<'static> {
    digest.map_or(Json::Null, |d| Json::str(hex(&d)))
}

/// Writes the void record of a pending round: its canonical JSON text (one
/// line) and its digest.
///
/// Errors (`Argument`): a round id, table id, reason or notes out of range.
pub fn write_void(inputs: &VoidInputs) -> Result<(String, [u8; 32])> {
    texts::check_id(inputs.round_id, "round_id").map_err(Error::argument)?;
    if let Some(id) = inputs.table_id {
        check_table_id(id).map_err(Error::argument)?;
    }
    check_reason(inputs.reason).map_err(Error::argument)?;
    check_meta(inputs.meta)?;
    let deal = Json::Object(vec![
        (Cow::Borrowed("algorithm"), Json::str(fair::ALGORITHM)),
        (
            Cow::Borrowed("commitment"),
            Json::str(hex(&inputs.commitment)),
        ),
        (Cow::Borrowed("nonce"), Json::Int(i128::from(inputs.nonce))),
    ]);
    let mut members: Members<'_> = vec![
        (
            Cow::Borrowed("capsa_version"),
            Json::str(env!("CARGO_PKG_VERSION")),
        ),
        (Cow::Borrowed("deal"), deal),
        (Cow::Borrowed("format"), Json::str(VOID_FORMAT)),
        (
            Cow::Borrowed("format_version"),
            Json::Int(VOID_FORMAT_VERSION),
        ),
        (Cow::Borrowed("meta"), Json::Object(inputs.meta.to_vec())),
        (
            Cow::Borrowed("previous_digest"),
            digest_json(inputs.previous_digest),
        ),
        (Cow::Borrowed("reason"), Json::str(inputs.reason)),
        (Cow::Borrowed("round_id"), Json::str(inputs.round_id)),
        (
            Cow::Borrowed("table_id"),
            inputs.table_id.map_or(Json::Null, Json::str),
        ),
    ];
    let digest = sha256(canonical::to_string(&Json::Object(members.clone())).as_bytes());
    members.push((Cow::Borrowed("digest"), Json::str(hex(&digest))));
    Ok((canonical::to_string(&Json::Object(members)), digest))
}

/// Whether a record's JSON value says it is a void record (its `format`).
pub(super) fn is_void(value: &Json<'_>) -> bool {
    matches!(value.get("format"), Some(Json::Str(f)) if f == VOID_FORMAT)
}

fn read_version(value: &Json<'_>) -> Read<i128> {
    match value.get("format_version") {
        Some(Json::Int(v)) if *v == VOID_FORMAT_VERSION => Ok(*v),
        Some(Json::Int(v)) if *v > VOID_FORMAT_VERSION => Err(Problem::new(
            "format_version",
            format!(
                "format_version {v} of a void record is newer than this capsa reads \
                 ({VOID_FORMAT_VERSION}): read it with a newer capsa"
            ),
        )),
        Some(other) => Err(Problem::new(
            "format_version",
            format!(
                "format_version of a void record must be {VOID_FORMAT_VERSION}, got {}",
                canonical::to_string(other)
                    .chars()
                    .take(40)
                    .collect::<String>()
            ),
        )),
        None => Err(Problem::new("format_version", "format_version is missing")),
    }
}

fn member<'a, 'j>(value: &'a Json<'j>, key: &str, path: &str) -> Read<&'a Json<'j>> {
    value
        .get(key)
        .ok_or_else(|| Problem::new(join(path, key), format!("{} is missing", join(path, key))))
}

fn digest_member(value: &Json<'_>, field: &str) -> Read<[u8; 32]> {
    let t = text(value, field, 64)?;
    parse_hex32(t).ok_or_else(|| {
        Problem::new(
            field,
            format!("{field} must be 64 lowercase hexadecimal digits (a SHA-256), got {t:?}"),
        )
    })
}

/// Reads a void record from its JSON value (one [`is_void`] says is),
/// read from (or written as) the text `written`; `given_whole` says whether
/// that text is all that was given (no byte-order mark left out).
pub(super) fn read_void(value: &Json<'_>, written: &str, given_whole: bool) -> Read<VoidRecord> {
    let format_version = read_version(value)?;
    let members = object(value, "", &VOID_KEYS)?;
    let get = |key: &str| member(value, key, "");
    let capsa_version = text(get("capsa_version")?, "capsa_version", 64)?.to_string();
    let round_id = text(get("round_id")?, "round_id", usize::MAX)?.to_string();
    texts::check_read_id(&round_id, "round_id").map_err(|m| Problem::new("round_id", m))?;
    let table_id = read_table_id(get("table_id")?)?;
    let previous_digest = match get("previous_digest")? {
        Json::Null => None,
        v => Some(digest_member(v, "previous_digest")?),
    };
    let reason = text(get("reason")?, "reason", usize::MAX)?.to_string();
    check_reason(&reason).map_err(|m| Problem::new("reason", m))?;
    let meta = read_meta(get("meta")?)?;
    let deal = get("deal")?;
    object(deal, "deal", &VOID_DEAL_KEYS)?;
    let algorithm = text(member(deal, "algorithm", "deal")?, "deal.algorithm", 64)?;
    if algorithm != fair::ALGORITHM {
        return Err(Problem::new(
            "deal.algorithm",
            format!(
                "deal.algorithm {algorithm:?} is not one this capsa knows ({})",
                fair::ALGORITHM
            ),
        ));
    }
    let commitment = digest_member(member(deal, "commitment", "deal")?, "deal.commitment")?;
    let nonce = match member(deal, "nonce", "deal")? {
        Json::Int(v) if (0..=i128::from(u64::MAX)).contains(v) => *v as u64,
        other => {
            return Err(Problem::new(
                "deal.nonce",
                format!(
                    "deal.nonce must be an integer in 0..{}, got {}",
                    u64::MAX,
                    canonical::to_string(other)
                        .chars()
                        .take(40)
                        .collect::<String>()
                ),
            ))
        }
    };
    let digest = digest_member(get("digest")?, "digest")?;
    let mut without = String::with_capacity(written.len());
    canonical::write_members(&mut without, members, Some("digest"));
    let canonical_as_read = given_whole && canonical::to_string(value) == written;
    Ok(VoidRecord {
        format_version,
        capsa_version,
        table_id,
        round_id,
        previous_digest,
        commitment,
        nonce,
        reason,
        meta,
        digest,
        content_digest: sha256(without.as_bytes()),
        canonical_as_read,
    })
}

impl VoidRecord {
    /// Checks the record's digest, and its chain link when `previous` is
    /// given (the digest it must follow, or None for the first of a
    /// chain): a void record holds nothing else derived from its fields.
    pub fn replay(&self, previous: Option<Option<[u8; 32]>>) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.content_digest != self.digest {
            problems.push(Problem::new(
                "digest",
                format!(
                    "digest {} is not the digest of the record's contents, {}: \
                     the record was changed after it was written",
                    hex(&self.digest),
                    hex(&self.content_digest)
                ),
            ));
        }
        if let Some(expected) = previous {
            if expected != self.previous_digest {
                problems.push(Problem::new(
                    "previous_digest",
                    format!(
                        "previous_digest is {}, but the record before it has digest {}",
                        self.previous_digest.map_or("null".into(), |d| hex(&d)),
                        expected.map_or("null (none: the first of the chain)".into(), |d| hex(&d))
                    ),
                ));
            }
        }
        problems.truncate(MAX_PROBLEMS);
        problems
    }

    /// Checks the commitment against `published` (the one published before
    /// the deal), when given: a void round was never dealt, so there is no
    /// seed or hand to check.
    pub fn verify_deal(&self, published: Option<[u8; 32]>) -> Vec<Problem> {
        match published {
            Some(p) if p != self.commitment => vec![Problem::new(
                "deal.commitment",
                format!(
                    "deal.commitment {} is not the commitment published before the deal, {}",
                    hex(&self.commitment),
                    hex(&p)
                ),
            )],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
