//! Reports of a settlement (JSON and a readable table) and rounds read from
//! JSON: the schema of `capsa settle` (see the README), shared by the command
//! line and `Settlement.to_dict()`.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::cards::{card_text, parse_text};
use crate::error::{Error, Result};
use crate::rank::{category_of, CATEGORY_NAMES};
use crate::rules::Rules;
use crate::settle::{settle, PairOutcome, SeatInput, Settlement, Stakes};

const ROWS: [&str; 3] = ["top", "middle", "bottom"];

fn cards_text(ids: &[u8]) -> String {
    ids.iter()
        .map(|&c| card_text(c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn outcome_name(o: PairOutcome) -> &'static str {
    match o {
        PairOutcome::Natural => "natural",
        PairOutcome::Surrender => "surrender",
        PairOutcome::Foul => "foul",
        PairOutcome::Rows => "rows",
    }
}

fn row_cards(cards: &[u8; 13], k: usize) -> &[u8] {
    match k {
        0 => &cards[..3],
        1 => &cards[3..8],
        _ => &cards[8..],
    }
}

fn push_list(out: &mut String, values: impl Iterator<Item = i64>) {
    out.push('[');
    for (k, v) in values.enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v}");
    }
    out.push(']');
}

/// Every figure of a settlement as compact JSON with sorted keys, preceded by
/// `"id":…,` when an id is given. Written directly (no value tree) because
/// the command line writes one of these per round.
pub fn write_settlement_json(
    out: &mut String,
    s: &Settlement,
    inputs: &[SeatInput],
    id: Option<&Value>,
) {
    out.push('{');
    if let Some(id) = id {
        let _ = write!(out, "\"id\":{id},");
    }
    out.push_str("\"money\":");
    push_list(out, s.seats.iter().map(|r| r.money));
    out.push_str(",\"net\":");
    push_list(out, s.seats.iter().map(|r| r.net));
    out.push_str(",\"pairs\":[");
    for (k, p) in s.pairs.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"bonus\":{},\"money\":{},\"multiplier\":{},\"outcome\":\"{}\",\"overall\":{},\
             \"points\":{},\"row_points\":{},\"rows\":{{\"bottom\":{},\"middle\":{},\"top\":{}}},\
             \"royalties\":{},\"scoop\":{},\"seats\":[{},{}],\"stake\":{},\"sweep_all\":{}}}",
            p.bonus,
            p.money,
            p.multiplier,
            outcome_name(p.outcome),
            p.overall,
            p.points,
            p.row_points,
            p.rows[2],
            p.rows[1],
            p.rows[0],
            p.royalties,
            p.scoop,
            p.i,
            p.j,
            p.stake,
            p.sweep_all
        );
    }
    out.push_str("],\"points\":");
    push_list(out, s.seats.iter().map(|r| r.points));
    out.push_str(",\"rake\":");
    push_list(out, s.seats.iter().map(|r| r.rake));
    out.push_str(",\"seats\":[");
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"foul\":{},\"money\":{},\"natural\":",
            r.foul, r.money
        );
        match r.natural {
            Some((n, _)) => {
                let _ = write!(out, "\"{}\"", n.name());
            }
            None => out.push_str("null"),
        }
        let _ = write!(
            out,
            ",\"natural_points\":{},\"net\":{},\"points\":{},\"rake\":{},\"rows\":{{",
            r.natural.map_or(0, |(_, p)| p),
            r.net,
            r.points,
            r.rake
        );
        for (i, row) in [2usize, 1, 0].into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "\"{}\":{{\"cards\":\"{}\",\"category\":\"{}\",\"royalty\":{},\"strength\":{}}}",
                ROWS[row],
                cards_text(row_cards(&input.cards, row)),
                CATEGORY_NAMES[category_of(r.strengths[row]) as usize],
                r.royalties[row],
                r.strengths[row]
            );
        }
        let _ = write!(
            out,
            "}},\"seat\":{k},\"surrender\":{},\"swept_all\":{}}}",
            r.surrender, r.swept_all
        );
    }
    out.push_str("]}");
}

/// Every figure of a settlement as JSON text (see [`write_settlement_json`]).
pub fn settlement_json(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::with_capacity(3072);
    write_settlement_json(&mut out, s, inputs, None);
    out
}

fn bad(msg: impl Into<String>) -> Error {
    Error::table(msg)
}

fn read_row(v: &Value, what: &str, out: &mut Vec<u8>) -> Result<()> {
    match v {
        Value::String(s) => parse_text(s, out),
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::String(s) => parse_text(s, out)?,
                    Value::Number(n) => match n.as_u64() {
                        Some(id) if id < 52 => out.push(id as u8),
                        _ => {
                            return Err(Error::card(format!(
                                "{what}: card id {n} is outside 0..51"
                            )))
                        }
                    },
                    other => {
                        return Err(bad(format!(
                            "{what}: a card is a text or an id, not {other}"
                        )))
                    }
                }
            }
            Ok(())
        }
        other => Err(bad(format!(
            "{what}: cards are a text or a list, not {other}"
        ))),
    }
}

