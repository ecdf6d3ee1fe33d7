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

use std::borrow::Cow;
use std::fmt::Write;

use sha2::{Digest, Sha256};

pub use crate::arrangement::arrangement_text;
use crate::arrangement::{cards_text, push_arrangement, push_cards, read_arrangement_text};
use crate::canonical::{self, write_str, Json};
use crate::cards::{check_distinct, parse_text};
use crate::error::{Error, Result};
use crate::fair::{self, hex, parse_hex32, sha256, ServerSeed};
use crate::lines::strip_bom;
use crate::naturals;
use crate::report::write_settlement_json;
use crate::rules::Rules;
use crate::settle::{settle, SeatInput, Settlement, Stakes};
use crate::splits::is_valid;

/// The `format` of every round record.
pub const FORMAT: &str = "capsa-round-record";
/// The format version this engine writes and the newest it reads.
pub const FORMAT_VERSION: i128 = 1;
/// The largest record read, in bytes (a four-seat record is about 5 KB).
pub const MAX_RECORD_BYTES: usize = 1 << 20;
/// The longest round id, in bytes of UTF-8.
pub const MAX_ROUND_ID_BYTES: usize = 256;
/// The most entries of `meta`.
pub const MAX_META_ENTRIES: usize = 32;
/// The longest key of `meta`, in bytes of UTF-8.
pub const MAX_META_KEY_BYTES: usize = 64;
/// The longest text value of `meta`, in bytes of UTF-8.
pub const MAX_META_TEXT_BYTES: usize = 1024;
/// The most differences a replay lists (a settlement made up from nothing
/// would otherwise list hundreds).
pub const MAX_PROBLEMS: usize = 64;

const RECORD_KEYS: [&str; 13] = [
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
const DEAL_KEYS: [&str; 5] = [
    "algorithm",
    "client_seeds",
    "commitment",
    "nonce",
    "server_seed",
];
const SEAT_KEYS: [&str; 5] = [
    "arrangement",
    "auto",
    "declare_natural",
    "hand",
    "surrender",
];

/// A field of a record that is not as it should be, by its path
/// (`seats[2].arrangement`, `settlement.pairs[0].money`; empty for the
/// record as a whole), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

impl Problem {
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            field: field.into(),
            message: message.into(),
        }
    }
}

type Read<T> = std::result::Result<T, Problem>;

/// The members of a JSON object.
pub type Members<'a> = Vec<(Cow<'a, str>, Json<'a>)>;

/// The stakes of a round: one for every pair, or a P x P matrix (row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StakeSpec {
    Uniform(i64),
    Matrix(Vec<i64>),
}

impl StakeSpec {
    pub fn stakes(&self) -> Stakes<'_> {
        match self {
            StakeSpec::Uniform(s) => Stakes::Uniform(*s),
            StakeSpec::Matrix(m) => Stakes::Matrix(m),
        }
    }

    /// Checks the stakes of a table of `seats`: every entry >= 0, a matrix
    /// `seats` x `seats` and symmetric.
    pub fn check(&self, seats: usize) -> Result<()> {
        if let StakeSpec::Matrix(m) = self {
            if let Some(k) = m.iter().position(|&v| v < 0) {
                let (i, j) = (k / seats.max(1), k % seats.max(1));
                return Err(Error::table(format!(
                    "stakes[{i}][{j}] must be >= 0, got {}",
                    m[k]
                )));
            }
        }
        self.stakes().check(seats)
    }

    fn write(&self, out: &mut String, seats: usize) {
        match self {
            StakeSpec::Uniform(s) => {
                let _ = write!(out, "{s}");
            }
            StakeSpec::Matrix(m) => {
                out.push('[');
                for (i, row) in m.chunks(seats.max(1)).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('[');
                    for (j, v) in row.iter().enumerate() {
                        if j > 0 {
                            out.push(',');
                        }
                        let _ = write!(out, "{v}");
                    }
                    out.push(']');
                }
                out.push(']');
            }
        }
    }
}

/// What one seat played: its arrangement (top 0-2, middle 3-7, bottom
/// 8-12), whether the server arranged it at the close (`auto`), and its
/// decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedSeat {
    pub arrangement: [u8; 13],
    pub auto: bool,
    pub surrender: bool,
    pub declare_natural: bool,
}

