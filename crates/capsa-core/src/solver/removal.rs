//! Card removal: the opponent's distribution reweighted for the cards the
//! hand itself holds.

use super::classes::{LiveSet, SHARE_STRIDE};
use super::model::{Cumulative, RowModel};
use crate::cards::{face, is_joker, rank_index};
use crate::deck::Deck;

/// What the hand's own 13 cards leave for an opponent: per rank the
/// available suits as a 4-bit mask (index 13: all four), and per (rank,
/// group size) the share C(available, size) / C(in the deck, size) of the
/// group's card combinations still possible (index `6 * rank + size`; 255:
/// one). Both are indexed by a byte, and sized for every byte so that no
/// index is checked in the sums.
///
/// A deck with copies or jokers (`by_rank`) counts cards per rank alone:
/// a rank holds as many cards as the deck has of it, a hand of five
/// distinct ranks (a flush too) is weighed by the share of its single
/// cards left at each rank, and a joker, which can stand for any card,
/// removes none.
pub(super) struct Removal {
    masks: [u8; 256],
    share: [f32; 256],
    by_rank: bool,
}

impl Removal {
    pub(super) fn new(cards: &[u8], deck: &Deck) -> Removal {
        let mut masks = [0xfu8; 256];
        if deck.is_standard() {
            for &c in cards {
                masks[(c >> 2) as usize] &= !(1 << (c & 3));
            }
            let available = std::array::from_fn(|r| masks[r].count_ones() as usize);
            return Removal {
                masks,
                share: shares(&available, &[4; 13]),
                by_rank: false,
            };
        }
        let mut in_deck = [0usize; 13];
        for id in deck.ids().into_iter().filter(|&id| !is_joker(id)) {
            in_deck[rank_index(face(id)) as usize] += 1;
        }
        let mut available = in_deck;
        for &c in cards.iter().filter(|&&c| !is_joker(c)) {
            available[rank_index(face(c)) as usize] -= 1;
        }
        Removal {
            masks,
            share: shares(&available, &in_deck),
            by_rank: true,
        }
    }
}

/// Per (rank, group size) the share C(available, size) / C(in_deck, size).
fn shares(available: &[usize; 13], in_deck: &[usize; 13]) -> [f32; 256] {
    let mut share = [1.0f32; 256];
    for r in 0..13 {
        for n in 0..SHARE_STRIDE as usize {
            let mut c = 1.0;
            for k in 0..n {
                c *= available[r].saturating_sub(k) as f32
                    / in_deck[r].saturating_sub(k).max(1) as f32;
            }
            share[SHARE_STRIDE as usize * r + n] = c;
        }
    }
    share
}

impl LiveSet {
    /// Σ over the classes from the cursors on that are below `hi` of the
    /// share of combinations left times the values; advances the cursors.
    ///
    /// The same code is compiled twice: where the processor has AVX2 and
    /// POPCNT, a class's four products and sums take one 256-bit operation
    /// each and its suit counts one instruction. Every operation is the
    /// same IEEE one in the same order (no fused multiply-add), so both
    /// give the same bits.
    fn sum_until(&self, rm: &Removal, pos: &mut [usize; 3], hi: u32) -> [f64; 4] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the processor has just been found to support both
            // features, the only requirement of the wide build.
            return unsafe { self.sum_until_wide(rm, pos, hi) };
        }
        self.sum_until_portable(rm, pos, hi)
    }

    /// [`Self::sum_until`] built for AVX2 and POPCNT.
    ///
    /// # Safety
    /// The processor must support AVX2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn sum_until_wide(&self, rm: &Removal, pos: &mut [usize; 3], hi: u32) -> [f64; 4] {
        self.sum_until_portable(rm, pos, hi)
    }

    #[inline(always)]
    fn sum_until_portable(&self, rm: &Removal, pos: &mut [usize; 3], hi: u32) -> [f64; 4] {
        let s = &rm.share;
        let g = self.grouped.sum_until(&mut pos[0], hi, |i| {
            s[i[0] as usize] * s[i[1] as usize] * s[i[2] as usize] * s[i[3] as usize]
        });
        if rm.by_rank {
            let single = |r: &[u8; 5]| -> f32 {
                r.iter()
                    .map(|&x| s[(SHARE_STRIDE * x + 1) as usize])
                    .product()
            };
            let d = self.distinct.sum_until(&mut pos[1], hi, single);
            let f = self.flush.sum_until(&mut pos[2], hi, |(r, _)| single(r));
            return std::array::from_fn(|k| g[k] + d[k] + f[k]);
        }
        let m = &rm.masks;
        let d = self.distinct.sum_until(&mut pos[1], hi, |r| {
            let k = r.map(|x| m[x as usize]);
            let prod: u32 = k.iter().map(|x| x.count_ones()).product();
            let all = k[0] & k[1] & k[2] & k[3] & k[4];
            (prod - all.count_ones()) as f32 * (1.0 / 1020.0)
        });
        let f = self.flush.sum_until(&mut pos[2], hi, |(r, suits)| {
            let all = m[r[0] as usize]
                & m[r[1] as usize]
                & m[r[2] as usize]
                & m[r[3] as usize]
                & m[r[4] as usize]
                & suits;
            all.count_ones() as f32
        });
        std::array::from_fn(|k| g[k] + d[k] + f[k])
    }
}

