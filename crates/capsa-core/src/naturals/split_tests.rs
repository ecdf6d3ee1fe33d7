//! Tests of `natural_split`: for every row-shaped natural, the split it
//! gives has the natural's shape, holds the hand's cards, and is the split
//! its contract names, checked against a plain search over every split.

use super::*;
use crate::cards::{check_distinct, RANK_CHARS, SUIT_CHARS};
use crate::deal::{shuffled_deck, ChaCha20};
use crate::rank::{Evaluator, Ranking};

const ROW_SHAPED: [Natural; 4] = [
    Natural::ThreeFlushes,
    Natural::ThreeStraights,
    Natural::ThreeStraightFlushes,
    Natural::TwoFullHouses,
];

fn hand(text: &str) -> [u8; 13] {
    let ids: Vec<u8> = text
        .split_whitespace()
        .map(|t| {
            let b = t.as_bytes();
            let r = RANK_CHARS.iter().position(|&c| c == b[0]).unwrap();
            let s = SUIT_CHARS.iter().position(|&c| c == b[1]).unwrap();
            (4 * r + s) as u8
        })
        .collect();
    check_distinct(&ids).unwrap();
    ids.try_into().unwrap()
}

/// The rank windows that are straights, written out: the ace low
/// ("A2345...") and high ("...TJQKA"), nothing wrapping round.
fn is_straight_by_list(row: &[u8]) -> bool {
    const ORDER: &[u8] = b"A23456789TJQKA";
    let mut ranks: Vec<u8> = row
        .iter()
        .map(|&c| RANK_CHARS[rank_index(c) as usize])
        .collect();
    ranks.sort_unstable();
    ORDER.windows(row.len()).any(|w| {
        let mut w = w.to_vec();
        w.sort_unstable();
        w == ranks
    })
}

/// The sizes of the row's rank groups, smallest first.
fn group_sizes(row: &[u8]) -> Vec<usize> {
    let mut counts = [0usize; 13];
    for &c in row {
        counts[rank_index(c) as usize] += 1;
    }
    let mut sizes: Vec<usize> = counts.into_iter().filter(|&n| n > 0).collect();
    sizes.sort_unstable();
    sizes
}

fn has_shape(natural: Natural, row: &[u8]) -> bool {
    let flush = row.iter().all(|&c| suit(c) == suit(row[0]));
    match natural {
        Natural::ThreeFlushes => flush,
        // a pair and a single on top, a full house below
        Natural::TwoFullHouses => [vec![1, 2], vec![2, 3]].contains(&group_sizes(row)),
        Natural::ThreeStraights => is_straight_by_list(row),
        _ => flush && is_straight_by_list(row),
    }
}

fn rows(layout: &[u8; 13]) -> [&[u8]; 3] {
    [&layout[..3], &layout[3..8], &layout[8..]]
}

fn fouls(rules: &Rules, layout: &[u8; 13]) -> bool {
    let e = &rules.evaluator;
    let [t, m, b] = rows(layout).map(|r| e.eval_unchecked(r));
    !splits::is_valid(t, m, b, rules.foul_strict)
}

/// The contract, by a plain search over every split in split order.
fn expected_split(rules: &Rules, cards: &[u8; 13], natural: Natural) -> Option<[u8; 13]> {
    let mut sorted = *cards;
    sorted.sort_unstable();
    let table = splits::table();
    let shaped: Vec<[u8; 13]> = table
        .splits
        .iter()
        .map(|&[t, m, b]| splits::layout_of(&sorted, t, m, b))
        .filter(|layout| rows(layout).iter().all(|r| has_shape(natural, r)))
        .collect();
    let valid = shaped.iter().find(|layout| !fouls(rules, layout));
    valid.or(shaped.first()).copied()
}

fn rules_with(ranking: Ranking, strict: bool) -> Rules {
    Rules {
        evaluator: Evaluator::new(ranking),
        foul_strict: strict,
        ..Rules::default()
    }
}

/// Rules that order the rows differently: suit tie-break or not, the wheel
/// second, flushes by suit first, strict fouls.
fn rule_variants() -> Vec<Rules> {
    let plain = Ranking {
        tie_break_suit: false,
        ..Ranking::default()
    };
    vec![
        Rules::default(),
        rules_with(plain, false),
        rules_with(plain, true),
        rules_with(
            Ranking {
                wheel_second: true,
                flush_suit_first: true,
                ..Ranking::default()
            },
            true,
        ),
    ]
}

