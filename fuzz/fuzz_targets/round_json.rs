//! `capsa_core::stream::settle_line`, the `capsa settle` stream's one line: its
//! output is nothing for a blank line and otherwise exactly one JSON value on
//! one line; a settlement record balances (points, money and net + rake each
//! sum to zero, net = money - rake, one entry per seat) and echoes the id;
//! an error record has `error` (a `CapsaError` class name), `id`, `line` (the
//! given line number), `message`, `row` and `seat`, and nothing else.
//!
//! The first byte picks the mode. Raw: the rest is the line, so the fuzzer
//! works on the JSON reader. Structured: the rest is decoded into a plausible
//! round (a real deal, 2-4 seats in every written form, flags, stakes) that
//! is written as JSON, so the fuzzer reaches deep into settlement; a round
//! written without a deliberate defect must then give exactly what
//! `capsa_core::settle::settle` gives for the same seats.
#![no_main]

use arbitrary::{Result, Unstructured};
use capsa_core::cards::card_text;
use capsa_core::rules::Rules;
use capsa_core::settle::{settle, SeatInput, Stakes};
use capsa_core::stream::{settle_line, LineOutcome};
use capsa_fuzz::{figure, shuffled_deck};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

const ERROR_NAMES: [&str; 5] = [
    "CardError",
    "HandError",
    "RulesError",
    "TableError",
    "ArgumentError",
];

fn rules_for(name: Option<&str>) -> std::result::Result<&'static Rules, String> {
    static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    match name {
        None | Some("capsa-susun") => Ok(RULES.get_or_init(Rules::default)),
        Some(other) => Err(format!("unknown rules {other:?}")),
    }
}

/// A round as the generator wrote it: the line, and what settling it must
/// give when it has no deliberate defect.
struct Round {
    line: String,
    expected: Option<(Vec<SeatInput>, WrittenStakes)>,
}

/// The stakes a generated round wrote.
enum WrittenStakes {
    /// None: the rules' stake.
    Absent,
    Uniform(i64),
    Matrix(Vec<i64>),
}

/// One card as the stream accepts it, in a form drawn from the bytes.
fn card_value(u: &mut Unstructured, id: u8) -> Result<Value> {
    let text = card_text(id);
    let (rank, suit) = (&text[..1], &text[1..]);
    Ok(match u.int_in_range(0u8..=5)? {
        0 => json!(id),
        1 => json!(text),
        2 => json!(text.to_lowercase()),
        3 => json!(format!(
            "{}{}",
            if rank == "T" { "10" } else { rank },
            suit.to_uppercase()
        )),
        4 => json!(format!("{rank}{}", ["♦", "♣", "♥", "♠"][(id & 3) as usize])),
        _ => json!(format!("{rank}{}", ["♢", "♧", "♡", "♤"][(id & 3) as usize])),
    })
}

fn card_words(u: &mut Unstructured, ids: &[u8]) -> Result<String> {
    let mut out = String::new();
    for (k, &id) in ids.iter().enumerate() {
        if k > 0 {
            out.push_str(u.choose(&[" ", ", ", ",", "  ", "\t", "\u{a0}"])?);
        }
        match card_value(u, id)? {
            Value::String(s) => out.push_str(&s),
            _ => out.push_str(&card_text(id)),
        }
    }
    Ok(out)
}

/// A row: text, a list of ids and texts, or a list of texts of several cards.
fn row_value(u: &mut Unstructured, ids: &[u8]) -> Result<Value> {
    Ok(match u.int_in_range(0u8..=2)? {
        0 => json!(card_words(u, ids)?),
        1 => Value::Array(
            ids.iter()
                .map(|&id| card_value(u, id))
                .collect::<Result<_>>()?,
        ),
        _ => {
            let cut = u.int_in_range(0..=ids.len())?;
            json!([card_words(u, &ids[..cut])?, card_words(u, &ids[cut..])?])
        }
    })
}

