//! Naturals (special 13-card hands). See docs/rules.md, "Naturals".

use crate::cards::{rank_index, suit};
use crate::rules::Rules;
use crate::splits;

pub use crate::natural_kind::{Natural, ALL, NATURAL_NAMES};

mod declared;
#[cfg(test)]
mod declared_tests;
mod raised;
mod wide;

pub use crate::rules::{NaturalEntry, RaisedBy};
pub use declared::{
    declared, declared_in, declared_scanned, qualifies_for, raises, Declared, EntryScan,
};
pub use wide::rank_groups;

// ---------------------------------------------------------------------------
// Detection.
//
// Everything works on 64-bit words holding one 4-bit nibble per rank (nibble
// r is rank index r: 2 is 0, ace is 12). Card id `4 * rank + suit` is bit
// `id` of a 52-bit card mask, so `(mask >> s) & LO` has bit 0 of nibble r set
// when the hand holds rank r in suit s, and the sum of the four suit words is
// the rank-count word (each nibble 0..=4: no carries). Counting the nibbles
// of such a word is one multiplication (`nibble_sum`). Nothing allocates; the
// partition naturals (three straights, three flushes, three straight flushes)
// are decided from the counts, never by enumerating the 72,072 splits, and
// the search behind three straights runs only for the ~15% of random hands
// that pass a bit-mask filter.

/// Bit 0 of each of the 13 rank nibbles.
const LO: u64 = 0x1_1111_1111_1111;
/// Bit 0 of each of the 14 position nibbles of a run word (see `take`).
const LO14: u64 = 0x11_1111_1111_1111;
/// Ranks 2..7 (below 8).
const BELOW_8: u64 = 0x11_1111;
/// Ranks 9..A (above 8).
const ABOVE_8: u64 = LO & !0x111_1111;
/// Ranks J, Q, K.
const PICTURES: u64 = 0x111 << 36;
/// Card ids below 36: every card under a jack.
const NON_ROYAL_CARDS: u64 = (1 << 36) - 1;
/// Suit counts a 3 + 5 + 5 split into one-suit rows can leave: bit n is set
/// for n in {0, 3, 5, 8, 10, 13}. Four suit counts summing to 13 all in this
/// set are exactly the multisets {13}, {8, 5}, {10, 3}, {5, 5, 3}.
const FLUSH_COUNTS: u32 = 1 | 1 << 3 | 1 << 5 | 1 << 8 | 1 << 10 | 1 << 13;
/// Three and five consecutive position nibbles.
const RUN3: u64 = 0x111;
const RUN5: u64 = 0x1_1111;

/// Sum of the 13 nibbles of `x` when that sum is below 16: nibble 12 of
/// `x * LO` adds up nibbles 0..=12 and no lower nibble can carry into it.
#[inline(always)]
const fn nibble_sum(x: u64) -> u32 {
    ((x.wrapping_mul(LO) >> 48) & 0xF) as u32
}

#[inline(always)]
const fn bit(n: Natural, cond: bool) -> u16 {
    (cond as u16) << (n as u16)
}

// Run words: 14 nibbles of card counts by position, where position 0 is a
// low ace, positions 1..=12 are ranks 2..K and position 13 is a high ace. A
// run of consecutive positions is a legal straight exactly when it lies inside
// positions 0..=13, which admits A-2-3, Q-K-A, A-2-3-4-5 and T-J-Q-K-A and
// excludes K-A-2.
//
// The lowest occupied position can only be covered by runs that start there,
// so a split into runs is found by repeatedly removing a run that starts at
// the lowest occupied position: the only choice is the order of the lengths.

/// Removes the run `run` (RUN3 or RUN5) starting at the lowest occupied
/// position of `c`, if every position it covers is occupied. A run reaching
/// past position 13 covers an unoccupied position and is refused (and so is
/// any run when `c` is empty: the shift wraps to zero).
#[inline(always)]
fn take(c: u64, run: u64) -> Option<u64> {
    let r = run.wrapping_shl(c.trailing_zeros() & !3);
    let live = (c | c >> 1 | c >> 2) & LO14;
    (live & r == r).then(|| c - r)
}