/// A random hand made of three rows of `natural`'s shape (rejection
/// sampling until the 13 cards are distinct).
fn row_shaped_hand(rng: &mut ChaCha20, natural: Natural) -> [u8; 13] {
    if natural == Natural::TwoFullHouses {
        // six distinct ranks: two trips, three pairs, a single
        let deck = shuffled_deck(rng);
        let mut ranks: Vec<u8> = Vec::new();
        for c in deck {
            if !ranks.contains(&rank_index(c)) {
                ranks.push(rank_index(c));
            }
        }
        let mut cards = Vec::with_capacity(13);
        for (&rank, size) in ranks.iter().zip([3usize, 3, 2, 2, 2, 1]) {
            let first = rng.below(4) as u8;
            cards.extend((0..size as u8).map(|k| 4 * rank + (first + k) % 4));
        }
        return cards.try_into().unwrap();
    }
    loop {
        let mut cards = Vec::with_capacity(13);
        for size in [3usize, 5, 5] {
            let row_suit = rng.below(4) as u8;
            if natural == Natural::ThreeFlushes {
                let deck = shuffled_deck(rng);
                let row: Vec<u8> = deck
                    .into_iter()
                    .filter(|&c| suit(c) == row_suit && !cards.contains(&c))
                    .take(size)
                    .collect();
                cards.extend(row);
                continue;
            }
            // positions 0..=13: 0 a low ace, 13 a high ace
            let start = rng.below(15 - size as u32) as u8;
            for position in start..start + size as u8 {
                let rank = if position == 0 { 12 } else { position - 1 };
                let card_suit = if natural == Natural::ThreeStraights {
                    rng.below(4) as u8
                } else {
                    row_suit
                };
                cards.push(4 * rank + card_suit);
            }
        }
        if cards.len() == 13 && check_distinct(&cards).is_ok() {
            return cards.try_into().unwrap();
        }
    }
}

fn check_split(rules: &Rules, cards: &[u8; 13], natural: Natural) {
    let got = natural_split(rules, cards, natural);
    assert_eq!(
        got,
        expected_split(rules, cards, natural),
        "{natural:?} {cards:?}"
    );
    let layout = got.unwrap_or_else(|| panic!("{natural:?} has no split for {cards:?}"));
    assert!(rows(&layout).iter().all(|r| has_shape(natural, r)));
    let (mut a, mut b) = (layout, *cards);
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "the split holds the hand's cards");
}

#[test]
fn every_row_shaped_natural_is_shown_by_its_rows() {
    let mut rng = ChaCha20::from_seed(11);
    let variants = rule_variants();
    for natural in ROW_SHAPED {
        for _ in 0..30 {
            let cards = row_shaped_hand(&mut rng, natural);
            assert!((qualifying(&cards) >> (natural as u32)) & 1 != 0);
            for rules in &variants {
                check_split(rules, &cards, natural);
            }
            // allow-equal rules always have a split that does not foul
            let layout = natural_split(&variants[0], &cards, natural).unwrap();
            assert!(!fouls(&variants[0], &layout));
        }
    }
}

#[test]
fn a_split_exactly_when_the_hand_qualifies() {
    let mut rng = ChaCha20::from_seed(12);
    let rules = Rules::default();
    let mut found = [0usize; 4];
    for _ in 0..20_000 {
        let deck = shuffled_deck(&mut rng);
        let cards: [u8; 13] = deck[..13].try_into().unwrap();
        let q = qualifying(&cards);
        for (k, natural) in ROW_SHAPED.into_iter().enumerate() {
            let qualifies = (q >> (natural as u32)) & 1 != 0;
            let split = natural_split(&rules, &cards, natural);
            assert_eq!(split.is_some(), qualifies, "{natural:?} {cards:?}");
            if let Some(layout) = split {
                assert!(rows(&layout).iter().all(|r| has_shape(natural, r)));
                found[k] += 1;
            }
        }
    }
    // random deals meet three flushes, three straights, two full houses
    assert!(found[0] > 0 && found[1] > 0 && found[3] > 0, "{found:?}");
}

