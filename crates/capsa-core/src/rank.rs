//! Hand ranking: every three- or five-card hand maps to one `u32` strength per
//! [`Ranking`], so that comparing strengths is comparing hands, across hand
//! sizes too (the middle-vs-top foul check).
//!
//! Layout of a strength: bits 28..31 the category on the shared scale, bits
//! 10..27 the rank key, bits 0..9 the suit key (zero without the suit
//! tie-break). Rank keys use bit masks of distinct ranks where kickers are
//! compared high to low: for two sets of ranks, comparing the masks as
//! integers is comparing the sorted rank lists, and when one list is a prefix
//! of the other the longer one (more kickers) is the larger mask, which is
//! exactly the three-against-five-card rule.
//!
//! Memory: each wheel mode's tables are built once, when the first
//! evaluator of that mode is made, in one allocation of about 2.1 MB (the
//! five-card rank table 2 MB, of which the hands touch 1.4 MB; the flush
//! table 32 KB; the suit key table 32 KB; the three-card table 16 KB).
//! Each suit order's card bits (48 KB for all 24) are built at compile time.

use std::sync::OnceLock;

use crate::cards::{check_hand, rank_index, suit};
use crate::error::{Error, Result};

pub const CATEGORY_NAMES: [&str; 11] = [
    "high-card",
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "royal-flush",
    "five-of-a-kind",
];

/// The categories a 52-card deck makes (all but five of a kind): the ones
/// a royalty row may name.
pub const DECK52_CATEGORIES: &[&str] = CATEGORY_NAMES.split_at(10).0;

pub const HIGH_CARD: u8 = 0;
pub const PAIR: u8 = 1;
pub const TWO_PAIR: u8 = 2;
pub const TRIPS: u8 = 3;
pub const STRAIGHT: u8 = 4;
pub const FLUSH: u8 = 5;
pub const FULL_HOUSE: u8 = 6;
pub const QUADS: u8 = 7;
pub const STRAIGHT_FLUSH: u8 = 8;
pub const ROYAL_FLUSH: u8 = 9;
pub const FIVE_OF_A_KIND: u8 = 10;

pub(crate) const CATEGORY_SHIFT: u32 = 28;
pub(crate) const RANK_SHIFT: u32 = 10;
/// Where a flush's kind sits in its rank key (strength bits 25-26: 0 no
/// repeated face, 1 a pair, 2 two pairs, 3 trips; see [`wide`]), above the
/// flush suit of `flush_compare = "suit-first"`.
pub(crate) const FLUSH_PAIRS_SHIFT: u32 = 15;
pub(crate) const FLUSH_SUIT_SHIFT: u32 = RANK_SHIFT + 13;

/// Category index (0..=10) of a strength.
#[inline(always)]
pub const fn category_of(strength: u32) -> u8 {
    (strength >> CATEGORY_SHIFT) as u8
}

/// The key rank of a hand of strength `strength`: the rank index (0: the
/// deuce .. 12: the ace) of its first card in significance order. The
/// quads', trips' (trips, full house) or pair's rank (the higher pair of two
/// pair), a straight's top card (the 5 of A-2-3-4-5 when the wheel is low,
/// the ace under `wheel_second`), a flush's or high card's highest card.
#[inline(always)]
pub const fn key_rank(strength: u32, wheel_second: bool) -> u8 {
    let key = strength >> RANK_SHIFT;
    match category_of(strength) {
        FLUSH => match key >> FLUSH_PAIRS_SHIFT & 3 {
            1 | 3 => (key >> 9 & 0xF) as u8,
            2 => (key >> 8 & 0xF) as u8,
            _ => (31 - (key & 0x1FFF).leading_zeros()) as u8,
        },
        HIGH_CARD => (31 - (key & 0x1FFF).leading_zeros()) as u8,
        PAIR | TRIPS => (key >> 13 & 0xF) as u8,
        TWO_PAIR => (key >> 8 & 0xF) as u8,
        FULL_HOUSE | QUADS | FIVE_OF_A_KIND => (key >> 4 & 0xF) as u8,
        STRAIGHT | STRAIGHT_FLUSH => {
            // a straight's position (see `straight_position`)
            let pos = (key & 0xF) as u8;
            if !wheel_second {
                pos + 3
            } else if pos >= 8 {
                12
            } else {
                pos + 4
            }
        }
        _ => 12,
    }
}

