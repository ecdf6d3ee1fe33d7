use super::*;
use crate::record::{read, read_any, AnyRecord};

const COMMITMENT: [u8; 32] = [0xab; 32];

fn inputs<'a>(reason: &'a str, meta: &'a [(Cow<'a, str>, Json<'a>)]) -> VoidInputs<'a> {
    VoidInputs {
        table_id: Some("table-7"),
        round_id: "table-7/round-9",
        previous_digest: Some([1; 32]),
        commitment: COMMITMENT,
        nonce: 9,
        reason,
        meta,
    }
}

fn void_of(text: &str) -> VoidRecord {
    match read_any(text) {
        Ok(AnyRecord::Void(v)) => *v,
        other => panic!("not a void record: {other:?}"),
    }
}

#[test]
fn a_void_record_is_canonical_json_and_reads_back() {
    let meta = [(Cow::Borrowed("at"), Json::Int(1_800_000_000_000))];
    let (text, digest) = write_void(&inputs("the server stopped ☃", &meta)).unwrap();
    assert!(text.starts_with("{\"capsa_version\":"), "{text}");
    let value = canonical::parse_str(&text).unwrap();
    assert_eq!(canonical::to_string(&value), text);
    let record = void_of(&text);
    assert_eq!(record.digest, digest);
    assert_eq!(record.content_digest, digest);
    assert!(record.canonical_as_read);
    assert_eq!(record.reason, "the server stopped ☃");
    assert_eq!(
        (
            record.table_id.as_deref(),
            record.round_id.as_str(),
            record.nonce
        ),
        (Some("table-7"), "table-7/round-9", 9)
    );
    assert_eq!(record.meta, meta.to_vec());
    assert!(record.replay(Some(Some([1; 32]))).is_empty());
    assert!(record.verify_deal(Some(COMMITMENT)).is_empty());
    // the round record reader refuses it by its format
    assert_eq!(read(text.as_str()).unwrap_err().field, "format");
}

#[test]
fn replay_names_a_changed_field_and_a_broken_link() {
    let (text, _) = write_void(&inputs("crash", &[])).unwrap();
    let changed = text.replace("\"crash\"", "\"quiet\"");
    let fields: Vec<String> = void_of(&changed)
        .replay(Some(None))
        .into_iter()
        .map(|p| p.field)
        .collect();
    assert_eq!(fields, ["digest", "previous_digest"]);
    let other = void_of(&text).verify_deal(Some([0xcd; 32]));
    assert_eq!(other[0].field, "deal.commitment");
}

#[test]
fn the_reader_names_the_first_field_out_of_form() {
    let (text, _) = write_void(&inputs("crash", &[])).unwrap();
    let cases = [
        ("\"reason\":\"crash\"", "\"reason\":\"\"", "reason"),
        ("\"reason\":\"crash\"", "\"reason\":\"a\\u0000b\"", "reason"),
        ("\"reason\":\"crash\"", "\"reason\":7", "reason"),
        (
            "\"format_version\":1",
            "\"format_version\":2",
            "format_version",
        ),
        ("\"nonce\":9", "\"nonce\":-1", "deal.nonce"),
        (
            "\"nonce\":9",
            "\"nonce\":9,\"server_seed\":\"00\"",
            "deal.server_seed",
        ),
        (
            "\"round_id\":\"table-7/round-9\"",
            "\"round_id\":\"\"",
            "round_id",
        ),
        (
            "\"table_id\":\"table-7\"",
            "\"table_id\":\"table-7\",\"seats\":[]",
            "seats",
        ),
        ("\"meta\":{}", "\"meta\":[]", "meta"),
        (
            "\"algorithm\":\"capsa-fair-1\"",
            "\"algorithm\":\"other\"",
            "deal.algorithm",
        ),
    ];
    for (from, to, field) in cases {
        assert!(text.contains(from), "{from}");
        let problem = read_any(text.replacen(from, to, 1).as_str()).unwrap_err();
        assert_eq!(problem.field, field, "{to}: {problem:?}");
        assert!(problem.message.contains(field), "{problem:?}");
    }
    let newer = read_any(
        text.replacen("\"format_version\":1", "\"format_version\":2", 1)
            .as_str(),
    );
    assert!(newer.unwrap_err().message.contains("newer"));
    let missing = read_any(text.replacen("\"reason\":\"crash\",", "", 1).as_str()).unwrap_err();
    assert_eq!(missing.field, "reason");
}

#[test]
fn the_writer_refuses_what_the_reader_would() {
    for reason in ["", "a\0b", &"x".repeat(MAX_REASON_BYTES + 1)] {
        assert!(write_void(&inputs(reason, &[])).is_err(), "{reason:?}");
    }
    assert!(write_void(&inputs(&"x".repeat(MAX_REASON_BYTES), &[])).is_ok());
    let mut bad = inputs("crash", &[]);
    bad.round_id = "";
    assert!(write_void(&bad).is_err());
    let long = "t".repeat(300);
    let mut bad = inputs("crash", &[]);
    bad.table_id = Some(&long);
    assert!(write_void(&bad).is_err());
}

#[test]
fn a_void_record_given_as_a_value_reads_as_its_text() {
    let (text, digest) = write_void(&inputs("crash", &[])).unwrap();
    let value = canonical::parse_str(&text).unwrap();
    match super::super::read_any_value(&value).unwrap() {
        AnyRecord::Void(v) => {
            assert_eq!(v.content_digest, digest);
            assert!(!v.canonical_as_read);
        }
        AnyRecord::Round(_) => panic!("a round record"),
    }
    // escapes where none are needed: the same record, not its canonical text
    let escaped = text.replacen("\"crash\"", "\"cr\\u0061sh\"", 1);
    let read = void_of(&escaped);
    assert!(!read.canonical_as_read);
    assert_eq!(read.content_digest, digest);
}
