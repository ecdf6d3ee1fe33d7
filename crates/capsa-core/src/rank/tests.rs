use super::*;
use crate::cards::{rank_index, suit};
use std::collections::HashSet;

use crate::test_support::{cards, for_each_combination, without_suit_tie_break};

fn strength(e: &Evaluator, text: &str) -> u32 {
    e.evaluate(&cards(text)).unwrap()
}

/// Over every `k`-card hand of the deck: how many fall in each category,
/// and how many distinct strengths there are.
fn census(k: usize, strength: impl Fn(&[u8]) -> u32) -> ([u32; 10], usize) {
    let deck: Vec<u8> = (0..52).collect();
    let mut counts = [0u32; 10];
    let mut distinct = HashSet::new();
    for_each_combination(&deck, k, |hand| {
        let s = strength(hand);
        counts[category_of(s) as usize] += 1;
        distinct.insert(s);
    });
    (counts, distinct.len())
}

#[test]
#[allow(clippy::needless_range_loop)]
fn weights_are_unique() {
    let t = tables(false);
    let mut seen = HashSet::new();
    let mut n = 0;
    for a in 0..13usize {
        for b in a..13 {
            for c in b..13 {
                for d in c..13 {
                    for e in d..13 {
                        if a == e {
                            continue;
                        }
                        let s = W[a] + W[b] + W[c] + W[d] + W[e];
                        assert!(seen.insert(s), "weight sum collision");
                        assert_ne!(t.rank5[s as usize], 0);
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 6175);
}

#[test]
fn exhaustive_five_card_counts() {
    let e = without_suit_tie_break();
    let (counts, distinct) = census(5, |hand| e.eval5(hand.try_into().unwrap()));
    assert_eq!(
        counts,
        [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    );
    assert_eq!(distinct, 7462);
}

#[test]
fn exhaustive_three_card_counts() {
    let e = without_suit_tie_break();
    let (counts, distinct) = census(3, |hand| e.eval3(hand.try_into().unwrap()));
    assert_eq!(counts[HIGH_CARD as usize], 18_304);
    assert_eq!(counts[PAIR as usize], 3_744);
    assert_eq!(counts[TRIPS as usize], 52);
    assert_eq!(distinct, 455);
}

#[test]
fn suit_tie_break_separates_every_hand() {
    let e = Evaluator::default();
    let (_, distinct) = census(3, |hand| e.eval3(hand.try_into().unwrap()));
    // C(52, 3): no two three-card hands tie
    assert_eq!(distinct, 22_100);
}

#[test]
fn seed_examples() {
    let e = Evaluator::default();
    // the straight example of the Indonesian rules: spade ten decides
    assert!(strength(&e, "6d 7d 8c 9d Ts") > strength(&e, "6d 7c 8d 9s Td"));
    assert!(strength(&e, "5s 5h 5d 5c Ad") > strength(&e, "4s 4h 4d 4c Jd"));
    assert!(strength(&e, "Qs Qh Qd 8c 8d") > strength(&e, "Ts Th Td Ac Ad"));
    // middle K-K-A-7-3 is above top K-K-A
    assert!(strength(&e, "Kd Kc Ad 7c 3d") > strength(&e, "Ks Kh As"));
    assert_eq!(category_of(strength(&e, "Ts Js Qs Ks As")), ROYAL_FLUSH);
    assert_eq!(category_of(strength(&e, "As 2s 3s 4s 5s")), STRAIGHT_FLUSH);
}

#[test]
fn wheel_modes() {
    let low = Evaluator::default();
    let second = Evaluator::new(Ranking {
        wheel_second: true,
        ..Ranking::default()
    });
    let wheel = "Ad 2c 3d 4h 5s";
    let six = "2c 3d 4h 5s 6d";
    let king = "9c Td Jh Qs Kd";
    let ace = "Tc Jd Qh Ks Ad";
    assert!(strength(&low, wheel) < strength(&low, six));
    assert!(strength(&second, wheel) > strength(&second, king));
    assert!(strength(&second, wheel) < strength(&second, ace));
    let sf_wheel = "Ad 2d 3d 4d 5d";
    assert!(strength(&second, sf_wheel) < strength(&second, "Td Jd Qd Kd Ad"));
    assert!(strength(&second, sf_wheel) > strength(&second, "9s Ts Js Qs Ks"));
}

#[test]
fn flush_suit_first() {
    let e = Evaluator::new(Ranking {
        flush_suit_first: true,
        tie_break_suit: false,
        ..Ranking::default()
    });
    assert!(strength(&e, "2s 4s 6s 8s Ts") > strength(&e, "9h Jh Qh Kh Ah"));
    assert!(strength(&e, "2s 4s 6s 8s Ts") < strength(&e, "2s 4s 6s 8s Js"));
}

#[test]
fn suit_order_parsing() {
    assert_eq!(parse_suit_order("shcd").unwrap(), [0, 1, 2, 3]);
    assert_eq!(parse_suit_order("dchs").unwrap(), [3, 2, 1, 0]);
    assert!(parse_suit_order("shc").is_err());
    assert!(parse_suit_order("shcc").is_err());
}

/// The suit key as docs/rules.md states it, computed card by card: the
/// cards in significance order (larger rank groups first, then higher rank,
/// then stronger suit; a straight from its top down, the ace of a low wheel
/// last), their suit strengths two bits each, the first in bits 8..9.
/// `plain` is the hand's strength without the suit tie-break.
fn suit_key_by_the_rules(ranking: &Ranking, hand: &[u8], plain: u32) -> u32 {
    let ss = ranking.suit_strength;
    let mut counts = [0u32; 13];
    let mut ranks = 0u32;
    for &c in hand {
        counts[rank_index(c) as usize] += 1;
        ranks |= 1 << rank_index(c);
    }
    let mut ordered: Vec<(u32, u32)> = hand
        .iter()
        .map(|&c| {
            let r = rank_index(c) as u32;
            let s = ss[suit(c) as usize] as u32;
            (counts[r as usize] << 8 | r << 2 | s, s)
        })
        .collect();
    ordered.sort_unstable_by(|a, b| b.cmp(a));
    let straight = [STRAIGHT, STRAIGHT_FLUSH].contains(&category_of(plain));
    if straight && !ranking.wheel_second && ranks == 0b1_0000_0000_1111 {
        ordered.rotate_left(1);
    }
    ordered
        .iter()
        .enumerate()
        .fold(0, |key, (k, &(_, s))| key | s << (8 - 2 * k as u32))
}

fn without_tie_break(e: &Evaluator) -> Evaluator {
    Evaluator::new(Ranking {
        tie_break_suit: false,
        ..e.ranking
    })
}

/// Every suit order (as suit strengths), all 24.
fn every_suit_order() -> Vec<[u8; 4]> {
    let mut orders = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                let d = 6 - a - b - c;
                if a != b && a != c && b != c && d < 4 && ![a, b, c].contains(&d) {
                    orders.push([a, b, c, d]);
                }
            }
        }
    }
    orders
}

/// Every hand of `k` cards under `ranking`: the strength with the suit
/// tie-break is the strength without it plus the rules' suit key, whatever
/// order the cards come in, with the suits read by BMI2 (where the
/// processor has it) and without.
fn check_every_hand(ranking: Ranking, k: usize) {
    let e = Evaluator::new(ranking);
    let portable = Evaluator { bmi2: false, ..e };
    let plain = without_tie_break(&e);
    let deck: Vec<u8> = (0..52).collect();
    for_each_combination(&deck, k, |hand| {
        let without = plain.eval_unchecked(hand);
        let want = without | suit_key_by_the_rules(&ranking, hand, without);
        let mut shuffled = hand.to_vec();
        shuffled.rotate_left(hand[0] as usize % k);
        shuffled.swap(0, k - 1 - hand[1] as usize % 2);
        for cards in [hand, &shuffled[..]] {
            assert_eq!(e.eval_unchecked(cards), want, "{cards:?} under {ranking:?}");
            assert_eq!(
                portable.eval_unchecked(cards),
                want,
                "{cards:?} under {ranking:?}, suits read without BMI2"
            );
        }
    });
}

#[test]
fn suit_tie_break_follows_the_rules_for_every_hand() {
    let orders = every_suit_order();
    assert_eq!(orders.len(), 24);
    // two threads, each half of the suit orders
    std::thread::scope(|scope| {
        for half in orders.chunks(12) {
            scope.spawn(move || {
                for (i, &suit_strength) in half.iter().enumerate() {
                    for wheel_second in [false, true] {
                        let ranking = Ranking {
                            suit_strength,
                            tie_break_suit: true,
                            flush_suit_first: (i % 2 == 0) == wheel_second,
                            wheel_second,
                        };
                        check_every_hand(ranking, 5);
                        check_every_hand(ranking, 3);
                    }
                }
            });
        }
    });
}

#[test]
fn key_rank_is_the_first_card_in_significance_order() {
    let low = Evaluator::default();
    let second = Evaluator::new(Ranking {
        wheel_second: true,
        ..Ranking::default()
    });
    let flush_first = Evaluator::new(Ranking {
        flush_suit_first: true,
        ..Ranking::default()
    });
    // hand, its key rank's letter under the low wheel and under "second"
    let cases = [
        ("2c 7d 5h", '7', '7'),
        ("Kc 4d 9h Qs 2c", 'K', 'K'),
        ("3c 3d Ah", '3', '3'),
        ("Ac 9d 9h 5s 2c", '9', '9'),
        ("5c 5d 9h 9s Ac", '9', '9'),
        ("Jc Jd Jh", 'J', 'J'),
        ("2c 2d 2h Ks Ac", '2', '2'),
        ("Ac 2d 3h 4s 5c", '5', 'A'),
        ("2d 3h 4s 5c 6c", '6', '6'),
        ("9d Th Js Qc Kc", 'K', 'K'),
        ("Td Jh Qs Kc Ac", 'A', 'A'),
        ("2s 9s 5s Js 7s", 'J', 'J'),
        ("4c 4d 4h 8s 8c", '4', '4'),
        ("Qc Qd Qh Qs 3c", 'Q', 'Q'),
        ("Ah 2h 3h 4h 5h", '5', 'A'),
        ("8h 9h Th Jh Qh", 'Q', 'Q'),
        ("Th Jh Qh Kh Ah", 'A', 'A'),
    ];
    for (hand, at_low, at_second) in cases {
        for (e, wheel_second, want) in [(&low, false, at_low), (&second, true, at_second)] {
            let rank = key_rank(strength(e, hand), wheel_second);
            assert_eq!(
                crate::cards::RANK_CHARS[rank as usize] as char,
                want,
                "{hand}"
            );
        }
    }
    // a flush's suit, ranked first, does not move its key rank
    assert_eq!(key_rank(strength(&flush_first, "2s 9s 5s Js 7s"), false), 9);
    // every category's names appear in the cases
    let seen: HashSet<u8> = cases
        .iter()
        .map(|(h, ..)| category_of(strength(&low, h)))
        .collect();
    assert_eq!(seen.len(), 10);
}