impl PlayedSeat {
    fn input(&self) -> SeatInput {
        SeatInput {
            cards: self.arrangement,
            surrender: self.surrender,
            declare_natural: self.declare_natural,
        }
    }
}

/// The inputs of a played round, all a record is made from.
pub struct RoundInputs<'a> {
    pub round_id: &'a str,
    pub previous_digest: Option<[u8; 32]>,
    /// The server's own notes (times, table names): at most
    /// [`MAX_META_ENTRIES`] entries of text, integers, booleans or null.
    pub meta: &'a [(Cow<'a, str>, Json<'a>)],
    pub rules: &'a Rules,
    /// The rules in full, as canonical JSON (`Rules.to_dict()` of Python).
    pub rules_text: &'a str,
    pub stakes: &'a StakeSpec,
    pub server_seed: &'a ServerSeed,
    pub client_seeds: &'a [String],
    pub nonce: u64,
    pub seats: &'a [PlayedSeat],
}

/// A written record: its canonical text (one line), its digest and the
/// settlement it holds.
pub struct Written {
    pub text: String,
    pub digest: [u8; 32],
    pub settlement: Settlement,
}

fn sorted(ids: &[u8]) -> Vec<u8> {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v
}

/// The cards of `a` that are not in `b`, as text.
fn missing_from(a: &[u8], b: &[u8]) -> String {
    let ids: Vec<u8> = a.iter().copied().filter(|c| !b.contains(c)).collect();
    cards_text(&ids)
}

/// Checks what each seat played against its hand and the rules; the
/// problems found, by field. The checks a round makes as it is played.
fn check_play(rules: &Rules, hands: &[[u8; 13]], seats: &[PlayedSeat]) -> Vec<(usize, Problem)> {
    let mut problems = Vec::new();
    for (k, (hand, seat)) in hands.iter().zip(seats).enumerate() {
        let field = |name: &str| format!("seats[{k}].{name}");
        if sorted(&seat.arrangement) != sorted(hand) {
            problems.push((
                k,
                Problem::new(
                    field("arrangement"),
                    format!(
                        "seats[{k}].arrangement: seat {k}'s arrangement holds {} that seat {k} was not dealt, \
                         and not its {}",
                        missing_from(&seat.arrangement, hand),
                        missing_from(hand, &seat.arrangement)
                    ),
                ),
            ));
        } else if seat.auto {
            let e = &rules.evaluator;
            let a = &seat.arrangement;
            let (top, middle, bottom) = (
                e.eval_unchecked(&a[..3]),
                e.eval_unchecked(&a[3..8]),
                e.eval_unchecked(&a[8..]),
            );
            if !is_valid(top, middle, bottom, rules.foul_strict) {
                problems.push((
                    k,
                    Problem::new(
                        field("arrangement"),
                        format!("seats[{k}].arrangement: seat {k} was arranged at the close, and such an arrangement never fouls"),
                    ),
                ));
            }
        }
        if seat.surrender && !rules.surrender_enabled {
            problems.push((
                k,
                Problem::new(
                    field("surrender"),
                    format!("seats[{k}].surrender: seat {k} surrendered, which the rules do not allow (surrender.enabled is false)"),
                ),
            ));
        }
        if !seat.declare_natural && naturals::strongest(hand, &rules.naturals).is_none() {
            problems.push((
                k,
                Problem::new(
                    field("declare_natural"),
                    format!(
                        "seats[{k}].declare_natural: seat {k} declined a natural, but its hand holds none the rules enable"
                    ),
                ),
            ));
        }
    }
    problems
}

fn seat_inputs(seats: &[PlayedSeat]) -> Vec<SeatInput> {
    seats.iter().map(PlayedSeat::input).collect()
}

/// The settlement's canonical JSON (keys sorted, compact, as `capsa settle`
/// writes it).
fn settlement_text(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::with_capacity(3072);
    write_settlement_json(&mut out, s, inputs, None);
    out
}

fn check_round_id(round_id: &str) -> Result<()> {
    if round_id.is_empty() || round_id.len() > MAX_ROUND_ID_BYTES {
        return Err(Error::argument(format!(
            "round_id must be 1 to {MAX_ROUND_ID_BYTES} bytes of UTF-8, got {}",
            round_id.len()
        )));
    }
    Ok(())
}

