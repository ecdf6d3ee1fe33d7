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

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt::{self, Write};

use crate::arrangement::{fill_row, read_arrangement_text};
use crate::cards::parse_text;
use crate::error::{Error, Result};
use crate::report::write_settlement_json;
use crate::rows::{ROW_NAMES, ROW_SIZES};
use crate::rules::Rules;
use crate::settle::{check_seat_count, settle, SeatInput, Stakes, MAX_SEATS, MIN_SEATS};

/// The longest line (one round) the stream reads, in bytes; a round of four
/// seats in the most verbose form allowed is under 4 KB.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// The largest JSON document the stream reads whole, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 64 << 20;

const BOM: &[u8] = b"\xEF\xBB\xBF";
const ROUND_KEYS: [&str; 4] = ["id", "rules", "stakes", "seats"];
const SEAT_KEYS: [&str; 5] = ["top", "middle", "bottom", "surrender", "declare_natural"];

/// What one line of a stream came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Only whitespace: no record.
    Blank,
    /// A settlement record was written.
    Settled,
    /// An error record was written.
    Failed,
}

/// Resolves a round's `"rules"` name (`None`: the stream's default rules)
/// to the rules, or says why it cannot.
pub type RulesFor<'r> = dyn Fn(Option<&str>) -> std::result::Result<&'r Rules, String> + Sync + 'r;

fn bad(message: impl Into<String>) -> Error {
    Error::table(message)
}

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

fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        bad(format!(
            "the text is not valid UTF-8 (byte 0x{:02x} at byte {})",
            bytes[at],
            at + 1
        ))
    })
}

fn malformed(e: serde_json::Error) -> Error {
    bad(format!("malformed JSON: {e}"))
}

/// True when the bytes (one line) hold one complete JSON object: how the
/// stream tells a JSON Lines input from a document at its first line.
pub fn is_json_object(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(strip_bom(bytes)) else {
        return false;
    };
    serde_json::from_str::<&RawValue>(text).is_ok_and(|v| v.get().starts_with('{'))
}

// ------------------------------------------------------------ JSON values

/// The members of a JSON object in order, values left as raw text; a key
/// given twice is an error.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out: Vec<(String, &'de RawValue)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if out.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format_args!(
                            "key {key:?} is given twice"
                        )));
                    }
                    out.push((key, map.next_value()?));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The elements of a JSON array, left as raw text.
struct Elements<'a>(Vec<&'a RawValue>);

impl<'de> serde::Deserialize<'de> for Elements<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Elements<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON array")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element()? {
                    out.push(v);
                }
                Ok(Elements(out))
            }
        }
        d.deserialize_seq(V)
    }
}

/// The kind of a raw JSON value, from its first character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

fn kind(v: &RawValue) -> Kind {
    match v.get().as_bytes().first() {
        Some(b'n') => Kind::Null,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'"') => Kind::String,
        Some(b'[') => Kind::Array,
        Some(b'{') => Kind::Object,
        _ => Kind::Number,
    }
}

/// A raw JSON value cut short for a message.
fn shown(v: &RawValue) -> String {
    let text = v.get();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

fn members(v: &RawValue) -> Result<Vec<(String, &RawValue)>> {
    serde_json::from_str::<Members>(v.get())
        .map(|m| m.0)
        .map_err(|e| bad(e.to_string()))
}

fn elements(v: &RawValue) -> Result<Vec<&RawValue>> {
    serde_json::from_str::<Elements>(v.get())
        .map(|m| m.0)
        .map_err(|e| bad(e.to_string()))
}

fn string(v: &RawValue) -> Result<String> {
    serde_json::from_str::<String>(v.get()).map_err(|e| bad(e.to_string()))
}

/// A JSON number written as an integer (no fraction, no exponent), exactly;
/// `None` when it is not one or does not fit in an `i64`.
fn integer(v: &RawValue) -> Option<i64> {
    let text = v.get();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn flag(v: &RawValue, what: impl fmt::Display) -> Result<bool> {
    match v.get() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(format!(
            "{what} must be true or false, not {}",
            shown(v)
        ))),
    }
}

// ------------------------------------------------------------ seats

