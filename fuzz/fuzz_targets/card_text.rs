//! `capsa_core::cards::parse_text` on arbitrary UTF-8: never panics; every token
//! it accepts is a rank then a suit, with a copy mark or not, or a joker
//! (checked against an independent reading of the token); the ids read before an error are the leading good tokens;
//! an error names the first bad token, its number and its character offset;
//! formatting accepted ids with `card_text` and reading them again gives the
//! same ids.
#![no_main]

use capsa_core::cards::{card_text, parse_text};
use capsa_core::error::ErrorKind;
use libfuzzer_sys::fuzz_target;

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// The card a token names, read from the spelling of docs/rules.md, "Cards"
/// and "Decks: added suits, two decks and jokers": a rank (2-9, T/10, J, Q,
/// K, A, either case) then one suit letter or symbol, then `'` or `′` for a
/// second copy (52 more); or a joker, `BJ` (104) or `RJ` (105) in either
/// case, 🃏 or 🂿.
fn expected_card(token: &str) -> Option<u8> {
    match token.to_ascii_uppercase().as_str() {
        "BJ" | "\u{1F0CF}" => return Some(104),
        "RJ" | "\u{1F0BF}" => return Some(105),
        _ => {}
    }
    let mut chars: Vec<char> = token.chars().collect();
    let copy = match chars.last() {
        Some('\'' | '\u{2032}') => {
            chars.pop();
            52
        }
        _ => 0,
    };
    expected_face(&chars).map(|face| face + copy)
}

/// The face (0..51) of a rank and suit, as [`expected_card`] reads them.
fn expected_face(chars: &[char]) -> Option<u8> {
    let (rank, suit) = match chars {
        ['1', '0', s] => (8, *s),
        [r, s] => ("23456789TJQKA".find(r.to_ascii_uppercase())?, *s),
        _ => return None,
    };
    let suit = ["dD♦♢", "cC♣♧", "hH♥♡", "sS♠♤"]
        .iter()
        .position(|symbols| symbols.contains(suit))?;
    Some((4 * rank + suit) as u8)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tokens: Vec<&str> = text.split(is_separator).filter(|t| !t.is_empty()).collect();
    let mut ids = Vec::new();
    match parse_text(text, &mut ids) {
        Ok(()) => {
            assert_eq!(ids.len(), tokens.len(), "one id per token of {text:?}");
            for (token, &id) in tokens.iter().zip(&ids) {
                assert!(id < 106, "id {id} from {token:?}");
                assert_eq!(Some(id), expected_card(token), "token {token:?}");
            }
            let formatted: Vec<String> = ids.iter().map(|&id| card_text(id)).collect();
            let mut again = Vec::new();
            parse_text(&formatted.join(" "), &mut again).expect("formatted cards read back");
            assert_eq!(again, ids, "round trip of {formatted:?}");
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Card, "{e}");
            let bad = tokens
                .iter()
                .position(|t| expected_card(t).is_none())
                .unwrap_or_else(|| panic!("rejected {text:?}, whose tokens are all cards: {e}"));
            let expected: Vec<u8> = tokens[..bad]
                .iter()
                .filter_map(|t| expected_card(t))
                .collect();
            assert_eq!(ids, expected, "the ids read before the bad token");
            let token = tokens[bad];
            let offset = token.as_ptr() as usize - text.as_ptr() as usize;
            let at = text[..offset].chars().count();
            let named = format!("{token:?} (card {} at character {at})", bad + 1);
            assert!(
                e.message().contains(&named),
                "{:?} lacks {named:?}",
                e.message()
            );
        }
    }
});
