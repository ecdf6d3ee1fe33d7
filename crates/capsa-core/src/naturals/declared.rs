//! The natural a seat declares under the rules: each entry's definition
//! with its parameters, what raises its points, its tier and must-declare
//! (docs/rules.md, "Naturals").

use super::raised::raised_by;
use super::wide::strongest_playing;
use super::{card_mask, qualifying_mask, LO};
use crate::cards::DECK;
use crate::natural_kind::Natural;
use crate::rules::{NaturalEntry, Rules};

/// A seat's declared natural.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    /// Its position in `rules.naturals` (lower: stronger).
    pub index: usize,
    /// Its entry.
    pub entry: NaturalEntry,
    /// What it is worth: the raised points when the cards raise it, else
    /// the entry's points.
    pub points: i64,
    /// The index of the first entry of its tier.
    pub tier: usize,
    /// The cards as played (docs/rules.md, "Naturals of larger decks"):
    /// their faces (ids 0..51), each joker as the face it plays.
    pub played: [u8; 13],
}

/// Card ids of the red suits, diamonds and hearts (suits 0 and 2).
const RED_CARDS: u64 = 0x5_5555_5555_5555;
/// The naturals an entry's parameters define (bit `natural as u32`).
const PARAMETERISED: u32 = 1 << Natural::AllHigh as u32
    | 1 << Natural::AllLow as u32
    | 1 << Natural::TwelveRoyals as u32
    | 1 << Natural::TwelveSameColor as u32;
/// Card ids from the jack up.
const FIRST_ROYAL_ID: u32 = 36;

/// Card ids of every rank below rank index `rank` (all 52 from the ace
/// up, so an out-of-range rank never shifts past the word).
#[inline(always)]
fn ids_below(rank: u8) -> u64 {
    1u64.checked_shl(4 * u32::from(rank))
        .map_or(u64::MAX, |b| b - 1)
}

/// Whether the cards (`q` their fixed-definition bit set, `cm` their card
/// mask) qualify for the entry's natural with its parameters.
#[inline(always)]
fn qualifies(q: u32, cm: u64, e: &NaturalEntry) -> bool {
    let n = e.natural as u32;
    // most entries are read from `q` without the branches below
    if (PARAMETERISED >> n) & 1 == 0 {
        return (q >> n) & 1 != 0;
    }
    match e.natural {
        Natural::AllHigh => cm & ids_below(e.lowest) == 0,
        Natural::AllLow => cm & !ids_below(e.highest.saturating_add(1)) == 0,
        Natural::TwelveRoyals => (cm >> FIRST_ROYAL_ID).count_ones() >= u32::from(e.count),
        Natural::TwelveSameColor => {
            let red = (cm & RED_CARDS).count_ones();
            if e.exactly {
                red == 12 || red == 1
            } else {
                red >= 12 || red <= 1
            }
        }
        n => (q >> (n as u32)) & 1 != 0,
    }
}

/// Whether the cards raise the entry to its raised points (false when the
/// entry has none). The cards must qualify for the entry.
pub fn raises(cards: &[u8; 13], entry: &NaturalEntry) -> bool {
    is_raised(card_mask(cards), entry)
}

#[inline]
fn is_raised(cm: u64, e: &NaturalEntry) -> bool {
    e.raised.is_some()
        && raised_by(
            &[cm & LO, (cm >> 1) & LO, (cm >> 2) & LO, (cm >> 3) & LO],
            cm & cm >> 1 & cm >> 2 & cm >> 3 & LO != 0,
            e,
        )
}

/// What a list of entries asks of every hand, read once for many hands (a
/// table's seats): the naturals the entries name, whether the fixed
/// definitions alone decide them, whether one must be declared and whether
/// one is paid as a bonus.
#[derive(Clone, Copy, Debug)]
pub struct EntryScan {
    /// The bit of each entry's natural.
    mask: u32,
    /// Every entry's natural is its fixed definition (its parameters at
    /// their defaults), so a hand qualifies for none when it has none of
    /// `mask`'s bits.
    exact: bool,
    /// Some entry must be declared.
    must_declare: bool,
    /// Some entry is paid as a bonus with the rows still compared.
    pub bonus: bool,
}

