//! Every split of 13 cards into a 3-card top, 5-card middle and 5-card bottom.
//!
//! Order (documented in docs/rules.md): the 13 cards sorted by id; the top
//! runs over the 3-combinations of the 13 positions in lexicographic order,
//! and for each top the middle over the 5-combinations of the 10 remaining
//! positions in lexicographic order; the bottom is the rest. The 286
//! three-card and 1,287 five-card subsets are ranked once per hand, and each
//! split only looks their strengths up.

use std::sync::OnceLock;

use crate::cards::check_hand;
use crate::error::Result;
use crate::rank::{Evaluator, Rank};

pub mod lanes;

pub const SPLITS: usize = 72_072;
pub const SUBSETS3: usize = 286;
pub const SUBSETS5: usize = 1_287;
/// The unordered halvings of the ten cards a top leaves: C(10, 5) / 2.
pub const HALVINGS_PER_TOP: usize = SPLITS / 2 / SUBSETS3;

pub struct SplitTable {
    /// Position masks (bit p = sorted card p) of the 3- and 5-subsets.
    pub masks3: Vec<u16>,
    pub masks5: Vec<u16>,
    /// The index into `masks5` of each 13-bit mask of five positions
    /// (`u16::MAX` for any other mask).
    pub index5: Vec<u16>,
    /// The same subsets as lists of positions.
    pub positions3: Vec<[u8; 3]>,
    pub positions5: Vec<[u8; 5]>,
    /// For each split: indices of its top (into masks3), middle and bottom
    /// (into masks5).
    pub splits: Vec<[u16; 3]>,
    /// Each top with each unordered halving of the other ten cards: at most
    /// one orientation of a halving can be valid (two when the halves are
    /// equal), so counting needs half the lookups.
    pub halvings: Vec<[u16; 3]>,
    /// For each five-card subset as the bottom, the (top, middle) of the
    /// splits that complete it: [`TOPS_PER_BOTTOM`] entries per bottom, in
    /// the order of `masks5`.
    pub by_bottom: Vec<[u16; 2]>,
}

/// The tops a bottom leaves room for: C(8, 3).
pub const TOPS_PER_BOTTOM: usize = 56;

fn combos(n: usize, k: usize) -> Vec<u16> {
    // lexicographic order of the position lists
    fn rec(start: usize, n: usize, k: usize, acc: u16, out: &mut Vec<u16>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for p in start..=n - k {
            rec(p + 1, n, k - 1, acc | (1 << p), out);
        }
    }
    let mut out = Vec::new();
    rec(0, n, k, 0, &mut out);
    out
}

pub fn table() -> &'static SplitTable {
    static TABLE: OnceLock<SplitTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let masks3 = combos(13, 3);
        let masks5 = combos(13, 5);
        let mut index5 = vec![u16::MAX; 1 << 13];
        for (i, &m) in masks5.iter().enumerate() {
            index5[m as usize] = i as u16;
        }
        let mut splits = Vec::with_capacity(SPLITS);
        let full: u16 = (1 << 13) - 1;
        for (t, &top) in masks3.iter().enumerate() {
            let rest: Vec<usize> = (0..13).filter(|p| top & (1 << p) == 0).collect();
            for sub in combos(10, 5) {
                let middle = (0..10)
                    .filter(|q| sub & (1 << q) != 0)
                    .fold(0u16, |m, q| m | (1 << rest[q]));
                let bottom = full & !top & !middle;
                splits.push([t as u16, index5[middle as usize], index5[bottom as usize]]);
            }
        }
        let lowest_rest = |top: u16| (0..13).find(|p| top & (1 << p) == 0).unwrap_or(0);
        let halvings = splits
            .iter()
            .filter(|[t, m, _]| masks5[*m as usize] & (1 << lowest_rest(masks3[*t as usize])) != 0)
            .copied()
            .collect();
        let mut by_bottom = vec![[0u16; 2]; SPLITS];
        let mut filled = vec![0usize; SUBSETS5];
        for &[t, m, b] in &splits {
            let b = b as usize;
            by_bottom[b * TOPS_PER_BOTTOM + filled[b]] = [t, m];
            filled[b] += 1;
        }
        fn positions<const K: usize>(mask: u16) -> [u8; K] {
            let mut out = [0u8; K];
            let mut k = 0;
            for p in 0..13u8 {
                if mask & (1 << p) != 0 {
                    out[k] = p;
                    k += 1;
                }
            }
            out
        }
        SplitTable {
            positions3: masks3.iter().map(|&m| positions::<3>(m)).collect(),
            positions5: masks5.iter().map(|&m| positions::<5>(m)).collect(),
            masks3,
            masks5,
            index5,
            splits,
            halvings,
            by_bottom,
        }
    })
}

