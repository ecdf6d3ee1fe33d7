use super::*;
use serde_json::Value;

use crate::rules::Rules;

fn default_rules(name: Option<&str>) -> std::result::Result<&'static Rules, String> {
    static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    match name {
        None | Some("capsa-susun") => Ok(RULES.get_or_init(Rules::default)),
        Some(other) => Err(format!("unknown preset {other:?}")),
    }
}

const SEATS: &str = r#""seats": [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        {"top": "Qs Js 7s", "middle": [33, 32, 3, 11, 19], "bottom": "2h 4h 6h 9h Qh"}]"#;

fn line(text: &str, number: usize) -> (LineOutcome, String) {
    let mut out = String::new();
    let outcome = settle_line(text.as_bytes(), number, &default_rules, &mut out);
    (outcome, out)
}

fn record(text: &str) -> Value {
    let (_, out) = line(text, 9);
    serde_json::from_str(&out).expect("one JSON record")
}

#[test]
fn settles_a_round_and_echoes_its_id_as_written() {
    for id in [
        "7",
        "-0",
        "1e400",
        "123456789012345678901234567890",
        "\"t\\u0041ble\"",
    ] {
        let (outcome, out) = line(&format!("{{\"id\": {id}, \"stakes\": 10, {SEATS}}}"), 1);
        assert_eq!(outcome, LineOutcome::Settled, "{out}");
        assert!(
            out.starts_with(&format!("{{\"id\":{id},\"money\":")),
            "{out}"
        );
    }
    let out = record(&format!("{{\"stakes\": 10, {SEATS}}}"));
    let p0 = out["points"][0].as_i64().unwrap();
    assert_eq!(p0 + out["points"][1].as_i64().unwrap(), 0);
    assert_eq!(out["money"][0].as_i64().unwrap(), 10 * p0);
}

#[test]
fn whitespace_bom_and_carriage_returns_are_json_whitespace() {
    let plain = record(&format!("{{\"id\": 1, {SEATS}}}"));
    let crlf = format!("\u{feff}{{\"id\":\r1,\r{}}}\r", SEATS.replace('\n', "\r"));
    assert_eq!(record(&crlf), plain);
    assert_eq!(line(" \t\r", 3), (LineOutcome::Blank, String::new()));
    assert_eq!(line("\u{feff}", 3), (LineOutcome::Blank, String::new()));
}

