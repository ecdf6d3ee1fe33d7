//! The row model: one row's opponent distribution compiled for some rules,
//! the outcomes of a row hand against it, and the exact 27-pattern expected
//! value of a split.

use super::classes::{deck_classes, LiveSet, CLASS_SHIFT};
use crate::rules::{RoyaltyMode, Rules, TOP};

/// Win/tie/lose probabilities of a row hand and, per outcome, the expected
/// row points (`points`) and royalty net (`royalty`), both already multiplied by the
/// outcome's probability. Index 0 win, 1 tie, 2 lose.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowOutcome {
    pub prob: [f64; 3],
    pub points: [f64; 3],
    pub royalty: [f64; 3],
}

impl RowOutcome {
    #[inline(always)]
    pub(super) fn total(&self) -> f64 {
        self.points[0]
            + self.points[1]
            + self.points[2]
            + self.royalty[0]
            + self.royalty[1]
            + self.royalty[2]
    }
}

/// One row's opponent distribution compiled for some rules: prefix sums over
/// the sorted classes and a hash index for exact hits.
pub(super) struct RowModel {
    pub(super) keys: Vec<u32>,
    /// Exclusive prefix sums (len n + 1) over the sorted classes, with p a
    /// class's probability, R its royalty and rp the row points: p,
    prob: Vec<f64>,
    /// p * R,
    royalty_sum: Vec<f64>,
    /// p * R where R > rp (the royalty replaces the row points),
    big_royalty: Vec<f64>,
    /// p where R <= rp.
    small_prob: Vec<f64>,
    /// Open addressing: (class, index + 1); index 0 marks an empty slot.
    slots: Vec<(u32, u32)>,
    bits: u32,
    /// Fast-score values (value, P(win), P(lose)) of a hand of each class.
    pub(super) fast: Vec<[f32; 3]>,
    /// The classes the opponent plays (weight > 0): class, probability,
    /// royalty and the cards that make it, for the card-removal reweighting.
    pub(super) live: LiveSet,
}

/// Cumulative sums of a row's opponent distribution over sorted classes
/// (see [`RowModel`]); probabilities sum to one.
/// Fields as in [`RowModel`].
pub(super) struct Cumulative<'a> {
    pub(super) keys: &'a [u32],
    pub(super) prob: &'a [f64],
    pub(super) royalty_sum: &'a [f64],
    pub(super) big_royalty: &'a [f64],
    pub(super) small_prob: &'a [f64],
}

impl RowModel {
    pub(super) fn new(rules: &Rules, row: usize, dist: &[(u32, f64)]) -> RowModel {
        // every class of the row's hand size, so that lookups always hit
        let classes = deck_classes(rules, row != TOP);
        let mut all: Vec<(u32, f64)> = dist.to_vec();
        all.extend(classes.iter().map(|c| (c.0, 0.0)));
        all.sort_by_key(|x| x.0);
        all.dedup_by(|later, first| {
            if later.0 == first.0 {
                first.1 += later.1;
                true
            } else {
                false
            }
        });
        let dist = &all[..];
        let total: f64 = dist.iter().map(|x| x.1).sum::<f64>().max(1e-300);
        let n = dist.len();
        let mut prob = Vec::with_capacity(n + 1);
        let mut royalty_sum = Vec::with_capacity(n + 1);
        let mut big_royalty = Vec::with_capacity(n + 1);
        let mut small_prob = Vec::with_capacity(n + 1);
        let (mut a, mut b, mut c, mut d) = (0.0, 0.0, 0.0, 0.0);
        let rp = rules.row_points as f64;
        let mut live = LiveSet::default();
        for &(class, w) in dist {
            prob.push(a);
            royalty_sum.push(b);
            big_royalty.push(c);
            small_prob.push(d);
            let p = w / total;
            let roy = royalty_of_class(rules, row, class);
            if p > 0.0 {
                let info = classes
                    .binary_search_by_key(&class, |x| x.0)
                    .map(|k| classes[k].1)
                    .unwrap_or_default();
                live.push(class, p, roy, rp, &info);
            }
            a += p;
            b += p * roy;
            if roy > rp {
                c += p * roy;
            } else {
                d += p;
            }
        }
        prob.push(a);
        royalty_sum.push(b);
        big_royalty.push(c);
        small_prob.push(d);
        let bits = (usize::BITS - (2 * n.max(4)).leading_zeros()).max(4);
        let mut slots = vec![(0u32, 0u32); 1 << bits];
        let keys: Vec<u32> = dist.iter().map(|x| x.0).collect();
        for (i, &k) in keys.iter().enumerate() {
            let mut h = hash(k, bits);
            while slots[h].1 != 0 {
                h = (h + 1) & ((1 << bits) - 1);
            }
            slots[h] = (k, i as u32 + 1);
        }
        RowModel {
            keys,
            prob,
            royalty_sum,
            big_royalty,
            small_prob,
            slots,
            bits,
            fast: Vec::new(),
            live,
        }
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

    /// (position of the first class >= `class`, whether it is equal).
    #[inline(always)]
    pub(super) fn locate(&self, class: u32) -> (usize, bool) {
        let mask = (1usize << self.bits) - 1;
        let mut h = hash(class, self.bits);
        loop {
            let (k, i) = self.slots[h];
            if i == 0 {
                break;
            }
            if k == class {
                return (i as usize - 1, true);
            }
            h = (h + 1) & mask;
        }
        (self.keys.partition_point(|&k| k < class), false)
    }
}

pub(super) fn fast_of(o: &RowOutcome) -> [f32; 3] {
    [o.total() as f32, o.prob[0] as f32, o.prob[2] as f32]
}

#[inline(always)]
pub(super) fn hash(k: u32, bits: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

fn royalty_of_class(rules: &Rules, row: usize, class: u32) -> f64 {
    if rules.royalty_mode == RoyaltyMode::None {
        return 0.0;
    }
    // a class keeps the strength's category and rank key, so the ranked
    // royalty of its key rank applies to the whole class
    rules.royalty(row, class << CLASS_SHIFT) as f64
}

/// The 27 win/tie/lose patterns of (top, middle, bottom), 0 win, 1 tie,
/// 2 lose; index `9 * top + 3 * middle + bottom`.
pub(super) const PATTERNS: [[usize; 3]; 27] = {
    let mut out = [[0; 3]; 27];
    let mut i = 0;
    while i < 27 {
        out[i] = [i / 9, (i / 3) % 3, i % 3];
        i += 1;
    }
    out
};

/// What the value of a split against one opponent is made of, each an
/// expectation over the opponent's rows (so a mixture of opponents mixes
/// them linearly): the pair value, and for the sweep-all terms the row
/// points (with the overall point) and royalties on the patterns that win
/// or lose all three, and those patterns' probabilities.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PairSums {
    pub(super) pair: f64,
    pub(super) rows_w: f64,
    pub(super) roy_w: f64,
    pub(super) rows_l: f64,
    pub(super) roy_l: f64,
    pub(super) pw3: f64,
    pub(super) pl3: f64,
}

impl PairSums {
    pub(super) fn add_scaled(&mut self, o: &PairSums, k: f64) {
        self.pair += k * o.pair;
        self.rows_w += k * o.rows_w;
        self.roy_w += k * o.roy_w;
        self.rows_l += k * o.rows_l;
        self.roy_l += k * o.roy_l;
        self.pw3 += k * o.pw3;
        self.pl3 += k * o.pl3;
    }
}
