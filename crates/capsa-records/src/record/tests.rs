use super::format::sorted;
use super::*;
use crate::fair::{self, hex, ServerSeed};
use capsa_core::arrangement::cards_text;
use capsa_core::auto_arrange::{auto_arrangement, AutoPolicy};
use capsa_core::canonical::{self, Json};
use capsa_core::cards::card_text;
use capsa_core::error::ErrorKind;
use capsa_core::error::Result;
use capsa_core::rules::Rules;

/// A stand-in for the rules text (the core does not read it; the Python
/// layer passes `Rules.to_dict()` in canonical form).
const RULES_TEXT: &str = r#"{"name":"capsa-susun"}"#;

fn seed() -> ServerSeed {
    std::array::from_fn(|i| (7 * i + 1) as u8)
}

/// A valid arrangement of a hand (the last valid split).
fn valid(rules: &Rules, hand: &[u8; 13]) -> [u8; 13] {
    *capsa_core::splits::splits(&rules.evaluator, rules.foul_strict, hand, true)
        .unwrap()
        .last()
        .unwrap()
}

/// The solver's own arrangement of a hand, as `Round.close` makes it.
fn solver_choice(rules: &Rules, hand: &[u8; 13], seats: usize) -> [u8; 13] {
    capsa_core::solver::arranger(rules, None, seats, capsa_core::solver::Strategy::Solver)
        .unwrap()
        .choose(hand)
        .unwrap()
        .cards
}

struct Round {
    format_version: i128,
    players: Vec<Player>,
    rules: Rules,
    seeds: Vec<String>,
    seats: Vec<PlayedSeat>,
    stakes: StakeSpec,
    previous: Option<[u8; 32]>,
    meta: Members<'static>,
    policy: AutoPolicy,
}

impl Round {
    fn new(n: usize) -> Self {
        let rules = Rules::default();
        let seeds: Vec<String> = (0..n).map(|k| format!("player {k}")).collect();
        let hands = fair::deal(&seed(), &seeds, 9, n).unwrap();
        let seats = hands
            .iter()
            .enumerate()
            .map(|(k, h)| PlayedSeat {
                arrangement: if k == 1 {
                    solver_choice(&rules, h, n)
                } else {
                    valid(&rules, h)
                },
                auto: k == 1,
                surrender: false,
                declare_natural: true,
                banker: false,
                multiplier: 1,
            })
            .collect();
        Round {
            format_version: FORMAT_VERSION,
            players: (0..n).map(Player::of_seat).collect(),
            rules,
            seeds,
            seats,
            stakes: StakeSpec::Uniform(100),
            previous: None,
            meta: vec![("table".into(), Json::str("7"))],
            policy: AutoPolicy::Solver,
        }
    }

    /// The round with its seat 1 arranged at the close by `policy`.
    fn arranged_by(n: usize, policy: AutoPolicy) -> Self {
        let mut round = Round::new(n);
        let hands = fair::deal(&seed(), &round.seeds, 9, n).unwrap();
        round.seats[1].arrangement = auto_arrangement(&round.rules, &hands[1], n, policy)
            .unwrap()
            .cards;
        round.policy = policy;
        round
    }

    fn write(&self) -> Result<Written> {
        let first = self.format_version == FIRST_FORMAT_VERSION;
        write(&RoundInputs {
            format_version: self.format_version,
            round_id: "table-7/round-12",
            table_id: (!first).then_some("table-7"),
            players: if first { &[] } else { &self.players },
            solver: &policy_solver(&self.rules, self.policy),
            previous_digest: self.previous,
            meta: &self.meta,
            rules: &self.rules,
            rules_text: RULES_TEXT,
            stakes: &self.stakes,
            server_seed: &seed(),
            client_seeds: &self.seeds,
            nonce: 9,
            seats: &self.seats,
        })
    }
}

fn replayed(text: &str) -> Vec<String> {
    let record = read(text.as_bytes()).unwrap();
    record
        .replay(&Rules::default(), None)
        .into_iter()
        .map(|p| p.field)
        .collect()
}

/// The value at `path` (keys and array indices) of a record.
fn value_at(text: &str, path: &[&str]) -> Json<'static> {
    let mut at = canonical::parse_str(text).unwrap();
    for part in path {
        at = match at {
            Json::Object(members) => members.into_iter().find(|(k, _)| k == part).unwrap().1,
            Json::Array(items) => items
                .into_iter()
                .nth(part.parse::<usize>().unwrap())
                .unwrap(),
            _ => panic!("no {part}"),
        };
    }
    at.into_owned()
}

