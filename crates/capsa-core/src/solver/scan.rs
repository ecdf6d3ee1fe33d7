//! The fast scan: every valid split scored by the cheap form, the best
//! `keep` kept, with the tops visited best bound first and the scan
//! stopped when no split of the remaining tops can enter.
//!
//! A top's bound replaces each operand of the fast score by a bound on it
//! (the best middle and bottom values among the five-card subsets disjoint
//! from the top and at least as strong, the largest win and loss
//! probabilities of any subset) and evaluates the same `f32` expression in
//! the same order. Rounding to nearest is monotone, so the bound is never
//! below the score of any of the top's splits, bit for bit. The splits are
//! kept by (score, then enumeration order), which is the order the plain
//! scan in enumeration order keeps, so the kept list does not depend on the
//! order the tops are visited in.

use crate::splits::{self, HALVINGS_PER_TOP, SUBSETS3, SUBSETS5, TOPS_PER_BOTTOM};

/// A split the fast scan keeps: its fast score, its place in the
/// enumeration (top-major, then halving) and the indices of its top (into
/// the 3-subsets), middle and bottom (into the 5-subsets).
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    pub score: f32,
    pub order: u32,
    pub top: u16,
    pub middle: u16,
    pub bottom: u16,
}

/// Fast-score values of one five-card subset: strength, then (value,
/// P(win), P(lose)) as a middle and as a bottom. Aligned to 32 bytes so
/// that no entry straddles two cache lines: the scan reads two at random
/// for every split.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(super) struct FiveCardScores {
    pub strength: u32,
    pub as_middle: [f32; 3],
    pub as_bottom: [f32; 3],
}

/// What the fast scan reads: the tops' strengths and fast scores, the
/// five-card subsets' scores, the scoop and sweep-all gains (the loss of
/// being swept already weighted by the other opponents' scoop rate), and
/// how many splits to keep.
pub(super) struct ScanArgs<'a> {
    pub top_strengths: &'a [u32],
    pub top_scores: &'a [[f32; 3]; SUBSETS3],
    pub five_scores: &'a [FiveCardScores; 2048],
    pub scoop_gain: f32,
    pub sweep_gain: f32,
    pub swept_loss: f32,
    pub keep: usize,
}

/// `a` goes before `b` in the kept list.
#[inline(always)]
fn before(a: &Candidate, b: &Candidate) -> bool {
    a.score > b.score || (a.score == b.score && a.order < b.order)
}

/// Inserts `c` in its place and returns the score a split must reach to
/// be considered (the last kept score once `keep` are kept).
#[cold]
#[inline(never)]
fn insert(best: &mut Vec<Candidate>, keep: usize, c: Candidate) -> f32 {
    let pos = best.partition_point(|x| before(x, &c));
    best.insert(pos, c);
    if best.len() > keep {
        best.pop();
    }
    if best.len() == keep {
        best[keep - 1].score
    } else {
        f32::NEG_INFINITY
    }
}

/// The fast score of a split from its operands, in the one order both the
/// scan and the bounds evaluate it; `SWEEP` is the power of P(win all
/// three) in the sweep-all term (0: no term).
#[inline(always)]
fn fast_score<const SWEEP: u8>(
    a: &ScanArgs,
    top: f32,
    middle: f32,
    bottom: f32,
    pw3: f32,
    pl3: f32,
) -> f32 {
    let mut score = top + middle + bottom + a.scoop_gain * (pw3 - pl3);
    if SWEEP > 0 {
        let sw = match SWEEP {
            1 => pw3,
            2 => pw3 * pw3,
            _ => pw3 * pw3 * pw3,
        };
        score += a.sweep_gain * sw - a.swept_loss * pl3;
    }
    score
}

/// The five-card subsets split for the tops' bounds: the strongest few
/// (each can be a bottom, and fixes its middle), and the largest fast
/// values of all the others, which no split whose bottom is not among the
/// strongest can exceed in either row (its middle is no stronger than its
/// bottom).
struct FiveBounds {
    /// (strength, index) of the strongest subsets, strongest first.
    strongest: Vec<(u32, u16)>,
    /// The largest (value, P(win), P(lose)) as a middle and as a bottom of
    /// the subsets no stronger than the last of `strongest` and not in it.
    middle: [f32; 3],
    bottom: [f32; 3],
}

/// How many of the strongest subsets the bounds score exactly as bottoms.
const STRONGEST: usize = 64;