/// Appends the cards of one JSON value: a card text, or a list of ids and
/// card texts.
fn read_cards(v: &RawValue, out: &mut Vec<u8>, limit: usize) -> Result<()> {
    match kind(v) {
        Kind::String => parse_text(&string(v)?, out),
        Kind::Array => {
            for item in elements(v)? {
                if out.len() > limit {
                    break;
                }
                match kind(item) {
                    Kind::String => parse_text(&string(item)?, out)?,
                    Kind::Number => match integer(item) {
                        Some(id @ 0..=51) => out.push(id as u8),
                        _ => {
                            return Err(Error::card(format!(
                                "card id {} is not an integer in 0..51",
                                shown(item)
                            )))
                        }
                    },
                    _ => {
                        return Err(Error::card(format!(
                            "a card is a text like \"As\" or an id 0..51, not {}",
                            shown(item)
                        )))
                    }
                }
            }
            Ok(())
        }
        _ => Err(bad(format!(
            "cards are a text or a list of cards, not {}",
            shown(v)
        ))),
    }
}

fn read_row(v: &RawValue, row: usize, ids: &mut Vec<u8>) -> Result<()> {
    let limit = ids.len() + ROW_SIZES[row];
    fill_row(row, ids, |ids| read_cards(v, ids, limit))
}

fn seat_from_object(v: &RawValue, seat: &mut SeatInput, ids: &mut Vec<u8>) -> Result<()> {
    let fields = members(v)?;
    for (key, _) in &fields {
        if !SEAT_KEYS.contains(&key.as_str()) {
            return Err(bad(format!(
                "unknown key {key:?} (a seat has top, middle, bottom, surrender, declare_natural)"
            )));
        }
    }
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    for (row, name) in ROW_NAMES.iter().enumerate() {
        let value =
            get(name).ok_or_else(|| Error::hand(format!("missing row {name:?}")).at_row(row))?;
        read_row(value, row, ids)?;
    }
    if let Some(v) = get("surrender") {
        seat.surrender = flag(v, "surrender")?;
    }
    if let Some(v) = get("declare_natural") {
        seat.declare_natural = flag(v, "declare_natural")?;
    }
    Ok(())
}

/// Reads seat `k`: "top / middle / bottom" text, 13 cards in row order (text
/// or a list), or an object with the rows and the seat's flags.
fn read_seat(v: &RawValue, k: usize) -> Result<SeatInput> {
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
    };
    let mut ids = Vec::with_capacity(13);
    match kind(v) {
        Kind::String => read_arrangement_text(&string(v)?, &mut ids),
        Kind::Object => seat_from_object(v, &mut seat, &mut ids),
        Kind::Array => read_cards(v, &mut ids, 13).and_then(|()| match ids.len() {
            13 => Ok(()),
            n => Err(Error::hand(format!(
                "a seat given as a list holds 13 cards in row order, got {}",
                if n > 13 {
                    "more".to_string()
                } else {
                    n.to_string()
                }
            ))),
        }),
        _ => Err(bad(format!(
            "a seat is \"top / middle / bottom\" text, 13 cards or an object, not {}",
            shown(v)
        ))),
    }
    .map_err(|e| e.context(format_args!("seat {k}")).at_seat(k))?;
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}

// ------------------------------------------------------------ rounds

enum StakeSpec {
    Uniform(i64),
    Matrix(Vec<i64>),
}

fn stake(v: &RawValue) -> Result<i64> {
    integer(v).ok_or_else(|| {
        bad(format!(
            "a stake is an integer from 0 to 2^63 - 1 (minor units), not {}",
            shown(v)
        ))
    })
}

