//! Naturals (special 13-card hands). See docs/rules.md, "Naturals".

use crate::cards::{rank_index, suit};
use crate::rules::Rules;
use crate::splits;

/// The fifteen naturals, in the order of the table in
/// docs/rules.md, "The fifteen naturals".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Natural {
    CleanDragon = 0,
    Dragon,
    TwelveRoyals,
    ThreeStraightFlushes,
    ThreeQuads,
    AllHigh,
    AllLow,
    FullColored,
    TwelveSameColor,
    FourTriples,
    FivePairsTrips,
    SixPairs,
    ThreeStraights,
    ThreeFlushes,
    NoPictureCards,
}

pub const NATURAL_NAMES: [&str; 15] = [
    "clean-dragon",
    "dragon",
    "twelve-royals",
    "three-straight-flushes",
    "three-quads",
    "all-high",
    "all-low",
    "full-colored",
    "twelve-same-color",
    "four-triples",
    "five-pairs-trips",
    "six-pairs",
    "three-straights",
    "three-flushes",
    "no-picture-cards",
];

pub const ALL: [Natural; 15] = [
    Natural::CleanDragon,
    Natural::Dragon,
    Natural::TwelveRoyals,
    Natural::ThreeStraightFlushes,
    Natural::ThreeQuads,
    Natural::AllHigh,
    Natural::AllLow,
    Natural::FullColored,
    Natural::TwelveSameColor,
    Natural::FourTriples,
    Natural::FivePairsTrips,
    Natural::SixPairs,
    Natural::ThreeStraights,
    Natural::ThreeFlushes,
    Natural::NoPictureCards,
];