/// Checks the server's notes: at most [`MAX_META_ENTRIES`] entries, keys of
/// 1 to [`MAX_META_KEY_BYTES`] bytes, each value a text of at most
/// [`MAX_META_TEXT_BYTES`] bytes, an integer, a boolean or null.
pub fn check_meta(meta: &[(Cow<'_, str>, Json<'_>)]) -> Result<()> {
    if meta.len() > MAX_META_ENTRIES {
        return Err(Error::argument(format!(
            "meta has at most {MAX_META_ENTRIES} entries, got {}",
            meta.len()
        )));
    }
    for (key, value) in meta {
        if key.is_empty() || key.len() > MAX_META_KEY_BYTES {
            return Err(Error::argument(format!(
                "meta: a key is 1 to {MAX_META_KEY_BYTES} bytes of UTF-8, got {} ({:?})",
                key.len(),
                key.chars().take(20).collect::<String>()
            )));
        }
        match value {
            Json::Str(s) if s.len() > MAX_META_TEXT_BYTES => {
                return Err(Error::argument(format!(
                    "meta[{key:?}]: a text is at most {MAX_META_TEXT_BYTES} bytes of UTF-8, got {}",
                    s.len()
                )))
            }
            Json::Str(_) | Json::Int(_) | Json::Bool(_) | Json::Null => {}
            other => {
                return Err(Error::argument(format!(
                    "meta[{key:?}] must be a text, an integer, a boolean or null, not {}",
                    other.kind()
                )))
            }
        }
    }
    Ok(())
}

fn push_hex_or_null(out: &mut String, digest: Option<[u8; 32]>) {
    match digest {
        Some(d) => {
            out.push('"');
            out.push_str(&hex(&d));
            out.push('"');
        }
        None => out.push_str("null"),
    }
}

fn push_seat(out: &mut String, hand: &[u8; 13], seat: &PlayedSeat) {
    out.push_str("{\"arrangement\":\"");
    push_arrangement(out, &seat.arrangement);
    let _ = write!(
        out,
        "\",\"auto\":{},\"declare_natural\":{},\"hand\":\"",
        seat.auto, seat.declare_natural
    );
    push_cards(out, hand);
    let _ = write!(out, "\",\"surrender\":{}}}", seat.surrender);
}

/// Writes the record of a played round (see the module documentation).
///
/// Errors: a round id, notes, client seeds or stakes out of range
/// (`Argument`/`Table`), an arrangement that does not hold the seat's
/// dealt cards (`Hand`, at the seat), a decision the rules do not allow
/// (`Table`, at the seat), a table that cannot be settled.
pub fn write(inputs: &RoundInputs) -> Result<Written> {
    let seats = inputs.seats.len();
    crate::settle::check_seat_count(seats)?;
    check_round_id(inputs.round_id)?;
    check_meta(inputs.meta)?;
    inputs
        .stakes
        .check(seats)
        .map_err(|e| e.context("stakes"))?;
    let hands = fair::deal(inputs.server_seed, inputs.client_seeds, inputs.nonce, seats)?;
    if let Some((seat, p)) = check_play(inputs.rules, &hands, inputs.seats)
        .into_iter()
        .next()
    {
        let e = if p.field.ends_with("arrangement") && !inputs.seats[seat].auto {
            Error::hand(p.message)
        } else {
            Error::table(p.message)
        };
        return Err(e.at_seat(seat));
    }
    let seat_inputs = seat_inputs(inputs.seats);
    let settlement = settle(inputs.rules, &seat_inputs, &inputs.stakes.stakes())?;
    // The members in key order, written straight into text: the members
    // before "digest", then those after it. The digest is the SHA-256 of
    // the two joined (the record without its digest), then set between.
    let mut before = String::with_capacity(512);
    before.push_str("{\"capsa_version\":");
    write_str(&mut before, env!("CARGO_PKG_VERSION"));
    before.push_str(",\"deal\":{\"algorithm\":");
    write_str(&mut before, fair::ALGORITHM);
    before.push_str(",\"client_seeds\":[");
    for (k, seed) in inputs.client_seeds.iter().enumerate() {
        if k > 0 {
            before.push(',');
        }
        write_str(&mut before, seed);
    }
    let _ = write!(
        before,
        "],\"commitment\":\"{}\",\"nonce\":{},\"server_seed\":\"{}\"}},",
        hex(&fair::commitment(inputs.server_seed)),
        inputs.nonce,
        hex(inputs.server_seed)
    );
    let mut after = String::with_capacity(6144);
    after.push_str("\"format\":");
    write_str(&mut after, FORMAT);
    let _ = write!(after, ",\"format_version\":{FORMAT_VERSION},\"meta\":");
    canonical::write(&mut after, &Json::Object(inputs.meta.to_vec()));
    after.push_str(",\"previous_digest\":");
    push_hex_or_null(&mut after, inputs.previous_digest);
    after.push_str(",\"round_id\":");
    write_str(&mut after, inputs.round_id);
    after.push_str(",\"rules\":");
    after.push_str(inputs.rules_text);
    let _ = write!(
        after,
        ",\"rules_digest\":\"{}\",\"seats\":[",
        hex(&sha256(inputs.rules_text.as_bytes()))
    );
    for (k, (hand, seat)) in hands.iter().zip(inputs.seats).enumerate() {
        if k > 0 {
            after.push(',');
        }
        push_seat(&mut after, hand, seat);
    }
    after.push_str("],\"settlement\":");
    write_settlement_json(&mut after, &settlement, &seat_inputs, None);
    after.push_str(",\"stakes\":");
    inputs.stakes.write(&mut after, seats);
    after.push('}');
    let digest: [u8; 32] = Sha256::new()
        .chain_update(before.as_bytes())
        .chain_update(after.as_bytes())
        .finalize()
        .into();
    let mut text = before;
    text.reserve(after.len() + 80);
    let _ = write!(text, "\"digest\":\"{}\",", hex(&digest));
    text.push_str(&after);
    Ok(Written {
        text,
        digest,
        settlement,
    })
}

