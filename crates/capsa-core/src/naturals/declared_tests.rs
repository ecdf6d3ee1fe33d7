//! Tests of `declared_in`: each parameterised definition on hand-built
//! hands at its edges, raised points (by quads, and by a straight flush
//! checked against every split), must-declare, tiers, and the default
//! parameters giving exactly the fixed definitions of `qualifying`.

use super::*;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::test_support::hand;

/// Rank index of a rank letter.
fn rank(letter: char) -> u8 {
    "23456789TJQKA".find(letter).unwrap() as u8
}

fn entry(natural: Natural) -> NaturalEntry {
    NaturalEntry::new(natural, 5)
}

fn qualifies(text: &str, e: NaturalEntry) -> bool {
    qualifies_for(&hand(text), &e)
}

#[test]
fn all_high_from_its_lowest_rank() {
    let from = |letter| NaturalEntry {
        lowest: rank(letter),
        ..entry(Natural::AllHigh)
    };
    // lowest card a 9
    let nines = "9d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac";
    assert!(qualifies(nines, from('9')));
    assert!(qualifies(nines, from('8')));
    assert!(qualifies(nines, from('6')));
    assert!(!qualifies(nines, from('T')));
    // lowest card an 8: all high from 8 (the default) and 6, not from 9
    let eights = "8d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac";
    assert!(qualifies(eights, from('8')));
    assert!(qualifies(eights, entry(Natural::AllHigh)));
    assert!(qualifies(eights, from('6')));
    assert!(!qualifies(eights, from('9')));
    // lowest card a 6, then a 5
    let sixes = "6d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac";
    assert!(qualifies(sixes, from('6')));
    assert!(!qualifies(sixes, from('8')));
    let fives = "5d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac";
    assert!(!qualifies(fives, from('6')));
}

#[test]
fn all_low_to_its_highest_rank() {
    let to = |letter| NaturalEntry {
        highest: rank(letter),
        ..entry(Natural::AllLow)
    };
    let eights = "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 7s 8d";
    assert!(qualifies(eights, to('8')));
    assert!(qualifies(eights, entry(Natural::AllLow)));
    assert!(qualifies(eights, to('T')));
    assert!(!qualifies(eights, to('7')));
    let tens = "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Td";
    assert!(qualifies(tens, to('T')));
    assert!(!qualifies(tens, to('8')));
    assert!(!qualifies(tens, to('9')));
    // a jack, and an ace (aces are high), are above ten
    assert!(!qualifies(
        "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Jd",
        to('T')
    ));
    assert!(!qualifies(
        "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Ad",
        to('T')
    ));
    assert!(qualifies("2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Ad", to('A')));
}

#[test]
fn twelve_royals_counts_twelve_or_thirteen() {
    let at_least = |count| NaturalEntry {
        count,
        ..entry(Natural::TwelveRoyals)
    };
    let thirteen = "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac Ah As";
    let twelve = "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac Ah Ts";
    let eleven = "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac 9h Ts";
    assert!(qualifies(thirteen, at_least(12)) && qualifies(thirteen, at_least(13)));
    assert!(qualifies(twelve, at_least(12)) && !qualifies(twelve, at_least(13)));
    assert!(!qualifies(eleven, at_least(12)));
}

#[test]
fn twelve_same_color_exactly_or_at_least() {
    let exactly = NaturalEntry {
        exactly: true,
        ..entry(Natural::TwelveSameColor)
    };
    let at_least = entry(Natural::TwelveSameColor);
    let all_red = "2d 4d 6d 8d Td Qd Ad 2h 5h 7h 9h Jh Kh";
    let twelve_red = "2d 4d 6d 8d Td Qd Ad 2s 5h 7h 9h Jh Kh";
    let twelve_black = "2c 4c 6c 8c Tc Qc Ac 2s 5s 7s 9s Js Kd";
    let all_black = "2c 4c 6c 8c Tc Qc Ac 2s 5s 7s 9s Js Ks";
    let eleven_red = "2d 4d 6d 8d Td Qd Ad 2s 5s 7h 9h Jh Kh";
    for twelve in [twelve_red, twelve_black] {
        assert!(qualifies(twelve, exactly) && qualifies(twelve, at_least));
    }
    for thirteen in [all_red, all_black] {
        assert!(!qualifies(thirteen, exactly) && qualifies(thirteen, at_least));
    }
    assert!(!qualifies(eleven_red, exactly) && !qualifies(eleven_red, at_least));
}