#[inline(always)]
fn is3(c: u64) -> bool {
    take(c, RUN3) == Some(0)
}

#[inline(always)]
fn is5(c: u64) -> bool {
    take(c, RUN5) == Some(0)
}

#[inline(always)]
fn is55(c: u64) -> bool {
    take(c, RUN5).is_some_and(is5)
}

#[inline(always)]
fn is35(c: u64) -> bool {
    take(c, RUN3).is_some_and(is5) || take(c, RUN5).is_some_and(is3)
}

#[inline(always)]
fn is355(c: u64) -> bool {
    take(c, RUN3).is_some_and(is55) || take(c, RUN5).is_some_and(is35)
}

/// A cheap necessary condition for any split into straights: every rank held
/// lies in three consecutive held ranks (the ace at either end), since each
/// card lies in a run of three or five. `any` has bit 0 of nibble r set when
/// rank r is held. Rejects most random hands before the search.
#[inline(always)]
fn runs_cover(any: u64) -> bool {
    let ace = any >> 48;
    let p = (any & 0xFFFF_FFFF_FFFF) << 4 | ace | ace << 52;
    let w = p & p >> 4 & p >> 8;
    let cov = w | w << 4 | w << 8;
    // ranks 2..K (positions 1..=12) all covered; an ace at one end at least
    p & !cov & 0x1_1111_1111_1110 == 0 && (ace == 0 || cov & (1 | 1 << 52) != 0)
}

/// Whether the rank-count word `cnt` (13 nibbles) splits into runs as `split`
/// (one of the `is*` functions) asks, trying every number of aces played low.
#[inline(always)]
fn splits_into_straights(cnt: u64, split: impl Fn(u64) -> bool) -> bool {
    let aces = cnt >> 48;
    let mid = (cnt & 0xFFFF_FFFF_FFFF) << 4;
    (0..=aces).any(|low| split(mid | low | (aces - low) << 52))
}

/// One suit's part of a three-straight-flushes split: its `n` cards (rank
/// word `s`) must form the runs the suit count forces (3: the top; 5: one
/// five-card row; 8: top and a five-card row; 10: both five-card rows; 13:
/// all three rows).
#[inline(never)]
fn suit_splits(s: u64, n: u32) -> bool {
    match n {
        0 => true,
        3 => splits_into_straights(s, is3),
        5 => splits_into_straights(s, is5),
        8 => splits_into_straights(s, is35),
        10 => splits_into_straights(s, is55),
        // 13 (the callers have checked the counts are flush counts)
        _ => splits_into_straights(s, is355),
    }
}

/// Bit set (bit `n as u32`) of every natural the 13 cards qualify for,
/// whatever the rules. The cards must be 13 valid, distinct ids of the
/// 52-card deck (callers check), so the bits of the naturals that need
/// copies, 16 and up, are never set.
pub fn qualifying(cards: &[u8; 13]) -> u32 {
    u32::from(qualifying_mask(card_mask(cards)))
}

/// [`qualifying`] of 13 distinct ids of any deck: a hand of second copies
/// or jokers read on its faces, each joker played as every face
/// (docs/rules.md, "Naturals of larger decks"); a 52-card hand as
/// [`qualifying`] reads it.
pub fn qualifying_any_deck(cards: &[u8; 13]) -> u32 {
    if cards.iter().all(|&c| (c as usize) < crate::cards::DECK) {
        return qualifying(cards);
    }
    wide::qualifying_played(cards)
}

/// The 52-bit mask of the cards (bit `id`).
#[inline(always)]
fn card_mask(cards: &[u8; 13]) -> u64 {
    let mut cm = 0u64;
    for &id in cards {
        debug_assert!(id < 52, "card id {id} out of range");
        cm |= 1u64 << (id & 63);
    }
    debug_assert_eq!(cm.count_ones(), 13, "cards must be distinct");
    cm
}

