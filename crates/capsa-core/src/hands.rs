//! Hands under the rules' deck: checked against the deck, ranked by the
//! 52-card evaluator or, when the deck has copies or jokers, by the
//! evaluator of such decks
//! (docs/rules.md, "Decks: added suits, two decks and jokers"). Each entry point settles which evaluator once, so that
//! the loops of the 52-card deck stay as they were.

use crate::batch;
use crate::cards::check_hand;
use crate::error::Result;
use crate::rank::wide::WideEvaluator;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::splits;

/// Checks that `ids` are one of `sizes` cards of the rules' deck, each
/// once; the hand is called `what` in messages.
pub fn check(rules: &Rules, ids: &[u8], sizes: &[usize], what: &str) -> Result<()> {
    if rules.deck.is_standard() {
        check_hand(ids, sizes, what).map(|_| ())
    } else {
        rules.deck.check_hand(ids, sizes, what)
    }
}

/// The evaluator of a deck with copies or jokers; `None` for the 52-card
/// deck.
fn wide(rules: &Rules) -> Option<WideEvaluator> {
    (!rules.deck.is_standard()).then(|| WideEvaluator::new(rules.evaluator))
}

/// Strength of three or five checked cards of the rules' deck.
#[inline]
pub fn strength(rules: &Rules, ids: &[u8]) -> u32 {
    if rules.deck.is_standard() {
        rules.evaluator.eval_unchecked(ids)
    } else {
        wide_strength(rules, ids)
    }
}

/// [`strength`] under a deck with copies or jokers, kept out of the
/// 52-card deck's way.
#[inline(never)]
fn wide_strength(rules: &Rules, ids: &[u8]) -> u32 {
    WideEvaluator::new(rules.evaluator).eval_unchecked(ids)
}

/// The cards a row of three or five checked cards of the rules' deck
/// plays as: each joker as the card it stands for in the row's strongest
/// hand, a second copy as its first, every other card as itself.
pub fn played(rules: &Rules, ids: &[u8]) -> Vec<u8> {
    match wide(rules) {
        None => ids.to_vec(),
        Some(w) => w.played(ids),
    }
}

/// Whether 13 checked cards laid out top 0-2, middle 3-7, bottom 8-12
/// foul under the rules.
pub fn fouls(rules: &Rules, ids: &[u8]) -> bool {
    let (top, middle, bottom) = (
        strength(rules, &ids[..3]),
        strength(rules, &ids[3..8]),
        strength(rules, &ids[8..]),
    );
    !splits::is_valid(top, middle, bottom, rules.foul_strict)
}

/// 13 cards of the rules' deck, checked and sorted.
fn sorted(rules: &Rules, cards: &[u8]) -> Result<[u8; 13]> {
    sorted_hand(rules, cards, "a hand to split")
}

/// 13 cards of the rules' deck, checked and sorted; an error calls them
/// `what`.
pub fn sorted_hand(rules: &Rules, cards: &[u8], what: &str) -> Result<[u8; 13]> {
    check(rules, cards, &[13], what)?;
    let mut sorted: [u8; 13] = cards.try_into().expect("length checked");
    sorted.sort_unstable();
    Ok(sorted)
}

/// The strengths of every 3- and 5-card subset of a sorted hand of the
/// rules' deck (checked cards).
pub fn subset_strengths(rules: &Rules, sorted: &[u8; 13]) -> splits::SubsetStrengths {
    match wide(rules) {
        None => splits::subset_strengths(&rules.evaluator, sorted),
        Some(w) => splits::subset_strengths(&w, sorted),
    }
}

/// The strengths of the rows of 13 checked cards of the rules' deck laid
/// out top 0-2, middle 3-7, bottom 8-12.
pub fn row_strengths(rules: &Rules, ids: &[u8; 13]) -> [u32; 3] {
    [
        strength(rules, &ids[..3]),
        strength(rules, &ids[3..8]),
        strength(rules, &ids[8..]),
    ]
}

/// Every split (or only the valid ones) of 13 cards of the rules' deck.
pub fn splits(rules: &Rules, cards: &[u8], valid_only: bool) -> Result<Vec<[u8; 13]>> {
    let hand = sorted(rules, cards)?;
    let strict = rules.foul_strict;
    Ok(match wide(rules) {
        None => splits::sorted_splits(&rules.evaluator, strict, &hand, valid_only),
        Some(w) => splits::sorted_splits(&w, strict, &hand, valid_only),
    })
}

/// How many of the 72,072 splits of 13 cards of the rules' deck are valid.
pub fn count_splits(rules: &Rules, cards: &[u8]) -> Result<usize> {
    let hand = sorted(rules, cards)?;
    let strict = rules.foul_strict;
    Ok(match wide(rules) {
        None => splits::subset_strengths(&rules.evaluator, &hand).count_valid(strict),
        Some(w) => splits::subset_strengths(&w, &hand).count_valid(strict),
    })
}

/// The strengths of rows of `width` (3 or 5) cards of the rules' deck.
pub fn strengths(rules: &Rules, data: &[u8], width: usize) -> Result<Vec<u32>> {
    match wide(rules) {
        None => batch::strengths(&rules.evaluator, data, width),
        Some(w) => {
            let mask = rules.deck.mask();
            batch::strengths_of(data, width, |row| {
                rules.deck.check_in(mask, row)?;
                Ok(w.eval_unchecked(row))
            })
        }
    }
}

/// The number of valid splits of each row of 13 cards of the rules' deck.
pub fn count_splits_batch(rules: &Rules, data: &[u8]) -> Result<Vec<u32>> {
    match wide(rules) {
        None => batch::count_splits(&rules.evaluator, rules.foul_strict, data),
        Some(w) => batch::map_rows(data, 13, |row| {
            let hand = sorted(rules, row)?;
            let count = splits::subset_strengths(&w, &hand).count_valid(rules.foul_strict);
            Ok(count as u32)
        }),
    }
}

#[cfg(test)]
mod tests;