/// Calls `f` with every rank-count vector of 13 cards (0..=4 a rank).
fn every_rank_count(f: &mut dyn FnMut(&[u8; 13])) {
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
    rec(0, 13, &mut [0; 13], f);
}

/// 13 cards of the rank counts, suits 0.. for each rank.
fn hand_of_counts(counts: &[u8; 13]) -> [u8; 13] {
    let mut h = [0u8; 13];
    let mut k = 0;
    for (r, &c) in counts.iter().enumerate() {
        for s in 0..c {
            h[k] = 4 * r as u8 + s;
            k += 1;
        }
    }
    h
}

#[test]
fn two_full_houses_is_its_shape_and_no_pairs_natural() {
    let mut shapes = 0u64;
    every_rank_count(&mut |counts| {
        let q = qualifying(&hand_of_counts(counts));
        let mut sizes: Vec<u8> = counts.iter().copied().filter(|&c| c > 0).collect();
        sizes.sort_unstable();
        let shape = sizes == [1, 2, 2, 2, 3, 3];
        let two_full = (q >> Natural::TwoFullHouses as u32) & 1 != 0;
        assert_eq!(two_full, shape, "{counts:?}");
        shapes += shape as u64;
        // three odd counts: never trips and five pairs; five pairs: never six
        if two_full {
            for other in [
                Natural::SixPairs,
                Natural::FivePairsTrips,
                Natural::FourTriples,
            ] {
                assert_eq!((q >> other as u32) & 1, 0, "{counts:?} {other:?}");
            }
        }
    });
    // C(13; 2, 3, 1, 7) rank choices
    assert_eq!(shapes, 102_960);
    // a four-entry list meets it after the pairs naturals
    let entries = [
        entry(Natural::SixPairs),
        entry(Natural::FivePairsTrips),
        NaturalEntry::new(Natural::TwoFullHouses, 7),
    ];
    let h = hand("2d 2c 2h 9d 9c 9s 4d 4c 7h 7s Kd Kc 5s");
    let d = declared_in(&h, &entries, true).unwrap();
    assert_eq!(
        (d.index, d.entry.natural, d.points),
        (2, Natural::TwoFullHouses, 7)
    );
}

/// The declared natural as the fixed definitions give it: the first entry
/// whose bit `qualifying` sets, with its points.
fn fixed(cards: &[u8; 13], entries: &[NaturalEntry]) -> Option<(usize, i64)> {
    let q = qualifying(cards);
    entries
        .iter()
        .position(|e| (q >> (e.natural as u32)) & 1 != 0)
        .map(|i| (i, entries[i].points))
}

fn defaults_agree(cards: &[u8; 13]) {
    for n in ALL {
        assert_eq!(
            qualifies_for(cards, &NaturalEntry::new(n, 1)),
            (qualifying(cards) >> (n as u32)) & 1 != 0,
            "{n:?} {cards:?}"
        );
    }
}

#[test]
fn default_parameters_are_the_fixed_definitions_on_every_rank_count() {
    // all-high, all-low and twelve-royals read ranks only
    every_rank_count(&mut |counts| defaults_agree(&hand_of_counts(counts)));
    // twelve-same-color reads suits only: every suit-count vector
    for nd in 0..=13u8 {
        for nc in 0..=13 - nd {
            for nh in 0..=13 - nd - nc {
                let n = [nd, nc, nh, 13 - nd - nc - nh];
                let mut h = [0u8; 13];
                let mut i = 0;
                for (s, &k) in n.iter().enumerate() {
                    for r in 0..k {
                        h[i] = 4 * r + s as u8;
                        i += 1;
                    }
                }
                defaults_agree(&h);
            }
        }
    }
}

