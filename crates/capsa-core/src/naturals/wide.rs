//! Naturals of decks with copies or jokers
//! (docs/rules.md, "Naturals of larger decks"):
//! every definition read on the cards' faces, a second copy counting its
//! rank and suit again, and each joker played as every face in turn.

use super::raised::raised_by;
use super::{is355, runs_cover, splits_into_straights, suit_splits, FLUSH_COUNTS};
use crate::cards::{face, is_joker, rank_index, suit, DECK};
use crate::natural_kind::Natural;
use crate::rules::NaturalEntry;

/// Rank index of the 8 and of the jack.
const EIGHT: usize = 6;
const JACK: usize = 9;

/// What the definitions read of 13 faces: counts by rank and by suit, and
/// each suit's rank-count word (nibble r: its cards of rank r).
struct Counts {
    cnt: [u8; 13],
    suit_words: [u64; 4],
    per_suit: [u32; 4],
}

impl Counts {
    fn of(faces: &[u8; 13]) -> Counts {
        let mut c = Counts {
            cnt: [0; 13],
            suit_words: [0; 4],
            per_suit: [0; 4],
        };
        for &f in faces {
            let (r, s) = (rank_index(f) as usize, suit(f) as usize);
            c.cnt[r] += 1;
            c.suit_words[s] += 1 << (4 * r);
            c.per_suit[s] += 1;
        }
        c
    }

    fn most(&self) -> u8 {
        self.cnt.iter().copied().max().unwrap_or(0)
    }

    fn sum_div(&self, k: u8) -> u8 {
        self.cnt.iter().map(|&n| n / k).sum()
    }

    /// The nonzero rank counts, largest first.
    fn shape(&self) -> ([u8; 13], usize) {
        let mut out = self.cnt;
        out.sort_unstable_by(|a, b| b.cmp(a));
        (out, out.iter().filter(|&&n| n > 0).count())
    }

    fn red(&self) -> u32 {
        self.per_suit[0] + self.per_suit[2]
    }

    /// Whether every rank held lies in `low..=high` (rank indices).
    fn ranks_within(&self, low: usize, high: usize) -> bool {
        self.cnt
            .iter()
            .enumerate()
            .all(|(r, &n)| n == 0 || (low..=high).contains(&r))
    }

    fn rank_word(&self) -> u64 {
        self.suit_words.iter().sum()
    }
}

#[inline(always)]
fn bit(n: Natural, cond: bool) -> u32 {
    (cond as u32) << (n as u32)
}

/// The bit set (bit `natural as u32`) of every natural 13 faces qualify
/// for by its default definition (docs/rules.md, "The naturals").
fn qualifying_faces(c: &Counts) -> u32 {
    use Natural::*;
    let dragon = c.cnt.iter().all(|&n| n == 1);
    let mut odd = c.cnt.iter().copied().filter(|n| n % 2 == 1);
    let five_pairs_trips = odd.next().is_some_and(|n| n >= 3) && odd.next().is_none();
    let (shape, groups) = c.shape();
    let red = c.red();
    let mut q = bit(CleanDragon, dragon && c.per_suit.contains(&13))
        | bit(Dragon, dragon)
        | bit(TwelveRoyals, c.cnt[JACK..].iter().sum::<u8>() >= 12)
        | bit(ThreeQuads, c.sum_div(4) >= 3)
        | bit(AllHigh, c.ranks_within(EIGHT, 12))
        | bit(AllLow, c.ranks_within(0, EIGHT))
        | bit(FullColored, red == 13 || red == 0)
        | bit(TwelveSameColor, !(2..=11).contains(&red))
        | bit(FourTriples, c.sum_div(3) >= 4)
        | bit(FivePairsTrips, five_pairs_trips)
        | bit(SixPairs, c.sum_div(2) >= 6)
        | bit(NoPictureCards, c.cnt[JACK..12].iter().all(|&n| n == 0))
        | bit(TwoFullHouses, shape[..groups] == [3, 3, 2, 2, 2, 1])
        | bit(SixOfAKind, c.most() >= 6)
        | bit(SevenOfAKind, c.most() >= 7)
        | bit(EightOfAKind, c.most() >= 8)
        | bit(TwoFiveOfAKinds, shape[..groups] == [5, 5, 3]);
    if c.per_suit.iter().all(|&n| (FLUSH_COUNTS >> n) & 1 != 0) {
        q |= bit(ThreeFlushes, true);
        if (0..4).all(|s| suit_splits(c.suit_words[s], c.per_suit[s])) {
            q |= bit(ThreeStraightFlushes, true);
        }
    }
    // a straight holds a rank once, so three straights hold none four times
    let word = c.rank_word();
    let any = word & super::LO | (word >> 1 | word >> 2) & super::LO;
    if c.most() <= 3 && runs_cover(any) && splits_into_straights(word, is355) {
        q |= bit(ThreeStraights, true);
    }
    q
}