/// The record with the value at `path` (keys and array indices) replaced.
fn tampered(text: &str, path: &[&str], value: Json) -> String {
    let mut v = canonical::parse_str(text).unwrap();
    let mut at = &mut v;
    for part in path {
        at = match at {
            Json::Object(members) => &mut members.iter_mut().find(|(k, _)| k == part).unwrap().1,
            Json::Array(items) => &mut items[part.parse::<usize>().unwrap()],
            _ => panic!("no {part}"),
        };
    }
    *at = value;
    canonical::to_string(&v)
}

/// The same, with the digest recomputed (a forger who knows the format).
fn forged(text: &str, path: &[&str], value: Json) -> String {
    let changed = tampered(text, path, value);
    let digest = read(changed.as_bytes()).unwrap().content_digest;
    tampered(&changed, &["digest"], Json::str(hex(&digest)))
}

#[test]
fn a_written_record_reads_back_canonical_and_replays() {
    for n in 2..=4 {
        let written = Round::new(n).write().unwrap();
        let text = &written.text;
        assert!(!text.contains('\n'));
        assert_eq!(
            canonical::to_string(&canonical::parse_str(text).unwrap()),
            *text
        );
        let record = read(text.as_bytes()).unwrap();
        assert_eq!(record.digest, written.digest);
        assert_eq!(record.content_digest, written.digest);
        assert_eq!(record.seats.len(), n);
        assert!(record.replay(&Rules::default(), Some(None)).is_empty());
        assert!(record.verify_deal(Some(record.commitment)).is_empty());
    }
}

#[test]
fn a_record_not_in_canonical_form_has_the_same_content_digest() {
    let written = Round::new(4).write().unwrap();
    let text = &written.text;
    let canonical = read(text.as_bytes()).unwrap();
    // spaces, members out of order, a character escaped, a byte-order mark
    let spaced = text.replacen(",\"deal\":", ", \"deal\" : ", 1);
    let first = &text[1..text.find(",\"deal\":").unwrap()];
    let reordered = format!("{{{},{first}}}", &text[first.len() + 2..text.len() - 1]);
    let escaped = text.replacen("\"algorithm\":\"capsa", "\"algorithm\":\"\\u0063apsa", 1);
    let marked = format!("\u{feff}{text}");
    for other in [&spaced, &reordered, &escaped, &marked] {
        assert_ne!(other, text);
        let record = read(other.as_bytes()).unwrap();
        assert_eq!(record.content_digest, written.digest, "{other}");
        assert_eq!(record.settlement_text, canonical.settlement_text);
        assert!(!record.canonical_as_read, "{other}");
        assert!(!read(other.as_str()).unwrap().canonical_as_read, "{other}");
    }
    assert_eq!(canonical.content_digest, written.digest);
    assert!(canonical.canonical_as_read);
    assert!(read(text.as_str()).unwrap().canonical_as_read);
    // a record whose digest is changed still has the digest of its contents
    let changed = tampered(text, &["digest"], Json::str("0".repeat(64)));
    assert_eq!(
        read(changed.as_bytes()).unwrap().content_digest,
        written.digest
    );
}