#[test]
fn default_parameters_declare_as_the_fixed_definitions_on_random_hands() {
    let mut rng = ChaCha20::from_seed(41);
    // every natural in table order, reversed, and a shuffled order
    let forward: Vec<NaturalEntry> = ALL
        .iter()
        .enumerate()
        .map(|(i, &n)| NaturalEntry::new(n, 100 - i as i64))
        .collect();
    let backward: Vec<NaturalEntry> = forward.iter().rev().copied().collect();
    let mut shuffled = forward.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below(i as u32 + 1) as usize);
    }
    let hands = if cfg!(debug_assertions) {
        20_000
    } else {
        200_000
    };
    let mut declared = 0;
    for _ in 0..hands / 4 {
        let deck = shuffled_deck(&mut rng);
        for seat in 0..4 {
            let h: [u8; 13] = deck[13 * seat..13 * seat + 13].try_into().unwrap();
            defaults_agree(&h);
            for list in [&forward, &backward, &shuffled] {
                let got = declared_in(&h, list, true).map(|d| (d.index, d.points));
                assert_eq!(got, fixed(&h, list), "{h:?}");
                declared += got.is_some() as usize;
            }
        }
    }
    assert!(declared > hands / 100, "{declared}");
}

#[test]
fn quads_raise_a_natural() {
    let raised = NaturalEntry {
        raised: Some((12, RaisedBy::Quads)),
        ..NaturalEntry::new(Natural::SixPairs, 4)
    };
    let with_quads = hand("2d 2c 2h 2s 4h 4s 6d 6c 8h 8s Td Tc Ah");
    let without = hand("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Qs Ad");
    let points = |h: &[u8; 13]| declared_in(h, &[raised], true).map(|d| d.points);
    assert_eq!(points(&with_quads), Some(12));
    assert_eq!(points(&without), Some(4));
    assert!(raises(&with_quads, &raised) && !raises(&without, &raised));
    // no raise given: the points stand
    let plain = NaturalEntry::new(Natural::SixPairs, 4);
    assert_eq!(declared_in(&with_quads, &[plain], true).unwrap().points, 4);
    // three quads always hold quads
    let three_quads = NaturalEntry {
        raised: Some((30, RaisedBy::Quads)),
        ..NaturalEntry::new(Natural::ThreeQuads, 20)
    };
    let h = hand("2d 2c 2h 2s 3d 3c 3h 3s 4d 4c 4h 4s 5d");
    assert_eq!(declared_in(&h, &[three_quads], true).unwrap().points, 30);
}

/// Whether some split of the natural's shape has a straight flush as a
/// five-card row, by trying every split.
fn raised_by_search(cards: &[u8; 13], natural: Natural) -> bool {
    let fits: fn(&[u8]) -> bool = match natural {
        Natural::ThreeFlushes => is_flush_row,
        _ => is_straight_row,
    };
    let sf = |row: &[u8]| is_flush_row(row) && is_straight_row(row);
    let mut sorted = *cards;
    sorted.sort_unstable();
    let table = splits::table();
    table.splits.iter().any(|&[t, m, b]| {
        let l = splits::layout_of(&sorted, t, m, b);
        let (top, middle, bottom) = (&l[..3], &l[3..8], &l[8..]);
        fits(top) && fits(middle) && fits(bottom) && (sf(middle) || sf(bottom))
    })
}