impl EntryScan {
    /// The scan of `entries`.
    #[inline]
    pub fn of(entries: &[NaturalEntry]) -> EntryScan {
        let mut scan = EntryScan {
            mask: 0,
            exact: true,
            must_declare: false,
            bonus: false,
        };
        for e in entries {
            let plain = NaturalEntry::new(e.natural, e.points);
            let defaults = (e.lowest, e.highest, e.count, e.exactly)
                == (plain.lowest, plain.highest, plain.count, plain.exactly);
            scan.mask |= 1 << e.natural as u32;
            scan.exact &= (PARAMETERISED >> e.natural as u32) & 1 == 0 || defaults;
            scan.must_declare |= e.must_declare;
            scan.bonus |= e.bonus;
        }
        scan
    }
}

/// The natural a seat holding `cards` declares among `entries` (strongest
/// first): the earliest entry the cards qualify for, parameters applied,
/// when the seat declares (`declare`) or that entry must be declared;
/// `None` otherwise. Its points are the raised points when the entry has
/// them and the cards raise it. The cards must be 13 valid, distinct ids
/// (callers check).
#[inline]
pub fn declared_in(cards: &[u8; 13], entries: &[NaturalEntry], declare: bool) -> Option<Declared> {
    declared_scanned(cards, entries, &EntryScan::of(entries), declare)
}

/// [`declared_in`] with the entries' [`EntryScan`] made once: a hand with
/// none of their naturals is answered from its fixed definitions alone.
#[inline]
pub fn declared_scanned(
    cards: &[u8; 13],
    entries: &[NaturalEntry],
    scan: &EntryScan,
    declare: bool,
) -> Option<Declared> {
    if entries.is_empty() || !(declare || scan.must_declare) {
        return None;
    }
    // a fold, not `any`: no early exit, so it compiles to a few vector ops
    if usize::from(cards.iter().fold(0, |m, &c| m.max(c))) >= DECK {
        let p = strongest_playing(cards, entries)?;
        return finish(entries, p.index, p.raised, p.faces, declare);
    }
    let cm = card_mask(cards);
    let q = u32::from(qualifying_mask(cm));
    if scan.exact && q & scan.mask == 0 {
        return None;
    }
    let index = entries.iter().position(|e| qualifies(q, cm, e))?;
    finish(
        entries,
        index,
        is_raised(cm, &entries[index]),
        *cards,
        declare,
    )
}

/// The declared natural of the entry at `index`, raised or not, played as
/// `played`: `None` when the seat does not declare and need not.
#[inline]
fn finish(
    entries: &[NaturalEntry],
    index: usize,
    raised: bool,
    played: [u8; 13],
    declare: bool,
) -> Option<Declared> {
    let entry = entries[index];
    if !(declare || entry.must_declare) {
        return None;
    }
    let points = match entry.raised {
        Some((raised_points, _)) if raised => raised_points,
        _ => entry.points,
    };
    Some(Declared {
        index,
        entry,
        points,
        tier: tier_of(entries, index),
        played,
    })
}

/// The index of the first entry of the tier of `entries[index]`: the first
/// entry never shares the tier of one before it.
fn tier_of(entries: &[NaturalEntry], index: usize) -> usize {
    entries[..=index]
        .iter()
        .rposition(|e| !e.same_tier)
        .unwrap_or(0)
}

/// The seat's natural under the rules: the earliest entry of
/// `rules.naturals` its 13 cards qualify for (parameters applied), with its
/// points (raised when the cards raise it), its index in the list and its
/// tier; `None` when there is none or the seat does not declare
/// (`declare` false) and the entry need not be declared. The cards must be
/// 13 valid, distinct ids (callers check).
#[inline]
pub fn declared(cards: &[u8; 13], rules: &Rules, declare: bool) -> Option<Declared> {
    declared_in(cards, &rules.naturals, declare)
}

/// Whether the cards qualify for the entry's natural, parameters applied.
/// The cards must be 13 valid, distinct ids (callers check).
pub fn qualifies_for(cards: &[u8; 13], entry: &NaturalEntry) -> bool {
    let cm = card_mask(cards);
    qualifies(u32::from(qualifying_mask(cm)), cm, entry)
}
