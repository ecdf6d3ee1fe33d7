use super::*;
use crate::cards::check_distinct;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::test_support::hand;

const TS: Natural = Natural::ThreeStraights;
const TF: Natural = Natural::ThreeFlushes;
const TSF: Natural = Natural::ThreeStraightFlushes;

fn names(q: u32) -> Vec<&'static str> {
    ALL.iter()
        .filter(|&&n| (q >> (n as u32)) & 1 != 0)
        .map(|n| n.name())
        .collect()
}

fn has(q: u32, n: Natural) -> bool {
    (q >> (n as u32)) & 1 != 0
}

/// Asserts the exact set of naturals the hand qualifies for.
fn check(text: &str, want: &[&str]) {
    let got = names(qualifying(&hand(text)));
    let mut want: Vec<&str> = want.to_vec();
    want.sort_by_key(|w| NATURAL_NAMES.iter().position(|n| n == w).expect(w));
    assert_eq!(got, want, "hand {text}");
}

#[test]
fn clean_dragon_and_dragon() {
    let spades = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As";
    check(
        spades,
        &[
            "clean-dragon",
            "dragon",
            "three-straight-flushes",
            "full-colored",
            "twelve-same-color",
            "three-straights",
            "three-flushes",
        ],
    );
    // One card of another suit: a dragon, no longer clean, no flush split.
    check(
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah",
        &["dragon", "twelve-same-color", "three-straights"],
    );
    check(
        "2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad",
        &["dragon", "three-straights"],
    );
    // Twelve ranks and a pair: nothing.
    check("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Kd", &[]);
}

#[test]
fn twelve_royals() {
    check(
        "Jd Jc Jh Js Qd Qc Qh Qs Kd Kc Kh Ks 2d",
        &["twelve-royals", "three-quads", "six-pairs"],
    );
    check("Ad Ac Ah As Kd Kc Kh Qd Qc Qh Jd Jc 2s", &["twelve-royals"]);
    // Eleven royals.
    check("Ad Ac Ah As Kd Kc Kh Qd Qc Qh Jd 2s 3s", &[]);
}

#[test]
fn three_straight_flushes() {
    check(
        "Qh Kh Ah 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s",
        &["three-straight-flushes", "three-straights", "three-flushes"],
    );
    check(
        "Ah 2h 3h 4d 5d 6d 7d 8d 4s 5s 6s 7s 8s",
        &[
            "three-straight-flushes",
            "three-straights",
            "three-flushes",
            "no-picture-cards",
        ],
    );
    // Two suits: 5 + 8, 10 + 3.
    check(
        "4h 5h 6h 7h 8h 9h Th Jh 9s Ts Js Qs Ks",
        &["three-straight-flushes", "three-straights", "three-flushes"],
    );
    check(
        "2h 3h 4h 5h 6h 9h Th Jh Qh Kh 7s 8s 9s",
        &["three-straight-flushes", "three-straights", "three-flushes"],
    );
    // K-A-2 of one suit is not a three-card straight flush (nor a straight).
    check("Kh Ah 2h 3d 4d 5d 6d 7d 3s 4s 5s 6s 7s", &["three-flushes"]);
    // Suits split 3/5/5, one five-card row is not a straight.
    check("Qh Kh Ah 2d 3d 4d 5d 7d 2s 3s 4s 5s 6s", &["three-flushes"]);
    // Three straights and three flushes, but not from the same split.
    check(
        "Qh Kh Ad 2d 3d 4d 5d 6h 2s 3s 4s 5s 6s",
        &["three-straights", "three-flushes"],
    );
    // Ten of a suit that is not two five-card straight flushes.
    check("2h 3h 4h 5h 6h 8h 9h Th Jh Kh 7s 8s 9s", &["three-flushes"]);
}

