//! Card removal: the opponent's distribution reweighted for the cards the
//! hand itself holds.

use super::model::{ClassCards, Cum, RowModel, RowOutcome};
use super::search::Solver;
use super::CLASS_SHIFT;

/// What the hand's own 13 cards leave for an opponent: per rank the
/// available suits as a 4-bit mask (index 13: all four), and per (rank,
/// group size) the share C(available, size) / C(4, size) of the group's card
/// combinations still possible (index 65: one).
struct Removal {
    masks: [u8; 14],
    share: [f32; 66],
}

impl Removal {
    fn new(cards: &[u8]) -> Removal {
        let mut masks = [0xfu8; 14];
        for &c in cards {
            masks[(c >> 2) as usize] &= !(1 << (c & 3));
        }
        let mut share = [1.0f32; 66];
        for r in 0..13 {
            let a = masks[r].count_ones() as usize;
            for n in 0..5 {
                let mut c = 1.0;
                for k in 0..n {
                    c *= a.saturating_sub(k) as f32 / (4 - k) as f32;
                }
                share[5 * r + n] = c;
            }
        }
        Removal { masks, share }
    }
}

/// The classes the opponent plays in a row, compiled for the card-removal
/// pass, in three class-sorted lists by how the share of their card
/// combinations left is computed. Each entry carries `[p, p * royalty, p *
/// royalty if it beats the row points, p if not]`, scaled by the share.
#[derive(Default)]
pub(super) struct LiveSet {
    /// Paired five-card hands and every three-card hand: the product of the
    /// rank groups' shares (`Removal::share` indices, 65 pads).
    grouped: LiveList<[u8; 4]>,
    /// Five distinct ranks, not a flush: the rank combinations left minus
    /// the flushes among them, over 4^5 - 4.
    distinct: LiveList<[u8; 5]>,
    /// Flushes: the share of the class's suits still possible at every rank
    /// (the ranks and the suit mask; 1 / |suits| is in the values).
    flush: LiveList<([u8; 5], u8)>,
}

#[derive(Default)]
struct LiveList<T> {
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
    /// `hi`; advances `*pos` past them.
    #[inline(always)]
    fn sum_until(&self, pos: &mut usize, hi: u32, share: impl Fn(&T) -> f32) -> [f64; 4] {
        let mut acc = [0f64; 4];
        let mut i = *pos;
        while i < self.class.len() && self.class[i] < hi {
            let f = share(&self.cards[i]) as f64;
            let v = &self.val[i];
            for k in 0..4 {
                acc[k] += f * v[k] as f64;
            }
            i += 1;
        }
        *pos = i;
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
                let mut idx = [65u8; 4];
                for (x, (r, k)) in idx.iter_mut().zip(c.ranks.iter().zip(&c.counts)).take(n) {
                    *x = 5 * r + k;
                }
                self.grouped.push(class, idx, val.map(|x| x as f32));
            }
        }
    }

    /// Σ over the classes from the cursors on that are below `hi` of the
    /// share of combinations left times the values; advances the cursors.
    fn sum_until(&self, rm: &Removal, pos: &mut [usize; 3], hi: u32) -> [f64; 4] {
        let s = &rm.share;
        let m = &rm.masks;
        let g = self.grouped.sum_until(&mut pos[0], hi, |i| {
            s[i[0] as usize] * s[i[1] as usize] * s[i[2] as usize] * s[i[3] as usize]
        });
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
    cp: Vec<f64>,
    cr: Vec<f64>,
    cbig: Vec<f64>,
    csmall: Vec<f64>,
}

impl Adjusted {
    /// `queries`: sorted, distinct classes.
    fn new(md: &RowModel, rm: &Removal, queries: &[u32]) -> Adjusted {
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
            cp: Vec::with_capacity(nb + 1),
            cr: Vec::with_capacity(nb + 1),
            cbig: Vec::with_capacity(nb + 1),
            csmall: Vec::with_capacity(nb + 1),
        };
        for q in queries {
            a.keys.push((2 * q).saturating_sub(1));
            a.keys.push(2 * q);
        }
        a.keys.push(u32::MAX);
        let mut acc = [0f64; 4];
        for x in &sums {
            a.cp.push(acc[0]);
            a.cr.push(acc[1]);
            a.cbig.push(acc[2]);
            a.csmall.push(acc[3]);
            for (t, v) in acc.iter_mut().zip(x.iter()) {
                *t += v * inv;
            }
        }
        a.cp.push(acc[0]);
        a.cr.push(acc[1]);
        a.cbig.push(acc[2]);
        a.csmall.push(acc[3]);
        a
    }

    fn cum(&self) -> Cum<'_> {
        Cum {
            keys: &self.keys,
            cp: &self.cp,
            cr: &self.cr,
            cbig: &self.cbig,
            csmall: &self.csmall,
        }
    }

    /// Position of a query class's own bucket (always a hit).
    #[inline(always)]
    fn locate(&self, class: u32) -> (usize, bool) {
        let i = self.keys.partition_point(|&k| k < 2 * class);
        debug_assert_eq!(self.keys.get(i), Some(&(2 * class)));
        (i, true)
    }
}

impl Solver {
    /// Outcomes of a row hand against the distribution reweighted for the
    /// card removal of the hand it comes from.
    pub(super) fn row_outcome_adjusted(&self, row: usize, s: u32, adj: &Adjusted) -> RowOutcome {
        let (i, hit) = adj.locate(s >> CLASS_SHIFT);
        self.outcome_in(row, s, &adj.cum(), i, hit)
    }

    /// The opponent distributions of the three rows given the hand's cards.
    /// `strengths[row]` lists the row hands to be asked about.
    pub(super) fn adjusted(&self, cards: &[u8], strengths: [Vec<u32>; 3]) -> [Adjusted; 3] {
        let rm = Removal::new(cards);
        let mut q = strengths;
        std::array::from_fn(|row| {
            let q = &mut q[row];
            for s in q.iter_mut() {
                *s >>= CLASS_SHIFT;
            }
            q.sort_unstable();
            q.dedup();
            Adjusted::new(&self.model[row], &rm, q)
        })
    }
}

#[cfg(test)]
mod tests;