pub fn category_index(name: &str) -> Option<u8> {
    CATEGORY_NAMES
        .iter()
        .position(|n| *n == name)
        .map(|i| i as u8)
}

/// Additive rank weights: the sums over any five ranks (at most four of one)
/// are pairwise distinct, so a sum indexes a table of five-card rank patterns
/// without sorting. Found by greedy search; `weights_are_unique` re-checks.
const W: [u32; 13] = [
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
];
const RANK5_LEN: usize = (4 * 79415 + 43258 + 1) as usize;

/// Bits of the largest weight sum (360,918 < 2^19).
const WEIGHT_BITS: u32 = 19;
/// Where the weight sum starts in a [`CARD_KEY`] sum: above four 6-bit
/// suit fields.
const WEIGHT_SHIFT: u32 = 24;
/// Each card adds 7 to its suit's field: four cards make 28, below bit 5,
/// and five make 35, which sets it. So a hand is a flush exactly when its
/// key has one of these bits.
const FLUSH_BITS: u64 = 0b100000_100000_100000_100000;

/// Per card id: its rank weight above seven in its suit's field. 256
/// entries (zero past 51) so that indexing by a `u8` needs no bounds check.
const CARD_KEY: [u64; 256] = {
    let mut keys = [0u64; 256];
    let mut id = 0;
    while id < 52 {
        keys[id] = (W[id >> 2] as u64) << WEIGHT_SHIFT | 7 << (6 * (id & 3));
        id += 1;
    }
    keys
};

/// The ranking knobs of the rules (suit order, tie-break, flush compare, wheel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ranking {
    /// Strength of each suit id (d, c, h, s): 0 weakest, 3 strongest.
    pub suit_strength: [u8; 4],
    pub tie_break_suit: bool,
    pub flush_suit_first: bool,
    pub wheel_second: bool,
}

impl Default for Ranking {
    fn default() -> Self {
        Ranking {
            suit_strength: [0, 1, 2, 3],
            tie_break_suit: true,
            flush_suit_first: false,
            wheel_second: false,
        }
    }
}

/// Parses a suit order such as `"shcd"` (strongest first) into suit strengths.
pub fn parse_suit_order(order: &str) -> Result<[u8; 4]> {
    let bytes = order.as_bytes();
    let bad = || {
        Error::rules(format!(
            "suit_order must name the four suits d, c, h, s once each, strongest first (got {order:?})"
        ))
    };
    if bytes.len() != 4 {
        return Err(bad());
    }
    let mut strength = [u8::MAX; 4];
    for (pos, b) in bytes.iter().enumerate() {
        let s = match b.to_ascii_lowercase() {
            b'd' => 0,
            b'c' => 1,
            b'h' => 2,
            b's' => 3,
            _ => return Err(bad()),
        };
        if strength[s] != u8::MAX {
            return Err(bad());
        }
        strength[s] = 3 - pos as u8;
    }
    Ok(strength)
}

#[derive(Clone, Copy)]
struct Class {
    /// Category and rank key, already shifted into place.
    base: u32,
    /// Where significance order takes each card from descending card order
    /// (see [`suits`]): slot k of the suit key holds card `order[k]`.
    order: [u8; 5],
}

/// Sizes of the tables a hand's key indexes, powers of two so that a mask,
/// not a bounds check, keeps every read in range.
const RANK5_SIZE: usize = 1 << WEIGHT_BITS;
const FLUSH5_SIZE: usize = 1 << 13;
const RANK3_SIZE: usize = 1 << 12;
const _: () = assert!(13 * 13 * 13 <= RANK3_SIZE);
const _: () = assert!(RANK5_LEN <= RANK5_SIZE);

