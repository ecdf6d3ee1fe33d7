//! Helpers shared by the test modules.

use crate::cards::{check_distinct, RANK_CHARS, SUIT_CHARS};

/// Card ids from text such as `"As Kd | 2c"`: a rank and a suit character a
/// card, whitespace between, `|` (between rows) skipped. It reads only the
/// fixtures tests write, so anything else panics, naming the token; it is
/// kept apart from `cards::parse_text` so that the tests of that parser and
/// of the code using it do not lean on it.
pub(crate) fn cards(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .filter(|token| *token != "|")
        .map(|token| {
            let [rank, suit] = token.as_bytes() else {
                panic!("card {token:?} in {text:?} is not two characters");
            };
            let rank = RANK_CHARS.iter().position(|c| c == rank);
            let suit = SUIT_CHARS.iter().position(|c| c == suit);
            match (rank, suit) {
                (Some(rank), Some(suit)) => (4 * rank + suit) as u8,
                _ => panic!("card {token:?} in {text:?} is not a card"),
            }
        })
        .collect()
}

/// A hand of thirteen distinct cards from text, as [`cards`] reads it.
pub(crate) fn hand(text: &str) -> [u8; 13] {
    let ids = cards(text);
    check_distinct(&ids).unwrap();
    ids.try_into()
        .unwrap_or_else(|ids: Vec<u8>| panic!("{} cards in {text:?}, not 13", ids.len()))
}