#[test]
fn error_records_have_one_shape_and_name_the_place() {
    let cases = [
        ("{", "TableError", Value::Null, Value::Null),
        ("[1, 2]", "TableError", Value::Null, Value::Null),
        (
            r#"{"id": 5, "seats": ["As Ks Qs / 2c 3c 4c 5c 7d / 8h 9h Th Jh Qh"]}"#,
            "TableError",
            Value::Null,
            Value::Null,
        ),
        (
            r#"{"id": 5, "seats": ["As Ks / 2c 3c 4c 5c 7d / 8h 9h Th Jh Qh", "x"]}"#,
            "HandError",
            0.into(),
            "top".into(),
        ),
        (
            r#"{"id": 5, "seats": ["Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d", "2c 3c 4c / 5c 6c 7c 8c 9c / Tc Jc Qc Kc Zz"]}"#,
            "CardError",
            1.into(),
            "bottom".into(),
        ),
        (
            r#"{"rules": "texas", "seats": []}"#,
            "RulesError",
            Value::Null,
            Value::Null,
        ),
        (
            r#"{"seats": [], "colour": 1}"#,
            "TableError",
            Value::Null,
            Value::Null,
        ),
        (
            r#"{"seats": [], "seats": []}"#,
            "TableError",
            Value::Null,
            Value::Null,
        ),
        (
            r#"{"id": [1], "seats": []}"#,
            "TableError",
            Value::Null,
            Value::Null,
        ),
    ];
    for (text, kind, seat, row) in cases {
        let out = record(text);
        let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["error", "id", "line", "message", "row", "seat"],
            "{text}"
        );
        assert_eq!(out["error"], kind, "{text}: {out}");
        assert_eq!(out["line"], 9);
        assert_eq!(out["seat"], seat, "{text}: {out}");
        assert_eq!(out["row"], row, "{text}: {out}");
    }
    assert_eq!(record(r#"{"id": 5, "seats": ["x"]}"#)["id"], 5);
    // an error found in the keys still names the round
    assert_eq!(record(r#"{"colour": 1, "id": 5, "seats": []}"#)["id"], 5);
    let bad_utf8 = b"{\"id\": 1, \"seats\": [\"\xff\"]}";
    let mut out = String::new();
    assert_eq!(
        settle_line(bad_utf8, 4, &default_rules, &mut out),
        LineOutcome::Failed
    );
    let out: Value = serde_json::from_str(&out).unwrap();
    assert!(out["message"].as_str().unwrap().contains("UTF-8"), "{out}");
}

#[test]
fn cards_ids_and_stakes_are_exact() {
    for bad in ["52", "1.0", "true", "-1", "1e1", "\"5\""] {
        let text = format!(
            r#"{{"seats": [{{"top": [{bad}, 1, 2], "middle": "2h 3h 4h 5h 6h", "bottom": "7s 8s 9s Ts Js"}}, "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"]}}"#
        );
        let out = record(&text);
        assert_eq!(out["seat"], 0, "{bad}: {out}");
        assert_eq!(out["row"], "top", "{bad}: {out}");
    }
    for bad in [
        "-1",
        "1.5",
        "true",
        "9223372036854775808",
        "\"10\"",
        "[[0, 1], [1]]",
    ] {
        let out = record(&format!("{{\"stakes\": {bad}, {SEATS}}}"));
        assert_eq!(out["error"], "TableError", "{bad}: {out}");
    }
    // the largest stake is read exactly (these seats settle one point)
    let out = record(&format!("{{\"stakes\": 9223372036854775807, {SEATS}}}"));
    assert_eq!(out["points"], serde_json::json!([1, -1]), "{out}");
    assert_eq!(out["money"][0].as_i64(), Some(i64::MAX), "{out}");
}

#[test]
fn seats_as_thirteen_cards() {
    let as_rows = record(&format!("{{{SEATS}}}"));
    let flat = r#"{"seats": ["Ah Kh 8s As Ks 9d 7d 5h Jc Jd Jh 3c 3d",
            [45, 41, 3, "Qs", 33, 32, 3, 11, 19, "2h", "4h", "6h", "9h", "Qh"]]}"#;
    let out = record(flat);
    assert_eq!(out["error"], "HandError", "{out}");
    let flat = r#"{"seats": ["Ah Kh 8s As Ks 9d 7d 5h Jc Jd Jh 3c 3d",
            ["Qs", "Js", "7s", 33, 32, 3, 11, 19, "2h", "4h", "6h", "9h", "Qh"]]}"#;
    assert_eq!(record(flat), as_rows);
}

#[test]
fn documents_give_each_round_its_line() {
    let text = format!("[\n{{\"id\": 1, {SEATS}}},\n\n{{\"id\": 2, \"seats\": 3}}\n]");
    let (out, failed) = settle_document(text.as_bytes(), &default_rules);
    assert_eq!(failed, 1);
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out[0]["id"], 1);
    assert_eq!(out[1]["line"], 6);
    assert_eq!(out[1]["id"], 2);
    assert_eq!(
        settle_document(b" [ ] ", &default_rules),
        ("[]".to_string(), 0)
    );
    let (out, failed) = settle_document(b"\n\n[1,", &default_rules);
    assert_eq!(failed, 1);
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["line"], 3, "{out}");
}