/// Every table of one wheel mode, in one allocation, so that all of a
/// hand's reads go through one pointer. Each table holds, per hand key, its
/// class's entry: the base strength (category and rank key) with the class's
/// [`suits::SuitOrders`] row in the suit key's bits, so that one read gives
/// a hand all it needs but its suits.
struct Tables {
    rank5: [u32; RANK5_SIZE],
    flush5: [u32; FLUSH5_SIZE],
    rank3: [u32; RANK3_SIZE],
    suit_orders: suits::SuitOrders,
}

impl Tables {
    /// All tables zeroed, made on the heap (2 MB would not fit a stack).
    fn zeroed() -> Box<Tables> {
        let layout = std::alloc::Layout::new::<Tables>();
        // SAFETY: the layout is not zero-sized; the memory is checked for
        // null, zeroed (every field is an array of integers, for which all
        // zero bytes are a value) and allocated by the global allocator
        // with `Tables`' own layout, as `Box` requires.
        unsafe {
            let memory = std::alloc::alloc_zeroed(layout).cast::<Tables>();
            if memory.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(memory)
        }
    }
}

fn straight_position(distinct_desc: &[u8], wheel_second: bool) -> Option<(u32, [u8; 5])> {
    if distinct_desc.len() != 5 {
        return None;
    }
    let top = distinct_desc[0];
    if distinct_desc.windows(2).all(|w| w[0] == w[1] + 1) {
        // top rank index 4 (six-high) .. 12 (ace-high)
        let pos = if wheel_second {
            if top == 12 {
                9
            } else {
                top as u32 - 4
            }
        } else {
            top as u32 - 3
        };
        let mut order = [0u8; 5];
        order.copy_from_slice(distinct_desc);
        return Some((pos, order));
    }
    if distinct_desc == [12, 3, 2, 1, 0] {
        return if wheel_second {
            Some((8, [12, 3, 2, 1, 0]))
        } else {
            Some((0, [3, 2, 1, 0, 12]))
        };
    }
    None
}

fn mask_of(ranks: &[u8]) -> u32 {
    ranks.iter().fold(0, |m, &r| m | (1 << r))
}

/// Classifies a multiset of ranks (3 or 5 of them); `flush` only for five
/// distinct ranks.
fn classify(ranks: &[u8], flush: bool, wheel_second: bool) -> Class {
    let mut counts = [0u8; 13];
    for &r in ranks {
        counts[r as usize] += 1;
    }
    // groups: (size, rank) by size desc then rank desc
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .rev()
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let sizes: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let distinct: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let mut order: Vec<u8> = distinct.clone();
    let (category, key): (u8, u32) = match sizes.as_slice() {
        [1, 1, 1, 1, 1] => {
            let straight = straight_position(&distinct, wheel_second);
            if let Some((_, o)) = straight {
                order = o.to_vec();
            }
            match (straight, flush) {
                (Some((9, _)), true) => (ROYAL_FLUSH, 0),
                (Some((pos, _)), true) => (STRAIGHT_FLUSH, pos),
                (Some((pos, _)), false) => (STRAIGHT, pos),
                (None, true) => (FLUSH, mask_of(&distinct)),
                (None, false) => (HIGH_CARD, mask_of(&distinct)),
            }
        }
        [1, 1, 1] => (HIGH_CARD, mask_of(&distinct)),
        [2, 1, 1, 1] | [2, 1] => (PAIR, (distinct[0] as u32) << 13 | mask_of(&distinct[1..])),
        [2, 2, 1] => (
            TWO_PAIR,
            (distinct[0] as u32) << 8 | (distinct[1] as u32) << 4 | distinct[2] as u32,
        ),
        [3, 1, 1] | [3] => (TRIPS, (distinct[0] as u32) << 13 | mask_of(&distinct[1..])),
        [3, 2] => (FULL_HOUSE, (distinct[0] as u32) << 4 | distinct[1] as u32),
        [4, 1] => (QUADS, (distinct[0] as u32) << 4 | distinct[1] as u32),
        other => unreachable!("rank pattern {other:?} cannot occur"),
    };
    Class {
        base: (category as u32) << CATEGORY_SHIFT | key << RANK_SHIFT,
        order: suits::significance_order(ranks, &counts, &order),
    }
}