impl FiveBounds {
    fn new(a: &ScanArgs) -> FiveBounds {
        let scores = &a.five_scores[..SUBSETS5];
        // strongest first, and of equal strengths the first in enumeration:
        // the smallest keys, selected then sorted
        let mut keys: Vec<u64> = scores
            .iter()
            .enumerate()
            .map(|(i, f)| (u64::from(!f.strength) << 16) | i as u64)
            .collect();
        keys.select_nth_unstable(STRONGEST - 1);
        keys.truncate(STRONGEST);
        keys.sort_unstable();
        let strongest: Vec<(u32, u16)> = keys
            .into_iter()
            .map(|k| (!((k >> 16) as u32), (k & 0xffff) as u16))
            .collect();
        let mut listed = [false; SUBSETS5];
        for &(_, i) in &strongest {
            listed[i as usize] = true;
        }
        let max3 = |x: [f32; 3], y: [f32; 3]| [x[0].max(y[0]), x[1].max(y[1]), x[2].max(y[2])];
        let mut middle = [f32::NEG_INFINITY, 0.0, 0.0];
        let mut bottom = middle;
        for (f, _) in scores.iter().zip(&listed).filter(|(_, &l)| !l) {
            middle = max3(middle, f.as_middle);
            bottom = max3(bottom, f.as_bottom);
        }
        FiveBounds {
            strongest,
            middle,
            bottom,
        }
    }
}

/// An upper bound on the fast score of every valid split, for each top.
///
/// Each of the strongest subsets, as the bottom, fixes a middle for each
/// top that leaves room for it, and those splits are scored exactly; every
/// other split has a bottom outside the strongest, so both its rows are
/// bounded by the largest values of the other subsets, and its win and
/// loss products lie between zero and their largest.
fn top_bounds_unsorted<const SWEEP: u8>(a: &ScanArgs, five: &FiveBounds) -> [f32; SUBSETS3] {
    let table = splits::table();
    let scores = &a.five_scores;
    let mut bounds = [f32::NEG_INFINITY; SUBSETS3];
    for &(_, j) in &five.strongest {
        let pb = &scores[j as usize];
        let first = j as usize * TOPS_PER_BOTTOM;
        for &[t, i] in &table.by_bottom[first..first + TOPS_PER_BOTTOM] {
            let pm = &scores[i as usize & 2047];
            let t = t as usize;
            if pb.strength < pm.strength || pm.strength < a.top_strengths[t] {
                continue;
            }
            let [tv, tw, tl] = a.top_scores[t];
            let pw3 = tw * pm.as_middle[1] * pb.as_bottom[1];
            let pl3 = tl * pm.as_middle[2] * pb.as_bottom[2];
            let score = fast_score::<SWEEP>(a, tv, pm.as_middle[0], pb.as_bottom[0], pw3, pl3);
            bounds[t] = bounds[t].max(score);
        }
    }
    let (m, b) = (five.middle, five.bottom);
    for (bound, &[tv, tw, tl]) in bounds.iter_mut().zip(a.top_scores.iter()) {
        // the score is monotone in each probability product, in a direction
        // the gains' signs decide: the largest of the four corners bounds it
        for w in [0.0, tw * m[1] * b[1]] {
            for l in [0.0, tl * m[2] * b[2]] {
                *bound = bound.max(fast_score::<SWEEP>(a, tv, m[0], b[0], w, l));
            }
        }
        *bound = if bound.is_nan() {
            f32::INFINITY
        } else {
            bound.max(f32::MIN)
        };
    }
    bounds
}

/// The bound of each top with its index, best first.
fn top_bounds<const SWEEP: u8>(a: &ScanArgs) -> Vec<(f32, u16)> {
    let five = FiveBounds::new(a);
    best_first(&top_bounds_unsorted::<SWEEP>(a, &five))
}

/// Each bound with its index, the largest first by `f32::total_cmp`, and
/// of equal bounds the lowest index first: sorted as integers, each the
/// bound's bits ordered as `total_cmp` orders them (complemented, for the
/// largest first), then the index.
fn best_first(bounds: &[f32]) -> Vec<(f32, u16)> {
    let ordered = |b: f32| {
        let bits = b.to_bits();
        bits ^ (((bits as i32 >> 31) as u32) >> 1) ^ (1 << 31)
    };
    let mut keys: Vec<u64> = bounds
        .iter()
        .enumerate()
        .map(|(t, &b)| (u64::from(!ordered(b)) << 16) | t as u64)
        .collect();
    keys.sort_unstable();
    keys.iter()
        .map(|&k| (bounds[(k & 0xffff) as usize], (k & 0xffff) as u16))
        .collect()
}

/// The fast-score scan over every valid split, for a foul check that is
/// `strict` or not and the power `sweep` of P(win all three) in the
/// sweep-all term (0: none). Returns the `keep` best, best first; with
/// `bounded` false every top is scanned in enumeration order (the same
/// result, by the bounds' construction).
pub(super) fn scan(a: &ScanArgs, strict: bool, sweep: u8, bounded: bool) -> Vec<Candidate> {
    match (strict, sweep) {
        (false, 0) => scan_as::<false, 0>(a, bounded),
        (false, 1) => scan_as::<false, 1>(a, bounded),
        (false, 2) => scan_as::<false, 2>(a, bounded),
        (false, _) => scan_as::<false, 3>(a, bounded),
        (true, 0) => scan_as::<true, 0>(a, bounded),
        (true, 1) => scan_as::<true, 1>(a, bounded),
        (true, 2) => scan_as::<true, 2>(a, bounded),
        (true, _) => scan_as::<true, 3>(a, bounded),
    }
}

