//! What raises a natural's points (docs/rules.md, "A natural's entry",
//! `raised_by`), read on the suits' rank-count words so that the 52-card
//! deck and decks with copies share it.

use super::{is35, nibble_sum, splits_into_straights, LO};
use crate::natural_kind::Natural;
use crate::rules::{NaturalEntry, RaisedBy};

/// Bit 0 of nibble k is set for each five-card straight of the one-suit
/// rank word `s` (13 nibbles of 0 or 1), covering positions k..k+4 (the
/// run positions of `take`: 0 a low ace, 13 a high ace).
#[inline]
fn straight_flush_starts(s: u64) -> u64 {
    let ace = s >> 48;
    let p = (s & 0xFFFF_FFFF_FFFF) << 4 | ace | ace << 52;
    p & p >> 4 & p >> 8 & p >> 12 & p >> 16
}

/// The rank word (13 nibbles) of the five run positions starting at bit
/// `k` (nibble `k / 4`) of a run word.
#[inline]
fn run5_ranks(k: u32) -> u64 {
    let positions = super::RUN5 << k;
    let ace = (positions | positions >> 52) & 1;
    (positions >> 4) & 0xFFFF_FFFF_FFFF | ace << 48
}

/// The held word of a suit's rank-count word: bit 0 of nibble r set when
/// the suit holds rank r at least once (counts stay below 8).
#[inline(always)]
fn held(s: u64) -> u64 {
    (s | s >> 1 | s >> 2) & LO
}

/// Whether a three-flushes hand splits into three flushes with a straight
/// flush as a five-card row: a suit of 5, 8, 10 or 13 cards (the counts
/// `qualifying` admits) gives a five-card row wherever it holds five
/// consecutive ranks, and its other cards still fill one-suit rows.
fn flushes_with_straight_flush(suits: &[u64; 4]) -> bool {
    suits
        .iter()
        .any(|&suit| nibble_sum(suit) >= 5 && straight_flush_starts(held(suit)) != 0)
}

/// Whether a hand splits into three straights with a straight flush as a
/// five-card row: some five-card straight flush it holds leaves eight cards
/// that split into a three-card and a five-card straight.
fn straights_with_straight_flush(suits: &[u64; 4]) -> bool {
    let cnt = suits[0] + suits[1] + suits[2] + suits[3];
    suits.iter().any(|&suit| {
        let mut starts = straight_flush_starts(held(suit));
        while starts != 0 {
            let k = starts.trailing_zeros();
            starts &= starts - 1;
            if splits_into_straights(cnt - run5_ranks(k), is35) {
                return true;
            }
        }
        false
    })
}

/// Whether cards of the suit rank-count words `suits` (nibble r of suit s:
/// how many cards of rank r in suit s) raise the entry; `quads`: some rank
/// is held four times or more.
pub(super) fn raised_by(suits: &[u64; 4], quads: bool, e: &NaturalEntry) -> bool {
    match e.raised {
        None => false,
        Some((_, RaisedBy::Quads)) => quads,
        Some((_, RaisedBy::StraightFlush)) => match e.natural {
            Natural::ThreeFlushes => flushes_with_straight_flush(suits),
            Natural::ThreeStraights => straights_with_straight_flush(suits),
            _ => false,
        },
    }
}