// ------------------------------------------------------------ reading

/// A round record as read, every field checked for its form.
#[derive(Clone, Debug)]
pub struct Record {
    pub round_id: String,
    pub capsa_version: String,
    pub previous_digest: Option<[u8; 32]>,
    pub meta: Members<'static>,
    /// The rules object in canonical form, for the caller to compile.
    pub rules_text: String,
    pub rules_digest: [u8; 32],
    pub stakes: StakeSpec,
    pub commitment: [u8; 32],
    pub server_seed: ServerSeed,
    pub client_seeds: Vec<String>,
    pub nonce: u64,
    pub hands: Vec<[u8; 13]>,
    pub seats: Vec<PlayedSeat>,
    pub digest: [u8; 32],
    /// The SHA-256 of the canonical form of the record without `digest`.
    pub content_digest: [u8; 32],
    /// The recorded settlement in canonical form.
    pub settlement_text: String,
    /// Each seat's recorded `net` and `rake` (0 where the settlement has none).
    pub net_and_rake: Vec<(i128, i128)>,
}

fn member<'a, 'j>(value: &'a Json<'j>, key: &str, path: &str) -> Read<&'a Json<'j>> {
    value
        .get(key)
        .ok_or_else(|| Problem::new(join(path, key), format!("{} is missing", join(path, key))))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The members of an object at `path`, refusing any key not in `known`.
fn object<'a, 'j>(value: &'a Json<'j>, path: &str, known: &[&str]) -> Read<&'a Members<'j>> {
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
                "{field}: unknown key{place}; format {FORMAT_VERSION} has {}",
                known.join(", ")
            ),
        ));
    }
    Ok(members)
}

fn text<'a>(value: &'a Json<'_>, field: &str, max_bytes: usize) -> Read<&'a str> {
    match value {
        Json::Str(s) if s.len() <= max_bytes => Ok(s),
        Json::Str(s) => Err(Problem::new(
            field,
            format!(
                "{field} is at most {max_bytes} bytes of UTF-8, got {}",
                s.len()
            ),
        )),
        other => Err(Problem::new(
            field,
            format!("{field} must be a string, not {}", other.kind()),
        )),
    }
}

fn boolean(value: &Json, field: &str) -> Read<bool> {
    match value {
        Json::Bool(b) => Ok(*b),
        other => Err(Problem::new(
            field,
            format!("{field} must be true or false, not {}", other.kind()),
        )),
    }
}