impl Natural {
    pub fn name(self) -> &'static str {
        NATURAL_NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<Natural> {
        NATURAL_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| ALL[i])
    }
}

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
/// whatever the rules. The cards must be 13 valid, distinct ids (callers
/// check).
pub fn qualifying(cards: &[u8; 13]) -> u16 {
    let mut cm = 0u64;
    for &id in cards {
        debug_assert!(id < 52, "card id {id} out of range");
        cm |= 1u64 << (id & 63);
    }
    debug_assert_eq!(cm.count_ones(), 13, "cards must be distinct");
    let suits = [cm & LO, (cm >> 1) & LO, (cm >> 2) & LO, (cm >> 3) & LO];
    let cnt = suits[0] + suits[1] + suits[2] + suits[3];
    let any = suits[0] | suits[1] | suits[2] | suits[3];
    let ge2 = ((cnt >> 1) | (cnt >> 2)) & LO;
    let ge3 = ((cnt & (cnt >> 1)) | (cnt >> 2)) & LO;
    let quads = (cnt >> 2) & LO;
    let odd = cnt & LO;
    let n = suits.map(nibble_sum);
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
        | bit(FourTriples, nibble_sum(ge3) >= 4)
        // 13 cards have an odd number of odd counts: exactly one, and it is 3.
        | bit(FivePairsTrips, odd & odd.wrapping_sub(1) == 0 && odd & ge3 != 0)
        // cnt // 2 summed: one per rank with cnt >= 2, one more per quad.
        | bit(SixPairs, nibble_sum(ge2 + quads) >= 6)
        | bit(NoPictureCards, any & PICTURES == 0);
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
/// wrapping round (docs/rules.md, "The fifteen naturals").
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

/// A split that shows a row-shaped natural (`three-flushes`,
/// `three-straights`, `three-straight-flushes`): its three rows have the
/// natural's shape, laid out top 0-2, middle 3-7, bottom 8-12, each row by
/// ascending id. It is the first such split in split order (docs/rules.md,
/// "Split order") that does not foul under `rules`, or the first such
/// split when every one fouls (only `foul_check = "strict"` with two
/// five-card rows of equal ranks). `None` when the natural is not
/// row-shaped or the cards do not qualify for it. The cards must be 13
/// valid, distinct ids (callers check).
pub fn natural_split(rules: &Rules, cards: &[u8; 13], natural: Natural) -> Option<[u8; 13]> {
    let row_fits: fn(&[u8]) -> bool = match natural {
        Natural::ThreeFlushes => is_flush_row,
        Natural::ThreeStraights => is_straight_row,
        Natural::ThreeStraightFlushes => |row| is_flush_row(row) && is_straight_row(row),
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
    let e = &rules.evaluator;
    let mut first = None;
    for &[t, m, b] in &table.splits {
        if !(fits3[t as usize] && fits5[m as usize] && fits5[b as usize]) {
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

/// The strongest natural of `enabled` (strongest first) that the cards
/// qualify for, with its points.
pub fn strongest(cards: &[u8; 13], enabled: &[(Natural, i64)]) -> Option<(Natural, i64)> {
    if enabled.is_empty() {
        return None;
    }
    let q = qualifying(cards);
    enabled
        .iter()
        .copied()
        .find(|&(n, _)| (q >> (n as u32)) & 1 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{check_distinct, RANK_CHARS, SUIT_CHARS};
    use crate::deal::{shuffled_deck, ChaCha20};

    const TS: Natural = Natural::ThreeStraights;
    const TF: Natural = Natural::ThreeFlushes;
    const TSF: Natural = Natural::ThreeStraightFlushes;

    fn hand(text: &str) -> [u8; 13] {
        let ids: Vec<u8> = text
            .split_whitespace()
            .map(|t| {
                let b = t.as_bytes();
                let r = RANK_CHARS.iter().position(|&c| c == b[0]).unwrap();
                let s = SUIT_CHARS.iter().position(|&c| c == b[1]).unwrap();
                (4 * r + s) as u8
            })
            .collect();
        check_distinct(&ids).unwrap();
        ids.try_into().unwrap()
    }

    fn names(q: u16) -> Vec<&'static str> {
        ALL.iter()
            .filter(|&&n| (q >> (n as u32)) & 1 != 0)
            .map(|n| n.name())
            .collect()
    }

    fn has(q: u16, n: Natural) -> bool {
        (q >> (n as u32)) & 1 != 0
    }

    /// Asserts the exact set of naturals the hand qualifies for.
    fn check(text: &str, want: &[&str]) {
        let got = names(qualifying(&hand(text)));
        let mut want: Vec<&str> = want.to_vec();
        want.sort_by_key(|w| NATURAL_NAMES.iter().position(|n| n == w).expect(w));
        assert_eq!(got, want, "hand {text}");
    }

    #[test]
    fn clean_dragon_and_dragon() {
        let spades = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As";
        check(
            spades,
            &[
                "clean-dragon",
                "dragon",
                "three-straight-flushes",
                "full-colored",
                "twelve-same-color",
                "three-straights",
                "three-flushes",
            ],
        );
        // One card of another suit: a dragon, no longer clean, no flush split.
        check(
            "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah",
            &["dragon", "twelve-same-color", "three-straights"],
        );
        check(
            "2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad",
            &["dragon", "three-straights"],
        );
        // Twelve ranks and a pair: nothing.
        check("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Kd", &[]);
    }

    #[test]
    fn twelve_royals() {
        check(
            "Jd Jc Jh Js Qd Qc Qh Qs Kd Kc Kh Ks 2d",
            &["twelve-royals", "three-quads", "six-pairs"],
        );
        check("Ad Ac Ah As Kd Kc Kh Qd Qc Qh Jd Jc 2s", &["twelve-royals"]);
        // Eleven royals.
        check("Ad Ac Ah As Kd Kc Kh Qd Qc Qh Jd 2s 3s", &[]);
    }

    #[test]
    fn three_straight_flushes() {
        check(
            "Qh Kh Ah 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s",
            &["three-straight-flushes", "three-straights", "three-flushes"],
        );
        check(
            "Ah 2h 3h 4d 5d 6d 7d 8d 4s 5s 6s 7s 8s",
            &[
                "three-straight-flushes",
                "three-straights",
                "three-flushes",
                "no-picture-cards",
            ],
        );
        // Two suits: 5 + 8, 10 + 3.
        check(
            "4h 5h 6h 7h 8h 9h Th Jh 9s Ts Js Qs Ks",
            &["three-straight-flushes", "three-straights", "three-flushes"],
        );
        check(
            "2h 3h 4h 5h 6h 9h Th Jh Qh Kh 7s 8s 9s",
            &["three-straight-flushes", "three-straights", "three-flushes"],
        );
        // K-A-2 of one suit is not a three-card straight flush (nor a straight).
        check("Kh Ah 2h 3d 4d 5d 6d 7d 3s 4s 5s 6s 7s", &["three-flushes"]);
        // Suits split 3/5/5, one five-card row is not a straight.
        check("Qh Kh Ah 2d 3d 4d 5d 7d 2s 3s 4s 5s 6s", &["three-flushes"]);
        // Three straights and three flushes, but not from the same split.
        check(
            "Qh Kh Ad 2d 3d 4d 5d 6h 2s 3s 4s 5s 6s",
            &["three-straights", "three-flushes"],
        );
        // Ten of a suit that is not two five-card straight flushes.
        check("2h 3h 4h 5h 6h 8h 9h Th Jh Kh 7s 8s 9s", &["three-flushes"]);
    }

    #[test]
    fn quads_trips_and_pairs() {
        check(
            "2d 2c 2h 2s 3d 3c 3h 3s 4d 4c 4h 4s 5d",
            &["three-quads", "all-low", "six-pairs", "no-picture-cards"],
        );
        // Two quads, trips and a pair: trips plus five pairs, six pairs.
        check(
            "2d 2c 2h 2s 3d 3c 3h 3s 4d 4c 4h 5d 5c",
            &[
                "all-low",
                "five-pairs-trips",
                "six-pairs",
                "no-picture-cards",
            ],
        );
        check(
            "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 5h 6s",
            &["all-low", "four-triples", "no-picture-cards"],
        );
        // A quad counts as trips.
        check(
            "2d 2c 2h 2s 3d 3c 3h 4d 4c 4h 5d 5c 5h",
            &["all-low", "four-triples", "no-picture-cards"],
        );
        // Three trips: not four triples (but 2-4, 2-6, 2-6 are three straights).
        check(
            "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 6h 6s",
            &["all-low", "three-straights", "no-picture-cards"],
        );
        check(
            "2d 2c 2h 3d 3c 5h 5s 7d 7c 9h 9s Jd Jc",
            &["five-pairs-trips", "six-pairs"],
        );
        // A quad counts as two pairs.
        check(
            "2d 2c 2h 2s 3d 3c 3h 5h 5s 7d 7c 9h 9s",
            &["five-pairs-trips", "six-pairs", "no-picture-cards"],
        );
        // Two trips: neither trips plus five pairs nor six pairs.
        check("2d 2c 2h 3d 3c 3h 5h 5s 7d 7c 9h 9s Jd", &[]);
        check(
            "2d 2c 2h 4h 4s 4d 6c 6h 8s 8d Tc Th Ad",
            &["no-picture-cards"],
        );
        check("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Qs Ad", &["six-pairs"]);
        check(
            "2d 2c 2h 2s 4h 4s 6d 6c 8h 8s Td Tc Ah",
            &["six-pairs", "no-picture-cards"],
        );
        // A quad, four pairs and a single: six pairs but not trips + five pairs.
        check(
            "2d 2c 2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d",
            &["all-low", "six-pairs", "no-picture-cards"],
        );
        check("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Ks Ad", &[]);
    }

    #[test]
    fn high_low_and_pictures() {
        check("8d 8c 9h 9s Td Jc Qh Ks Ad Ac Ah Kd Qs", &["all-high"]);
        check("7d 8c 9h 9s Td Jc Qh Ks Ad Ac Ah Kd Qs", &[]);
        check(
            "2d 2c 2h 3s 4d 5c 6h 7s 8d 8c 3d 4c 5h",
            &["all-low", "no-picture-cards"],
        );
        check(
            "2d 2c 2h 3s 4d 5c 6h 7s 9d 8c 3d 4c 5h",
            &["no-picture-cards"],
        );
        // Aces are high: not all low.
        check(
            "2d 2c 2h 3s 4d 5c 6h 7s Ad 8c 3d 4c 5h",
            &["no-picture-cards"],
        );
        check(
            "Ad 2c 3h 4s 5d 6c 7h 8s 9d Tc Ah 2s 5s",
            &["no-picture-cards"],
        );
        check("Ad 2c 3h 4s 5d 6c 7h 8s 9d Jc Ah 2s 5s", &[]);
    }

    #[test]
    fn colours() {
        check(
            "2d 4d 6d 8d Td Qd Ad 2h 5h 7h 9h Jh Kh",
            &["full-colored", "twelve-same-color"],
        );
        check(
            "2d 4d 6d 8d Td Qd Ad 2s 5h 7h 9h Jh Kh",
            &["twelve-same-color"],
        );
        check("2d 4d 6d 8d Td Qd Ad 2s 5s 7h 9h Jh Kh", &[]);
        check(
            "2c 4c 6c 8c Tc Qc Ac 2s 5s 7s 9s Js Kd",
            &["twelve-same-color"],
        );
    }

    #[test]
    fn three_straights() {
        check(
            "Ad 2c 3h 4s 5d 6c 7h 8s 4d 5c 6h 7s 8c",
            &["three-straights", "no-picture-cards"],
        );
        check(
            "Qd Kc Ah 2s 3d 4c 5h 6s 2d 3c 4h 5s 6c",
            &["three-straights"],
        );
        // Ace high in a five-card row and low in another.
        check(
            "Td Jc Qh Ks Ad 2c 3h 4s 5d Ac 2h 3s 4d",
            &["three-straights"],
        );
        // K-A-2 is not a three-card straight.
        check("Kd Ac 2h 3d 4c 5h 6s 7d 3c 4h 5s 6d 7c", &[]);
    }

    #[test]
    fn three_flushes() {
        check("2h 7h 9h 2d 4d 6d 8d Td 3c 5c 9c Jc Kc", &["three-flushes"]);
        check(
            "2h 7h 9h 2d 4d 6d 8d Td 3d 5d 9d Jd Kd",
            &["three-flushes", "full-colored", "twelve-same-color"],
        );
        // 4 + 4 + 5.
        check("2h 7h 9h Jh 4d 6d 8d Td 3c 5c 9c Jc Kc", &[]);
    }

    #[test]
    fn strongest_follows_the_enabled_order() {
        let spades = hand("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
        let n = Natural::from_name;
        assert_eq!(strongest(&spades, &[]), None);
        let enabled = [(n("dragon").unwrap(), 13), (n("three-flushes").unwrap(), 3)];
        assert_eq!(strongest(&spades, &enabled), Some((Natural::Dragon, 13)));
        let reversed = [enabled[1], enabled[0]];
        assert_eq!(
            strongest(&spades, &reversed),
            Some((Natural::ThreeFlushes, 3))
        );
        let nothing = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Kd");
        let everything: Vec<(Natural, i64)> = ALL.iter().map(|&n| (n, 1)).collect();
        assert_eq!(strongest(&nothing, &everything), None);
        assert_eq!(
            strongest(
                &spades,
                &[(Natural::SixPairs, 4), (Natural::ThreeStraights, 4)]
            ),
            Some((Natural::ThreeStraights, 4))
        );
    }

    // ----- brute force -------------------------------------------------

    fn is_straight(ranks: &mut [u8]) -> bool {
        ranks.sort_unstable();
        let n = ranks.len();
        let distinct = ranks.windows(2).all(|w| w[0] != w[1]);
        if !distinct {
            return false;
        }
        if ranks[n - 1] - ranks[0] == n as u8 - 1 {
            return true;
        }
        // Ace low: A-2-3 or A-2-3-4-5.
        ranks[n - 1] == 12 && ranks[n - 2] == n as u8 - 2 && ranks[0] == 0
    }

    /// (straight, flush) of the cards of `h` at the positions in `mask`.
    fn row(h: &[u8; 13], mask: u16) -> (bool, bool) {
        let cards: Vec<u8> = (0..13)
            .filter(|i| mask >> i & 1 != 0)
            .map(|i| h[i])
            .collect();
        let mut ranks: Vec<u8> = cards.iter().map(|c| c >> 2).collect();
        let flush = cards.iter().all(|c| c & 3 == cards[0] & 3);
        (is_straight(&mut ranks), flush)
    }

    /// (three-straights, three-flushes, three-straight-flushes) by trying every
    /// 3/5/5 partition.
    fn naive(h: &[u8; 13]) -> (bool, bool, bool) {
        let mut flags = [0u8; 1 << 13];
        for m in 0u16..1 << 13 {
            let k = m.count_ones();
            if k == 3 || k == 5 {
                let (s, f) = row(h, m);
                flags[m as usize] = s as u8 | (f as u8) << 1 | ((s && f) as u8) << 2;
            }
        }
        let mut any = 0u8;
        for a in 0..13 {
            for b in a + 1..13 {
                for c in b + 1..13 {
                    let top = 1u16 << a | 1 << b | 1 << c;
                    let rest: Vec<usize> = (0..13).filter(|i| top >> i & 1 == 0).collect();
                    // the middle row holds rest[0]; the bottom row is the rest.
                    for i in 1..10 {
                        for j in i + 1..10 {
                            for k in j + 1..10 {
                                for l in k + 1..10 {
                                    let mid = 1u16 << rest[0]
                                        | 1 << rest[i]
                                        | 1 << rest[j]
                                        | 1 << rest[k]
                                        | 1 << rest[l];
                                    let bot = 0x1FFF ^ top ^ mid;
                                    any |= flags[top as usize]
                                        & flags[mid as usize]
                                        & flags[bot as usize];
                                }
                            }
                        }
                    }
                    if any == 7 {
                        return (true, true, true);
                    }
                }
            }
        }
        (any & 1 != 0, any & 2 != 0, any & 4 != 0)
    }

    fn fast3(h: &[u8; 13]) -> (bool, bool, bool) {
        let q = qualifying(h);
        (has(q, TS), has(q, TF), has(q, TSF))
    }

    fn draw(rng: &mut ChaCha20, pool: &[u8]) -> [u8; 13] {
        let mut p = pool.to_vec();
        for i in 0..13 {
            let j = i + rng.below((p.len() - i) as u32) as usize;
            p.swap(i, j);
        }
        p[..13].try_into().unwrap()
    }

    /// Cards of three random runs (3, 5, 5; positions 0..=13, ace at both
    /// ends), each in one suit when `suited`; retried until distinct, then
    /// with one card swapped for a random other card half of the time.
    fn built(rng: &mut ChaCha20, suited: bool) -> [u8; 13] {
        loop {
            let mut cards = Vec::with_capacity(13);
            for len in [3u32, 5, 5] {
                let start = rng.below(15 - len);
                let suit = rng.below(4) as u8;
                for p in start..start + len {
                    let rank = if p == 0 { 12 } else { p as u8 - 1 };
                    let s = if suited { suit } else { rng.below(4) as u8 };
                    cards.push(4 * rank + s);
                }
            }
            if check_distinct(&cards).is_err() {
                continue;
            }
            let mut h: [u8; 13] = cards.try_into().unwrap();
            if rng.below(2) == 0 {
                loop {
                    let c = rng.below(52) as u8;
                    if !h.contains(&c) {
                        h[rng.below(13) as usize] = c;
                        break;
                    }
                }
            }
            return h;
        }
    }

    fn cross_check(label: &str, hands: impl Iterator<Item = [u8; 13]>) -> [usize; 3] {
        let mut seen = [0usize; 3];
        for h in hands {
            let want = naive(&h);
            let got = fast3(&h);
            assert_eq!(
                got,
                want,
                "{label}: {:?} (straights, flushes, straight flushes)",
                h.iter()
                    .map(|&c| crate::cards::card_text(c))
                    .collect::<Vec<_>>()
            );
            seen[0] += want.0 as usize;
            seen[1] += want.1 as usize;
            seen[2] += want.2 as usize;
        }
        seen
    }

    /// Fewer brute-force hands in debug builds, the full count in release.
    fn scaled(n: usize) -> usize {
        if cfg!(debug_assertions) {
            n / 20
        } else {
            n
        }
    }

    #[test]
    fn partitions_match_brute_force_on_random_hands() {
        let mut rng = ChaCha20::from_seed(11);
        let n = scaled(3000);
        let hands = (0..n).map(|_| {
            let d = shuffled_deck(&mut rng);
            d[..13].try_into().unwrap()
        });
        cross_check("random", hands);
    }

    #[test]
    fn partitions_match_brute_force_on_biased_hands() {
        let mut rng = ChaCha20::from_seed(12);
        let n = scaled(2000);
        // Few ranks: seven consecutive positions (ace at both ends), all suits.
        let few_ranks: Vec<[u8; 13]> = (0..n)
            .map(|_| {
                let start = rng.below(8);
                let pool: Vec<u8> = (start..start + 7)
                    .flat_map(|p| {
                        let rank = if p == 0 { 12 } else { p as u8 - 1 };
                        (0..4).map(move |s| 4 * rank + s)
                    })
                    .collect();
                draw(&mut rng, &pool)
            })
            .collect();
        let seen = cross_check("few ranks", few_ranks.into_iter());
        assert!(seen[0] > n / 50, "few ranks: {seen:?}");
        // Few suits: two or three suits.
        let few_suits: Vec<[u8; 13]> = (0..n)
            .map(|i| {
                let skip = [rng.below(4) as u8, rng.below(4) as u8];
                let nsuits_two = i % 2 == 0;
                let pool: Vec<u8> = (0..52u8)
                    .filter(|c| c & 3 != skip[0] && (!nsuits_two || c & 3 != skip[1]))
                    .collect();
                let pool = if pool.len() < 26 {
                    (0..52u8).filter(|c| c & 3 != skip[0]).collect()
                } else {
                    pool
                };
                draw(&mut rng, &pool)
            })
            .collect();
        let seen = cross_check("few suits", few_suits.into_iter());
        assert!(seen[1] > n / 50, "few suits: {seen:?}");
        // Built from runs, some perturbed.
        let runs: Vec<[u8; 13]> = (0..n).map(|_| built(&mut rng, false)).collect();
        let seen = cross_check("runs", runs.into_iter());
        assert!(seen[0] > n / 3, "runs: {seen:?}");
        let suited: Vec<[u8; 13]> = (0..n).map(|_| built(&mut rng, true)).collect();
        let seen = cross_check("suited runs", suited.into_iter());
        assert!(seen[2] > n / 3, "suited runs: {seen:?}");
        // Few ranks and few suits at once: straight flushes of two suits.
        let both: Vec<[u8; 13]> = (0..n)
            .map(|_| {
                let s = [rng.below(4) as u8, rng.below(4) as u8];
                let start = rng.below(5);
                let pool: Vec<u8> = (start..start + 10)
                    .flat_map(|p| {
                        let rank = if p == 0 { 12 } else { p as u8 - 1 };
                        s.into_iter().map(move |x| 4 * rank + x)
                    })
                    .collect::<std::collections::BTreeSet<u8>>()
                    .into_iter()
                    .collect();
                if pool.len() < 13 {
                    let d = shuffled_deck(&mut rng);
                    d[..13].try_into().unwrap()
                } else {
                    draw(&mut rng, &pool)
                }
            })
            .collect();
        cross_check("two suits, ten ranks", both.into_iter());
    }

    // ----- exact counts --------------------------------------------------
    //
    // Exact numbers of 13-card hands (out of C(52,13) = 635,013,559,600),
    // computed independently (rank-count shapes, suit-count vectors, and the
    // distinct card sets of every run triple).

    const TOTAL: u64 = 635_013_559_600;

    #[test]
    fn exact_counts_of_rank_naturals() {
        // Every rank-count vector (0..=4 each, summing to 13), weighted by
        // the number of suit choices, with suits 0..c-1 used for each rank.
        let binom4 = [1u64, 4, 6, 4, 1];
        let rank_naturals = [
            (Natural::Dragon, 67_108_864u64),
            (Natural::TwelveRoyals, 66_080),
            (Natural::ThreeQuads, 11_440),
            (Natural::AllHigh, 37_442_160),
            (Natural::AllLow, 37_442_160),
            (Natural::FourTriples, 6_772_480),
            (Natural::FivePairsTrips, 342_692_064),
            (Natural::SixPairs, 2_856_863_152),
            (Natural::ThreeStraights, 2_029_579_776),
            (Natural::NoPictureCards, 12_033_222_880),
        ];
        let mut totals = [0u64; 15];
        let mut all = 0u64;
        let mut counts = [0u8; 13];
        fn rec(r: usize, left: u8, counts: &mut [u8; 13], f: &mut dyn FnMut(&[u8; 13])) {
            if r == 13 {
                if left == 0 {
                    f(counts);
                }
                return;
            }
            for c in 0..=left.min(4) {
                counts[r] = c;
                rec(r + 1, left - c, counts, f);
            }
            counts[r] = 0;
        }
        rec(0, 13, &mut counts, &mut |counts| {
            let mut h = [0u8; 13];
            let mut k = 0;
            let mut w = 1u64;
            for (r, &c) in counts.iter().enumerate() {
                w *= binom4[c as usize];
                for s in 0..c {
                    h[k] = 4 * r as u8 + s;
                    k += 1;
                }
            }
            all += w;
            let q = qualifying(&h);
            for n in ALL {
                if has(q, n) {
                    totals[n as usize] += w;
                }
            }
        });
        assert_eq!(all, TOTAL);
        for (n, want) in rank_naturals {
            assert_eq!(totals[n as usize], want, "{}", n.name());
        }
    }

    #[test]
    fn exact_counts_of_suit_naturals() {
        // Every suit-count vector, weighted by the rank choices.
        let binom13 = |k: u32| -> u64 { (0..k as u64).fold(1, |a, i| a * (13 - i) / (i + 1)) };
        let mut totals = [0u64; 15];
        for nd in 0..=13u32 {
            for nc in 0..=13 - nd {
                for nh in 0..=13 - nd - nc {
                    let ns = 13 - nd - nc - nh;
                    let n = [nd, nc, nh, ns];
                    let w: u64 = n.iter().map(|&k| binom13(k)).product();
                    // ranks 0..k-1 of each suit, spread so no run forms: any
                    // ranks will do for the suit-only naturals checked here.
                    let mut h = [0u8; 13];
                    let mut i = 0;
                    for (s, &k) in n.iter().enumerate() {
                        for r in 0..k {
                            h[i] = (4 * r + s as u32) as u8;
                            i += 1;
                        }
                    }
                    let q = qualifying(&h);
                    for nat in [
                        Natural::CleanDragon,
                        Natural::FullColored,
                        Natural::TwelveSameColor,
                        Natural::ThreeFlushes,
                    ] {
                        if has(q, nat) {
                            totals[nat as usize] += w;
                        }
                    }
                }
            }
        }
        assert_eq!(totals[Natural::ThreeFlushes as usize], 5_705_516_392);
        assert_eq!(totals[Natural::FullColored as usize], 20_801_200);
        assert_eq!(totals[Natural::TwelveSameColor as usize], 523_001_600);
        assert_eq!(totals[Natural::CleanDragon as usize], 4);
    }

    #[test]
    fn exact_count_of_three_straight_flushes() {
        // g[n]: one-suit rank sets of n cards splitting into the forced runs.
        let mut g = [0u64; 14];
        for m in 0u64..1 << 13 {
            let n = m.count_ones();
            // spread the 13 bits into rank nibbles
            let s = (0..13).fold(0u64, |a, r| a | (m >> r & 1) << (4 * r));
            if [3, 5, 8, 10, 13].contains(&n) && suit_splits(s, n) {
                g[n as usize] += 1;
            }
        }
        assert_eq!((g[3], g[5], g[13]), (12, 10, 1));
        // suit patterns {13}, {8,5}, {10,3}, {5,5,3} over the four suits
        let total = 4 * g[13] + 12 * g[5] * g[8] + 12 * g[3] * g[10] + 12 * g[3] * g[5] * g[5];
        assert_eq!(total, 22_060);
    }

    #[test]
    fn frequencies_over_random_deals() {
        // Expected counts per 200,000 random hands from the exact numbers.
        let exact: [(Natural, u64); 15] = [
            (Natural::CleanDragon, 4),
            (Natural::Dragon, 67_108_864),
            (Natural::TwelveRoyals, 66_080),
            (Natural::ThreeStraightFlushes, 22_060),
            (Natural::ThreeQuads, 11_440),
            (Natural::AllHigh, 37_442_160),
            (Natural::AllLow, 37_442_160),
            (Natural::FullColored, 20_801_200),
            (Natural::TwelveSameColor, 523_001_600),
            (Natural::FourTriples, 6_772_480),
            (Natural::FivePairsTrips, 342_692_064),
            (Natural::SixPairs, 2_856_863_152),
            (Natural::ThreeStraights, 2_029_579_776),
            (Natural::ThreeFlushes, 5_705_516_392),
            (Natural::NoPictureCards, 12_033_222_880),
        ];
        let hands = if cfg!(debug_assertions) {
            20_000
        } else {
            200_000
        };
        let mut rng = ChaCha20::from_seed(2024);
        let mut seen = [0u64; 15];
        for _ in 0..hands / 4 {
            let d = shuffled_deck(&mut rng);
            for seat in 0..4 {
                let h: [u8; 13] = d[13 * seat..13 * seat + 13].try_into().unwrap();
                let q = qualifying(&h);
                for n in ALL {
                    seen[n as usize] += has(q, n) as u64;
                }
            }
        }
        for (n, count) in exact {
            let expect = hands as f64 * count as f64 / TOTAL as f64;
            let got = seen[n as usize] as f64;
            // about five standard deviations, plus slack for rare naturals
            let tol = 5.0 * expect.sqrt() + 4.0;
            assert!(
                (got - expect).abs() <= tol,
                "{}: {got} in {hands} hands, expected {expect:.1}",
                n.name()
            );
        }
        // six pairs: about 1 in 222
        let six = seen[Natural::SixPairs as usize] as f64 / hands as f64;
        assert!(
            (1.0 / six - 222.0).abs() < 30.0,
            "six pairs 1 in {}",
            1.0 / six
        );
    }
}