#[test]
fn quads_trips_and_pairs() {
    check(
        "2d 2c 2h 2s 3d 3c 3h 3s 4d 4c 4h 4s 5d",
        &["three-quads", "all-low", "six-pairs", "no-picture-cards"],
    );
    // Two quads, trips and a pair: trips plus five pairs, six pairs.
    check(
        "2d 2c 2h 2s 3d 3c 3h 3s 4d 4c 4h 5d 5c",
        &[
            "all-low",
            "five-pairs-trips",
            "six-pairs",
            "no-picture-cards",
        ],
    );
    check(
        "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 5h 6s",
        &["all-low", "four-triples", "no-picture-cards"],
    );
    // A quad counts as trips.
    check(
        "2d 2c 2h 2s 3d 3c 3h 4d 4c 4h 5d 5c 5h",
        &["all-low", "four-triples", "no-picture-cards"],
    );
    // Three trips: not four triples (but 2-4, 2-6, 2-6 are three straights).
    check(
        "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 6h 6s",
        &["all-low", "three-straights", "no-picture-cards"],
    );
    check(
        "2d 2c 2h 3d 3c 5h 5s 7d 7c 9h 9s Jd Jc",
        &["five-pairs-trips", "six-pairs"],
    );
    // A quad counts as two pairs.
    check(
        "2d 2c 2h 2s 3d 3c 3h 5h 5s 7d 7c 9h 9s",
        &["five-pairs-trips", "six-pairs", "no-picture-cards"],
    );
    // Two trips, three pairs and a single: two full houses, neither trips
    // plus five pairs nor six pairs.
    check(
        "2d 2c 2h 3d 3c 3h 5h 5s 7d 7c 9h 9s Jd",
        &["two-full-houses"],
    );
    check(
        "2d 2c 2h 4h 4s 4d 6c 6h 8s 8d Tc Th Ad",
        &["no-picture-cards", "two-full-houses"],
    );
    // Two full houses need exactly two trips and three pairs: not three
    // trips, not a quad, not two pairs.
    check(
        "2d 2c 2h 4h 4s 4d 6c 6h 6s 8d Tc Th Ad",
        &["no-picture-cards"],
    );
    check(
        "2d 2c 2h 2s 4s 4d 4c 6h 8s 8d Tc Th Ad",
        &["no-picture-cards"],
    );
    check(
        "2d 2c 2h 4h 4s 4d 6c 6h 8s 9d Tc Th Ad",
        &["no-picture-cards"],
    );
    check("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Qs Ad", &["six-pairs"]);
    check(
        "2d 2c 2h 2s 4h 4s 6d 6c 8h 8s Td Tc Ah",
        &["six-pairs", "no-picture-cards"],
    );
    // A quad, four pairs and a single: six pairs but not trips + five pairs.
    check(
        "2d 2c 2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d",
        &["all-low", "six-pairs", "no-picture-cards"],
    );
    check("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Ks Ad", &[]);
}

#[test]
fn high_low_and_pictures() {
    check("8d 8c 9h 9s Td Jc Qh Ks Ad Ac Ah Kd Qs", &["all-high"]);
    check("7d 8c 9h 9s Td Jc Qh Ks Ad Ac Ah Kd Qs", &[]);
    check(
        "2d 2c 2h 3s 4d 5c 6h 7s 8d 8c 3d 4c 5h",
        &["all-low", "no-picture-cards"],
    );
    check(
        "2d 2c 2h 3s 4d 5c 6h 7s 9d 8c 3d 4c 5h",
        &["no-picture-cards"],
    );
    // Aces are high: not all low.
    check(
        "2d 2c 2h 3s 4d 5c 6h 7s Ad 8c 3d 4c 5h",
        &["no-picture-cards"],
    );
    check(
        "Ad 2c 3h 4s 5d 6c 7h 8s 9d Tc Ah 2s 5s",
        &["no-picture-cards"],
    );
    check("Ad 2c 3h 4s 5d 6c 7h 8s 9d Jc Ah 2s 5s", &[]);
}

#[test]
fn colours() {
    check(
        "2d 4d 6d 8d Td Qd Ad 2h 5h 7h 9h Jh Kh",
        &["full-colored", "twelve-same-color"],
    );
    check(
        "2d 4d 6d 8d Td Qd Ad 2s 5h 7h 9h Jh Kh",
        &["twelve-same-color"],
    );
    check("2d 4d 6d 8d Td Qd Ad 2s 5s 7h 9h Jh Kh", &[]);
    check(
        "2c 4c 6c 8c Tc Qc Ac 2s 5s 7s 9s Js Kd",
        &["twelve-same-color"],
    );
}