fn read_stakes(v: &RawValue, n: usize) -> Result<StakeSpec> {
    match kind(v) {
        Kind::Number => Ok(StakeSpec::Uniform(stake(v)?)),
        Kind::Array => {
            let rows = elements(v)?;
            if rows.len() != n {
                return Err(bad(format!(
                    "stakes must be an integer or a {n} x {n} matrix, got {} rows",
                    rows.len()
                )));
            }
            let mut matrix = Vec::with_capacity(n * n);
            for (i, row) in rows.iter().enumerate() {
                let cells = if kind(row) == Kind::Array {
                    elements(row)?
                } else {
                    return Err(bad(format!("stakes row {i} is not a list")));
                };
                if cells.len() != n {
                    return Err(bad(format!(
                        "stakes must be a {n} x {n} matrix, row {i} has {} entries",
                        cells.len()
                    )));
                }
                for c in cells {
                    matrix.push(stake(c)?);
                }
            }
            Ok(StakeSpec::Matrix(matrix))
        }
        _ => Err(bad(format!(
            "stakes must be an integer or a matrix of integers, not {}",
            shown(v)
        ))),
    }
}

/// A round's members, checked against the schema.
struct Round<'a> {
    rules: Option<&'a RawValue>,
    stakes: Option<&'a RawValue>,
    seats: Option<&'a RawValue>,
}

/// Reads a round's members; its id is set in `id` as soon as it is read and
/// found valid, so that an error found later can name the round.
fn read_round<'a>(text: &'a str, id: &mut Option<&'a RawValue>) -> Result<Round<'a>> {
    let raw: &RawValue = serde_json::from_str(text).map_err(malformed)?;
    if kind(raw) != Kind::Object {
        return Err(bad(format!(
            "a round is a JSON object with a \"seats\" list, not {}",
            shown(raw)
        )));
    }
    let mut round = Round {
        rules: None,
        stakes: None,
        seats: None,
    };
    let fields = members(raw)?;
    if let Some((_, v)) = fields.iter().find(|(k, _)| k == "id") {
        check_id(v)?;
        *id = Some(v);
    }
    for (key, v) in fields {
        match key.as_str() {
            "id" => {}
            "rules" => round.rules = Some(v),
            "stakes" => round.stakes = Some(v),
            "seats" => round.seats = Some(v),
            _ => {
                return Err(bad(format!(
                    "unknown key {key:?} (a round has {})",
                    ROUND_KEYS.join(", ")
                )))
            }
        }
    }
    Ok(round)
}

fn check_id(id: &RawValue) -> Result<()> {
    match kind(id) {
        Kind::String | Kind::Number | Kind::Null => Ok(()),
        _ => Err(bad(format!(
            "an id is a string or a number, not {}",
            shown(id)
        ))),
    }
}

fn rules_name(v: Option<&RawValue>) -> Result<Option<String>> {
    match v {
        None => Ok(None),
        Some(v) => match kind(v) {
            Kind::Null => Ok(None),
            Kind::String => Ok(Some(string(v)?)),
            _ => Err(Error::rules(
                "\"rules\" names a preset or the --rules file; inline rules are not read in a stream",
            )),
        },
    }
}

/// Settles one round given as JSON text and appends its record to `out`.
fn settle_text(text: &str, line: usize, rules_for: &RulesFor, out: &mut String) -> LineOutcome {
    let mut id = None;
    let result = (|| {
        let round = read_round(text, &mut id)?;
        let name = rules_name(round.rules)?;
        let rules = rules_for(name.as_deref()).map_err(Error::rules)?;
        let seat_values = match round.seats {
            Some(v) if kind(v) == Kind::Array => elements(v)?,
            _ => {
                return Err(bad(format!(
                    "a round needs a \"seats\" list of {MIN_SEATS} to {MAX_SEATS} seats"
                )))
            }
        };
        check_seat_count(seat_values.len())?;
        let seats = seat_values
            .iter()
            .enumerate()
            .map(|(k, v)| read_seat(v, k))
            .collect::<Result<Vec<_>>>()?;
        let spec = match round.stakes {
            None => StakeSpec::Uniform(rules.stake),
            Some(v) if kind(v) == Kind::Null => StakeSpec::Uniform(rules.stake),
            Some(v) => read_stakes(v, seats.len())?,
        };
        let stakes = match &spec {
            StakeSpec::Uniform(s) => Stakes::Uniform(*s),
            StakeSpec::Matrix(m) => Stakes::Matrix(m),
        };
        Ok((settle(rules, &seats, &stakes)?, seats))
    })();
    let id_text = id.map(RawValue::get);
    match result {
        Ok((s, seats)) => {
            write_settlement_json(out, &s, &seats, id_text);
            LineOutcome::Settled
        }
        Err(e) => {
            write_error_record(out, line, id_text, &e);
            LineOutcome::Failed
        }
    }
}