fn integer(value: &Json, field: &str, lo: i128, hi: i128) -> Read<i128> {
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

fn digest(value: &Json, field: &str) -> Read<[u8; 32]> {
    let t = text(value, field, 64)?;
    parse_hex32(t).ok_or_else(|| {
        Problem::new(
            field,
            format!("{field} must be 64 lowercase hexadecimal digits (a SHA-256), got {t:?}"),
        )
    })
}

fn array<'a, 'j>(value: &'a Json<'j>, field: &str) -> Read<&'a [Json<'j>]> {
    match value {
        Json::Array(items) => Ok(items),
        other => Err(Problem::new(
            field,
            format!("{field} must be an array, not {}", other.kind()),
        )),
    }
}

fn read_hand(value: &Json, field: &str) -> Read<[u8; 13]> {
    let t = text(value, field, 256)?;
    let mut ids = Vec::with_capacity(13);
    let read = parse_text(t, &mut ids)
        .and_then(|()| crate::cards::check_hand(&ids, &[13], "a hand").map(|_| ()));
    if let Err(e) = read {
        return Err(Problem::new(field, format!("{field}: {}", e.message())));
    }
    let mut hand = [0u8; 13];
    hand.copy_from_slice(&ids);
    if cards_text(&hand) != t || sorted(&hand) != hand {
        return Err(Problem::new(
            field,
            format!(
                "{field} must list the 13 cards sorted by id as records write them: {:?}",
                cards_text(&sorted(&hand))
            ),
        ));
    }
    Ok(hand)
}

fn read_arrangement(value: &Json, field: &str) -> Read<[u8; 13]> {
    let t = text(value, field, 256)?;
    let mut ids = Vec::with_capacity(13);
    let read = read_arrangement_text(t, &mut ids).and_then(|()| check_distinct(&ids).map(|_| ()));
    if let Err(e) = read {
        return Err(Problem::new(field, format!("{field}: {}", e.message())));
    }
    let mut a = [0u8; 13];
    a.copy_from_slice(&ids);
    if arrangement_text(&a) != t {
        return Err(Problem::new(
            field,
            format!(
                "{field} must be written as records write it: {:?}",
                arrangement_text(&a)
            ),
        ));
    }
    Ok(a)
}

fn read_stakes(value: &Json, seats: usize) -> Read<StakeSpec> {
    let spec = match value {
        Json::Int(_) => {
            StakeSpec::Uniform(integer(value, "stakes", 0, i128::from(i64::MAX))? as i64)
        }
        Json::Array(rows) => {
            if rows.len() != seats {
                return Err(Problem::new(
                    "stakes",
                    format!(
                        "stakes must be {seats} rows of {seats}, got {} rows",
                        rows.len()
                    ),
                ));
            }
            let mut m = Vec::with_capacity(seats * seats);
            for (i, row) in rows.iter().enumerate() {
                let field = format!("stakes[{i}]");
                let row = array(row, &field)?;
                if row.len() != seats {
                    return Err(Problem::new(
                        field.as_str(),
                        format!("{field} must have {seats} entries, got {}", row.len()),
                    ));
                }
                for (j, v) in row.iter().enumerate() {
                    let f = format!("stakes[{i}][{j}]");
                    m.push(integer(v, &f, 0, i128::from(i64::MAX))? as i64);
                }
            }
            StakeSpec::Matrix(m)
        }
        other => {
            return Err(Problem::new(
                "stakes",
                format!(
                    "stakes must be an integer or a matrix of integers, not {}",
                    other.kind()
                ),
            ))
        }
    };
    spec.check(seats)
        .map_err(|e| Problem::new("stakes", format!("stakes: {}", e.message())))?;
    Ok(spec)
}

fn read_seat(value: &Json, k: usize) -> Read<([u8; 13], PlayedSeat)> {
    let path = format!("seats[{k}]");
    object(value, &path, &SEAT_KEYS)?;
    let field = |key: &str| member(value, key, &path);
    let hand = read_hand(field("hand")?, &format!("{path}.hand"))?;
    let arrangement = read_arrangement(field("arrangement")?, &format!("{path}.arrangement"))?;
    Ok((
        hand,
        PlayedSeat {
            arrangement,
            auto: boolean(field("auto")?, &format!("{path}.auto"))?,
            surrender: boolean(field("surrender")?, &format!("{path}.surrender"))?,
            declare_natural: boolean(
                field("declare_natural")?,
                &format!("{path}.declare_natural"),
            )?,
        },
    ))
}