#[test]
fn errors_deep_in_a_document_name_their_lines() {
    // rounds of different heights, every fifth one failing: each error names
    // the line its round starts on, however far into the document
    let mut text = String::from("[");
    let mut want = Vec::new();
    let mut line = 1;
    let mut push = |text: &mut String, piece: &str| {
        text.push_str(piece);
        line += piece.matches('\n').count();
        line
    };
    for k in 0..3000 {
        if k > 0 {
            push(&mut text, ",\n");
        }
        let starts = push(&mut text, &"\n".repeat(k % 3));
        if k % 5 == 4 {
            want.push((k, starts));
            push(&mut text, &format!("{{\"id\": {k}, \"seats\": 3}}"));
        } else {
            push(&mut text, &format!("{{\"id\": {k}, {SEATS}}}"));
        }
    }
    text.push(']');
    let (out, failed) = settle_document(text.as_bytes(), &default_rules);
    assert_eq!(failed, want.len());
    let out: Value = serde_json::from_str(&out).unwrap();
    for (k, line) in want {
        assert_eq!(out[k]["id"], k, "{}", out[k]);
        assert_eq!(out[k]["line"], line, "round {k}: {}", out[k]);
    }
}

#[test]
fn an_object_of_100_000_keys_is_refused_for_its_first_fault() {
    // distinct keys: the first one that is not a round's
    let mut text = String::from("{");
    for k in 0..100_000 {
        text.push_str(&format!("\"k{k}\": {k},"));
    }
    let distinct = format!("{}\"k0\": 1}}", text);
    let out = record(&distinct);
    let message = out["message"].as_str().unwrap();
    assert!(message.starts_with("key \"k0\" is given twice"), "{out}");
    text.pop();
    text.push('}');
    let out = record(&text);
    assert_eq!(out["error"], "TableError");
    assert!(
        out["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown key \"k0\""),
        "{out}"
    );
}

#[test]
fn indenting_keeps_every_token() {
    let text = r#"{"a":[1,-0,1e400,{}],"b":"x,{\"]:","c":[]}"#;
    let pretty = indent_json(text, 2);
    assert_eq!(
        pretty,
        "{\n  \"a\": [\n    1,\n    -0,\n    1e400,\n    {}\n  ],\n  \"b\": \"x,{\\\"]:\",\n  \"c\": []\n}"
    );
}

#[test]
fn first_line_detection() {
    assert!(is_json_object(b"{\"seats\": []}\r"));
    assert!(is_json_object(b"\xef\xbb\xbf {}"));
    assert!(!is_json_object(b"{\"seats\": ["));
    assert!(!is_json_object(b"[{}]"));
    assert!(!is_json_object(b"\xff{}"));
}

#[test]
fn a_seat_fault_has_the_message_of_every_channel() {
    let seat1 = "\"Qs Js 7s / 2c 3s 4c 5c 6c / 2h 4h 6h 9h Qh\"";
    let ids = "[47, 41, 26, 51, 47, 31, 21, 15, 36, 37, 38, 5, 6]";
    for (seat0, message) in [
        (
            "[47, 41, 26, 51, 46, 31, 21, 15, 36, 37, 38, 5, 52]",
            "seat 0: card 2d' (id 52) at position 12 is not in the 52-card deck",
        ),
        (
            "[47, 41, 26, 51, 46, 31, 21, 15, 36, 37, 38, 5]",
            "seat 0: an arrangement has 13 cards, got 12",
        ),
        (
            ids,
            "seat 0: card Ks (id 47) appears twice, at positions 0 and 4",
        ),
        (
            "{\"top\": \"Ah Kh 8s\", \"middle\": \"As Ks 9d 7d 5h\", \
             \"bottom\": \"Jc Jd Jh 3c 3d\", \"surrender\": 1}",
            "seat 0: surrender must be true or false, not an integer",
        ),
    ] {
        let out = record(&format!("{{\"seats\": [{seat0}, {seat1}]}}"));
        assert_eq!(out["message"], message, "{out}");
    }
}
