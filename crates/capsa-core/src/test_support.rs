//! Helpers shared by the test modules: cards written as text, and the
//! settings several tests build alike.

use crate::cards::{check_distinct, RANK_CHARS, SUIT_CHARS};
use crate::rank::{Evaluator, Ranking};
use crate::rules::Rules;

/// Card ids from text such as `"As Kd' | 2c BJ"`: a rank and a suit character a
/// card, whitespace between, `|` (between rows) skipped. It reads only the
/// fixtures tests write, so anything else panics, naming the token; it is
/// kept apart from `cards::parse_text` so that the tests of that parser and
/// of the code using it do not lean on it.
pub(crate) fn cards(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .filter(|token| *token != "|")
        .map(|token| {
            match token {
                "BJ" => return crate::deck::BLACK_JOKER,
                "RJ" => return crate::deck::RED_JOKER,
                _ => {}
            }
            // a second copy: the face's id plus 52
            let (token, copy) = match token.strip_suffix('\'') {
                Some(face) => (face, 52),
                None => (token, 0),
            };
            let [rank, suit] = token.as_bytes() else {
                panic!("card {token:?} in {text:?} is not two characters");
            };
            let rank = RANK_CHARS.iter().position(|c| c == rank);
            let suit = SUIT_CHARS.iter().position(|c| c == suit);
            match (rank, suit) {
                (Some(rank), Some(suit)) => (4 * rank + suit + copy) as u8,
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

/// The default ranking without the suit tie-break, so that rows can tie.
pub(crate) fn without_suit_tie_break() -> Evaluator {
    Evaluator::new(Ranking {
        tie_break_suit: false,
        ..Ranking::default()
    })
}

/// `base` with the strict foul check, under a ranking in which rows can
/// tie (the case the strict check decides).
pub(crate) fn strict_foul_check(base: Rules) -> Rules {
    Rules {
        foul_strict: true,
        evaluator: without_suit_tie_break(),
        ..base
    }
}

/// Calls `visit` with every `k`-card combination of `deck` (by position, in
/// lexicographic order).
pub(crate) fn for_each_combination(deck: &[u8], k: usize, mut visit: impl FnMut(&[u8])) {
    assert!((1..=deck.len()).contains(&k), "{k} of {} cards", deck.len());
    let mut positions: Vec<usize> = (0..k).collect();
    let mut combination = vec![0u8; k];
    loop {
        for (card, &p) in combination.iter_mut().zip(&positions) {
            *card = deck[p];
        }
        visit(&combination);
        // the last position that can still move right, then the ones after it
        let Some(i) = (0..k).rev().find(|&i| positions[i] < deck.len() - k + i) else {
            return;
        };
        positions[i] += 1;
        for j in i + 1..k {
            positions[j] = positions[j - 1] + 1;
        }
    }
}