fn read_version(value: &Json) -> Read<()> {
    let format = member(value, "format", "")?;
    if !matches!(format, Json::Str(f) if f == FORMAT) {
        return Err(Problem::new(
            "format",
            format!("format must be {FORMAT:?}: this is not a capsa round record"),
        ));
    }
    match member(value, "format_version", "")? {
        Json::Int(v) if *v == FORMAT_VERSION => Ok(()),
        Json::Int(v) if *v > FORMAT_VERSION => Err(Problem::new(
            "format_version",
            format!(
                "format_version {v} is newer than this capsa reads ({FORMAT_VERSION}): \
                 replay it with a newer capsa"
            ),
        )),
        other => Err(Problem::new(
            "format_version",
            format!(
                "format_version must be {FORMAT_VERSION}, got {}",
                canonical::to_string(other)
                    .chars()
                    .take(40)
                    .collect::<String>()
            ),
        )),
    }
}

/// Reads a record from its JSON text (at most [`MAX_RECORD_BYTES`] bytes):
/// the first field that is not as format 1 writes it is a [`Problem`].
/// A record of a newer format version is refused before anything else.
pub fn read(bytes: &[u8]) -> Read<Record> {
    let bytes = strip_bom(bytes);
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(Problem::new(
            "",
            format!(
                "a record is at most {MAX_RECORD_BYTES} bytes, got {}",
                bytes.len()
            ),
        ));
    }
    let value = canonical::parse(bytes).map_err(|e| Problem::new("", e.message()))?;
    if !matches!(value, Json::Object(_)) {
        return Err(Problem::new(
            "",
            format!("a record is a JSON object, not {}", value.kind()),
        ));
    }
    read_version(&value)?;
    object(&value, "", &RECORD_KEYS)?;
    let get = |key: &str| member(&value, key, "");
    let capsa_version = text(get("capsa_version")?, "capsa_version", 64)?.to_string();
    let round_id = text(get("round_id")?, "round_id", MAX_ROUND_ID_BYTES)?.to_string();
    if round_id.is_empty() {
        return Err(Problem::new("round_id", "round_id must not be empty"));
    }
    let previous_digest = match get("previous_digest")? {
        Json::Null => None,
        v => Some(digest(v, "previous_digest")?),
    };
    let meta: Members<'static> = match get("meta")? {
        Json::Object(members) => members
            .iter()
            .map(|(k, v)| (Cow::Owned(k.to_string()), v.clone().into_owned()))
            .collect(),
        other => {
            return Err(Problem::new(
                "meta",
                format!("meta must be an object, not {}", other.kind()),
            ))
        }
    };
    check_meta(&meta).map_err(|e| Problem::new("meta", e.message()))?;
    let rules = get("rules")?;
    if !matches!(rules, Json::Object(_)) {
        return Err(Problem::new(
            "rules",
            format!(
                "rules must be an object (the rules in full), not {}",
                rules.kind()
            ),
        ));
    }
    let rules_text = canonical::to_string(rules);
    let rules_digest = digest(get("rules_digest")?, "rules_digest")?;
    let seat_values = array(get("seats")?, "seats")?;
    if !(2..=4).contains(&seat_values.len()) {
        return Err(Problem::new(
            "seats",
            format!("seats: a table has 2 to 4 seats, got {}", seat_values.len()),
        ));
    }
    let seat_count = seat_values.len();
    let stakes = read_stakes(get("stakes")?, seat_count)?;
    let deal = get("deal")?;
    object(deal, "deal", &DEAL_KEYS)?;
    let deal_field = |key: &str| member(deal, key, "deal");
    let algorithm = text(deal_field("algorithm")?, "deal.algorithm", 64)?;
    if algorithm != fair::ALGORITHM {
        return Err(Problem::new(
            "deal.algorithm",
            format!(
                "deal.algorithm {algorithm:?} is not one this capsa knows ({})",
                fair::ALGORITHM
            ),
        ));
    }
    let commitment = digest(deal_field("commitment")?, "deal.commitment")?;
    let server_seed = digest(deal_field("server_seed")?, "deal.server_seed")?;
    let nonce = integer(deal_field("nonce")?, "deal.nonce", 0, i128::from(u64::MAX))? as u64;
    let mut client_seeds = Vec::new();
    for (k, seed) in array(deal_field("client_seeds")?, "deal.client_seeds")?
        .iter()
        .enumerate()
    {
        let field = format!("deal.client_seeds[{k}]");
        client_seeds.push(text(seed, &field, fair::MAX_CLIENT_SEED_BYTES)?.to_string());
    }
    fair::check_client_seeds(&client_seeds, seat_count)
        .map_err(|e| Problem::new("deal.client_seeds", format!("deal.{}", e.message())))?;
    let mut hands = Vec::with_capacity(seat_count);
    let mut seats = Vec::with_capacity(seat_count);
    for (k, v) in seat_values.iter().enumerate() {
        let (hand, seat) = read_seat(v, k)?;
        hands.push(hand);
        seats.push(seat);
    }
    let settlement = get("settlement")?;
    if !matches!(settlement, Json::Object(_)) {
        return Err(Problem::new(
            "settlement",
            format!("settlement must be an object, not {}", settlement.kind()),
        ));
    }
    let digest = digest(get("digest")?, "digest")?;
    let net_and_rake = net_and_rake(settlement, seat_count);
    let (content_digest, settlement_text) = content_digest(&value);
    Ok(Record {
        round_id,
        capsa_version,
        previous_digest,
        meta,
        rules_text,
        rules_digest,
        stakes,
        commitment,
        server_seed,
        client_seeds,
        nonce,
        hands,
        seats,
        digest,
        content_digest,
        settlement_text,
        net_and_rake,
    })
}