#[test]
fn three_straights() {
    check(
        "Ad 2c 3h 4s 5d 6c 7h 8s 4d 5c 6h 7s 8c",
        &["three-straights", "no-picture-cards"],
    );
    check(
        "Qd Kc Ah 2s 3d 4c 5h 6s 2d 3c 4h 5s 6c",
        &["three-straights"],
    );
    // Ace high in a five-card row and low in another.
    check(
        "Td Jc Qh Ks Ad 2c 3h 4s 5d Ac 2h 3s 4d",
        &["three-straights"],
    );
    // K-A-2 is not a three-card straight.
    check("Kd Ac 2h 3d 4c 5h 6s 7d 3c 4h 5s 6d 7c", &[]);
}

#[test]
fn three_flushes() {
    check("2h 7h 9h 2d 4d 6d 8d Td 3c 5c 9c Jc Kc", &["three-flushes"]);
    check(
        "2h 7h 9h 2d 4d 6d 8d Td 3d 5d 9d Jd Kd",
        &["three-flushes", "full-colored", "twelve-same-color"],
    );
    // 4 + 4 + 5.
    check("2h 7h 9h Jh 4d 6d 8d Td 3c 5c 9c Jc Kc", &[]);
}

/// The declared natural and its points, the seat declaring.
fn strongest(cards: &[u8; 13], enabled: &[NaturalEntry]) -> Option<(Natural, i64)> {
    declared_in(cards, enabled, true).map(|d| (d.entry.natural, d.points))
}

#[test]
fn the_declared_natural_follows_the_enabled_order() {
    let spades = hand("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
    let n = Natural::from_name;
    assert_eq!(strongest(&spades, &[]), None);
    let e = crate::rules::NaturalEntry::new;
    let enabled = [
        e(n("dragon").unwrap(), 13),
        e(n("three-flushes").unwrap(), 3),
    ];
    assert_eq!(strongest(&spades, &enabled), Some((Natural::Dragon, 13)));
    let reversed = [enabled[1], enabled[0]];
    assert_eq!(
        strongest(&spades, &reversed),
        Some((Natural::ThreeFlushes, 3))
    );
    let nothing = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Kd");
    let everything: Vec<_> = ALL.iter().map(|&n| e(n, 1)).collect();
    assert_eq!(strongest(&nothing, &everything), None);
    assert_eq!(
        strongest(
            &spades,
            &[e(Natural::SixPairs, 4), e(Natural::ThreeStraights, 4)]
        ),
        Some((Natural::ThreeStraights, 4))
    );
}

// ----- brute force -------------------------------------------------

fn is_straight(ranks: &mut [u8]) -> bool {
    ranks.sort_unstable();
    let n = ranks.len();
    let distinct = ranks.windows(2).all(|w| w[0] != w[1]);
    if !distinct {
        return false;
    }
    if ranks[n - 1] - ranks[0] == n as u8 - 1 {
        return true;
    }
    // Ace low: A-2-3 or A-2-3-4-5.
    ranks[n - 1] == 12 && ranks[n - 2] == n as u8 - 2 && ranks[0] == 0
}

/// (straight, flush) of the cards of `h` at the positions in `mask`.
fn row(h: &[u8; 13], mask: u16) -> (bool, bool) {
    let cards: Vec<u8> = (0..13)
        .filter(|i| mask >> i & 1 != 0)
        .map(|i| h[i])
        .collect();
    let mut ranks: Vec<u8> = cards.iter().map(|c| c >> 2).collect();
    let flush = cards.iter().all(|c| c & 3 == cards[0] & 3);
    (is_straight(&mut ranks), flush)
}

/// (three-straights, three-flushes, three-straight-flushes) by trying every
/// 3/5/5 partition.
fn naive(h: &[u8; 13]) -> (bool, bool, bool) {
    let mut flags = [0u8; 1 << 13];
    for m in 0u16..1 << 13 {
        let k = m.count_ones();
        if k == 3 || k == 5 {
            let (s, f) = row(h, m);
            flags[m as usize] = s as u8 | (f as u8) << 1 | ((s && f) as u8) << 2;
        }
    }
    let mut any = 0u8;
    for a in 0..13 {
        for b in a + 1..13 {
            for c in b + 1..13 {
                let top = 1u16 << a | 1 << b | 1 << c;
                let rest: Vec<usize> = (0..13).filter(|i| top >> i & 1 == 0).collect();
                // the middle row holds rest[0]; the bottom row is the rest.
                for i in 1..10 {
                    for j in i + 1..10 {
                        for k in j + 1..10 {
                            for l in k + 1..10 {
                                let mid = 1u16 << rest[0]
                                    | 1 << rest[i]
                                    | 1 << rest[j]
                                    | 1 << rest[k]
                                    | 1 << rest[l];
                                let bot = 0x1FFF ^ top ^ mid;
                                any |=
                                    flags[top as usize] & flags[mid as usize] & flags[bot as usize];
                            }
                        }
                    }
                }
                if any == 7 {
                    return (true, true, true);
                }
            }
        }
    }
    (any & 1 != 0, any & 2 != 0, any & 4 != 0)
}

fn fast3(h: &[u8; 13]) -> (bool, bool, bool) {
    let q = qualifying(h);
    (has(q, TS), has(q, TF), has(q, TSF))
}

fn draw(rng: &mut ChaCha20, pool: &[u8]) -> [u8; 13] {
    let mut p = pool.to_vec();
    for i in 0..13 {
        let j = i + rng.below((p.len() - i) as u32) as usize;
        p.swap(i, j);
    }
    p[..13].try_into().unwrap()
}

/// Cards of three random runs (3, 5, 5; positions 0..=13, ace at both
/// ends), each in one suit when `suited`; retried until distinct, then
/// with one card swapped for a random other card half of the time.
fn built(rng: &mut ChaCha20, suited: bool) -> [u8; 13] {
    loop {
        let mut cards = Vec::with_capacity(13);
        for len in [3u32, 5, 5] {
            let start = rng.below(15 - len);
            let suit = rng.below(4) as u8;
            for p in start..start + len {
                let rank = if p == 0 { 12 } else { p as u8 - 1 };
                let s = if suited { suit } else { rng.below(4) as u8 };
                cards.push(4 * rank + s);
            }
        }
        if check_distinct(&cards).is_err() {
            continue;
        }
        let mut h: [u8; 13] = cards.try_into().unwrap();
        if rng.below(2) == 0 {
            loop {
                let c = rng.below(52) as u8;
                if !h.contains(&c) {
                    h[rng.below(13) as usize] = c;
                    break;
                }
            }
        }
        return h;
    }
}

fn cross_check(label: &str, hands: impl Iterator<Item = [u8; 13]>) -> [usize; 3] {
    let mut seen = [0usize; 3];
    for h in hands {
        let want = naive(&h);
        let got = fast3(&h);
        assert_eq!(
            got,
            want,
            "{label}: {:?} (straights, flushes, straight flushes)",
            h.iter()
                .map(|&c| crate::cards::card_text(c))
                .collect::<Vec<_>>()
        );
        seen[0] += want.0 as usize;
        seen[1] += want.1 as usize;
        seen[2] += want.2 as usize;
    }
    seen
}

/// Fewer brute-force hands in debug builds, the full count in release.
fn scaled(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n / 20
    } else {
        n
    }
}