fn read_seat(v: &Value, k: usize) -> Result<SeatInput> {
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
    };
    let mut ids = Vec::with_capacity(13);
    match v {
        Value::String(s) => {
            let rows: Vec<&str> = s.split(['/', '|']).collect();
            if rows.len() != 3 {
                return Err(Error::hand(format!(
                    "seat {k}: an arrangement is three rows separated by '/'"
                )));
            }
            for (row, name) in rows.iter().zip(ROWS) {
                let before = ids.len();
                parse_text(row, &mut ids)?;
                check_row(k, name, ids.len() - before)?;
            }
        }
        Value::Object(map) => {
            for key in map.keys() {
                if !["top", "middle", "bottom", "surrender", "declare_natural"]
                    .contains(&key.as_str())
                {
                    return Err(bad(format!("seat {k}: unknown key {key:?}")));
                }
            }
            for name in ROWS {
                let row = map
                    .get(name)
                    .ok_or_else(|| Error::hand(format!("seat {k}: missing row {name:?}")))?;
                let before = ids.len();
                read_row(row, &format!("seat {k} {name}"), &mut ids)?;
                check_row(k, name, ids.len() - before)?;
            }
            for (key, flag) in [
                ("surrender", &mut seat.surrender),
                ("declare_natural", &mut seat.declare_natural),
            ] {
                match map.get(key) {
                    None => {}
                    Some(Value::Bool(b)) => *flag = *b,
                    Some(other) => {
                        return Err(bad(format!(
                            "seat {k}: {key} must be true or false, not {other}"
                        )))
                    }
                }
            }
        }
        other => {
            return Err(bad(format!(
                "seat {k}: a seat is \"top / middle / bottom\" text or an object, not {other}"
            )))
        }
    }
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}

fn check_row(k: usize, name: &str, n: usize) -> Result<()> {
    let want = if name == "top" { 3 } else { 5 };
    if n != want {
        return Err(Error::hand(format!(
            "seat {k}: the {name} row needs {want} cards, got {n}"
        )));
    }
    Ok(())
}

/// Settles one round given as JSON text and appends its output record to
/// `out`: the settlement, or an error record naming the line and the reason.
/// `rules_for` resolves the round's `"rules"` (a name, or `None` for the
/// default). Returns false for an error record.
pub fn settle_round<'r>(
    line: &str,
    line_number: usize,
    rules_for: impl Fn(Option<&str>) -> std::result::Result<&'r Rules, String>,
    out: &mut String,
) -> bool {
    let mut id = Value::Null;
    let result = (|| -> Result<(Settlement, Vec<SeatInput>)> {
        let round: Value =
            serde_json::from_str(line).map_err(|e| bad(format!("malformed JSON: {e}")))?;
        let Value::Object(map) = round else {
            return Err(bad("a round is a JSON object with a \"seats\" list"));
        };
        if let Some(v) = map.get("id") {
            id = v.clone();
        }
        for key in map.keys() {
            if !["id", "rules", "stakes", "seats"].contains(&key.as_str()) {
                return Err(bad(format!(
                    "unknown key {key:?} (a round has id, rules, stakes, seats)"
                )));
            }
        }
        let rules_name = match map.get("rules") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => {
                return Err(Error::rules(
                    "\"rules\" names a preset or the --rules file; inline rules are not read in a stream",
                ))
            }
        };
        let rules = rules_for(rules_name).map_err(Error::rules)?;
        let Some(Value::Array(seat_values)) = map.get("seats") else {
            return Err(bad("a round needs a \"seats\" list of 2 to 4 seats"));
        };
        let seats = seat_values
            .iter()
            .enumerate()
            .map(|(k, v)| read_seat(v, k))
            .collect::<Result<Vec<_>>>()?;
        let n = seats.len();
        let matrix: Vec<i64>;
        let stakes = match map.get("stakes") {
            None | Some(Value::Null) => Stakes::Uniform(rules.stake),
            Some(Value::Number(x)) => Stakes::Uniform(
                x.as_i64()
                    .ok_or_else(|| bad(format!("stakes {x} is not an integer")))?,
            ),
            Some(Value::Array(rows)) => {
                let mut m = Vec::with_capacity(n * n);
                for row in rows {
                    let Value::Array(cells) = row else {
                        return Err(bad("stakes must be an integer or a matrix of integers"));
                    };
                    for c in cells {
                        m.push(
                            c.as_i64()
                                .ok_or_else(|| bad(format!("stake {c} is not an integer")))?,
                        );
                    }
                    if cells.len() != n {
                        return Err(bad(format!("stakes must be a {n} x {n} matrix")));
                    }
                }
                matrix = m;
                Stakes::Matrix(&matrix)
            }
            Some(other) => {
                return Err(bad(format!(
                    "stakes must be an integer or a matrix, not {other}"
                )))
            }
        };
        let s = settle(rules, &seats, &stakes)?;
        Ok((s, seats))
    })();
    match result {
        Ok((s, seats)) => {
            let id = (!id.is_null()).then_some(&id);
            write_settlement_json(out, &s, &seats, id);
            true
        }
        Err(e) => {
            let record = json!({"line": line_number, "id": id, "error": e.kind().name(), "message": e.message()});
            let _ = write!(out, "{record}");
            false
        }
    }
}

