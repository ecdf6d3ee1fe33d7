use super::*;
use crate::error::ErrorKind;

fn refused(text: &str) -> String {
    let e = parse_str(text).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Table, "{text}");
    e.message().to_string()
}

#[test]
fn integers_of_64_bits_and_nothing_else() {
    assert_eq!(
        parse_str("18446744073709551615").unwrap(),
        Json::Int(u64::MAX as i128)
    );
    assert_eq!(
        parse_str("-9223372036854775808").unwrap(),
        Json::Int(i64::MIN as i128)
    );
    for text in [
        "18446744073709551616",
        "1.0",
        "1e3",
        "-0.5",
        "-9223372036854775809",
    ] {
        assert!(refused(text).contains("not an integer"), "{text}");
    }
}

#[test]
fn ambiguous_text_is_refused() {
    assert!(refused(r#"{"a":1,"a":1}"#).contains("\"a\" is given twice"));
    assert!(refused(r#"{"a":{"b":1,"b":2}}"#).contains("given twice"));
    assert!(refused(r#""\ud800""#).contains("escape"));
    assert!(refused(r#""\udc00x""#).contains("escape"));
    assert!(refused("{} {}").contains("trailing"));
    assert!(refused("").contains("EOF"));
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(refused(&deep).contains("recursion"));
    let e = parse(b"\"\xff\"").unwrap_err();
    assert!(e.message().contains("byte 0xff at byte 2"), "{e}");
}

#[test]
fn canonical_form_sorts_keys_and_escapes_minimally() {
    let value = parse_str(
        "{ \"b\" : [1, -2, true, null], \"a\": \"q\\\"\\\\\\n\\t\\r\\b\\f\\u0001\\u007f é ☃ 😀\",\
         \"é\": {}, \"Z\": [] }",
    )
    .unwrap();
    assert_eq!(
        to_string(&value),
        "{\"Z\":[],\"a\":\"q\\\"\\\\\\n\\t\\r\\b\\f\\u0001\u{7f} é ☃ 😀\",\"b\":[1,-2,true,null],\"é\":{}}"
    );
    // canonical text reads back to the same value and writes the same text
    let text = to_string(&value);
    assert_eq!(to_string(&parse_str(&text).unwrap()), text);
}

#[test]
fn keys_sort_by_code_point() {
    // U+FF5E sorts before U+1F600 by code point (and by UTF-8 bytes), though
    // not by UTF-16 code units
    let value = parse_str("{\"\u{1f600}\":1,\"\u{ff5e}\":2,\"~\":3}").unwrap();
    assert_eq!(
        to_string(&value),
        "{\"~\":3,\"\u{ff5e}\":2,\"\u{1f600}\":1}"
    );
}

#[test]
fn raw_text_is_written_as_is() {
    let value = Json::Object(vec![
        ("b".into(), Json::Raw("{\"x\":1}".into())),
        ("a".into(), Json::Int(-3)),
    ]);
    assert_eq!(to_string(&value), "{\"a\":-3,\"b\":{\"x\":1}}");
    assert_eq!(value.get("a"), Some(&Json::Int(-3)));
    assert_eq!(value.get("c"), None);
    assert_eq!(Json::Null.get("a"), None);
}