#[test]
fn partitions_match_brute_force_on_random_hands() {
    let mut rng = ChaCha20::from_seed(11);
    let n = scaled(3000);
    let hands = (0..n).map(|_| {
        let d = shuffled_deck(&mut rng);
        d[..13].try_into().unwrap()
    });
    cross_check("random", hands);
}

#[test]
fn partitions_match_brute_force_on_biased_hands() {
    let mut rng = ChaCha20::from_seed(12);
    let n = scaled(2000);
    // Few ranks: seven consecutive positions (ace at both ends), all suits.
    let few_ranks: Vec<[u8; 13]> = (0..n)
        .map(|_| {
            let start = rng.below(8);
            let pool: Vec<u8> = (start..start + 7)
                .flat_map(|p| {
                    let rank = if p == 0 { 12 } else { p as u8 - 1 };
                    (0..4).map(move |s| 4 * rank + s)
                })
                .collect();
            draw(&mut rng, &pool)
        })
        .collect();
    let seen = cross_check("few ranks", few_ranks.into_iter());
    assert!(seen[0] > n / 50, "few ranks: {seen:?}");
    // Few suits: two or three suits.
    let few_suits: Vec<[u8; 13]> = (0..n)
        .map(|i| {
            let skip = [rng.below(4) as u8, rng.below(4) as u8];
            let nsuits_two = i % 2 == 0;
            let pool: Vec<u8> = (0..52u8)
                .filter(|c| c & 3 != skip[0] && (!nsuits_two || c & 3 != skip[1]))
                .collect();
            let pool = if pool.len() < 26 {
                (0..52u8).filter(|c| c & 3 != skip[0]).collect()
            } else {
                pool
            };
            draw(&mut rng, &pool)
        })
        .collect();
    let seen = cross_check("few suits", few_suits.into_iter());
    assert!(seen[1] > n / 50, "few suits: {seen:?}");
    // Built from runs, some perturbed.
    let runs: Vec<[u8; 13]> = (0..n).map(|_| built(&mut rng, false)).collect();
    let seen = cross_check("runs", runs.into_iter());
    assert!(seen[0] > n / 3, "runs: {seen:?}");
    let suited: Vec<[u8; 13]> = (0..n).map(|_| built(&mut rng, true)).collect();
    let seen = cross_check("suited runs", suited.into_iter());
    assert!(seen[2] > n / 3, "suited runs: {seen:?}");
    // Few ranks and few suits at once: straight flushes of two suits.
    let both: Vec<[u8; 13]> = (0..n)
        .map(|_| {
            let s = [rng.below(4) as u8, rng.below(4) as u8];
            let start = rng.below(5);
            let pool: Vec<u8> = (start..start + 10)
                .flat_map(|p| {
                    let rank = if p == 0 { 12 } else { p as u8 - 1 };
                    s.into_iter().map(move |x| 4 * rank + x)
                })
                .collect::<std::collections::BTreeSet<u8>>()
                .into_iter()
                .collect();
            if pool.len() < 13 {
                let d = shuffled_deck(&mut rng);
                d[..13].try_into().unwrap()
            } else {
                draw(&mut rng, &pool)
            }
        })
        .collect();
    cross_check("two suits, ten ranks", both.into_iter());
}

