//! Ranking for decks with copies and jokers
//! (docs/rules.md, "Copies, five of a kind and jokers"). A hand of distinct faces without a joker is a
//! 52-card hand and goes to the 52-card evaluator as it is; the rest (a
//! repeated face, a joker) is ranked here, on the same strength scale, so
//! that every hand of such a deck compares with every other.

use super::{
    category_of, Evaluator, Rank, CATEGORY_SHIFT, FIVE_OF_A_KIND, FLUSH, FLUSH_PAIRS_SHIFT,
    FLUSH_SUIT_SHIFT, RANK_SHIFT,
};
use crate::cards::{face, is_joker};
use crate::cards::{rank_index, suit};

/// Per id, its face's bit (1 << face); every joker's is the same eight
/// high bits (and so is every id past 105's), so a hand's bits count five
/// (three) exactly when it holds five (three) faces once each and no joker.
static FACE_BITS: [u64; 256] = {
    let mut bits = [0xFFu64 << 56; 256];
    let mut id = 0;
    while id < 104 {
        bits[id] = 1 << (id % 52);
        id += 1;
    }
    bits
};

/// Per id, its face (jokers and ids past 105 give 0; they never reach a
/// read of it).
static FACES: [u8; 256] = {
    let mut faces = [0u8; 256];
    let mut id = 0;
    while id < 104 {
        faces[id] = (id % 52) as u8;
        id += 1;
    }
    faces
};

/// The ten straights as rank masks (the wheel A-2-3-4-5 first).
const STRAIGHT_MASKS: [u16; 10] = {
    let mut masks = [0u16; 10];
    masks[0] = 0b1_0000_0000_1111;
    let mut k = 1;
    while k < 10 {
        masks[k] = 0b1_1111 << (k - 1);
        k += 1;
    }
    masks
};

/// The evaluator of a deck with copies or jokers: the 52-card evaluator of
/// the same ranking, and what it does not know.
#[derive(Clone, Copy, Debug)]
pub struct WideEvaluator {
    base: Evaluator,
}

/// `n` choose `k` for the colex rank of a flush's kickers.
const fn choose(n: u32, k: u32) -> u32 {
    let mut out = 1;
    let mut i = 0;
    while i < k {
        out = out * (n - i) / (i + 1);
        i += 1;
    }
    if k > n {
        0
    } else {
        out
    }
}

impl WideEvaluator {
    pub fn new(base: Evaluator) -> Self {
        WideEvaluator { base }
    }

    /// The 52-card evaluator of the same ranking.
    pub fn base(&self) -> &Evaluator {
        &self.base
    }
}

impl Rank for WideEvaluator {
    /// Strength of five cards of a deck (distinct ids, copies and jokers
    /// allowed).
    #[inline(always)]
    fn eval5(&self, c: [u8; 5]) -> u32 {
        let bits = c.iter().fold(0u64, |m, &x| m | FACE_BITS[x as usize]);
        if bits.count_ones() == 5 {
            return self.base.eval5(c.map(|x| FACES[x as usize]));
        }
        self.best(&c)
    }

    /// Strength of three cards of a deck.
    #[inline(always)]
    fn eval3(&self, c: [u8; 3]) -> u32 {
        let bits = c.iter().fold(0u64, |m, &x| m | FACE_BITS[x as usize]);
        if bits.count_ones() == 3 {
            return self.base.eval3(c.map(|x| FACES[x as usize]));
        }
        self.best(&c)
    }
}

impl WideEvaluator {
    /// The strongest the hand can be, each joker taking a face. A joker
    /// takes the strongest suit, or the suit every other card shares (a
    /// flush): of two faces of one rank the one of the stronger suit is
    /// never weaker, unless the weaker one makes the flush.
    fn best(&self, c: &[u8]) -> u32 {
        self.best_played(c).0
    }

    /// The faces `c`'s cards play as in its strongest hand, in `c`'s order
    /// (a card not a joker plays as its own face; of the faces that make a
    /// joker's strongest hand, the one found first). `c` is three or five
    /// distinct ids of a deck.
    pub fn played(&self, c: &[u8]) -> Vec<u8> {
        let (_, chosen) = self.best_played(c);
        let mut jokers = chosen.iter();
        c.iter()
            .map(|&x| match is_joker(x) {
                true => *jokers.next().unwrap_or(&0),
                false => face(x),
            })
            .collect()
    }