#[test]
fn known_hands() {
    let rules = Rules::default();
    let tsf = hand("Qh Kh Ah 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s");
    // the three partition naturals
    for natural in &ROW_SHAPED[..3] {
        let natural = *natural;
        check_split(&rules, &tsf, natural);
    }
    // the straight flushes are Q-K-A on top, the spades (stronger) at the bottom
    let layout = natural_split(&rules, &tsf, Natural::ThreeStraightFlushes).unwrap();
    assert_eq!(layout, hand("Qh Kh Ah 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s"));
    // a dragon splits into three straights, but a dragon is not row-shaped
    let dragon = hand("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad");
    check_split(&rules, &dragon, Natural::ThreeStraights);
    assert_eq!(natural_split(&rules, &dragon, Natural::Dragon), None);
    let six_pairs = hand("2d 2c 3d 3c 4d 4c 5d 5c 6d 6c 7d 7c 9s");
    assert!((qualifying(&six_pairs) >> (Natural::SixPairs as u32)) & 1 != 0);
    assert_eq!(natural_split(&rules, &six_pairs, Natural::SixPairs), None);
    // two full houses: the higher trips at the bottom, the pair on top
    let full = hand("2d 2c 2h 9d 9c 9s 4d 4c 7h 7s Kd Kc 5s");
    check_split(&rules, &full, Natural::TwoFullHouses);
    let layout = natural_split(&rules, &full, Natural::TwoFullHouses).unwrap();
    let [top, middle, bottom] = rows(&layout).map(group_sizes);
    assert_eq!((top, middle, bottom), (vec![1, 2], vec![2, 3], vec![2, 3]));
    assert!(layout[8..].iter().filter(|&&c| rank_index(c) == 7).count() == 3);
    assert!(!fouls(&rules, &layout));
    // K-A-2 is no three-card straight: no natural, no split
    let nothing = hand("Kh Ad 2h 3d 4d 5d 6d 7d 3s 4s 5s 6s 7c");
    for natural in ROW_SHAPED {
        assert_eq!(
            natural_split(&rules, &nothing, natural),
            None,
            "{natural:?}"
        );
    }
}

#[test]
fn rows_that_can_only_tie_are_still_shown_under_strict_fouls() {
    // two flushes of the same ranks: equal without the suit tie-break
    let cards = hand("3c 5c 7c 2h 4h 6h 8h Th 2s 4s 6s 8s Ts");
    let plain = Ranking {
        tie_break_suit: false,
        ..Ranking::default()
    };
    let strict = rules_with(plain, true);
    let layout = natural_split(&strict, &cards, Natural::ThreeFlushes).unwrap();
    assert!(fouls(&strict, &layout), "every such split fouls");
    check_split(&strict, &cards, Natural::ThreeFlushes);
    // with the suit tie-break the spades win the tie and go to the bottom
    let suits = rules_with(Ranking::default(), true);
    let layout = natural_split(&suits, &cards, Natural::ThreeFlushes).unwrap();
    assert!(!fouls(&suits, &layout));
    assert_eq!(layout, hand("3c 5c 7c 2h 4h 6h 8h Th 2s 4s 6s 8s Ts"));
}

#[test]
fn a_natural_raised_by_a_straight_flush_shows_it() {
    let sf = |row: &[u8]| has_shape(Natural::ThreeStraightFlushes, row);
    for (natural, text) in [
        // A-2-3, 4-8 of spades, 9-K
        (
            Natural::ThreeStraights,
            "Ah 2c 3d 4s 5s 6s 7s 8s 9d Tc Jh Qs Kd",
        ),
        // ten spades holding 9-K, three hearts
        (
            Natural::ThreeFlushes,
            "2h 5h 8h 2s 4s 6s 9s Ts Js Qs Ks 3s 7s",
        ),
    ] {
        let cards = hand(text);
        let entry = NaturalEntry {
            raised: Some((9, RaisedBy::StraightFlush)),
            ..NaturalEntry::new(natural, 3)
        };
        let rules = Rules {
            naturals: vec![entry],
            ..Rules::default()
        };
        let layout = natural_split(&rules, &cards, natural).unwrap();
        let [_, middle, bottom] = rows(&layout);
        assert!(sf(middle) || sf(bottom), "{natural:?} {layout:?}");
        assert!(rows(&layout).iter().all(|r| has_shape(natural, r)));
        assert!(!fouls(&rules, &layout));
        // the first such split in split order that does not foul
        let mut sorted = cards;
        sorted.sort_unstable();
        let want = splits::table()
            .splits
            .iter()
            .map(|&[t, m, b]| splits::layout_of(&sorted, t, m, b))
            .find(|l| {
                let [_, m, b] = rows(l);
                rows(l).iter().all(|r| has_shape(natural, r))
                    && (sf(m) || sf(b))
                    && !fouls(&rules, l)
            });
        assert_eq!(Some(layout), want);
        // without the raise the contract is the plain one
        check_split(&Rules::default(), &cards, natural);
    }
}