// ----- exact counts --------------------------------------------------
//
// Exact numbers of 13-card hands (out of C(52,13) = 635,013,559,600),
// computed independently (rank-count shapes, suit-count vectors, and the
// distinct card sets of every run triple).

const TOTAL: u64 = 635_013_559_600;

#[test]
fn exact_counts_of_rank_naturals() {
    // Every rank-count vector (0..=4 each, summing to 13), weighted by
    // the number of suit choices, with suits 0..c-1 used for each rank.
    let binom4 = [1u64, 4, 6, 4, 1];
    let rank_naturals = [
        (Natural::Dragon, 67_108_864u64),
        (Natural::TwelveRoyals, 66_080),
        (Natural::ThreeQuads, 11_440),
        (Natural::AllHigh, 37_442_160),
        (Natural::AllLow, 37_442_160),
        (Natural::FourTriples, 6_772_480),
        (Natural::FivePairsTrips, 342_692_064),
        (Natural::SixPairs, 2_856_863_152),
        (Natural::ThreeStraights, 2_029_579_776),
        (Natural::NoPictureCards, 12_033_222_880),
        // C(13; 2, 3, 1) rank choices times 4^2 * 6^3 * 4 suit choices
        (Natural::TwoFullHouses, 1_423_319_040),
    ];
    let mut totals = [0u64; 16];
    let mut all = 0u64;
    let mut counts = [0u8; 13];
    fn rec(r: usize, left: u8, counts: &mut [u8; 13], f: &mut dyn FnMut(&[u8; 13])) {
        if r == 13 {
            if left == 0 {
                f(counts);
            }
            return;
        }
        for c in 0..=left.min(4) {
            counts[r] = c;
            rec(r + 1, left - c, counts, f);
        }
        counts[r] = 0;
    }
    rec(0, 13, &mut counts, &mut |counts| {
        let mut h = [0u8; 13];
        let mut k = 0;
        let mut w = 1u64;
        for (r, &c) in counts.iter().enumerate() {
            w *= binom4[c as usize];
            for s in 0..c {
                h[k] = 4 * r as u8 + s;
                k += 1;
            }
        }
        all += w;
        let q = qualifying(&h);
        for n in ALL {
            if has(q, n) {
                totals[n as usize] += w;
            }
        }
    });
    assert_eq!(all, TOTAL);
    for (n, want) in rank_naturals {
        assert_eq!(totals[n as usize], want, "{}", n.name());
    }
}

