//! Counting the valid splits of several hands at once.
//!
//! Each hand's subset strengths sit in one lane of an interleaved table
//! (subset-major, hand-minor), so one halving reads each half's strength for
//! every hand with one contiguous load: the same halving index is a plain
//! vector load across hands, where one hand at a time needs a gather per
//! half. On a processor with AVX2 the eight lanes of a halving are one
//! register; without it each lane is counted as a single hand is.

use super::{count_halvings, table, PADDED5, SUBSETS3};
use crate::rank::Evaluator;

/// Hands counted together.
pub const LANES: usize = 8;

/// One subset's strength in each hand, as `i32` with the top bit flipped so
/// that signed compares order them as the `u32` strengths.
type Lane = [i32; LANES];

fn biased(strength: u32) -> i32 {
    (strength ^ 1 << 31) as i32
}

fn unbiased(lane: i32) -> u32 {
    lane as u32 ^ 1 << 31
}

/// Reusable room for the strengths of [`LANES`] hands.
pub struct LaneStrengths {
    s3: Box<[Lane; SUBSETS3]>,
    s5: Box<[Lane; PADDED5]>,
}

impl Default for LaneStrengths {
    fn default() -> Self {
        Self {
            s3: Box::new([[0; LANES]; SUBSETS3]),
            s5: Box::new([[0; LANES]; PADDED5]),
        }
    }
}

impl LaneStrengths {
    /// The number of valid splits of each of 1 to [`LANES`] sorted hands.
    pub fn count_valid(&mut self, e: &Evaluator, hands: &[[u8; 13]], strict: bool) -> [u32; LANES] {
        self.rank(e, hands);
        self.count(strict)
    }

    /// Ranks every subset of 1 to [`LANES`] sorted hands, a hand a lane.
    pub fn rank(&mut self, e: &Evaluator, hands: &[[u8; 13]]) {
        assert!(
            (1..=LANES).contains(&hands.len()),
            "1 to {LANES} hands a group"
        );
        let positions = table();
        // spare lanes keep what they held; their counts are dropped
        for (lane, hand) in hands.iter().enumerate() {
            for (s, p) in self.s3.iter_mut().zip(&positions.positions3) {
                s[lane] = biased(e.eval3(p.map(|q| hand[q as usize])));
            }
            for (s, p) in self.s5.iter_mut().zip(&positions.positions5) {
                s[lane] = biased(e.eval5(p.map(|q| hand[q as usize])));
            }
        }
    }

    /// The number of valid splits of the hand in each lane.
    pub fn count(&self, strict: bool) -> [u32; LANES] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has just been found to support AVX2,
            // the only requirement of the AVX2 kernel.
            return unsafe { avx2::count(&self.s3, &self.s5, strict) };
        }
        self.count_portable(strict)
    }

    /// [`Self::count`] as a processor without AVX2 counts: each lane as a
    /// single hand is counted ([`count_halvings`]), its strengths first
    /// copied out so that its reads stay in a few kilobytes.
    pub fn count_portable(&self, strict: bool) -> [u32; LANES] {
        let mut three = [0u32; SUBSETS3];
        let mut five = [0u32; PADDED5];
        std::array::from_fn(|k| {
            for (x, row) in three.iter_mut().zip(self.s3.iter()) {
                *x = unbiased(row[k]);
            }
            for (x, row) in five.iter_mut().zip(self.s5.iter()) {
                *x = unbiased(row[k]);
            }
            count_halvings(&three, &five, strict) as u32
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The count with the eight lanes of a halving in one AVX2 register:
    //! two loads, three compares and two subtractions a halving for all
    //! eight hands. A halving {x, y} of the ten cards a top t leaves counts
    //! once when both halves are at least t and again when they are equal
    //! (either may then be the middle); strictly, once when both are above
    //! t and they differ.

    use std::arch::x86_64::*;

    use super::{table, Lane, LANES, PADDED5, SUBSETS3};
    use crate::splits::HALVINGS_PER_TOP;

    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn count(
        s3: &[Lane; SUBSETS3],
        s5: &[Lane; PADDED5],
        strict: bool,
    ) -> [u32; LANES] {
        if strict {
            count_as::<true>(s3, s5)
        } else {
            count_as::<false>(s3, s5)
        }
    }

    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn count_as<const STRICT: bool>(
        s3: &[Lane; SUBSETS3],
        s5: &[Lane; PADDED5],
    ) -> [u32; LANES] {
        // a Lane is eight i32, the 32 bytes of one unaligned load
        let load = |lane: &Lane| _mm256_loadu_si256(lane.as_ptr().cast());
        let ones = _mm256_set1_epi32(-1);
        let mut total = _mm256_setzero_si256();
        for (group, top) in table().halvings.chunks_exact(HALVINGS_PER_TOP).zip(s3) {
            let t = load(top);
            let mut acc = _mm256_setzero_si256();
            for &[_, b, c] in group {
                let x = load(&s5[b as usize & (PADDED5 - 1)]);
                let y = load(&s5[c as usize & (PADDED5 - 1)]);
                let equal = _mm256_cmpeq_epi32(x, y);
                // compares give -1 where true, so counting subtracts them
                if STRICT {
                    let both = _mm256_and_si256(_mm256_cmpgt_epi32(x, t), _mm256_cmpgt_epi32(y, t));
                    acc = _mm256_sub_epi32(acc, _mm256_andnot_si256(equal, both));
                } else {
                    let short = _mm256_or_si256(_mm256_cmpgt_epi32(t, x), _mm256_cmpgt_epi32(t, y));
                    acc = _mm256_sub_epi32(acc, _mm256_andnot_si256(short, ones));
                    acc = _mm256_sub_epi32(acc, _mm256_andnot_si256(short, equal));
                }
            }
            total = _mm256_add_epi32(total, acc);
        }
        let mut out = [0u32; LANES];
        _mm256_storeu_si256(out.as_mut_ptr().cast(), total);
        out
    }
}

#[cfg(test)]
mod tests;
