//! The greedy baseline (`Strategy::Greedy`): the strongest bottom of the
//! 13 cards, then the strongest middle of the other eight (the first in the
//! split order among equals), found by ranking only the five-card hands of
//! the best category the cards hold: a few hundred nanoseconds instead of
//! ranking 1,287 subsets (a test compares it with ranking all of them).
//! The categories are ordered on one scale (docs/rules.md, "Categories"),
//! so the strongest subset lies in the best category any subset reaches,
//! and each step below lists every subset of its category: it is reached
//! only when the cards hold none of the categories above it.

use std::sync::OnceLock;

use crate::rank::Evaluator;
use crate::splits::{self, SubsetStrengths, SUBSETS3, SUBSETS5};

/// The rank indices of the ten straights (the wheel A-2-3-4-5 first).
const STRAIGHTS: [[usize; 5]; 10] = {
    let mut runs = [[0usize; 5]; 10];
    runs[0] = [12, 0, 1, 2, 3];
    let mut low = 0;
    while low < 9 {
        runs[low + 1] = [low, low + 1, low + 2, low + 3, low + 4];
        low += 1;
    }
    runs
};

const ALL13: u16 = (1 << 13) - 1;

/// Split-table index of every 3- and 5-position mask.
struct Index {
    three: Vec<u16>,
    five: Vec<u16>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let t = splits::table();
        let mut three = vec![u16::MAX; 1 << 13];
        let mut five = vec![u16::MAX; 1 << 13];
        for (i, &m) in t.masks3.iter().enumerate().take(SUBSETS3) {
            three[m as usize] = i as u16;
        }
        for (i, &m) in t.masks5.iter().enumerate().take(SUBSETS5) {
            five[m as usize] = i as u16;
        }
        Index { three, five }
    })
}

/// Every `k`-subset of the bits of `mask`.
fn each_subset(mask: u16, k: u32, f: &mut impl FnMut(u16)) {
    fn go(rest: u16, k: u32, acc: u16, f: &mut impl FnMut(u16)) {
        if k == 0 {
            f(acc);
            return;
        }
        if rest.count_ones() < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, f);
        go(rest & !low, k, acc, f);
    }
    go(mask, k, 0, f);
}

/// The strongest five-card subset seen so far: its strength, split-table
/// index and position mask.
struct Strongest<'a> {
    evaluator: &'a Evaluator,
    cards: &'a [u8; 13],
    index: &'a [u16],
    best: Option<(u32, u16, u16)>,
}

impl Strongest<'_> {
    fn offer(&mut self, mask: u16) {
        let mut five = [0u8; 5];
        let mut k = 0;
        let mut bits = mask;
        while bits != 0 {
            five[k] = self.cards[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            k += 1;
        }
        let strength = self.evaluator.eval5(five);
        let at = self.index[mask as usize];
        let better = match self.best {
            None => true,
            Some((s, i, _)) => strength > s || (strength == s && at < i),
        };
        if better {
            self.best = Some((strength, at, mask));
        }
    }
}

/// The strongest five cards among the positions in `avail` (at least five)
/// of the sorted hand `cards`: (strength, position mask). Among equals, the
/// first in the split order.
fn strongest_five(evaluator: &Evaluator, cards: &[u8; 13], avail: u16) -> (u32, u16) {
    let mut by_rank = [0u16; 13];
    let mut by_suit = [0u16; 4];
    let mut bits = avail;
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        by_rank[(cards[p] >> 2) as usize] |= 1 << p;
        by_suit[(cards[p] & 3) as usize] |= 1 << p;
        bits &= bits - 1;
    }
    let count = |m: u16| m.count_ones();
    let mut s = Strongest {
        evaluator,
        cards,
        index: &index().five,
        best: None,
    };
    let done = |s: &Strongest| s.best.map(|(strength, _, mask)| (strength, mask));
    // straight flushes (and royal flushes)
    for &suit in by_suit.iter().filter(|&&m| count(m) >= 5) {
        for run in &STRAIGHTS {
            let m = run.iter().fold(0, |m, &r| m | (by_rank[r] & suit));
            if count(m) == 5 {
                s.offer(m);
            }
        }
    }
    if let Some(found) = done(&s) {
        return found;
    }
    // quads and any kicker
    for &quad in by_rank.iter().filter(|&&m| count(m) == 4) {
        each_subset(avail & !quad, 1, &mut |k| s.offer(quad | k));
    }
    if let Some(found) = done(&s) {
        return found;
    }
    // full houses
    for (t, &trips) in by_rank.iter().enumerate().filter(|(_, &m)| count(m) >= 3) {
        for (_, &pair) in by_rank
            .iter()
            .enumerate()
            .filter(|&(p, &m)| p != t && count(m) >= 2)
        {
            each_subset(trips, 3, &mut |a| {
                each_subset(pair, 2, &mut |b| s.offer(a | b))
            });
        }
    }
    if let Some(found) = done(&s) {
        return found;
    }
    // flushes
    for &suit in by_suit.iter().filter(|&&m| count(m) >= 5) {
        each_subset(suit, 5, &mut |m| s.offer(m));
    }
    if let Some(found) = done(&s) {
        return found;
    }
    // straights: one card of each rank of a run
    for run in &STRAIGHTS {
        if run.iter().all(|&r| by_rank[r] != 0) {
            let ranks = run.map(|r| by_rank[r]);
            each_straight(&ranks, 0, &mut |m| s.offer(m));
        }
    }
    if let Some(found) = done(&s) {
        return found;
    }
    offer_below_straight(&mut s, avail, &by_rank);
    done(&s).unwrap_or((0, 0))
}