fn build_tables(wheel_second: bool) -> Box<Tables> {
    let mut t = Tables::zeroed();
    let mut moves = suits::Moves::default();
    let Tables {
        rank5,
        flush5,
        rank3,
        suit_orders,
    } = &mut *t;
    let mut push = |c: Class| c.base | moves.row(c.order);
    for a in 0..13u8 {
        for b in a..13 {
            for c in b..13 {
                for d in c..13 {
                    for e in d..13 {
                        let ranks = [a, b, c, d, e];
                        if a == e {
                            continue; // five of one rank
                        }
                        let idx = ranks.iter().map(|&r| W[r as usize]).sum::<u32>() as usize;
                        rank5[idx] = push(classify(&ranks, false, wheel_second));
                        if a < b && b < c && c < d && d < e {
                            flush5[mask_of(&ranks) as usize] =
                                push(classify(&ranks, true, wheel_second));
                        }
                    }
                }
            }
        }
    }
    for a in 0..13u8 {
        for b in 0..13u8 {
            for c in 0..13u8 {
                let mut ranks = [a, b, c];
                ranks.sort_unstable();
                let idx = (a as usize * 13 + b as usize) * 13 + c as usize;
                if a <= b && b <= c {
                    rank3[idx] = push(classify(&ranks, false, wheel_second));
                }
            }
        }
    }
    for a in 0..13usize {
        for b in 0..13usize {
            for c in 0..13usize {
                let mut s = [a, b, c];
                s.sort_unstable();
                rank3[(a * 13 + b) * 13 + c] = rank3[(s[0] * 13 + s[1]) * 13 + s[2]];
            }
        }
    }
    suit_orders.fill(&moves);
    t
}

fn tables(wheel_second: bool) -> &'static Tables {
    static LOW: OnceLock<Box<Tables>> = OnceLock::new();
    static SECOND: OnceLock<Box<Tables>> = OnceLock::new();
    if wheel_second {
        SECOND.get_or_init(|| build_tables(true))
    } else {
        LOW.get_or_init(|| build_tables(false))
    }
}

/// What ranks hands: the 52-card evaluator, or the evaluator of a deck
/// with copies and jokers. Code that ranks many hands is generic over it,
/// so each deck's loop is compiled on its own.
pub trait Rank: Sync {
    /// Strength of three cards (valid and distinct for the deck).
    fn eval3(&self, c: [u8; 3]) -> u32;
    /// Strength of five cards (valid and distinct for the deck).
    fn eval5(&self, c: [u8; 5]) -> u32;

    /// Strength of three or five cards.
    #[inline(always)]
    fn eval_unchecked(&self, cards: &[u8]) -> u32 {
        if cards.len() == 5 {
            self.eval5([cards[0], cards[1], cards[2], cards[3], cards[4]])
        } else {
            self.eval3([cards[0], cards[1], cards[2]])
        }
    }
}

impl Rank for Evaluator {
    #[inline(always)]
    fn eval3(&self, c: [u8; 3]) -> u32 {
        Evaluator::eval3(self, c)
    }
    #[inline(always)]
    fn eval5(&self, c: [u8; 5]) -> u32 {
        Evaluator::eval5(self, c)
    }
}

/// A [`Ranking`] with its tables resolved: the evaluator.
#[derive(Clone, Copy)]
pub struct Evaluator {
    pub ranking: Ranking,
    tables: &'static Tables,
    /// Each card's bit in a hand's descending card order under this suit
    /// order (see [`suits::card_bits`]).
    card_bits: &'static [u64; 256],
    /// Whether this processor reads the suits with BMI2's `pext`.
    bmi2: bool,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("ranking", &self.ranking)
            .finish()
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(Ranking::default())
    }
}

impl Evaluator {
    pub fn new(ranking: Ranking) -> Self {
        Evaluator {
            ranking,
            tables: tables(ranking.wheel_second),
            card_bits: suits::card_bits(ranking.suit_strength),
            bmi2: suits::has_bmi2(),
        }
    }