/// Whether faces of counts `c` (`q` their [`qualifying_faces`]) qualify for
/// the entry's natural, its parameters applied.
fn qualifies(c: &Counts, q: u32, e: &NaturalEntry) -> bool {
    match e.natural {
        Natural::AllHigh => c.ranks_within(e.lowest as usize, 12),
        Natural::AllLow => c.ranks_within(0, e.highest as usize),
        Natural::TwelveRoyals => c.cnt[JACK..].iter().sum::<u8>() >= e.count,
        Natural::TwelveSameColor if e.exactly => matches!(c.red(), 12 | 1),
        n => (q >> (n as u32)) & 1 != 0,
    }
}

/// The ranks of 13 faces grouped, groups ordered by size then rank, largest
/// first, and how many groups there are
/// (docs/rules.md, "Natural against natural").
pub fn rank_groups(faces: &[u8; 13]) -> ([u8; 13], usize) {
    let mut cnt = [0u8; 13];
    for &f in faces {
        cnt[rank_index(face(f)) as usize] += 1;
    }
    // (count, rank) of each rank held, largest first
    let mut groups = [(0u8, 0u8); 13];
    let mut len = 0;
    for r in 0..13u8 {
        if cnt[r as usize] > 0 {
            groups[len] = (cnt[r as usize], r);
            len += 1;
        }
    }
    groups[..len].sort_unstable_by(|a, b| b.cmp(a));
    let mut out = [0u8; 13];
    for (slot, &(_, r)) in out.iter_mut().zip(&groups[..len]) {
        *slot = r;
    }
    (out, len)
}

/// One way of playing the jokers: the 13 faces, the earliest entry they
/// qualify for, whether they raise it, and their rank groups.
pub(super) struct Playing {
    pub(super) faces: [u8; 13],
    pub(super) index: usize,
    pub(super) raised: bool,
    groups: ([u8; 13], usize),
}

impl Playing {
    /// How the faces play under `entries`; `None` when they qualify for none.
    fn of(faces: [u8; 13], entries: &[NaturalEntry]) -> Option<Playing> {
        let c = Counts::of(&faces);
        let q = qualifying_faces(&c);
        let index = entries.iter().position(|e| qualifies(&c, q, e))?;
        let raised = raised_by(&c.suit_words, c.most() >= 4, &entries[index]);
        Some(Playing {
            faces,
            index,
            raised,
            groups: rank_groups(&faces),
        })
    }

    /// Whether this playing is stronger than `other`: an earlier entry, then
    /// raised over not, then higher rank groups.
    fn beats(&self, other: &Playing) -> bool {
        let mine = &self.groups.0[..self.groups.1];
        let theirs = &other.groups.0[..other.groups.1];
        (other.index, self.raised, mine) > (self.index, other.raised, theirs)
    }
}

/// Every way of playing the jokers of `cards`: the faces of the other cards
/// with each joker as each face (two jokers: each unordered pair of faces).
fn playings(cards: &[u8; 13]) -> Vec<[u8; 13]> {
    let mut base = [0u8; 13];
    let mut jokers = 0;
    let mut n = 0;
    for &c in cards {
        if is_joker(c) {
            jokers += 1;
        } else {
            base[n] = face(c);
            n += 1;
        }
    }
    let faces = 0..DECK as u8;
    match jokers {
        0 => vec![base],
        1 => faces
            .map(|a| {
                let mut f = base;
                f[12] = a;
                f
            })
            .collect(),
        _ => faces
            .flat_map(|a| (a..DECK as u8).map(move |b| (a, b)))
            .map(|(a, b)| {
                let mut f = base;
                f[11] = a;
                f[12] = b;
                f
            })
            .collect(),
    }
}

/// Bit set (bit `n as u32`) of every natural some way of playing the
/// jokers of `cards` (13 distinct ids of any deck) qualifies for, whatever
/// the rules.
pub(super) fn qualifying_played(cards: &[u8; 13]) -> u32 {
    playings(cards)
        .iter()
        .fold(0, |bits, faces| bits | qualifying_faces(&Counts::of(faces)))
}

/// How a seat holding `cards` (13 distinct ids of a deck with copies or
/// jokers) plays its natural among `entries`: the earliest entry some way
/// of playing the jokers qualifies for, played raised when it can be, then
/// with its highest rank groups; `None` when no way qualifies.
pub(super) fn strongest_playing(cards: &[u8; 13], entries: &[NaturalEntry]) -> Option<Playing> {
    if !cards.iter().any(|&c| is_joker(c)) {
        // one way to play them: no list to make
        return Playing::of(cards.map(face), entries);
    }
    playings(cards)
        .into_iter()
        .filter_map(|faces| Playing::of(faces, entries))
        .reduce(|best, p| if p.beats(&best) { p } else { best })
}

#[cfg(test)]
#[path = "wide_tests.rs"]
mod tests;