/// Offers the hands below a straight: trips, else two pair, else a pair,
/// else high cards. For hands where no rank is held four times and no two
/// ranks make a full house.
fn offer_below_straight(s: &mut Strongest, avail: u16, by_rank: &[u16; 13]) {
    let count = |m: u16| m.count_ones();
    let pairs: Vec<u16> = by_rank.iter().copied().filter(|&m| count(m) == 2).collect();
    if let Some(&trips) = by_rank.iter().find(|&&m| count(m) == 3) {
        each_subset(avail & !trips, 2, &mut |k| s.offer(trips | k));
    } else if pairs.len() >= 2 {
        for (i, &a) in pairs.iter().enumerate() {
            for &b in &pairs[i + 1..] {
                each_subset(avail & !(a | b), 1, &mut |k| s.offer(a | b | k));
            }
        }
    } else if let Some(&pair) = pairs.first() {
        each_subset(avail & !pair, 3, &mut |k| s.offer(pair | k));
    } else {
        each_subset(avail, 5, &mut |m| s.offer(m));
    }
}

/// Every choice of one position per rank mask of a straight.
fn each_straight(ranks: &[u16; 5], at: usize, f: &mut impl FnMut(u16)) {
    fn go(ranks: &[u16; 5], at: usize, acc: u16, f: &mut impl FnMut(u16)) {
        if at == 5 {
            f(acc);
            return;
        }
        let mut bits = ranks[at];
        while bits != 0 {
            let low = bits & bits.wrapping_neg();
            go(ranks, at + 1, acc | low, f);
            bits &= !low;
        }
    }
    go(ranks, at, 0, f);
}