/// Three runs (3, 5, 5 positions, ace at both ends) with random suits, the
/// five-card runs of one suit `suited` of the time in a hundred.
fn straights_hand(rng: &mut ChaCha20, suited: u32) -> [u8; 13] {
    loop {
        let mut cards = Vec::with_capacity(13);
        for len in [3u32, 5, 5] {
            let start = rng.below(15 - len);
            let one_suit = (len == 5 && rng.below(100) < suited).then(|| rng.below(4) as u8);
            for p in start..start + len {
                let r = if p == 0 { 12 } else { p as u8 - 1 };
                cards.push(4 * r + one_suit.unwrap_or_else(|| rng.below(4) as u8));
            }
        }
        if crate::cards::check_distinct(&cards).is_ok() {
            return cards.try_into().unwrap();
        }
    }
}

/// Three flushes of 3, 5, 5 cards; `two_suits` of the time in a hundred the
/// two five-card rows share a suit; five-card rows often runs.
fn flushes_hand(rng: &mut ChaCha20, two_suits: u32) -> [u8; 13] {
    loop {
        let mut cards: Vec<u8> = Vec::with_capacity(13);
        let mut suits = [0u8; 3];
        for (k, len) in [3u32, 5, 5].into_iter().enumerate() {
            suits[k] = if k == 2 && rng.below(100) < two_suits {
                suits[1]
            } else {
                rng.below(4) as u8
            };
            if len == 5 && rng.below(2) == 0 {
                let start = rng.below(10);
                for p in start..start + 5 {
                    let r = if p == 0 { 12 } else { p as u8 - 1 };
                    cards.push(4 * r + suits[k]);
                }
            } else {
                let deck = shuffled_deck(rng);
                let row: Vec<u8> = deck
                    .into_iter()
                    .filter(|&c| suit(c) == suits[k] && !cards.contains(&c))
                    .take(len as usize)
                    .collect();
                cards.extend(row);
            }
        }
        if crate::cards::check_distinct(&cards).is_ok() {
            return cards.try_into().unwrap();
        }
    }
}

#[test]
fn a_straight_flush_raises_three_straights_and_three_flushes_as_every_split_says() {
    let mut rng = ChaCha20::from_seed(42);
    let n = if cfg!(debug_assertions) { 40 } else { 300 };
    for natural in [Natural::ThreeStraights, Natural::ThreeFlushes] {
        let e = NaturalEntry {
            raised: Some((9, RaisedBy::StraightFlush)),
            ..NaturalEntry::new(natural, 3)
        };
        let mut seen = [0usize; 2];
        for _ in 0..n {
            let h = match natural {
                Natural::ThreeStraights => straights_hand(&mut rng, 30),
                _ => flushes_hand(&mut rng, 30),
            };
            let d = declared_in(&h, &[e], true).expect("the hand holds the natural");
            let want = raised_by_search(&h, natural);
            assert_eq!(raises(&h, &e), want, "{natural:?} {h:?}");
            assert_eq!(d.points, if want { 9 } else { 3 });
            seen[want as usize] += 1;
        }
        assert!(seen[0] > n / 10 && seen[1] > n / 10, "{natural:?} {seen:?}");
    }
}