/// `qualifying` of the cards of the card mask `cm`.
#[inline(always)]
fn qualifying_mask(cm: u64) -> u16 {
    let suits = [cm & LO, (cm >> 1) & LO, (cm >> 2) & LO, (cm >> 3) & LO];
    let cnt = suits[0] + suits[1] + suits[2] + suits[3];
    let any = suits[0] | suits[1] | suits[2] | suits[3];
    let ge2 = ((cnt >> 1) | (cnt >> 2)) & LO;
    let ge3 = ((cnt & (cnt >> 1)) | (cnt >> 2)) & LO;
    let quads = (cnt >> 2) & LO;
    let odd = cnt & LO;
    let n = suits.map(nibble_sum);
    // cnt // 2 summed: one per rank with cnt >= 2, one more per quad.
    let pairs = nibble_sum(ge2 + quads);
    let trips = nibble_sum(ge3);
    let red = n[0] + n[2];
    let non_royal = cm & NON_ROYAL_CARDS;

    use Natural::*;
    let mut q = bit(CleanDragon, n[0] == 13 || n[1] == 13 || n[2] == 13 || n[3] == 13)
        | bit(Dragon, any == LO)
        | bit(TwelveRoyals, non_royal & non_royal.wrapping_sub(1) == 0)
        | bit(ThreeQuads, nibble_sum(quads) >= 3)
        | bit(AllHigh, any & BELOW_8 == 0)
        | bit(AllLow, any & ABOVE_8 == 0)
        | bit(FullColored, red == 13 || red == 0)
        | bit(TwelveSameColor, !(2..=11).contains(&red))
        | bit(FourTriples, trips >= 4)
        // 13 cards have an odd number of odd counts: exactly one, and it is 3.
        | bit(FivePairsTrips, odd & odd.wrapping_sub(1) == 0 && odd & ge3 != 0)
        | bit(SixPairs, pairs >= 6)
        | bit(NoPictureCards, any & PICTURES == 0)
        // No quad, two trips and five pairs (the trips' among them): 6 + 6
        // cards, so the thirteenth is a single.
        | bit(TwoFullHouses, quads == 0 && trips == 2 && pairs == 5);
    if (FLUSH_COUNTS >> n[0])
        & (FLUSH_COUNTS >> n[1])
        & (FLUSH_COUNTS >> n[2])
        & (FLUSH_COUNTS >> n[3])
        & 1
        != 0
    {
        q |= bit(ThreeFlushes, true);
        if (0..4).all(|s| suit_splits(suits[s], n[s])) {
            q |= bit(ThreeStraightFlushes, true);
        }
    }
    // A straight holds a rank once, so three straights hold none four times.
    if quads == 0 && runs_cover(any) && splits_into_straights(cnt, is355) {
        q |= bit(ThreeStraights, true);
    }
    q
}

// ---------------------------------------------------------------------------
// The rows of the partition naturals, for showing them: unlike detection,
// this looks at the splits themselves.

/// Whether the cards (a row) are all of one suit.
fn is_flush_row(row: &[u8]) -> bool {
    row.iter().all(|&c| suit(c) == suit(row[0]))
}

/// Whether `positions` (a bit per position) is one run of consecutive bits.
fn is_run(positions: u32) -> bool {
    positions != 0 && {
        let low = positions >> positions.trailing_zeros();
        low & (low + 1) == 0
    }
}

/// Whether the ranks of the cards (a row of 3 or 5) are consecutive, the
/// ace high or low: A-2-3 and Q-K-A, A-2-3-4-5 and T-J-Q-K-A, nothing
/// wrapping round (docs/rules.md, "The naturals").
fn is_straight_row(row: &[u8]) -> bool {
    let ranks = row.iter().fold(0u32, |m, &c| m | 1 << rank_index(c));
    if ranks.count_ones() as usize != row.len() {
        return false;
    }
    // position 0 is a low ace, positions 1..=12 ranks 2..K, 13 a high ace
    let ace_high = ranks << 1;
    let ace_low = (ace_high & !(1 << 13)) | (ranks >> 12);
    is_run(ace_high) || is_run(ace_low)
}

