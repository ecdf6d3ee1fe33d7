//! The natural a seat declares under the rules: each entry's definition
//! with its parameters, what raises its points, its tier and must-declare
//! (docs/rules.md, "Naturals").

use super::{card_mask, is35, qualifying_mask, splits_into_straights, LO};
use crate::natural_kind::Natural;
use crate::rules::{NaturalEntry, RaisedBy, Rules};

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
fn qualifies(q: u16, cm: u64, e: &NaturalEntry) -> bool {
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

/// Whether a three-flushes hand splits into three flushes with a straight
/// flush as a five-card row: a suit of 5, 8, 10 or 13 cards (the counts
/// `qualifying` admits) gives a five-card row wherever it holds five
/// consecutive ranks, and its other cards still fill one-suit rows.
fn flushes_with_straight_flush(cm: u64) -> bool {
    (0..4).any(|s| {
        let suit = (cm >> s) & LO;
        suit.count_ones() >= 5 && straight_flush_starts(suit) != 0
    })
}

/// Whether a hand splits into three straights with a straight flush as a
/// five-card row: some five-card straight flush it holds leaves eight cards
/// that split into a three-card and a five-card straight.
fn straights_with_straight_flush(cm: u64) -> bool {
    let suits = [cm & LO, (cm >> 1) & LO, (cm >> 2) & LO, (cm >> 3) & LO];
    let cnt = suits[0] + suits[1] + suits[2] + suits[3];
    suits.iter().any(|&suit| {
        let mut starts = straight_flush_starts(suit);
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

/// Whether the cards raise the entry to its raised points (false when the
/// entry has none). The cards must qualify for the entry.
pub fn raises(cards: &[u8; 13], entry: &NaturalEntry) -> bool {
    is_raised(card_mask(cards), entry)
}

#[inline]
fn is_raised(cm: u64, e: &NaturalEntry) -> bool {
    match e.raised {
        None => false,
        Some((_, RaisedBy::Quads)) => cm & cm >> 1 & cm >> 2 & cm >> 3 & LO != 0,
        Some((_, RaisedBy::StraightFlush)) => match e.natural {
            Natural::ThreeFlushes => flushes_with_straight_flush(cm),
            Natural::ThreeStraights => straights_with_straight_flush(cm),
            _ => false,
        },
    }
}

/// What a list of entries asks of every hand, read once for many hands (a
/// table's seats): the naturals the entries name, whether the fixed
/// definitions alone decide them, whether one must be declared and whether
/// one is paid as a bonus.
#[derive(Clone, Copy, Debug)]
pub struct EntryScan {
    /// The bit of each entry's natural.
    mask: u16,
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
    let cm = card_mask(cards);
    let q = qualifying_mask(cm);
    if scan.exact && q & scan.mask == 0 {
        return None;
    }
    let index = entries.iter().position(|e| qualifies(q, cm, e))?;
    let entry = entries[index];
    if !(declare || entry.must_declare) {
        return None;
    }
    let points = match entry.raised {
        Some((raised, _)) if is_raised(cm, &entry) => raised,
        _ => entry.points,
    };
    // the first entry never shares the tier of one before it
    let tier = entries[..=index]
        .iter()
        .rposition(|e| !e.same_tier)
        .unwrap_or(0);
    Some(Declared {
        index,
        entry,
        points,
        tier,
    })
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
    qualifies(qualifying_mask(cm), cm, entry)
}
