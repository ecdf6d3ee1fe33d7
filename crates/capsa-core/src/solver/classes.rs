//! Rank classes: a strength's category and rank key (suits ignored), the
//! cards each class is made of, and the classes an opponent plays compiled
//! for the card-removal pass.

use crate::cards::DECK;
use crate::rank::wide::WideEvaluator;
use crate::rank::{Evaluator, Rank};
use crate::rules::Rules;

/// Shift from a strength to its rank class.
pub const CLASS_SHIFT: u32 = 10;

/// Stride of a rank among the card-removal shares of rank groups: group
/// sizes 0 to 5 (five of a kind).
pub(super) const SHARE_STRIDE: u8 = 6;

/// The share index that is always one (a rank group's pad).
const SHARE_PAD: u8 = 255;

/// The ranks (and for flushes the suits) a rank class is made of.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ClassCards {
    /// Distinct ranks and how many cards of each.
    pub(super) ranks: [u8; 5],
    pub(super) counts: [u8; 5],
    pub(super) len: u8,
    /// 0: any suits (the rank groups decide); 1: five distinct ranks that
    /// are not a flush; 2: a flush in one of `suits`.
    pub(super) kind: u8,
    pub(super) suits: u8,
}

/// Every rank class of three-card (or five-card) hands under a ranking,
/// sorted, with the cards that make it.
pub(super) fn all_classes(e: &Evaluator, five: bool) -> Vec<(u32, ClassCards)> {
    let mut out: Vec<(u32, ClassCards)> = Vec::new();
    let groups = |r: &[u8]| {
        let mut c = ClassCards::default();
        for &k in r {
            let n = c.len as usize;
            if n > 0 && c.ranks[n - 1] == k {
                c.counts[n - 1] += 1;
            } else {
                c.ranks[n] = k;
                c.counts[n] = 1;
                c.len += 1;
            }
        }
        c
    };
    if five {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        for x in d..13 {
                            if a == x {
                                continue;
                            }
                            let r = [a, b, c, d, x];
                            let mut info = groups(&r);
                            // suits 0,1,2,3,0 by position: distinct within a
                            // rank group, never a flush
                            let cards: [u8; 5] = std::array::from_fn(|i| 4 * r[i] + (i % 4) as u8);
                            if info.len == 5 {
                                info.kind = 1;
                            }
                            out.push((e.eval5(cards) >> CLASS_SHIFT, info));
                            if info.len == 5 {
                                for suit in 0..4 {
                                    let f = ClassCards {
                                        kind: 2,
                                        suits: 1 << suit,
                                        ..info
                                    };
                                    out.push((e.eval5(r.map(|k| 4 * k + suit)) >> CLASS_SHIFT, f));
                                }
                            }
                        }
                    }
                }
            }
        }
    } else {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    let info = groups(&[a, b, c]);
                    out.push((e.eval3([4 * a, 4 * b + 1, 4 * c + 2]) >> CLASS_SHIFT, info));
                }
            }
        }
    }
    out.sort_unstable_by_key(|x| x.0);
    // one class for several suits of a flush (unless the suit ranks it)
    out.dedup_by(|later, first| {
        if later.0 == first.0 {
            first.1.suits |= later.1.suits;
            true
        } else {
            false
        }
    });
    out
}

/// [`all_classes`] of the rules' deck: a deck with copies or jokers adds
/// the five of a kind of each rank (the flushes holding a pair are left to
/// the tables: their rank groups are not the card-removal pass's).
pub(super) fn deck_classes(rules: &Rules, five: bool) -> Vec<(u32, ClassCards)> {
    let mut out = all_classes(&rules.evaluator, five);
    if five && !rules.deck.is_standard() {
        let wide = WideEvaluator::new(rules.evaluator);
        for r in 0..13u8 {
            // the four suits of the rank and a second copy of its first
            let cards = [4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3, DECK as u8 + 4 * r];
            let mut info = ClassCards {
                len: 1,
                ..ClassCards::default()
            };
            (info.ranks[0], info.counts[0]) = (r, 5);
            out.push((wide.eval5(cards) >> CLASS_SHIFT, info));
        }
        out.sort_unstable_by_key(|x| x.0);
    }
    out
}

/// The classes the opponent plays in a row, compiled for the card-removal
/// pass, in three class-sorted lists by how the share of their card
/// combinations left is computed. Each entry carries `[p, p * royalty, p *
/// royalty if it beats the row points, p if not]`, scaled by the share.
#[derive(Default)]
pub(super) struct LiveSet {
    /// Paired five-card hands and every three-card hand: the product of the
    /// rank groups' shares (`Removal::share` indices, [`SHARE_PAD`] pads).
    pub(super) grouped: LiveList<[u8; 4]>,
    /// Five distinct ranks, not a flush: the rank combinations left minus
    /// the flushes among them, over 4^5 - 4.
    pub(super) distinct: LiveList<[u8; 5]>,
    /// Flushes: the share of the class's suits still possible at every rank
    /// (the ranks and the suit mask; 1 / |suits| is in the values).
    pub(super) flush: LiveList<([u8; 5], u8)>,
}

#[derive(Default)]
pub(super) struct LiveList<T> {
    class: Vec<u32>,
    cards: Vec<T>,
    val: Vec<[f32; 4]>,
}

impl<T> LiveList<T> {
    fn push(&mut self, class: u32, cards: T, val: [f32; 4]) {
        self.class.push(class);
        self.cards.push(cards);
        self.val.push(val);
    }

    /// Σ share * val over the entries from `*pos` on whose class is below
    /// `hi`; advances `*pos` past them. The terms are added in class order,
    /// one at a time: the solver's output is defined by that order.
    #[inline(always)]
    pub(super) fn sum_until(
        &self,
        pos: &mut usize,
        hi: u32,
        share: impl Fn(&T) -> f32,
    ) -> [f64; 4] {
        let start = (*pos).min(self.class.len());
        let end = start + self.class[start..].partition_point(|&c| c < hi);
        *pos = end;
        let mut acc = [0f64; 4];
        for (cards, v) in self.cards[start..end].iter().zip(&self.val[start..end]) {
            let f = share(cards) as f64;
            for (a, &x) in acc.iter_mut().zip(v) {
                *a += f * x as f64;
            }
        }
        acc
    }
}

impl LiveSet {
    pub(super) fn push(&mut self, class: u32, p: f64, roy: f64, rp: f64, c: &ClassCards) {
        let big = roy > rp;
        let val = [
            p,
            p * roy,
            if big { p * roy } else { 0.0 },
            if big { 0.0 } else { p },
        ];
        let n = c.len as usize;
        let mut ranks = [13u8; 5];
        ranks[..n].copy_from_slice(&c.ranks[..n]);
        match c.kind {
            1 => self.distinct.push(class, ranks, val.map(|x| x as f32)),
            2 => {
                let inv = 1.0 / c.suits.count_ones().max(1) as f64;
                self.flush
                    .push(class, (ranks, c.suits), val.map(|x| (x * inv) as f32));
            }
            _ => {
                let mut idx = [SHARE_PAD; 4];
                for (x, (r, k)) in idx.iter_mut().zip(c.ranks.iter().zip(&c.counts)).take(n) {
                    *x = SHARE_STRIDE * r + k;
                }
                self.grouped.push(class, idx, val.map(|x| x as f32));
            }
        }
    }
}