/// One seat: `"top / middle / bottom"` text, or an object with its flags.
fn seat_value(u: &mut Unstructured, seat: &mut SeatInput) -> Result<Value> {
    let rows = [&seat.cards[..3], &seat.cards[3..8], &seat.cards[8..]];
    if u.ratio(1u8, 3)? {
        let sep = *u.choose(&[" / ", "/", " | ", "|"])?;
        let words = rows
            .iter()
            .map(|r| card_words(u, r))
            .collect::<Result<Vec<_>>>()?;
        return Ok(json!(words.join(sep)));
    }
    let mut map = Map::new();
    for (name, row) in ["top", "middle", "bottom"].into_iter().zip(rows) {
        map.insert(name.into(), row_value(u, row)?);
    }
    if u.arbitrary()? {
        seat.surrender = u.arbitrary()?;
        map.insert("surrender".into(), json!(seat.surrender));
    }
    if u.arbitrary()? {
        seat.declare_natural = u.arbitrary()?;
        map.insert("declare_natural".into(), json!(seat.declare_natural));
    }
    Ok(Value::Object(map))
}

/// Replaces part of a round with something the stream must reject or read
/// carefully; returns whether the round is still well formed.
fn defect(u: &mut Unstructured, round: &mut Map<String, Value>) -> Result<bool> {
    let bad: Value = match u.int_in_range(0u8..=3)? {
        0 => json!(u.arbitrary::<String>()?),
        1 => json!(u.arbitrary::<i64>()?),
        2 => json!(u.arbitrary::<f64>()?),
        _ => json!([u.arbitrary::<u8>()?, u.arbitrary::<bool>()?]),
    };
    let key = *u.choose(&[
        "seats", "stakes", "rules", "id", "extra", "seat", "card", "flag",
    ])?;
    let seats = round.get_mut("seats").and_then(Value::as_array_mut);
    match (key, seats) {
        ("seat", Some(seats)) if !seats.is_empty() => {
            let k = u.choose_index(seats.len())?;
            seats[k] = bad;
        }
        ("card", Some(seats)) if !seats.is_empty() => {
            let k = u.choose_index(seats.len())?;
            let row = *u.choose(&["top", "middle", "bottom"])?;
            if let Some(map) = seats[k].as_object_mut() {
                map.insert(row.into(), bad);
            } else {
                seats[k] = json!({ "top": bad });
            }
        }
        ("flag", Some(seats)) if !seats.is_empty() => {
            let k = u.choose_index(seats.len())?;
            if let Some(map) = seats[k].as_object_mut() {
                map.insert("surrender".into(), bad);
            }
        }
        ("id", _) => {
            // a string or number id is echoed back; any other is refused
            let scalar = !bad.is_array();
            round.insert("id".into(), bad);
            return Ok(scalar);
        }
        (key, _) => {
            round.insert(key.into(), bad);
        }
    }
    Ok(false)
}