/// A row's opponent distribution reweighted for one hand's card removal,
/// summed over the buckets that a few query classes cut the classes into:
/// in doubled class space, key `2q - 1` holds the classes between the
/// previous query and `q`, key `2q` the class `q`, and a last key the
/// classes above every query. Answers exactly for the query classes.
#[derive(Default)]
pub(super) struct Adjusted {
    keys: Vec<u32>,
    prob: Vec<f64>,
    royalty_sum: Vec<f64>,
    big_royalty: Vec<f64>,
    small_prob: Vec<f64>,
}

impl Adjusted {
    /// `queries`: sorted, distinct classes.
    pub(super) fn new(md: &RowModel, rm: &Removal, queries: &[u32]) -> Adjusted {
        let k = queries.len();
        let nb = 2 * k + 1;
        let mut sums = Vec::with_capacity(nb);
        let mut pos = [0usize; 3];
        for &q in queries {
            sums.push(md.live.sum_until(rm, &mut pos, q));
            sums.push(md.live.sum_until(rm, &mut pos, q + 1));
        }
        sums.push(md.live.sum_until(rm, &mut pos, u32::MAX));
        let total: f64 = sums.iter().map(|x| x[0]).sum();
        let inv = if total > 0.0 { 1.0 / total } else { 0.0 };
        let mut a = Adjusted {
            keys: Vec::with_capacity(nb),
            prob: Vec::with_capacity(nb + 1),
            royalty_sum: Vec::with_capacity(nb + 1),
            big_royalty: Vec::with_capacity(nb + 1),
            small_prob: Vec::with_capacity(nb + 1),
        };
        for q in queries {
            a.keys.push((2 * q).saturating_sub(1));
            a.keys.push(2 * q);
        }
        a.keys.push(u32::MAX);
        let mut acc = [0f64; 4];
        for x in &sums {
            a.prob.push(acc[0]);
            a.royalty_sum.push(acc[1]);
            a.big_royalty.push(acc[2]);
            a.small_prob.push(acc[3]);
            for (t, v) in acc.iter_mut().zip(x.iter()) {
                *t += v * inv;
            }
        }
        a.prob.push(acc[0]);
        a.royalty_sum.push(acc[1]);
        a.big_royalty.push(acc[2]);
        a.small_prob.push(acc[3]);
        a
    }

    pub(super) fn cum(&self) -> Cumulative<'_> {
        Cumulative {
            keys: &self.keys,
            prob: &self.prob,
            royalty_sum: &self.royalty_sum,
            big_royalty: &self.big_royalty,
            small_prob: &self.small_prob,
        }
    }

    /// Position of a query class's own bucket (always a hit).
    #[inline(always)]
    pub(super) fn locate(&self, class: u32) -> (usize, bool) {
        let i = self.keys.partition_point(|&k| k < 2 * class);
        debug_assert_eq!(self.keys.get(i), Some(&(2 * class)));
        (i, true)
    }
}

#[cfg(test)]
mod tests;
