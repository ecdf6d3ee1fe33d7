//! The one-pass reader of plain rounds against the general reader: every
//! round it accepts settles into the same record, byte for byte, over
//! rounds of every form and random mutations of them.

use super::error_record::write_error_record;
use super::plain::read_plain_round;
use super::round::{read_round_and_settle, settle_text};
use crate::rules::Rules;
use crate::settlement_text::write_settlement_json;

fn rules_for(name: Option<&str>) -> std::result::Result<&'static Rules, String> {
    static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    match name {
        None | Some("capsa-susun") => Ok(RULES.get_or_init(Rules::default)),
        Some(other) => Err(format!("unknown preset {other:?}")),
    }
}

/// The record of the general reader alone.
fn general_record(text: &str) -> String {
    let mut out = String::new();
    let mut id = None;
    match read_round_and_settle(text, &rules_for, &mut id) {
        Ok((s, seats)) => write_settlement_json(&mut out, &s, &seats, id.map(|v| v.get())),
        Err(e) => write_error_record(&mut out, 3, id.map(|v| v.get()), &e),
    }
    out
}

fn record(text: &str) -> String {
    let mut out = String::new();
    settle_text(text, 3, &rules_for, &mut out);
    out
}

const SEAT_A: &str = r#"{"top":[37,39,46],"middle":[20,21,23,24,31],"bottom":[3,6,32,33,35]}"#;
const SEAT_B: &str = r#"{"top":[40,48,50],"middle":[9,10,11,30,36],"bottom":[4,12,13,14,26]}"#;
const SEAT_C: &str = r#"{"top":[42,47,51],"middle":[22,25,28,29,34],"bottom":[0,15,18,44,45]}"#;

fn rounds() -> Vec<String> {
    let seats = format!("[{SEAT_A},{SEAT_B},{SEAT_C}]");
    vec![
        format!(r#"{{"id":0,"seats":{seats}}}"#),
        format!(r#"{{"seats":{seats},"id":"t-1"}}"#),
        format!(r#" {{ "id" : null , "rules" : "capsa-susun" , "stakes" : null , "seats" : {seats} }} "#),
        format!(r#"{{"id":-0,"rules":null,"seats":[{SEAT_A},{SEAT_A}]}}"#),
        format!(r#"{{"id":12,"rules":"pagat","seats":{seats}}}"#),
        format!(
            r#"{{"id":5,"seats":[{{"bottom":[3,6,32,33,35],"surrender":true,"top":[37,39,46],"middle":[20,21,23,24,31],"declare_natural":false}},{SEAT_B}]}}"#
        ),
        format!(r#"{{"id":1.5,"seats":{seats}}}"#),
        format!(r#"{{"id":"a\"b","seats":{seats}}}"#),
        format!(r#"{{"id":7,"stakes":3,"seats":{seats}}}"#),
        format!(r#"{{"id":7,"id":8,"seats":{seats}}}"#),
        format!(r#"{{"id":7,"seats":[{SEAT_A}]}}"#),
        format!(r#"{{"id":7,"seats":[{SEAT_A},{SEAT_B},{SEAT_C},{SEAT_A},{SEAT_B}]}}"#),
        format!(r#"{{"id":7,"seats":{seats},"extra":1}}"#),
        format!(r#"{{"id":7,"seats":{seats}}} x"#),
        r#"{"id":7,"seats":[{"top":[37,39],"middle":[20,21,23,24,31,46],"bottom":[3,6,32,33,35]},{"top":[40,48,50],"middle":[9,10,11,30,36],"bottom":[4,12,13,14,26]}]}"#.to_string(),
        r#"{"id":7,"seats":[{"top":[37,39,52],"middle":[20,21,23,24,31],"bottom":[3,6,32,33,35]},{"top":[40,48,50],"middle":[9,10,11,30,36],"bottom":[4,12,13,14,26]}]}"#.to_string(),
        r#"{"id":7,"seats":[{"top":[37,39,037],"middle":[20,21,23,24,31],"bottom":[3,6,32,33,35]},{"top":[40,48,50],"middle":[9,10,11,30,36],"bottom":[4,12,13,14,26]}]}"#.to_string(),
        r#"{"id":7,"seats":["Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",{"top":[40,48,50],"middle":[9,10,11,30,36],"bottom":[4,12,13,14,26]}]}"#.to_string(),
    ]
}

/// A small deterministic generator (xorshift), so that failures replay.
struct Mutator(u64);

impl Mutator {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }

    /// The text with one to three bytes replaced, inserted or removed.
    fn mutate(&mut self, text: &str) -> String {
        const BYTES: &[u8] = b" \t\r\n{}[],:\"\\-+.e0123456789tfnul5abx";
        let mut bytes = text.as_bytes().to_vec();
        for _ in 0..=self.next(3) {
            let at = self.next(bytes.len() + 1);
            let b = BYTES[self.next(BYTES.len())];
            match self.next(3) {
                0 if at < bytes.len() => bytes[at] = b,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, b),
            }
        }
        String::from_utf8(bytes).unwrap_or_default()
    }
}

#[test]
fn the_plain_shape_is_read_in_one_pass() {
    let all = rounds();
    for text in &all[..6] {
        assert!(read_plain_round(text).is_some(), "{text}");
    }
    for text in &all[6..] {
        assert!(read_plain_round(text).is_none(), "{text}");
    }
}

#[test]
fn every_round_settles_as_the_general_reader_settles_it() {
    for text in rounds() {
        assert_eq!(record(&text), general_record(&text), "{text}");
    }
}

#[test]
fn mutated_rounds_settle_as_the_general_reader_settles_them() {
    let mut m = Mutator(0x9e37_79b9_7f4a_7c15);
    let mut plain = 0;
    for text in rounds() {
        for _ in 0..3000 {
            let mutated = m.mutate(&text);
            plain += usize::from(read_plain_round(&mutated).is_some());
            assert_eq!(record(&mutated), general_record(&mutated), "{mutated}");
        }
    }
    assert!(plain > 1000, "{plain} mutants read in one pass");
}