/// The greedy arrangement of a sorted hand (top 0-2, middle 3-7, bottom
/// 8-12, as `splits::layout_of` lays it out), or `None` when it fouls
/// (possible only with `foul_check = "strict"`).
pub fn greedy_layout(evaluator: &Evaluator, strict: bool, cards: &[u8; 13]) -> Option<[u8; 13]> {
    let (bottom, bottom_mask) = strongest_five(evaluator, cards, ALL13);
    let (middle, middle_mask) = strongest_five(evaluator, cards, ALL13 & !bottom_mask);
    let top_mask = ALL13 & !bottom_mask & !middle_mask;
    let mut top = [0u8; 3];
    let mut bits = top_mask;
    for slot in top.iter_mut() {
        *slot = cards[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    if !splits::is_valid(evaluator.eval3(top), middle, bottom, strict) {
        return None;
    }
    let ix = index();
    Some(splits::layout_of(
        cards,
        ix.three[top_mask as usize],
        ix.five[middle_mask as usize],
        ix.five[bottom_mask as usize],
    ))
}

/// [`greedy_layout`] from the strengths of every subset of the hand: the
/// same choice (the strongest five, the first in split order among
/// equals, then the strongest five of the rest), for rankings whose
/// categories the shortcut above does not list (a deck with copies or
/// jokers).
pub fn greedy_layout_of(subsets: &SubsetStrengths, strict: bool) -> Option<[u8; 13]> {
    let t = splits::table();
    let strongest = |avail: u16| {
        (0..SUBSETS5)
            .filter(|&i| t.masks5[i] & !avail == 0)
            .max_by_key(|&i| (subsets.s5[i], std::cmp::Reverse(i)))
            .expect("eight positions hold a five-card subset")
    };
    let bottom = strongest(ALL13);
    let middle = strongest(ALL13 & !t.masks5[bottom]);
    let top_mask = ALL13 & !t.masks5[bottom] & !t.masks5[middle];
    let top = index().three[top_mask as usize];
    if !splits::is_valid(
        subsets.s3[top as usize],
        subsets.s5[middle],
        subsets.s5[bottom],
        strict,
    ) {
        return None;
    }
    Some(splits::layout_of(
        &subsets.cards,
        top,
        middle as u16,
        bottom as u16,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{shuffled_deck, ChaCha20};
    use crate::rank::Ranking;
    use crate::splits::{sorted_hand, subset_strengths};

    /// The strongest subset by ranking all of them, as `Strategy::Greedy`
    /// finds it.
    fn brute(e: &Evaluator, cards: &[u8; 13], avail: u16) -> (u32, u16) {
        let t = splits::table();
        let subsets = subset_strengths(e, cards);
        let best = (0..SUBSETS5)
            .filter(|&i| t.masks5[i] & !avail == 0)
            .max_by_key(|&i| (subsets.s5[i], std::cmp::Reverse(i)))
            .unwrap();
        (subsets.s5[best], t.masks5[best])
    }

    fn rankings() -> Vec<Ranking> {
        let mut out = Vec::new();
        for tie_break_suit in [true, false] {
            for flush_suit_first in [true, false] {
                for wheel_second in [true, false] {
                    out.push(Ranking {
                        suit_strength: [2, 0, 3, 1],
                        tie_break_suit,
                        flush_suit_first,
                        wheel_second,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_strongest_five_are_those_of_ranking_every_subset() {
        let evaluators: Vec<Evaluator> = rankings().into_iter().map(Evaluator::new).collect();
        for seed in 0..1500u64 {
            let deck = shuffled_deck(&mut ChaCha20::from_seed(seed));
            let cards = sorted_hand(&deck[..13]).unwrap();
            let e = &evaluators[seed as usize % evaluators.len()];
            assert_eq!(
                strongest_five(e, &cards, ALL13),
                brute(e, &cards, ALL13),
                "{seed}"
            );
            let (_, bottom) = brute(e, &cards, ALL13);
            let rest = ALL13 & !bottom;
            assert_eq!(
                strongest_five(e, &cards, rest),
                brute(e, &cards, rest),
                "{seed}"
            );
        }
    }

    /// Hands made of few ranks or few suits reach every step (quads, full
    /// houses, two flushes, several straights).
    #[test]
    fn crowded_hands_reach_every_category() {
        let e = Evaluator::new(Ranking {
            tie_break_suit: false,
            ..Ranking::default()
        });
        let mut rng = ChaCha20::from_seed(77);
        let mut categories = [0u32; 10];
        for _ in 0..3000 {
            // 13 cards from a narrow slice of the deck
            let width = 16 + rng.below(14) as usize;
            let start = rng.below((52 - width) as u32 + 1) as usize;
            let mut pool: Vec<u8> = (start as u8..(start + width) as u8).collect();
            for i in (1..pool.len()).rev() {
                pool.swap(i, rng.below(i as u32 + 1) as usize);
            }
            let cards = sorted_hand(&pool[..13]).unwrap();
            for avail in [ALL13, ALL13 & !brute(&e, &cards, ALL13).1] {
                let got = strongest_five(&e, &cards, avail);
                assert_eq!(got, brute(&e, &cards, avail), "{cards:?}");
                categories[crate::rank::category_of(got.0) as usize] += 1;
            }
        }
        assert!(categories[1..9].iter().all(|&c| c > 0), "{categories:?}");
    }

    /// Greedy by ranking every subset: the strongest bottom, then the
    /// strongest middle of the rest, `None` where that fouls.
    fn brute_layout(e: &Evaluator, strict: bool, cards: &[u8; 13]) -> Option<[u8; 13]> {
        let t = splits::table();
        let subsets = subset_strengths(e, cards);
        let (_, bottom) = brute(e, cards, ALL13);
        let (_, middle) = brute(e, cards, ALL13 & !bottom);
        let at = |m: u16| t.masks5.iter().position(|&x| x == m).unwrap();
        let (bi, mi) = (at(bottom), at(middle));
        let ti = t
            .masks3
            .iter()
            .position(|&m| m == ALL13 & !bottom & !middle)
            .unwrap();
        splits::is_valid(subsets.s3[ti], subsets.s5[mi], subsets.s5[bi], strict)
            .then(|| splits::layout_of(cards, ti as u16, mi as u16, bi as u16))
    }

    #[test]
    fn the_layout_is_that_of_ranking_every_subset() {
        let evaluators: Vec<Evaluator> = rankings().into_iter().map(Evaluator::new).collect();
        for seed in 0..2000u64 {
            let deck = shuffled_deck(&mut ChaCha20::from_seed(seed + 10_000));
            let cards = sorted_hand(&deck[..13]).unwrap();
            let e = &evaluators[seed as usize % evaluators.len()];
            for strict in [false, true] {
                let got = greedy_layout(e, strict, &cards);
                assert_eq!(got, brute_layout(e, strict, &cards), "{seed} {strict}");
                // the layout of larger decks chooses as the shortcut does
                let subsets = subset_strengths(e, &cards);
                assert_eq!(greedy_layout_of(&subsets, strict), got, "{seed} {strict}");
            }
        }
    }

    #[test]
    fn each_subset_lists_every_subset_once() {
        let mut seen = Vec::new();
        each_subset(0b1011_0110_1001, 3, &mut |m| seen.push(m));
        assert_eq!(seen.len(), 35);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 35);
        assert!(seen
            .iter()
            .all(|m| m.count_ones() == 3 && m & !0b1011_0110_1001 == 0));
    }
}