fn net_and_rake(settlement: &Json<'_>, seats: usize) -> Vec<(i128, i128)> {
    let figure = |seat: Option<&Json<'_>>, key: &str| match seat.and_then(|s| s.get(key)) {
        Some(Json::Int(v)) => *v,
        _ => 0,
    };
    let list = match settlement.get("seats") {
        Some(Json::Array(items)) => items.as_slice(),
        _ => &[],
    };
    (0..seats)
        .map(|k| (figure(list.get(k), "net"), figure(list.get(k), "rake")))
        .collect()
}

/// The SHA-256 of the canonical form of a record without its `digest`,
/// and the canonical form of its settlement.
fn content_digest(value: &Json<'_>) -> ([u8; 32], String) {
    let Json::Object(members) = value else {
        return ([0; 32], String::new());
    };
    let mut text = String::with_capacity(8192);
    let mut span = 0..0;
    canonical::write_members_noting(&mut text, members, Some("digest"), "settlement", &mut span);
    (sha256(text.as_bytes()), text[span].to_string())
}

// ------------------------------------------------------------ replay

/// A value in a message, cut short when long.
fn shown(value: Option<&Json<'_>>) -> String {
    match value {
        None => "nothing".into(),
        Some(v) => {
            let text = canonical::to_string(v);
            if text.chars().count() > 80 {
                format!("{}...", text.chars().take(77).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// Every path where `recorded` and `recomputed` differ, at most `room`.
fn diff(
    path: &str,
    recorded: &Json<'_>,
    recomputed: &Json<'_>,
    out: &mut Vec<Problem>,
    room: usize,
) {
    if out.len() >= room || recorded == recomputed {
        return;
    }
    match (recorded, recomputed) {
        (Json::Object(a), Json::Object(b)) => {
            let mut keys: Vec<&str> = a.iter().chain(b.iter()).map(|(k, _)| k.as_ref()).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                let field = join(path, key);
                match (recorded.get(key), recomputed.get(key)) {
                    (Some(x), Some(y)) => diff(&field, x, y, out, room),
                    (x, y) => out.push(Problem::new(
                        field.as_str(),
                        format!("{field}: recorded {}, recomputed {}", shown(x), shown(y)),
                    )),
                }
                if out.len() >= room {
                    return;
                }
            }
        }
        (Json::Array(a), Json::Array(b)) if a.len() == b.len() => {
            for (k, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{k}]"), x, y, out, room);
            }
        }
        _ => out.push(Problem::new(
            path,
            format!(
                "{path}: recorded {}, recomputed {}",
                shown(Some(recorded)),
                shown(Some(recomputed))
            ),
        )),
    }
}

impl Record {
    /// Checks the provably fair deal from the record alone: the revealed
    /// server seed hashes to the commitment (and the commitment is
    /// `published`, when given), and the hands are the ones the seeds deal.
    pub fn verify_deal(&self, published: Option<[u8; 32]>) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Some(p) = published {
            if p != self.commitment {
                problems.push(Problem::new(
                    "deal.commitment",
                    format!(
                        "deal.commitment {} is not the commitment published before the deal, {}",
                        hex(&self.commitment),
                        hex(&p)
                    ),
                ));
            }
        }
        let hashed = fair::commitment(&self.server_seed);
        if hashed != self.commitment {
            problems.push(Problem::new(
                "deal.server_seed",
                format!(
                    "deal.server_seed is not the seed committed to: its SHA-256 is {}, \
                     the commitment is {}",
                    hex(&hashed),
                    hex(&self.commitment)
                ),
            ));
        }
        let dealt = fair::deck(&self.server_seed, &self.client_seeds, self.nonce);
        let dealt = crate::deal::hands_of(&dealt, self.hands.len());
        for (k, (recorded, dealt)) in self.hands.iter().zip(&dealt).enumerate() {
            if recorded != dealt {
                problems.push(Problem::new(
                    format!("seats[{k}].hand"),
                    format!(
                        "seats[{k}].hand is not the hand the seeds deal: recorded {:?}, \
                         dealt {:?} from deal.server_seed, deal.client_seeds and deal.nonce \
                         (one of them, or the hand, was changed)",
                        cards_text(recorded),
                        cards_text(dealt)
                    ),
                ));
            }
        }
        problems
    }

    /// Recomputes everything derived from the record's inputs under `rules`
    /// (the record's own rules, compiled by the caller) and lists every
    /// field that differs: the digest, the rules digest, the deal, what each
    /// seat played against its hand and the rules, every figure of the
    /// settlement, and the chain link when `previous` is given (the digest
    /// the record must follow, or None for the first of a chain).
    pub fn replay(&self, rules: &Rules, previous: Option<Option<[u8; 32]>>) -> Vec<Problem> {
        let mut problems = Vec::new();
        let contents = self.content_digest;
        if contents != self.digest {
            problems.push(Problem::new(
                "digest",
                format!(
                    "digest {} is not the digest of the record's contents, {}: \
                     the record was changed after it was written",
                    hex(&self.digest),
                    hex(&contents)
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
        let rules_digest = sha256(self.rules_text.as_bytes());
        if rules_digest != self.rules_digest {
            problems.push(Problem::new(
                "rules_digest",
                format!(
                    "rules_digest {} is not the digest of the rules, {}: \
                     the rules or their digest were changed",
                    hex(&self.rules_digest),
                    hex(&rules_digest)
                ),
            ));
        }
        problems.extend(self.verify_deal(None));
        let dealt = crate::deal::hands_of(
            &fair::deck(&self.server_seed, &self.client_seeds, self.nonce),
            self.hands.len(),
        );
        problems.extend(
            check_play(rules, &dealt, &self.seats)
                .into_iter()
                .map(|(_, p)| p),
        );
        let inputs = seat_inputs(&self.seats);
        match settle(rules, &inputs, &self.stakes.stakes()) {
            Ok(s) => {
                let text = settlement_text(&s, &inputs);
                if self.settlement_text != text {
                    match (
                        canonical::parse_str(&self.settlement_text),
                        canonical::parse_str(&text),
                    ) {
                        (Ok(recorded), Ok(recomputed)) => diff(
                            "settlement",
                            &recorded,
                            &recomputed,
                            &mut problems,
                            MAX_PROBLEMS,
                        ),
                        (Err(e), _) | (_, Err(e)) => {
                            problems.push(Problem::new("settlement", e.message()))
                        }
                    }
                }
            }
            Err(e) => problems.push(Problem::new(
                "settlement",
                format!(
                    "the settlement cannot be recomputed from the record: {}",
                    e.message()
                ),
            )),
        }
        problems.truncate(MAX_PROBLEMS);
        problems
    }
}

#[cfg(test)]
mod tests;