fn scan_as<const STRICT: bool, const SWEEP: u8>(a: &ScanArgs, bounded: bool) -> Vec<Candidate> {
    let tops: Vec<(f32, u16)> = if bounded {
        top_bounds::<SWEEP>(a)
    } else {
        (0..SUBSETS3).map(|t| (f32::INFINITY, t as u16)).collect()
    };
    scan_tops::<STRICT, SWEEP>(a, &tops)
}

/// The scan over `tops` ((bound, top), best bound first), stopped at the
/// first top whose bound is below the last kept score.
fn scan_tops<const STRICT: bool, const SWEEP: u8>(
    a: &ScanArgs,
    tops: &[(f32, u16)],
) -> Vec<Candidate> {
    let halvings = &splits::table().halvings;
    let mut best: Vec<Candidate> = Vec::with_capacity(a.keep + 1);
    let mut threshold = f32::NEG_INFINITY;
    for &(bound, t) in tops {
        if bound < threshold {
            break;
        }
        let t = t as usize;
        let st = a.top_strengths[t];
        let [tv, tw, tl] = a.top_scores[t];
        let first = t * HALVINGS_PER_TOP;
        // the middle and bottom of a halving are in either order
        for (h, &[_, x, y]) in halvings[first..first + HALVINGS_PER_TOP].iter().enumerate() {
            let (px, py) = (
                &a.five_scores[x as usize & 2047],
                &a.five_scores[y as usize & 2047],
            );
            let (pm, pb, m, b) = if px.strength <= py.strength {
                (px, py, x, y)
            } else {
                (py, px, y, x)
            };
            let ok = if STRICT {
                (pb.strength > pm.strength) & (pm.strength > st)
            } else {
                pm.strength >= st
            };
            let pw3 = tw * pm.as_middle[1] * pb.as_bottom[1];
            let pl3 = tl * pm.as_middle[2] * pb.as_bottom[2];
            let score = fast_score::<SWEEP>(a, tv, pm.as_middle[0], pb.as_bottom[0], pw3, pl3);
            // branch-free validity: an invalid split never passes, a valid
            // one always does (a NaN or -inf score from extreme rules
            // becomes the lowest finite score, so the scan keeps a split)
            let score = if ok {
                score.max(f32::MIN)
            } else {
                f32::NEG_INFINITY
            };
            // a score equal to the last kept one enters when it comes
            // earlier in the enumeration
            if score >= threshold && score > f32::NEG_INFINITY {
                threshold = insert(
                    &mut best,
                    a.keep,
                    Candidate {
                        score,
                        order: (first + h) as u32,
                        top: t as u16,
                        middle: m,
                        bottom: b,
                    },
                );
            }
        }
    }
    best
}

/// The fast-score scan of rules under which no arrangement fouls
/// (`foul.mode = "none"`): every split, the two five-card subsets of each
/// halving in either row, every top visited (the bounds assume rows in
/// order). Returns the `keep` best, best first, kept by (score, then
/// enumeration order, a halving's weaker subset in the middle first).
pub(super) fn scan_unordered(a: &ScanArgs, sweep: u8) -> Vec<Candidate> {
    match sweep {
        0 => scan_unordered_as::<0>(a),
        1 => scan_unordered_as::<1>(a),
        2 => scan_unordered_as::<2>(a),
        _ => scan_unordered_as::<3>(a),
    }
}

fn scan_unordered_as<const SWEEP: u8>(a: &ScanArgs) -> Vec<Candidate> {
    let halvings = &splits::table().halvings;
    let mut best: Vec<Candidate> = Vec::with_capacity(a.keep + 1);
    let mut threshold = f32::NEG_INFINITY;
    for (t, &[tv, tw, tl]) in a.top_scores.iter().enumerate() {
        let first = t * HALVINGS_PER_TOP;
        for (h, &[_, x, y]) in halvings[first..first + HALVINGS_PER_TOP].iter().enumerate() {
            let (px, py) = (
                &a.five_scores[x as usize & 2047],
                &a.five_scores[y as usize & 2047],
            );
            let weaker_first = px.strength <= py.strength;
            for swapped in [false, true] {
                let ((pm, m), (pb, b)) = if weaker_first ^ swapped {
                    ((px, x), (py, y))
                } else {
                    ((py, y), (px, x))
                };
                let pw3 = tw * pm.as_middle[1] * pb.as_bottom[1];
                let pl3 = tl * pm.as_middle[2] * pb.as_bottom[2];
                let score = fast_score::<SWEEP>(a, tv, pm.as_middle[0], pb.as_bottom[0], pw3, pl3)
                    .max(f32::MIN);
                if score >= threshold {
                    let order = (2 * (first + h) + usize::from(swapped)) as u32;
                    let c = Candidate {
                        score,
                        order,
                        top: t as u16,
                        middle: m,
                        bottom: b,
                    };
                    threshold = insert(&mut best, a.keep, c);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
