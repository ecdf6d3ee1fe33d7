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

/// Every ASCII text of up to three characters, and every two of up to two
/// joined by a space, over the bytes a card's text and its separators use
/// (and some that are neither), read byte by byte as char by char.
#[test]
fn ascii_text_reads_as_char_by_char() {
    let alphabet: Vec<u8> = b"0123456789TJQKAtjqkadchsDCHSxZ1 ,\t\x0b\x1c".to_vec();
    let mut tokens: Vec<Vec<u8>> = vec![Vec::new()];
    for len in 1..=3 {
        let mut next = Vec::new();
        for t in tokens.iter().filter(|t| t.len() == len - 1) {
            for &b in &alphabet {
                let mut u = t.clone();
                u.push(b);
                next.push(u);
            }
        }
        tokens.extend(next);
    }
    let read = |text: &str| {
        let (mut fast, mut slow) = (vec![7u8], vec![7u8]);
        let a = parse_text(text, &mut fast).map_err(|e| e.message().to_string());
        let b = parse_chars(text, &mut slow).map_err(|e| e.message().to_string());
        assert_eq!(a, b, "{text:?}");
        if a.is_ok() {
            assert_eq!(fast, slow, "{text:?}");
        }
    };
    let mut checked = 0;
    for a in &tokens {
        read(std::str::from_utf8(a).unwrap());
        checked += 1;
    }
    let short: Vec<&Vec<u8>> = tokens.iter().filter(|t| t.len() <= 2).collect();
    for a in &short {
        for b in &short {
            let mut text = a.to_vec();
            text.extend_from_slice(b" ");
            text.extend_from_slice(b);
            read(std::str::from_utf8(&text).unwrap());
            checked += 1;
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

/// Card texts joined by spaces, for any count of cards (as written in
/// records and error messages), read back as the same cards.
#[test]
fn cards_text_is_each_card_spaced() {
    for n in [0, 1, 2, 12, 13, 15, 16, 17, 31, 32, 33, 52] {
        let ids: Vec<u8> = (0..52u8).rev().take(n).collect();
        let want: Vec<String> = ids.iter().map(|&id| card_text(id)).collect();
        let text = crate::arrangement::cards_text(&ids);
        assert_eq!(text, want.join(" "), "{n} cards");
        let mut read = Vec::new();
        parse_text(&text, &mut read).unwrap();
        assert_eq!(read, ids);
    }
}

#[test]
fn copies_and_jokers_read_back() {
    for id in 0..crate::deck::CARD_IDS as u8 {
        let text = card_text(id);
        let mut ids = Vec::new();
        parse_text(&text, &mut ids).unwrap();
        assert_eq!(ids, vec![id], "{text}");
        assert_eq!(parse_token(&text), Some(id), "{text}");
    }
    let mut ids = Vec::new();
    parse_text("As' 10h' 7\u{2663}\u{2032} bj \u{1F0BF}", &mut ids).unwrap();
    assert_eq!(ids, vec![103, 86, 73, 104, 105]);
    assert_eq!(parse_token("As''"), None);
    assert_eq!(parse_token("'"), None);
    assert_eq!(parse_token("J"), None);
}