/// Settles one line of a JSON Lines stream (without its line feed) and
/// appends its record to `out`; a blank line appends nothing.
pub fn settle_line(
    bytes: &[u8],
    line: usize,
    rules_for: &RulesFor,
    out: &mut String,
) -> LineOutcome {
    let bytes = strip_bom(bytes);
    if is_blank(bytes) {
        return LineOutcome::Blank;
    }
    match utf8(bytes) {
        Ok(text) => settle_text(text, line, rules_for, out),
        Err(e) => {
            write_error_record(out, line, None, &e);
            LineOutcome::Failed
        }
    }
}

/// The error record of a line longer than [`MAX_LINE_BYTES`].
pub fn write_overlong_record(out: &mut String, line: usize, length: usize) {
    let e = bad(format!(
        "the line is {length} bytes long; a round is at most {MAX_LINE_BYTES} bytes"
    ));
    write_error_record(out, line, None, &e);
}

/// Writes the one error record shape (keys sorted, compact):
/// `{"error": kind, "id": id or null, "line": n, "message": text,
/// "row": "top"|"middle"|"bottom"|null, "seat": k|null}`.
pub fn write_error_record(out: &mut String, line: usize, id: Option<&str>, e: &Error) {
    let message = serde_json::to_string(e.message()).unwrap_or_else(|_| "\"\"".into());
    let _ = write!(
        out,
        "{{\"error\":\"{}\",\"id\":{},\"line\":{line},\"message\":{message},\"row\":",
        e.kind().name(),
        id.unwrap_or("null"),
    );
    match e.row() {
        Some(r) => {
            let _ = write!(out, "\"{r}\"");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"seat\":");
    match e.seat() {
        Some(s) => {
            let _ = write!(out, "{s}");
        }
        None => out.push_str("null"),
    }
    out.push('}');
}

// ------------------------------------------------------------ documents

/// The rounds of a JSON document (one round object, or a list of them),
/// each as its raw text with the line it starts on; `is_list` says which.
pub struct Document<'a> {
    pub is_list: bool,
    pub rounds: Vec<(usize, &'a str)>,
}

fn line_at(text: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Reads a JSON document into its rounds. The error (malformed JSON, not
/// UTF-8, neither a round nor a list) comes with the line it was found on.
pub fn read_document(bytes: &[u8]) -> std::result::Result<Document<'_>, (usize, Error)> {
    let bytes = strip_bom(bytes);
    let text = utf8(bytes).map_err(|e| (line_of_invalid_utf8(bytes), e))?;
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| (e.line().max(1), malformed(e)))?;
    match kind(raw) {
        Kind::Object => Ok(Document {
            is_list: false,
            rounds: vec![(line_at(text, raw.get()), raw.get())],
        }),
        Kind::Array => {
            let items = elements(raw).map_err(|e| (line_at(text, raw.get()), e))?;
            Ok(Document {
                is_list: true,
                rounds: items
                    .into_iter()
                    .map(|v| (line_at(text, v.get()), v.get()))
                    .collect(),
            })
        }
        _ => Err((
            line_at(text, raw.get()),
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
    let mut out = String::new();
    match read_document(bytes) {
        Err((line, e)) => {
            write_error_record(&mut out, line, None, &e);
            (out, 1)
        }
        Ok(doc) => {
            let mut failed = 0;
            if doc.is_list {
                out.push('[');
            }
            for (k, (line, text)) in doc.rounds.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                if settle_text(text, *line, rules_for, &mut out) == LineOutcome::Failed {
                    failed += 1;
                }
            }
            if doc.is_list {
                out.push(']');
            }
            (out, failed)
        }
    }
}

/// Re-indents compact JSON text (as the records are written) with `indent`
/// spaces per level, leaving every token, numbers and strings included,
/// exactly as it was.
pub fn indent_json(text: &str, indent: usize) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', depth * indent));
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
