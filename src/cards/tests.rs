use super::*;
use crate::error::ErrorKind;

#[test]
fn encoding_fixed_points() {
    assert_eq!(card_text(0), "2d");
    assert_eq!(card_text(3), "2s");
    assert_eq!(card_text(51), "As");
    assert_eq!(card_text(4 * 8 + 1), "Tc");
}

#[test]
fn text_forms() {
    let mut ids = Vec::new();
    parse_text("As, 10h  7♣ td Q♤", &mut ids).unwrap();
    assert_eq!(ids, vec![51, 34, 21, 32, 43]);
    let err = parse_text("As Zz", &mut Vec::new()).unwrap_err();
    assert!(
        err.message().contains("\"Zz\" (card 2 at character 3)"),
        "{err}"
    );
    assert_eq!(parse_token("11h"), None);
    assert_eq!(parse_token("A"), None);
    // multi-byte separators and symbols never split a character
    let mut ids = Vec::new();
    parse_text("A\u{a0}s\u{a0}K\u{2660}", &mut ids).unwrap_err();
    parse_text("K\u{2660}\u{a0}Q\u{2665}", &mut ids).unwrap();
    assert_eq!(ids, vec![47, 42]);
}

#[test]
fn distinct_checks() {
    assert!(check_distinct(&[0, 1, 2]).is_ok());
    assert_eq!(
        check_distinct(&[0, 52]).unwrap_err().kind(),
        ErrorKind::Card
    );
    assert_eq!(check_distinct(&[7, 7]).unwrap_err().kind(), ErrorKind::Hand);
    assert_eq!(
        check_distinct(&[4, 9, 4]).unwrap_err().message(),
        "card 3d (id 4) appears twice, at positions 0 and 2"
    );
    assert!(check_hand(&[1, 2], &[3, 5], "hand").is_err_and(|e| e.kind() == ErrorKind::Hand));
}