fn structured_round(u: &mut Unstructured) -> Result<Round> {
    let deck = shuffled_deck(u)?;
    let n = if u.ratio(1u8, 16)? {
        u.int_in_range(0..=5)?
    } else {
        u.int_in_range(2..=4)?
    };
    // five seats cannot be dealt from one deck: the fifth repeats cards
    let mut seats: Vec<SeatInput> = (0..n)
        .map(|s| SeatInput {
            cards: std::array::from_fn(|k| deck[(13 * s + k) % 52]),
            surrender: false,
            declare_natural: true,
            banker: false,
            multiplier: 1,
        })
        .collect();
    let seat_values = seats
        .iter_mut()
        .map(|seat| seat_value(u, seat))
        .collect::<Result<Vec<_>>>()?;
    let mut round = Map::new();
    round.insert("seats".into(), Value::Array(seat_values));
    if u.arbitrary()? {
        round.insert("id".into(), json!(u.arbitrary::<i64>()?));
    }
    if u.arbitrary()? {
        round.insert("rules".into(), json!(*u.choose(&["capsa-susun", "texas"])?));
    }
    let stakes = match u.int_in_range(0u8..=3)? {
        0 => WrittenStakes::Absent,
        1 => {
            let stake = figure(u)?;
            round.insert("stakes".into(), json!(stake));
            WrittenStakes::Uniform(stake)
        }
        _ => {
            let mut matrix = vec![0i64; n * n];
            for i in 0..n {
                for j in 0..n {
                    matrix[i * n + j] = if j < i { matrix[j * n + i] } else { figure(u)? };
                }
            }
            if u.ratio(1u8, 8)? && !matrix.is_empty() {
                let k = u.choose_index(matrix.len())?;
                matrix[k] = figure(u)?;
            }
            let rows: Vec<&[i64]> = matrix.chunks(n.max(1)).collect();
            round.insert("stakes".into(), json!(rows));
            WrittenStakes::Matrix(matrix)
        }
    };
    let mut well_formed = true;
    // bounded: an exhausted input answers every `ratio` with true
    for _ in 0..4 {
        if u.is_empty() || !u.ratio(1u8, 6)? {
            break;
        }
        well_formed &= defect(u, &mut round)?;
    }
    if round.get("rules") == Some(&json!("texas")) {
        well_formed = false;
    }
    // a line feed ends a line; between tokens a carriage return is whitespace
    let line = if u.ratio(1u8, 4)? {
        serde_json::to_string_pretty(&round)
            .expect("a value writes")
            .replace('\n', "\r")
    } else {
        serde_json::to_string(&round).expect("a value writes")
    };
    let expected = well_formed.then_some((seats, stakes));
    Ok(Round { line, expected })
}

/// The value of `key` in a record, as integers, one per seat.
fn figures(record: &Value, key: &str) -> Vec<i64> {
    record[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is a list in {record}"))
        .iter()
        .map(|v| {
            v.as_i64()
                .unwrap_or_else(|| panic!("{key} holds integers in {record}"))
        })
        .collect()
}

/// The invariants of any output record of `line`.
fn check_record(line: &[u8], line_number: usize, settled: bool, out: &str) -> Value {
    assert!(!out.contains('\n'), "a record is one line: {out}");
    let record: Value = serde_json::from_str(out)
        .unwrap_or_else(|e| panic!("output is not one JSON value ({e}): {out}"));
    let obj = record
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {out}"));
    let round: Option<Value> = std::str::from_utf8(capsa_core::stream::strip_bom(line))
        .ok()
        .and_then(|text| serde_json::from_str(text).ok());
    let id = round
        .as_ref()
        .and_then(|r| r.get("id"))
        .cloned()
        .unwrap_or(Value::Null);
    let scalar_id = !(id.is_array() || id.is_object() || id.is_boolean());
    if settled {
        let points = figures(&record, "points");
        let money = figures(&record, "money");
        let net = figures(&record, "net");
        let rake = figures(&record, "rake");
        let n = points.len();
        assert!((2..=4).contains(&n), "{n} seats in {out}");
        for list in [&money, &net, &rake] {
            assert_eq!(list.len(), n, "one figure per seat in {out}");
        }
        // summed wide: each figure fits in 64 bits, a partial sum may not
        let total = |v: &[i64]| v.iter().map(|&x| x as i128).sum::<i128>();
        assert_eq!(total(&points), 0, "points balance in {out}");
        assert_eq!(total(&money), 0, "money balances in {out}");
        let kept: i128 = net
            .iter()
            .zip(&rake)
            .map(|(&a, &b)| a as i128 + b as i128)
            .sum();
        assert_eq!(kept, 0, "net + rake balances in {out}");
        for s in 0..n {
            assert_eq!(
                net[s],
                money[s] - rake[s],
                "net is money less rake in {out}"
            );
            assert!(rake[s] >= 0 && rake[s] <= money[s].max(0), "rake in {out}");
        }
        assert_eq!(record["seats"].as_array().map(Vec::len), Some(n), "{out}");
        assert_eq!(
            record["pairs"].as_array().map(Vec::len),
            Some(n * (n - 1) / 2)
        );
        // the id is echoed as written, so it reads back as the same value
        let echoed = obj.get("id").cloned().unwrap_or(Value::Null);
        assert!(scalar_id && echoed == id, "the id {id} is echoed in {out}");
    } else {
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["error", "id", "line", "message", "row", "seat"],
            "{out}"
        );
        let name = record["error"].as_str().unwrap_or_default();
        assert!(ERROR_NAMES.contains(&name), "error class {name:?} in {out}");
        assert!(
            record["message"].as_str().is_some_and(|m| !m.is_empty()),
            "a message in {out}"
        );
        assert_eq!(record["line"].as_u64(), Some(line_number as u64), "{out}");
        let message = record["message"].as_str().unwrap_or_default();
        // a key given twice is refused before the id is read
        if round.as_ref().is_some_and(Value::is_object) && !message.contains("given twice") {
            let want = if scalar_id { id.clone() } else { Value::Null };
            assert_eq!(record["id"], want, "the id {id} is echoed in {out}");
        }
        assert!(
            record["row"].is_null()
                || ["top", "middle", "bottom"].contains(&record["row"].as_str().unwrap_or("")),
            "{out}"
        );
        assert!(
            record["seat"].is_null() || record["seat"].as_u64().is_some_and(|s| s < 5),
            "{out}"
        );
    }
    record
}