    /// [`Self::best`] with the faces its jokers take (first joker first).
    fn best_played(&self, c: &[u8]) -> (u32, [u8; 2]) {
        let mut faces = [0u8; 5];
        let n = c.len();
        let mut jokers = 0;
        let mut others = 0;
        for &x in c {
            if is_joker(x) {
                jokers += 1;
            } else {
                faces[others] = face(x);
                others += 1;
            }
        }
        if jokers == 0 {
            return (self.faces(&faces[..n]), [0; 2]);
        }
        let strongest = self.suit_with_strength(3);
        let shared = faces[..others]
            .iter()
            .all(|&f| suit(f) == suit(faces[0]))
            .then(|| suit(faces[0]))
            .filter(|&s| others > 0 && n == 5 && s != strongest);
        let suits: &[u8] = match &shared {
            Some(s) => &[strongest, *s],
            None => &[strongest],
        };
        let ranks = if jokers == 1 {
            joker_ranks(&faces[..others])
        } else {
            two_joker_ranks(&faces[..others])
        };
        // on the stack: this runs for every hand holding a joker
        let mut pool = [0u8; 26];
        let mut len = 0;
        for r in (0..13u8).filter(|r| ranks >> r & 1 != 0) {
            for &s in suits {
                pool[len] = 4 * r + s;
                len += 1;
            }
        }
        let candidates = &pool[..len];
        let mut best = (0, [0; 2]);
        let mut offer = |strength: u32, taken: [u8; 2]| {
            if strength > best.0 {
                best = (strength, taken);
            }
        };
        for (i, &a) in candidates.iter().enumerate() {
            faces[others] = a;
            if jokers == 1 {
                offer(self.faces(&faces[..n]), [a, 0]);
                continue;
            }
            for &b in &candidates[i..] {
                faces[others + 1] = b;
                offer(self.faces(&faces[..n]), [a, b]);
            }
        }
        best
    }

    /// The suit id of strength `strength` under the ranking.
    fn suit_with_strength(&self, strength: u8) -> u8 {
        let s = self.base.ranking.suit_strength;
        (0..4u8).find(|&x| s[x as usize] == strength).unwrap_or(3)
    }

    /// Strength of three or five faces, which may repeat.
    fn faces(&self, f: &[u8]) -> u32 {
        let distinct = f.iter().fold(0u64, |m, &x| m | 1 << x).count_ones() as usize;
        if distinct == f.len() {
            return self.base.eval_unchecked(f);
        }
        let mut counts = [0u8; 13];
        for &x in f {
            counts[rank_index(x) as usize] += 1;
        }
        let flush = f.len() == 5 && f.iter().all(|&x| suit(x) == suit(f[0]));
        let most = counts.iter().copied().max().unwrap_or(0);
        let full_house = counts.contains(&3) && counts.contains(&2);
        let base = if most == 5 {
            let rank = rank_index(f[0]) as u32;
            (FIVE_OF_A_KIND as u32) << CATEGORY_SHIFT | (rank << 4) << RANK_SHIFT
        } else if flush && most < 4 && !full_house {
            self.flush_with_repeats(&counts, suit(f[0]))
        } else if f.len() == 5 {
            // quads and full houses rank above the flush they may also be
            self.base.rank_part5([f[0], f[1], f[2], f[3], f[4]])
        } else {
            self.base.rank_part3([f[0], f[1], f[2]])
        };
        if self.base.ranking.tie_break_suit {
            base | self.suit_key(f, &counts)
        } else {
            base
        }
    }