#[test]
fn exact_counts_of_suit_naturals() {
    // Every suit-count vector, weighted by the rank choices.
    let binom13 = |k: u32| -> u64 { (0..k as u64).fold(1, |a, i| a * (13 - i) / (i + 1)) };
    let mut totals = [0u64; 16];
    for nd in 0..=13u32 {
        for nc in 0..=13 - nd {
            for nh in 0..=13 - nd - nc {
                let ns = 13 - nd - nc - nh;
                let n = [nd, nc, nh, ns];
                let w: u64 = n.iter().map(|&k| binom13(k)).product();
                // ranks 0..k-1 of each suit, spread so no run forms: any
                // ranks will do for the suit-only naturals checked here.
                let mut h = [0u8; 13];
                let mut i = 0;
                for (s, &k) in n.iter().enumerate() {
                    for r in 0..k {
                        h[i] = (4 * r + s as u32) as u8;
                        i += 1;
                    }
                }
                let q = qualifying(&h);
                for nat in [
                    Natural::CleanDragon,
                    Natural::FullColored,
                    Natural::TwelveSameColor,
                    Natural::ThreeFlushes,
                ] {
                    if has(q, nat) {
                        totals[nat as usize] += w;
                    }
                }
            }
        }
    }
    assert_eq!(totals[Natural::ThreeFlushes as usize], 5_705_516_392);
    assert_eq!(totals[Natural::FullColored as usize], 20_801_200);
    assert_eq!(totals[Natural::TwelveSameColor as usize], 523_001_600);
    assert_eq!(totals[Natural::CleanDragon as usize], 4);
}

#[test]
fn exact_count_of_three_straight_flushes() {
    // g[n]: one-suit rank sets of n cards splitting into the forced runs.
    let mut g = [0u64; 14];
    for m in 0u64..1 << 13 {
        let n = m.count_ones();
        // spread the 13 bits into rank nibbles
        let s = (0..13).fold(0u64, |a, r| a | (m >> r & 1) << (4 * r));
        if [3, 5, 8, 10, 13].contains(&n) && suit_splits(s, n) {
            g[n as usize] += 1;
        }
    }
    assert_eq!((g[3], g[5], g[13]), (12, 10, 1));
    // suit patterns {13}, {8,5}, {10,3}, {5,5,3} over the four suits
    let total = 4 * g[13] + 12 * g[5] * g[8] + 12 * g[3] * g[10] + 12 * g[3] * g[5] * g[5];
    assert_eq!(total, 22_060);
}

#[test]
fn frequencies_over_random_deals() {
    // Expected counts per 200,000 random hands from the exact numbers.
    let exact: [(Natural, u64); 16] = [
        (Natural::CleanDragon, 4),
        (Natural::Dragon, 67_108_864),
        (Natural::TwelveRoyals, 66_080),
        (Natural::ThreeStraightFlushes, 22_060),
        (Natural::ThreeQuads, 11_440),
        (Natural::AllHigh, 37_442_160),
        (Natural::AllLow, 37_442_160),
        (Natural::FullColored, 20_801_200),
        (Natural::TwelveSameColor, 523_001_600),
        (Natural::FourTriples, 6_772_480),
        (Natural::FivePairsTrips, 342_692_064),
        (Natural::SixPairs, 2_856_863_152),
        (Natural::ThreeStraights, 2_029_579_776),
        (Natural::ThreeFlushes, 5_705_516_392),
        (Natural::NoPictureCards, 12_033_222_880),
        (Natural::TwoFullHouses, 1_423_319_040),
    ];
    let hands = if cfg!(debug_assertions) {
        20_000
    } else {
        200_000
    };
    let mut rng = ChaCha20::from_seed(2024);
    let mut seen = [0u64; NATURAL_NAMES.len()];
    for _ in 0..hands / 4 {
        let d = shuffled_deck(&mut rng);
        for seat in 0..4 {
            let h: [u8; 13] = d[13 * seat..13 * seat + 13].try_into().unwrap();
            let q = qualifying(&h);
            for n in ALL {
                seen[n as usize] += has(q, n) as u64;
            }
        }
    }
    for (n, count) in exact {
        let expect = hands as f64 * count as f64 / TOTAL as f64;
        let got = seen[n as usize] as f64;
        // about five standard deviations, plus slack for rare naturals
        let tol = 5.0 * expect.sqrt() + 4.0;
        assert!(
            (got - expect).abs() <= tol,
            "{}: {got} in {hands} hands, expected {expect:.1}",
            n.name()
        );
    }
    // six pairs: about 1 in 222
    let six = seen[Natural::SixPairs as usize] as f64 / hands as f64;
    assert!(
        (1.0 / six - 222.0).abs() < 30.0,
        "six pairs 1 in {}",
        1.0 / six
    );
}