/// A well-formed round gives what `settle` gives for the seats it wrote.
fn check_expected(record: &Value, settled: bool, seats: &[SeatInput], written: &WrittenStakes) {
    let rules = Rules::default();
    let stakes = match written {
        WrittenStakes::Absent => Stakes::Uniform(rules.stake),
        WrittenStakes::Uniform(s) => Stakes::Uniform(*s),
        WrittenStakes::Matrix(m) => Stakes::Matrix(m),
    };
    match settle(&rules, seats, &stakes) {
        Ok(s) => {
            assert!(settled, "settle accepts what the stream rejects: {record}");
            let points: Vec<i64> = s.seats.iter().map(|r| r.points).collect();
            let money: Vec<i64> = s.seats.iter().map(|r| r.money).collect();
            assert_eq!(figures(record, "points"), points, "{record}");
            assert_eq!(figures(record, "money"), money, "{record}");
        }
        Err(e) => {
            assert!(
                !settled,
                "the stream settles what settle rejects ({e}): {record}"
            );
            assert_eq!(record["error"], e.kind().name(), "{e}: {record}");
        }
    }
}

/// A line that is not UTF-8 is one error record (or nothing, when blank).
fn raw_bytes(bytes: &[u8], line_number: usize) {
    let line: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b' ' } else { b })
        .collect();
    let mut out = String::new();
    match settle_line(&line, line_number, &rules_for, &mut out) {
        LineOutcome::Blank => assert!(out.is_empty()),
        LineOutcome::Settled => panic!("a line that is not UTF-8 settled: {out}"),
        LineOutcome::Failed => {
            check_record(&line, line_number, false, &out);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut u = Unstructured::new(rest);
    let line_number = (mode as usize) << 12 | 7;
    let round = if mode & 1 == 0 {
        // a line never holds a line feed: the reader splits there
        let Ok(line) = String::from_utf8(
            rest.iter()
                .map(|&b| if b == b'\n' { b' ' } else { b })
                .collect(),
        ) else {
            return raw_bytes(rest, line_number);
        };
        Round {
            line,
            expected: None,
        }
    } else {
        match structured_round(&mut u) {
            Ok(r) => r,
            Err(_) => return,
        }
    };
    let mut out = String::new();
    let outcome = settle_line(round.line.as_bytes(), line_number, &rules_for, &mut out);
    if outcome == LineOutcome::Blank {
        assert!(out.is_empty() && capsa_core::stream::is_blank(round.line.as_bytes()));
        return;
    }
    let settled = outcome == LineOutcome::Settled;
    let record = check_record(round.line.as_bytes(), line_number, settled, &out);
    if let Some((seats, stakes)) = &round.expected {
        check_expected(&record, settled, seats, stakes);
    }
});