fn pick<const K: usize>(cards: &[u8; 13], mask: u16) -> [u8; K] {
    let mut out = [0u8; K];
    let mut k = 0;
    for (p, &c) in cards.iter().enumerate() {
        if mask & (1 << p) != 0 {
            out[k] = c;
            k += 1;
        }
    }
    out
}

/// The strengths of every 3- and 5-card subset of one sorted hand.
pub struct SubsetStrengths {
    pub cards: [u8; 13],
    pub s3: Vec<u32>,
    pub s5: Vec<u32>,
}

/// Checks and sorts 13 cards.
pub fn sorted_hand(cards: &[u8]) -> Result<[u8; 13]> {
    sorted_hand_for(cards, "a hand to split")
}

/// Checks and sorts 13 cards; an error calls them `what`.
pub fn sorted_hand_for(cards: &[u8], what: &str) -> Result<[u8; 13]> {
    check_hand(cards, &[13], what)?;
    let mut sorted: [u8; 13] = cards.try_into().expect("length checked");
    sorted.sort_unstable();
    Ok(sorted)
}

pub fn subset_strengths<E: Rank>(e: &E, sorted: &[u8; 13]) -> SubsetStrengths {
    let t = table();
    SubsetStrengths {
        cards: *sorted,
        s3: t
            .positions3
            .iter()
            .map(|p| e.eval3(p.map(|q| sorted[q as usize])))
            .collect(),
        s5: t
            .positions5
            .iter()
            .map(|p| e.eval5(p.map(|q| sorted[q as usize])))
            .collect(),
    }
}

#[inline(always)]
pub fn is_valid(top: u32, middle: u32, bottom: u32, strict: bool) -> bool {
    if strict {
        bottom > middle && middle > top
    } else {
        bottom >= middle && middle >= top
    }
}

impl SubsetStrengths {
    /// (top, middle, bottom) strengths of split `k`.
    #[inline(always)]
    pub fn split(&self, k: usize) -> (u32, u32, u32) {
        let [t, m, b] = table().splits[k];
        (
            self.s3[t as usize],
            self.s5[m as usize],
            self.s5[b as usize],
        )
    }

    pub fn count_valid(&self, strict: bool) -> usize {
        let mut s5 = [0u32; PADDED5];
        s5[..SUBSETS5].copy_from_slice(&self.s5);
        count_halvings(&self.s3, &s5, strict)
    }

    /// The cards of split `k` laid out as top 0-2, middle 3-7, bottom 8-12,
    /// each row by ascending id.
    pub fn layout(&self, k: usize) -> [u8; 13] {
        let [t, m, b] = table().splits[k];
        layout_of(&self.cards, t, m, b)
    }
}

/// Five-card strengths padded so that an index masked to 11 bits needs no
/// bounds check.
pub const PADDED5: usize = 2048;