#[test]
fn a_tampered_record_names_the_field() {
    let text = Round::new(4).write().unwrap().text;
    let record = read(text.as_bytes()).unwrap();
    // a card of a hand: the hand and the arrangement no longer agree
    // (every card is dealt at a four-seat table: take one of seat 3's)
    let other = record.hands[3][0];
    let mut swapped = record.hands[2];
    swapped[0] = other;
    let swapped_text = cards_text(&sorted(&swapped));
    let fields = replayed(&tampered(
        &text,
        &["seats", "2", "hand"],
        Json::str(swapped_text),
    ));
    assert!(fields.contains(&"seats[2].hand".to_string()), "{fields:?}");
    assert!(fields.contains(&"digest".to_string()), "{fields:?}");
    // a payout, digest recomputed: the settlement names the figure
    let fields = replayed(&forged(
        &text,
        &["settlement", "seats", "0", "money"],
        Json::Int(123_456),
    ));
    assert_eq!(fields, ["settlement.seats[0].money"]);
    // the stakes, digest recomputed: every money figure differs
    let fields = replayed(&forged(&text, &["stakes"], Json::Int(101)));
    assert!(
        fields.iter().all(|f| f.starts_with("settlement.")),
        "{fields:?}"
    );
    assert!(
        fields.contains(&"settlement.money[0]".to_string()),
        "{fields:?}"
    );
    assert!(
        fields.contains(&"settlement.pairs[5].stake".to_string()),
        "{fields:?}"
    );
    // the rules without their digest
    let fields = replayed(&forged(
        &text,
        &["rules"],
        canonical::parse_str(r#"{"name":"other"}"#).unwrap(),
    ));
    assert_eq!(fields, ["rules_digest"]);
    // the digest alone
    let fields = replayed(&tampered(&text, &["digest"], Json::str("0".repeat(64))));
    assert_eq!(fields, ["digest"]);
    // a decision the rules do not allow
    let fields = replayed(&forged(
        &text,
        &["seats", "0", "surrender"],
        Json::Bool(true),
    ));
    assert!(
        fields.contains(&"seats[0].surrender".to_string()),
        "{fields:?}"
    );
}

#[test]
fn an_arrangement_of_other_cards_is_named() {
    let text = Round::new(2).write().unwrap().text;
    let record = read(text.as_bytes()).unwrap();
    let mut a = record.seats[0].arrangement;
    let spare = (0..52u8)
        .find(|c| !record.hands.iter().flatten().any(|h| h == c))
        .unwrap();
    a[5] = spare;
    let fields = replayed(&forged(
        &text,
        &["seats", "0", "arrangement"],
        Json::str(arrangement_text(&a)),
    ));
    assert!(
        fields.contains(&"seats[0].arrangement".to_string()),
        "{fields:?}"
    );
    let problems = read(
        forged(
            &text,
            &["seats", "0", "arrangement"],
            Json::str(arrangement_text(&a)),
        )
        .as_bytes(),
    )
    .unwrap()
    .replay(&Rules::default(), None);
    let message = &problems[0].message;
    assert!(message.contains(&card_text(spare)), "{message}");
}

#[test]
fn wrong_seeds_fail_verification_with_the_reason() {
    let text = Round::new(4).write().unwrap().text;
    let server = forged(&text, &["deal", "server_seed"], Json::str("ab".repeat(32)));
    let problems = read(server.as_bytes()).unwrap().verify_deal(None);
    assert_eq!(problems[0].field, "deal.server_seed");
    assert!(
        problems[0].message.contains("not the seed committed to"),
        "{problems:?}"
    );
    let client = forged(&text, &["deal", "client_seeds", "1"], Json::str("mallory"));
    let problems = read(client.as_bytes()).unwrap().verify_deal(None);
    assert!(!problems.is_empty());
    assert!(
        problems.iter().all(|p| p.field.ends_with(".hand")),
        "{problems:?}"
    );
    assert!(
        problems[0].message.contains("deal.client_seeds"),
        "{problems:?}"
    );
    let record = read(text.as_bytes()).unwrap();
    let problems = record.verify_deal(Some([0; 32]));
    assert_eq!(problems[0].field, "deal.commitment");
}

#[test]
fn the_chain_link_is_checked() {
    let mut round = Round::new(3);
    let first = round.write().unwrap();
    round.previous = Some(first.digest);
    let second = read(round.write().unwrap().text.as_bytes()).unwrap();
    assert!(second
        .replay(&Rules::default(), Some(Some(first.digest)))
        .is_empty());
    let fields: Vec<String> = second
        .replay(&Rules::default(), Some(None))
        .into_iter()
        .map(|p| p.field)
        .collect();
    assert_eq!(fields, ["previous_digest"]);
    let fields: Vec<String> = second
        .replay(&Rules::default(), Some(Some([1; 32])))
        .into_iter()
        .map(|p| p.field)
        .collect();
    assert_eq!(fields, ["previous_digest"]);
}

#[test]
fn a_record_line_may_start_with_a_byte_order_mark() {
    let written = Round::new(3).write().unwrap();
    let record = read(format!("\u{feff}{}", written.text).as_bytes()).unwrap();
    assert_eq!(record.digest, written.digest);
    assert!(record.replay(&Rules::default(), Some(None)).is_empty());
}

#[test]
fn an_object_of_100_000_keys_is_refused_for_its_first_fault() {
    // keys out of order, each distinct: the record's own checks refuse it
    let mut text = String::from("{");
    for k in (0..100_000).rev() {
        text.push_str(&format!("\"{k}\":0,"));
    }
    text.pop();
    text.push('}');
    assert!(text.len() <= MAX_RECORD_BYTES);
    let p = refused(&text);
    assert!(p.message.contains("format"), "{p:?}");
    // the same keys with one given twice: the parser refuses it
    let twice = format!("{}, \"17\":1}}", &text[..text.len() - 1]);
    let p = refused(&twice);
    assert!(p.message.contains("key \"17\" is given twice"), "{p:?}");
}

fn refused(text: &str) -> Problem {
    read(text.as_bytes()).unwrap_err()
}

#[test]
fn the_reader_names_the_field_it_refuses() {
    let text = Round::new(2).write().unwrap().text;
    let p = refused(&tampered(
        &text,
        &["format_version"],
        Json::Int(FORMAT_VERSION + 1),
    ));
    assert_eq!(p.field, "format_version");
    assert!(
        p.message
            .contains(&format!("newer than this capsa reads ({FORMAT_VERSION})")),
        "{p:?}"
    );
    // a format 4 record read as format 1 has keys format 1 does not
    let p = refused(&tampered(&text, &["format_version"], Json::Int(1)));
    assert!(p.message.contains("unknown key"), "{p:?}");
    // newer versions are refused before any other field is read
    let newer = tampered(
        &tampered(&text, &["format_version"], Json::Int(7)),
        &["seats"],
        Json::Null,
    );
    assert_eq!(refused(&newer).field, "format_version");
    assert_eq!(
        refused(&tampered(&text, &["format_version"], Json::Int(0))).field,
        "format_version"
    );
    assert_eq!(
        refused(&tampered(&text, &["format"], Json::Int(0))).field,
        "format"
    );
    let cases: [(&[&str], Json, &str); 10] = [
        (&["seats", "1", "hand"], Json::str("As"), "seats[1].hand"),
        (&["seats", "1", "auto"], Json::Int(1), "seats[1].auto"),
        (
            &["seats", "0", "arrangement"],
            Json::str("As Ks"),
            "seats[0].arrangement",
        ),
        (&["deal", "nonce"], Json::Int(-1), "deal.nonce"),
        (
            &["deal", "algorithm"],
            Json::str("capsa-fair-0"),
            "deal.algorithm",
        ),
        (
            &["deal", "commitment"],
            Json::str("AB".repeat(32)),
            "deal.commitment",
        ),
        (&["stakes"], Json::Int(-5), "stakes"),
        (&["previous_digest"], Json::str("x"), "previous_digest"),
        (&["round_id"], Json::str(String::new()), "round_id"),
        (&["meta"], Json::Array(vec![]), "meta"),
    ];
    for (path, value, field) in cases {
        let p = refused(&tampered(&text, path, value));
        assert_eq!(p.field, field, "{p:?}");
        assert!(p.message.contains(field), "{p:?}");
    }
    let p = refused(&text.replacen("{", "{\"extra\":1,", 1));
    assert_eq!(p.field, "extra");
    assert!(p.message.contains("unknown key"), "{p:?}");
    // found by fuzzing: the message names the field as the field is named
    let long = "k\"[".repeat(30);
    let text_with = tampered(&text, &["deal"], {
        let mut deal = canonical::parse_str(&text)
            .unwrap()
            .get("deal")
            .unwrap()
            .clone();
        if let Json::Object(members) = &mut deal {
            members.push((long.clone().into(), Json::Null));
        }
        deal.into_owned()
    });
    let p = refused(&text_with);
    assert_eq!(p.field.chars().count(), "deal.".len() + 40, "{p:?}");
    assert!(p.message.contains(&p.field), "{p:?}");
    let p = refused(&tampered(&text, &["seats"], Json::Array(vec![])));
    assert!(p.message.starts_with("seats:"), "{p:?}");
    let p = refused(&text.replacen("\"round_id\"", "\"round_idx\"", 1));
    assert!(p.field == "round_id" || p.field == "round_idx", "{p:?}");
    let p = refused(&text.replacen("{", "{\"round_id\":\"x\",", 1));
    assert!(p.message.contains("given twice"), "{p:?}");
    assert!(refused("[]").message.contains("a JSON object"));
    assert!(refused("{").message.contains("malformed JSON"));
    let huge = " ".repeat(MAX_RECORD_BYTES + 1);
    assert!(refused(&huge).message.contains("at most"));
    // a hand that is readable but not written as records write it
    let record = read(text.as_bytes()).unwrap();
    let mut reversed = record.hands[0];
    reversed.reverse();
    let p = refused(&tampered(
        &text,
        &["seats", "0", "hand"],
        Json::str(cards_text(&reversed)),
    ));
    assert!(p.message.contains("sorted by id"), "{p:?}");
}

#[test]
fn the_writer_refuses_what_a_round_cannot_hold() {
    let mut round = Round::new(2);
    let spare = {
        let hands = fair::deal(&seed(), &round.seeds, 9, 2).unwrap();
        (0..52u8)
            .find(|c| !hands.iter().flatten().any(|h| h == c))
            .unwrap()
    };
    round.seats[0].arrangement[0] = spare;
    let e = round.write().err().unwrap();
    assert_eq!((e.kind(), e.seat()), (ErrorKind::Hand, Some(0)));
    assert!(e.message().contains(&card_text(spare)), "{e}");

    let mut round = Round::new(2);
    round.seats[1].surrender = true;
    let e = round.write().err().unwrap();
    assert_eq!((e.kind(), e.seat()), (ErrorKind::Table, Some(1)));

    let mut round = Round::new(2);
    round.seats[0].declare_natural = false;
    let e = round.write().err().unwrap();
    assert_eq!((e.kind(), e.seat()), (ErrorKind::Table, Some(0)));
    assert!(e.message().contains("declined a natural"), "{e}");

    let mut round = Round::new(2);
    round.meta = vec![("k".into(), Json::Array(vec![]))];
    assert_eq!(round.write().err().unwrap().kind(), ErrorKind::Argument);

    let mut round = Round::new(2);
    round.stakes = StakeSpec::Matrix(vec![0, 5, 6, 0]);
    assert!(round.write().err().unwrap().message().contains("symmetric"));
    round.stakes = StakeSpec::Matrix(vec![-1, 5, 5, 0]);
    assert!(round
        .write()
        .err()
        .unwrap()
        .message()
        .contains("stakes[0][0]"));
    round.stakes = StakeSpec::Matrix(vec![0, 5, 5, 0]);
    let text = round.write().unwrap().text;
    assert!(text.contains("\"stakes\":[[0,5],[5,0]]"), "{text}");
    assert!(replayed(&text).is_empty());
}

#[test]
fn the_newest_format_holds_the_table_the_players_and_the_solver() {
    let mut round = Round::new(3);
    round.players[1] = Player {
        id: "p-42".into(),
        name: Some("Dewi ☃".into()),
    };
    let text = round.write().unwrap().text;
    let record = read(text.as_bytes()).unwrap();
    assert_eq!(record.format_version, FORMAT_VERSION);
    assert_eq!(record.table_id.as_deref(), Some("table-7"));
    assert_eq!(record.players, round.players);
    assert_eq!(
        record.solver.as_ref(),
        Some(&installed_solver(&Rules::default()))
    );
    assert!(text.contains(r#""player":{"id":"p-42","name":"Dewi ☃"}"#));
    assert!(replayed(&text).is_empty());
    // a player is at one seat only
    round.players[2].id = "p-42".into();
    let e = round.write().err().unwrap();
    assert!(e.message().contains("players[2].id"), "{}", e.message());
}

#[test]
fn format_2_is_still_written_and_read_with_the_fields_of_format_4() {
    let mut round = Round::new(4);
    round.format_version = POLICY_FORMAT_VERSION;
    let newest = round.write().unwrap();
    round.format_version = 2;
    let text = round.write().unwrap().text;
    let record = read(text.as_bytes()).unwrap();
    assert_eq!(record.format_version, 2);
    assert_eq!(record.table_id.as_deref(), Some("table-7"));
    assert!(replayed(&text).is_empty());
    // the same fields: with its version made 4, its contents are format
    // 4's (the rules text is the caller's, here the same)
    let as_newest = text.replace(
        "\"format_version\":2,",
        &format!("\"format_version\":{POLICY_FORMAT_VERSION},"),
    );
    let content = read(as_newest.as_bytes()).unwrap().content_digest;
    assert_eq!(content, newest.digest);
}

#[test]
fn format_1_is_still_written_and_read() {
    let mut round = Round::new(4);
    round.format_version = FIRST_FORMAT_VERSION;
    let text = round.write().unwrap().text;
    assert!(!text.contains("\"table_id\"") && !text.contains("\"player\""));
    let record = read(text.as_bytes()).unwrap();
    assert_eq!(record.format_version, 1);
    assert_eq!(record.players[3], Player::of_seat(3));
    assert!(replayed(&text).is_empty());
}

#[test]
fn a_forged_auto_flag_fails_replay() {
    // seat 0 played its own legal arrangement; marking it auto (with the
    // digest recomputed) is caught: the solver arranges the hand otherwise
    let text = Round::new(4).write().unwrap().text;
    let forged_text = forged(&text, &["seats", "0", "auto"], Json::Bool(true));
    let fields = replayed(&forged_text);
    assert!(fields.contains(&"seats[0].auto".to_string()), "{fields:?}");
    assert!(fields.contains(&"seats[0].arrangement".to_string()));
    assert!(!fields.contains(&"digest".to_string()));
}

#[test]
fn an_auto_seat_given_another_seats_cards_names_its_arrangement_once() {
    // seat 1 arranged at the close, its arrangement replaced by seat 0's:
    // the cards it was not dealt are the problem, named once, and the
    // solver's own arrangement of its hand is not compared with them
    let text = Round::new(4).write().unwrap().text;
    let auto = forged(&text, &["seats", "1", "auto"], Json::Bool(true));
    let seat0 = value_at(&auto, &["seats", "0", "arrangement"]);
    let taken = forged(&auto, &["seats", "1", "arrangement"], seat0);
    let fields = replayed(&taken);
    let named = fields
        .iter()
        .filter(|f| *f == "seats[1].arrangement")
        .count();
    assert_eq!(named, 1, "{fields:?}");
    assert!(!fields.contains(&"seats[1].auto".to_string()), "{fields:?}");
}

#[test]
fn another_solver_is_named_not_passed() {
    let text = Round::new(2).write().unwrap().text;
    let other = forged(&text, &["solver", "tables"], Json::str("ab".repeat(32)));
    assert_eq!(replayed(&other), ["solver"]);
    // with no seat arranged at the close, the solver played no part
    let none_auto = forged(&other, &["seats", "1", "auto"], Json::Bool(false));
    assert!(replayed(&none_auto).is_empty());
}

#[test]
fn a_forged_stakes_diagonal_is_refused() {
    let mut round = Round::new(2);
    round.stakes = StakeSpec::Matrix(vec![0, 50, 50, 0]);
    let text = round.write().unwrap().text;
    // the digest recomputed as a forger would, without the reader
    let changed = tampered(
        &text,
        &["stakes"],
        canonical::parse_str("[[7,50],[50,0]]").unwrap(),
    );
    let Json::Object(mut members) = canonical::parse_str(&changed).unwrap() else {
        panic!("a record is an object")
    };
    members.retain(|(k, _)| k != "digest");
    let digest = fair::sha256(canonical::to_string(&Json::Object(members)).as_bytes());
    let forged_text = tampered(&changed, &["digest"], Json::str(hex(&digest)));
    assert_eq!(refused(&forged_text).field, "stakes[0][0]");
    round.stakes = StakeSpec::Matrix(vec![7, 50, 50, 0]);
    let e = round.write().err().unwrap();
    assert!(
        e.message().contains("stakes[0][0] must be 0"),
        "{}",
        e.message()
    );
}

/// What reading gave, as comparable data: the problem, or the fields a
/// record read from text and from its value share.
fn read_outcome(
    read: super::format::Read<Record>,
) -> std::result::Result<(String, [u8; 32], String), Problem> {
    read.map(|r| (r.rules_text, r.content_digest, r.settlement_text))
}

#[test]
fn a_record_read_from_its_value_is_the_record_read_from_its_text() {
    for n in 2..=4 {
        let written = Round::new(n).write().unwrap();
        let from_text = read(written.text.as_bytes()).unwrap();
        let value = canonical::parse_str(&written.text).unwrap();
        // a value's members in any order: its canonical text sorts them
        let Json::Object(mut members) = value.clone() else {
            unreachable!()
        };
        members.reverse();
        for value in [value, Json::Object(members)] {
            let record = read_value(&value).unwrap();
            assert_eq!(record.digest, written.digest);
            assert_eq!(record.content_digest, written.digest);
            assert_eq!(record.rules_text, from_text.rules_text);
            assert_eq!(record.settlement_text, from_text.settlement_text);
            assert_eq!(record.hands, from_text.hands);
            assert!(!record.canonical_as_read);
            assert!(record.replay(&Rules::default(), Some(None)).is_empty());
        }
    }
}

#[test]
fn a_record_value_is_refused_as_its_text_is() {
    let text = Round::new(3).write().unwrap().text;
    let edits: [(&[&str], Json); 8] = [
        (&["seats", "1", "hand"], Json::str("As")),
        (&["deal", "nonce"], Json::Int(-1)),
        (&["stakes"], Json::Int(-5)),
        (&["format_version"], Json::Int(9)),
        (&["seats"], Json::Array(vec![])),
        (&["settlement"], Json::Null),
        (&["rules"], Json::str("x")),
        (&["digest"], Json::str("0".repeat(64))),
    ];
    for (path, value) in edits {
        let edited = tampered(&text, path, value);
        let tree = canonical::parse_str(&edited).unwrap();
        assert_eq!(
            read_outcome(read_value(&tree)),
            read_outcome(read(edited.as_bytes())),
            "{path:?}"
        );
    }
    assert_eq!(
        read_value(&Json::Int(1)).unwrap_err(),
        read(b"1".as_slice()).unwrap_err()
    );
    // over the size a record may have, however it is given
    let padded = tampered(
        &text,
        &["round_id"],
        Json::str("r".repeat(MAX_RECORD_BYTES)),
    );
    let tree = canonical::parse_str(&padded).unwrap();
    let p = read_value(&tree).unwrap_err();
    assert_eq!(p, read(padded.as_bytes()).unwrap_err());
    assert!(p.message.contains("at most"), "{p:?}");
}

#[test]
fn the_member_spans_are_where_the_text_holds_those_members() {
    for n in 2..=4 {
        for format_version in [FIRST_FORMAT_VERSION, FORMAT_VERSION] {
            let mut round = Round::new(n);
            round.format_version = format_version;
            let written = round.write().unwrap();
            let value = canonical::parse_str(&written.text).unwrap();
            let Json::Object(members) = value else {
                panic!("a record is an object")
            };
            let member = |name: &str| {
                let v = &members.iter().find(|(k, _)| k == name).unwrap().1;
                canonical::to_string(v)
            };
            assert_eq!(&written.text[written.spans.rules.clone()], member("rules"));
            assert_eq!(
                &written.text[written.spans.settlement.clone()],
                member("settlement")
            );
            assert_eq!(&written.text[written.spans.rules.clone()], RULES_TEXT);
        }
    }
}

#[test]
fn a_record_names_its_auto_arrange_policy_and_replay_checks_it() {
    for policy in [AutoPolicy::Greedy, AutoPolicy::Foul] {
        let text = Round::arranged_by(3, policy).write().unwrap().text;
        let record = read(text.as_bytes()).unwrap();
        assert_eq!(record.policy, policy);
        let solver = record.solver.as_ref().unwrap();
        assert_eq!(
            (
                solver.strategy.as_str(),
                solver.effort.as_str(),
                solver.tables
            ),
            (policy.name(), "fast", NO_TABLES)
        );
        assert!(replayed(&text).is_empty(), "{policy:?}");
        // the seat's arrangement made the solver's: the policy names it
        let hands = fair::deal(&seed(), &Round::new(3).seeds, 9, 3).unwrap();
        let other = Json::str(arrangement_text(&solver_choice(
            &Rules::default(),
            &hands[1],
            3,
        )));
        let fields = replayed(&forged(&text, &["seats", "1", "arrangement"], other));
        assert!(fields.contains(&"seats[1].auto".to_string()), "{fields:?}");
        assert!(fields.contains(&"seats[1].arrangement".to_string()));
    }
}

#[test]
fn the_policy_of_a_record_is_its_own_not_the_solver_tables() {
    // a greedy record replays whatever tables this capsa ships: it names none
    let text = Round::arranged_by(2, AutoPolicy::Greedy)
        .write()
        .unwrap()
        .text;
    let as_solver = forged(&text, &["solver", "strategy"], Json::str("solver"));
    assert_eq!(replayed(&as_solver), ["solver"]);
    // a foul policy seat fouls; called the solver's, that is named too
    let text = Round::arranged_by(2, AutoPolicy::Foul)
        .write()
        .unwrap()
        .text;
    let solver_id = installed_solver(&Rules::default());
    let as_solver = forged(
        &forged(&text, &["solver", "strategy"], Json::str("solver")),
        &["solver", "tables"],
        Json::str(hex(&solver_id.tables)),
    );
    let fields = replayed(&as_solver);
    assert!(
        fields.contains(&"seats[1].arrangement".to_string()),
        "{fields:?}"
    );
    assert!(fields.contains(&"seats[1].auto".to_string()), "{fields:?}");
}

#[test]
fn a_policy_record_is_refused_in_an_older_format_and_out_of_form() {
    let mut round = Round::arranged_by(2, AutoPolicy::Greedy);
    round.format_version = 3;
    let e = round.write().err().unwrap();
    assert!(e.message().contains("solver only"), "{}", e.message());
    let text = Round::arranged_by(2, AutoPolicy::Foul)
        .write()
        .unwrap()
        .text;
    let cases: [(&[&str], Json, &str); 3] = [
        (
            &["solver", "strategy"],
            Json::str("separable"),
            "solver.strategy",
        ),
        (
            &["solver", "tables"],
            Json::str("ab".repeat(32)),
            "solver.tables",
        ),
        (&["solver", "effort"], Json::str("deep"), "solver.effort"),
    ];
    for (path, value, field) in cases {
        let p = refused(&forged_unread(&text, path, value));
        assert_eq!(p.field, field, "{p:?}");
    }
    // a format 3 record reads any strategy as before, and cannot check it
    let mut round = Round::new(2);
    round.format_version = 3;
    let text = round.write().unwrap().text;
    let greedy = forged(&text, &["solver", "strategy"], Json::str("greedy"));
    assert_eq!(replayed(&greedy), ["solver"]);
    // a fouling seat arranged at the close, under the solver, is named
    let hands = fair::deal(&seed(), &round.seeds, 9, 2).unwrap();
    let fouled = auto_arrangement(&Rules::default(), &hands[1], 2, AutoPolicy::Foul).unwrap();
    let foul_text = Json::str(arrangement_text(&fouled.cards));
    let fields = replayed(&forged(&text, &["seats", "1", "arrangement"], foul_text));
    assert!(
        fields.contains(&"seats[1].arrangement".to_string()),
        "{fields:?}"
    );
}

/// The record with a value replaced and its digest recomputed without
/// the reader (which would refuse it).
fn forged_unread(text: &str, path: &[&str], value: Json) -> String {
    let changed = tampered(text, path, value);
    let Json::Object(mut members) = canonical::parse_str(&changed).unwrap() else {
        panic!("a record is an object")
    };
    members.retain(|(k, _)| k != "digest");
    let digest = fair::sha256(canonical::to_string(&Json::Object(members)).as_bytes());
    tampered(&changed, &["digest"], Json::str(hex(&digest)))
}

#[test]
fn format_5_names_its_settlement_version_and_refuses_an_unknown_one() {
    let text = Round::new(4).write().unwrap().text;
    let record = read(text.as_bytes()).unwrap();
    assert_eq!(
        (record.format_version, record.settlement_version),
        (FORMAT_VERSION, SETTLEMENT_VERSION)
    );
    assert!(record.settlement_text.ends_with(",\"version\":2}"));
    assert!(replayed(&text).is_empty());
    let newer = forged_unread(&text, &["settlement", "version"], Json::Int(7));
    let problem = read(newer.as_bytes()).unwrap_err();
    assert_eq!(problem.field, SETTLEMENT_VERSION_FIELD);
    assert_eq!(
        problem.message,
        "written under settlement version 7; this capsa settles versions 1 and 2"
    );
}

#[test]
fn the_text_bounds_keep_a_record_under_half_the_largest_read() {
    use capsa_core::texts::{
        MAX_ID_BYTES, MAX_META_KEY_BYTES, MAX_META_TEXT_BYTES, MAX_NAME_BYTES,
        MAX_RULES_DESCRIPTION_BYTES, MAX_RULES_NAME_BYTES,
    };
    // each byte of text is at most 6 of JSON; a record holds 2 ids, 4
    // players, 32 notes, 4 client seeds and the rules' texts, and under
    // 16 KB of everything else (a four-seat record is about 5 KB)
    let escaped = 6
        * (2 * MAX_ID_BYTES
            + 4 * (MAX_ID_BYTES + MAX_NAME_BYTES)
            + MAX_META_ENTRIES * (MAX_META_KEY_BYTES + MAX_META_TEXT_BYTES)
            + 4 * fair::MAX_CLIENT_SEED_BYTES
            + MAX_RULES_NAME_BYTES
            + MAX_RULES_DESCRIPTION_BYTES);
    assert!(escaped + 16_384 < MAX_RECORD_BYTES / 2, "{escaped}");
}