#[test]
fn a_straight_flush_raises_on_known_hands() {
    let straights = NaturalEntry {
        raised: Some((9, RaisedBy::StraightFlush)),
        ..NaturalEntry::new(Natural::ThreeStraights, 3)
    };
    let flushes = NaturalEntry {
        natural: Natural::ThreeFlushes,
        ..straights
    };
    // A-2-3, 4-8 of spades, 9-K
    let sf_row = hand("Ah 2c 3d 4s 5s 6s 7s 8s 9d Tc Jh Qs Kd");
    assert!(raises(&sf_row, &straights));
    // the wheel of spades, ace low
    assert!(raises(
        &hand("As 2s 3s 4s 5s 6h 7c 8d 9h Tc Qd Kc Ah"),
        &straights
    ));
    // a three-card straight flush is not a five-card row
    let top_only = hand("Qh Kh Ah 2d 3c 4d 5d 6d 2s 3s 4h 5s 6s");
    assert!(!raises(&top_only, &straights));
    // 2-6 of spades is held, but the only split into straights is 2-4,
    // 3-7, 4-8
    let unused = hand("2s 3s 4s 5s 6s 3d 4d 7d 4h 5h 6c 7c 8c");
    assert!(qualifies_for(&unused, &straights));
    assert!(!raises(&unused, &straights));
    assert!(!raised_by_search(&unused, Natural::ThreeStraights));
    // three flushes: ten spades holding 9-K, and ten without a run
    assert!(raises(
        &hand("2h 5h 8h 2s 4s 6s 9s Ts Js Qs Ks 3s 7s"),
        &flushes
    ));
    assert!(!raises(
        &hand("2h 5h 8h 2s 3s 4s 6s 7s 8s Ts Js Qs As"),
        &flushes
    ));
    // "straight-flush" raises no other natural
    let six_pairs = NaturalEntry {
        natural: Natural::SixPairs,
        ..straights
    };
    assert!(!raises(
        &hand("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Qs Ad"),
        &six_pairs
    ));
}

#[test]
fn must_declare_holds_when_the_seat_declines() {
    let dragon = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad");
    let plain = [NaturalEntry::new(Natural::Dragon, 13)];
    let must = [NaturalEntry {
        must_declare: true,
        ..plain[0]
    }];
    assert!(declared_in(&dragon, &plain, true).is_some());
    assert_eq!(declared_in(&dragon, &plain, false), None);
    assert_eq!(declared_in(&dragon, &must, false).unwrap().points, 13);
    // the seat's natural is the earliest entry it qualifies for: declining a
    // natural that need not be declared does not bring in a later one
    let later_must = [
        NaturalEntry::new(Natural::Dragon, 13),
        NaturalEntry {
            must_declare: true,
            ..NaturalEntry::new(Natural::ThreeStraights, 3)
        },
    ];
    assert_eq!(declared_in(&dragon, &later_must, false), None);
    let straights_only = hand("Ad 2c 3h 4s 5d 6c 7h 8s 4d 5c 6h 7s 8c");
    let d = declared_in(&straights_only, &later_must, false).unwrap();
    assert_eq!((d.index, d.entry.natural), (1, Natural::ThreeStraights));
}

#[test]
fn a_tier_is_named_by_its_first_entry() {
    let tied = |natural, same_tier| NaturalEntry {
        same_tier,
        ..NaturalEntry::new(natural, 1)
    };
    let entries = [
        tied(Natural::Dragon, false),
        tied(Natural::ThreeFlushes, false),
        tied(Natural::ThreeStraights, true),
        tied(Natural::SixPairs, true),
        tied(Natural::NoPictureCards, false),
    ];
    let cases = [
        ("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad", 0, 0),
        ("2h 7h 9h 2d 4d 6d 8d Td 3c 5c 9c Jc Kc", 1, 1),
        ("Qd Kc Ah 2s 3d 4c 5h 6s 2d 3c 4h 5s 6c", 2, 1),
        ("2d 2c 4h 4s 6d 6c 8h 8s Td Tc Qh Qs Ad", 3, 1),
        ("2d 3c 4h 5s 6d 7c 8h 9s Td Ac 2h 5c 9d", 4, 4),
    ];
    for (text, index, tier) in cases {
        let d = declared_in(&hand(text), &entries, true).unwrap();
        assert_eq!((d.index, d.tier), (index, tier), "{text}");
    }
}

#[test]
fn no_entries_or_no_natural_declare_nothing() {
    let dragon = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad");
    assert_eq!(declared_in(&dragon, &[], true), None);
    let nothing = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Kd");
    let every: Vec<NaturalEntry> = ALL.iter().map(|&n| NaturalEntry::new(n, 1)).collect();
    assert_eq!(declared_in(&nothing, &every, true), None);
}