/// Whether the cards (a row of 3 or 5) hold exactly two ranks, the larger
/// group a card more than the smaller: a pair and a single in three cards,
/// a full house in five.
fn is_full_row(row: &[u8]) -> bool {
    let first = rank_index(row[0]);
    let same = row.iter().filter(|&&c| rank_index(c) == first).count();
    let other = row.iter().find(|&&c| rank_index(c) != first);
    other.is_some_and(|&o| {
        let rest = row
            .iter()
            .filter(|&&c| rank_index(c) == rank_index(o))
            .count();
        same + rest == row.len() && same.max(rest) == row.len().div_ceil(2)
    })
}

/// A split that shows a row-shaped natural (`three-flushes`,
/// `three-straights`, `three-straight-flushes`, `two-full-houses`): its
/// three rows have the natural's shape (for `two-full-houses`, a pair and a
/// single on top and two full houses), laid out top 0-2, middle 3-7,
/// bottom 8-12, each row by ascending id. It is the first such split in
/// split order (docs/rules.md, "Split order") that does not foul under
/// `rules`, or the first such split when every one fouls (only
/// `foul_check = "strict"` with two five-card rows of equal ranks). When
/// the rules' entry of the natural is raised by a straight flush and the
/// cards raise it, only splits with a straight flush as a five-card row
/// count, so that the rows show what raised it. `None` when the natural is
/// not row-shaped or the cards do not qualify for it. The cards must be 13
/// valid, distinct ids (callers check).
pub fn natural_split(rules: &Rules, cards: &[u8; 13], natural: Natural) -> Option<[u8; 13]> {
    let row_fits: fn(&[u8]) -> bool = match natural {
        Natural::ThreeFlushes => is_flush_row,
        Natural::ThreeStraights => is_straight_row,
        Natural::ThreeStraightFlushes => |row| is_flush_row(row) && is_straight_row(row),
        Natural::TwoFullHouses => is_full_row,
        _ => return None,
    };
    if (qualifying(cards) >> (natural as u32)) & 1 == 0 {
        return None;
    }
    let mut sorted = *cards;
    sorted.sort_unstable();
    let table = splits::table();
    let fits3: Vec<bool> = table
        .positions3
        .iter()
        .map(|p| row_fits(&p.map(|q| sorted[q as usize])))
        .collect();
    let fits5: Vec<bool> = table
        .positions5
        .iter()
        .map(|p| row_fits(&p.map(|q| sorted[q as usize])))
        .collect();
    let raised_by_straight_flush = rules.naturals.iter().any(|e| {
        e.natural == natural
            && matches!(e.raised, Some((_, RaisedBy::StraightFlush)))
            && raises(cards, e)
    });
    let straight_flush5: Vec<bool> = if raised_by_straight_flush {
        table
            .positions5
            .iter()
            .map(|p| {
                let row = p.map(|q| sorted[q as usize]);
                is_flush_row(&row) && is_straight_row(&row)
            })
            .collect()
    } else {
        Vec::new()
    };
    let e = &rules.evaluator;
    let mut first = None;
    for &[t, m, b] in &table.splits {
        if !(fits3[t as usize] && fits5[m as usize] && fits5[b as usize]) {
            continue;
        }
        if raised_by_straight_flush && !(straight_flush5[m as usize] || straight_flush5[b as usize])
        {
            continue;
        }
        let layout = splits::layout_of(&sorted, t, m, b);
        let top = e.eval3([layout[0], layout[1], layout[2]]);
        let middle = e.eval5([layout[3], layout[4], layout[5], layout[6], layout[7]]);
        let bottom = e.eval5([layout[8], layout[9], layout[10], layout[11], layout[12]]);
        if splits::is_valid(top, middle, bottom, rules.foul_strict) {
            return Some(layout);
        }
        first.get_or_insert(layout);
    }
    first
}

#[cfg(test)]
mod split_tests;

#[cfg(test)]
mod tests;