/// A table a player or a support agent can read.
pub fn explain(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
        "seat", "top", "middle", "bottom", "points", "money", "rake", "net"
    );
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        let row = |cards: &[u8], st: u32, roy: i64| {
            let mut t = format!(
                "{} {}",
                cards_text(cards),
                CATEGORY_NAMES[category_of(st) as usize]
            );
            if roy > 0 {
                let _ = write!(t, " +{roy}");
            }
            t
        };
        let _ = writeln!(
            out,
            "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
            k,
            row(&input.cards[..3], r.strengths[0], r.royalties[0]),
            row(&input.cards[3..8], r.strengths[1], r.royalties[1]),
            row(&input.cards[8..], r.strengths[2], r.royalties[2]),
            r.points,
            r.money,
            r.rake,
            r.net
        );
        let mut notes = Vec::new();
        if let Some((n, p)) = r.natural {
            notes.push(format!("declares {} ({p} points)", n.name()));
        }
        if r.foul {
            notes.push("fouled: rows out of order".to_string());
        }
        if r.surrender {
            notes.push("surrendered".to_string());
        }
        if r.swept_all {
            notes.push("swept all".to_string());
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "      {}", notes.join("; "));
        }
    }
    let _ = writeln!(out);
    for p in &s.pairs {
        let mark = |v: i8| match v {
            1 => "won",
            -1 => "lost",
            _ => "tied",
        };
        let what = match p.outcome {
            PairOutcome::Rows => {
                let mut t = format!(
                    "top {}, middle {}, bottom {}",
                    mark(p.rows[0]),
                    mark(p.rows[1]),
                    mark(p.rows[2])
                );
                if p.royalties != 0 {
                    let _ = write!(t, "; royalties {:+}", p.royalties);
                }
                if p.overall != 0 {
                    let _ = write!(t, "; overall {:+}", p.overall);
                }
                if p.scoop != 0 {
                    let who = if p.scoop > 0 { p.i } else { p.j };
                    let kind = if p.sweep_all { "sweep-all" } else { "scoop" };
                    let _ = write!(t, "; {kind} by seat {who} x{}", p.multiplier);
                    if p.bonus != 0 {
                        let _ = write!(t, " {:+}", p.bonus);
                    }
                }
                t
            }
            PairOutcome::Foul => {
                let mut t = String::from("foul");
                if p.sweep_all {
                    t.push_str(" at the sweep-all rate");
                }
                if p.royalties != 0 {
                    let _ = write!(t, "; royalties {:+}", p.royalties);
                }
                t
            }
            PairOutcome::Surrender => "surrender".to_string(),
            PairOutcome::Natural => "natural".to_string(),
        };
        let _ = writeln!(
            out,
            "seat {} vs seat {}: {what} => seat {} {:+} points ({:+} money at stake {})",
            p.i, p.j, p.i, p.points, p.money, p.stake
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_rules(name: Option<&str>) -> std::result::Result<&'static Rules, String> {
        static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
        match name {
            None | Some("capsa-susun") => Ok(RULES.get_or_init(Rules::default)),
            Some(other) => Err(format!("unknown preset {other:?}")),
        }
    }

    const ROUND: &str = r#"{"id": 7, "stakes": 10, "seats": [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        {"top": "Qs Js 7s", "middle": [33, 32, 3, 11, 19], "bottom": "2h 4h 6h 9h Qh"}]}"#;

    fn round(line: &str, number: usize) -> Value {
        let mut out = String::new();
        settle_round(line, number, default_rules, &mut out);
        serde_json::from_str(&out).expect("valid JSON")
    }

    #[test]
    fn settles_a_round() {
        let out = round(ROUND, 1);
        assert_eq!(out["id"], 7);
        assert_eq!(out["points"].as_array().unwrap().len(), 2);
        let p0 = out["points"][0].as_i64().unwrap();
        assert_eq!(p0 + out["points"][1].as_i64().unwrap(), 0);
        assert_eq!(out["money"][0].as_i64().unwrap(), 10 * p0);
    }

    #[test]
    fn errors_are_records() {
        for (line, kind) in [
            ("{", "TableError"),
            ("[1, 2]", "TableError"),
            (
                r#"{"seats": ["As Ks Qs / 2c 3c 4c 5c 7d / 8h 9h Th Jh Qh"]}"#,
                "TableError",
            ),
            (
                r#"{"seats": ["As Ks / 2c 3c 4c 5c 7d / 8h 9h Th Jh Qh", "x"]}"#,
                "HandError",
            ),
            (r#"{"rules": "texas", "seats": []}"#, "RulesError"),
            (r#"{"seats": [], "colour": 1}"#, "TableError"),
        ] {
            let out = round(line, 9);
            assert_eq!(out["error"], kind, "{line}: {out}");
            assert_eq!(out["line"], 9);
        }
    }
}