    /// The suit key of the hand `c` of table entry `entry`.
    #[inline(always)]
    fn suit_key<const N: usize>(&self, entry: u32, c: [u8; N]) -> u32 {
        let hand = c
            .iter()
            .fold(0, |bits, &x| bits | self.card_bits[x as usize]);
        let planes = if self.bmi2 {
            suits::suit_planes_bmi2(hand, N as u32)
        } else {
            suits::suit_planes(hand, N as u32)
        };
        self.tables.suit_orders.key(entry, planes)
    }

    /// Strength of five cards. The ids must be valid and distinct.
    #[inline(always)]
    pub fn eval5(&self, c: [u8; 5]) -> u32 {
        let t = self.tables;
        // one table read per card gives the rank-pattern index and, below
        // it, a field per suit that tells a flush
        let key = CARD_KEY[c[0] as usize]
            + CARD_KEY[c[1] as usize]
            + CARD_KEY[c[2] as usize]
            + CARD_KEY[c[3] as usize]
            + CARD_KEY[c[4] as usize];
        let (entry, flush_suit) = if key & FLUSH_BITS != 0 {
            let mask = c.iter().fold(0u32, |m, &x| m | 1 << rank_index(x));
            let entry = t.flush5[mask as usize & (FLUSH5_SIZE - 1)];
            (entry, self.flush_suit(entry, c[0]))
        } else {
            (
                t.rank5[(key >> WEIGHT_SHIFT) as usize & (RANK5_SIZE - 1)],
                0,
            )
        };
        let s = suits::base(entry) + flush_suit;
        if self.ranking.tie_break_suit {
            s | self.suit_key(entry, c)
        } else {
            s
        }
    }

    /// What `flush_suit_first` adds to a flush of table entry `entry` whose
    /// cards are of `card`'s suit: the suit's strength above the rank key.
    #[inline(always)]
    fn flush_suit(&self, entry: u32, card: u8) -> u32 {
        if self.ranking.flush_suit_first && category_of(entry) == FLUSH {
            (self.ranking.suit_strength[suit(card) as usize] as u32) << FLUSH_SUIT_SHIFT
        } else {
            0
        }
    }

    /// Strength of three cards. The ids must be valid and distinct.
    #[inline(always)]
    pub fn eval3(&self, c: [u8; 3]) -> u32 {
        let idx = (rank_index(c[0]) as usize * 13 + rank_index(c[1]) as usize) * 13
            + rank_index(c[2]) as usize;
        let t = self.tables;
        let entry = t.rank3[idx & (RANK3_SIZE - 1)];
        if self.ranking.tie_break_suit {
            suits::base(entry) | self.suit_key(entry, c)
        } else {
            suits::base(entry)
        }
    }

    /// Category and rank key of five cards that make no flush, without
    /// the suit key; the cards may repeat a face (at most four of a rank).
    #[inline(always)]
    pub(crate) fn rank_part5(&self, c: [u8; 5]) -> u32 {
        let key: u64 = c.iter().map(|&x| CARD_KEY[x as usize]).sum();
        suits::base(self.tables.rank5[(key >> WEIGHT_SHIFT) as usize & (RANK5_SIZE - 1)])
    }

    /// Category and rank key of three cards, without the suit key.
    #[inline(always)]
    pub(crate) fn rank_part3(&self, c: [u8; 3]) -> u32 {
        let idx = (rank_index(c[0]) as usize * 13 + rank_index(c[1]) as usize) * 13
            + rank_index(c[2]) as usize;
        suits::base(self.tables.rank3[idx & (RANK3_SIZE - 1)])
    }

    /// Strength of a checked three- or five-card hand.
    pub fn evaluate(&self, cards: &[u8]) -> Result<u32> {
        check_hand(cards, &[3, 5], "a hand")?;
        Ok(self.eval_unchecked(cards))
    }

    /// Strength of three or five valid, distinct cards.
    #[inline(always)]
    pub fn eval_unchecked(&self, cards: &[u8]) -> u32 {
        if cards.len() == 5 {
            self.eval5([cards[0], cards[1], cards[2], cards[3], cards[4]])
        } else {
            self.eval3([cards[0], cards[1], cards[2]])
        }
    }
}

mod suits;
#[cfg(test)]
mod tests;
pub mod wide;