/// The number of valid splits of one hand from its 286 three-card and
/// (padded) five-card subset strengths.
pub fn count_halvings(s3: &[u32], s5: &[u32; PADDED5], strict: bool) -> usize {
    if strict {
        sum_halvings(s3, s5, |top, lo, hi| (hi > lo && lo > top) as u32)
    } else {
        sum_halvings(s3, s5, |top, lo, hi| {
            (lo >= top) as u32 * (1 + (lo == hi) as u32)
        })
    }
}

/// The sum of `weight(top, weaker half, stronger half)` over the halvings,
/// read top by top (the table groups them so): one top strength per group.
#[inline(always)]
fn sum_halvings(s3: &[u32], s5: &[u32; PADDED5], weight: impl Fn(u32, u32, u32) -> u32) -> usize {
    table()
        .halvings
        .chunks_exact(HALVINGS_PER_TOP)
        .zip(s3)
        .map(|(group, &top)| {
            let counted: u32 = group
                .iter()
                .map(|&[_, b, c]| {
                    let (x, y) = (
                        s5[b as usize & (PADDED5 - 1)],
                        s5[c as usize & (PADDED5 - 1)],
                    );
                    weight(top, x.min(y), x.max(y))
                })
                .sum();
            counted as usize
        })
        .sum()
}

/// The cards of a hand laid out as top 0-2, middle 3-7, bottom 8-12, from a
/// 3-subset index `t` and 5-subset indices `m` and `b` of the split table.
pub fn layout_of(cards: &[u8; 13], t: u16, m: u16, b: u16) -> [u8; 13] {
    let tb = table();
    let mut out = [0u8; 13];
    out[..3].copy_from_slice(&pick::<3>(cards, tb.masks3[t as usize]));
    out[3..8].copy_from_slice(&pick::<5>(cards, tb.masks5[m as usize]));
    out[8..].copy_from_slice(&pick::<5>(cards, tb.masks5[b as usize]));
    out
}

/// Every split (or only the valid ones) as 13-card layouts.
pub fn splits(
    e: &Evaluator,
    strict: bool,
    cards: &[u8],
    valid_only: bool,
) -> Result<Vec<[u8; 13]>> {
    Ok(sorted_splits(e, strict, &sorted_hand(cards)?, valid_only))
}

/// Every split (or only the valid ones) of a sorted hand, as layouts.
pub fn sorted_splits<E: Rank>(
    e: &E,
    strict: bool,
    sorted: &[u8; 13],
    valid_only: bool,
) -> Vec<[u8; 13]> {
    let subsets = subset_strengths(e, sorted);
    (0..SPLITS)
        .filter(|&k| {
            if !valid_only {
                return true;
            }
            let (t, m, b) = subsets.split(k);
            is_valid(t, m, b, strict)
        })
        .map(|k| subsets.layout(k))
        .collect()
}

/// The first split of a sorted hand, in split order, that fouls under the
/// ranking `e` and the foul check (`strict`), laid out as top 0-2, middle
/// 3-7, bottom 8-12: the arrangement of the `foul` auto-arrange policy
/// (docs/records.md, "The auto-arrange policies"). Every hand has one: with
/// a strongest five of the 13 cards in the middle, some five of the other
/// eight make a weaker bottom (a strength determines the ranks of a hand,
/// and the eight left never give only fives of its ranks, even with copies
/// and jokers), so the split fouls under either check. None only if that
/// reasoning failed.
pub fn first_foul<E: Rank>(e: &E, strict: bool, sorted: &[u8; 13]) -> Option<[u8; 13]> {
    let subsets = subset_strengths(e, sorted);
    (0..SPLITS)
        .find(|&k| {
            let (t, m, b) = subsets.split(k);
            !is_valid(t, m, b, strict)
        })
        .map(|k| subsets.layout(k))
}

/// Number of valid splits out of 72,072.
pub fn count_splits(e: &Evaluator, strict: bool, cards: &[u8]) -> Result<usize> {
    let sorted = sorted_hand(cards)?;
    Ok(subset_strengths(e, &sorted).count_valid(strict))
}

#[cfg(test)]
mod tests;