    /// A flush whose faces repeat: one pair, two pairs, or (a joker's
    /// doing) trips, its kind; its ranks compare as those of a pair, two
    /// pair or trips do.
    fn flush_with_repeats(&self, counts: &[u8; 13], flush_suit: u8) -> u32 {
        // the ranks of each count, highest first, on the stack
        let mut groups = [[0u32; 5]; 4];
        let mut lens = [0usize; 4];
        for r in (0..13u32).rev() {
            let n = counts[r as usize] as usize;
            if (1..=3).contains(&n) {
                groups[n][lens[n]] = r;
                lens[n] += 1;
            }
        }
        let of = |n: usize| &groups[n][..lens[n]];
        let (pairs, singles, trips) = (of(2), of(1), of(3));
        let colex = |s: &[u32]| -> u32 {
            s.iter()
                .rev()
                .enumerate()
                .map(|(k, &r)| choose(r, k as u32 + 1))
                .sum()
        };
        let (kind, key) = match (trips, pairs) {
            ([t], []) => (3, t << 9 | colex(singles)),
            ([], [p]) => (1, p << 9 | colex(singles)),
            ([], [high, low]) => (2, high << 8 | low << 4 | singles[0]),
            _ => unreachable!("a flush of five faces with a repeat and no full house"),
        };
        let suit_first = if self.base.ranking.flush_suit_first {
            (self.base.ranking.suit_strength[flush_suit as usize] as u32) << FLUSH_SUIT_SHIFT
        } else {
            0
        };
        (FLUSH as u32) << CATEGORY_SHIFT
            | kind << (RANK_SHIFT + FLUSH_PAIRS_SHIFT)
            | suit_first
            | key << RANK_SHIFT
    }

    /// The suit key: each card's suit strength in significance order
    /// (larger rank groups first, then higher rank, then stronger suit),
    /// two bits a card from bit 8 down. A repeated face makes no
    /// straight, so no wheel moves its ace.
    fn suit_key(&self, f: &[u8], counts: &[u8; 13]) -> u32 {
        let strength = self.base.ranking.suit_strength;
        let mut order: [(u8, u8, u8); 5] = [(0, 0, 0); 5];
        for (slot, &x) in order.iter_mut().zip(f) {
            let r = rank_index(x);
            *slot = (counts[r as usize], r, strength[suit(x) as usize]);
        }
        let order = &mut order[..f.len()];
        order.sort_unstable_by(|a, b| b.cmp(a));
        order.iter().enumerate().fold(0, |key, (k, &(_, _, s))| {
            key | (s as u32) << (8 - 2 * k as u32)
        })
    }
}

/// The ranks a lone joker may need to take beside the faces `others`: the
/// rank of their largest group, the highest of equal ones (a pair or
/// better, or a flush holding a pair, always beats what a new rank makes,
/// but a straight; and joining the largest group, the highest, makes the
/// most of them: trips over two pair, a full house of the higher pair,
/// quads over a full house, the higher pair), or one completing a
/// straight.
fn joker_ranks(others: &[u8]) -> u16 {
    let mut counts = [0u8; 13];
    for &f in others {
        counts[rank_index(f) as usize] += 1;
    }
    let joined = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .max_by_key(|&r| (counts[r as usize], r))
        .map_or(0, |r| 1u16 << r);
    let present = others.iter().fold(0u16, |m, &f| m | 1 << rank_index(f));
    let straights = if others.len() == 4 {
        STRAIGHT_MASKS
            .iter()
            .filter(|&&w| present & !w == 0 && (w & !present).count_ones() == 1)
            .fold(0, |m, &w| m | (w & !present))
    } else {
        0
    };
    joined | straights
}

/// The ranks two jokers may need to take beside the faces `others`: theirs
/// (trips up to five of a kind, two pairs, or a flush holding them, always
/// beat what new ranks make, but a straight) or the two completing a
/// straight with three distinct ranks.
fn two_joker_ranks(others: &[u8]) -> u16 {
    let present = others.iter().fold(0u16, |m, &f| m | 1 << rank_index(f));
    let straights = if others.len() == 3 {
        STRAIGHT_MASKS
            .iter()
            .filter(|&&w| present & !w == 0 && (w & !present).count_ones() == 2)
            .fold(0, |m, &w| m | (w & !present))
    } else {
        0
    };
    present | straights
}

/// Whether a strength is a five of a kind's (only decks with copies or
/// jokers make one).
pub fn is_five_of_a_kind(strength: u32) -> bool {
    category_of(strength) == FIVE_OF_A_KIND
}

#[cfg(test)]
mod tests;
