use super::*;
use crate::rank::Ranking;
use crate::test_support::without_suit_tie_break;

#[test]
fn table_shape() {
    let t = table();
    assert_eq!(t.masks3.len(), SUBSETS3);
    assert_eq!(t.masks5.len(), SUBSETS5);
    assert_eq!(t.splits.len(), SPLITS);
    assert_eq!(t.halvings.len(), SPLITS / 2);
    let mut seen = std::collections::HashSet::new();
    for [a, b, c] in &t.splits {
        let (a, b, c) = (
            t.masks3[*a as usize],
            t.masks5[*b as usize],
            t.masks5[*c as usize],
        );
        assert_eq!(a | b | c, (1 << 13) - 1);
        assert_eq!(a & b, 0);
        assert_eq!(b & c, 0);
        assert!(seen.insert((a, b)));
    }
    // first split: top = positions 0,1,2, middle = 3..7
    assert_eq!(t.masks3[t.splits[0][0] as usize], 0b111);
    assert_eq!(t.masks5[t.splits[0][1] as usize], 0b11111000);
}

#[test]
fn valid_fraction_is_plausible() {
    let e = without_suit_tie_break();
    let mut rng = crate::deal::ChaCha20::from_seed(3);
    let mut total = 0usize;
    for _ in 0..50 {
        let deck = crate::deal::shuffled_deck(&mut rng);
        let n = count_splits(&e, false, &deck[..13]).unwrap();
        let strict = count_splits(&e, true, &deck[..13]).unwrap();
        assert!(strict <= n);
        total += n;
    }
    let frac = total as f64 / (50.0 * SPLITS as f64);
    assert!((0.25..0.37).contains(&frac), "{frac}");
}

#[test]
fn halving_count_equals_direct_count() {
    let mut rng = crate::deal::ChaCha20::from_seed(8);
    for ranking in [
        Ranking::default(),
        Ranking {
            tie_break_suit: false,
            ..Ranking::default()
        },
    ] {
        let e = Evaluator::new(ranking);
        for _ in 0..40 {
            let deck = crate::deal::shuffled_deck(&mut rng);
            let hand = sorted_hand(&deck[..13]).unwrap();
            let subsets = subset_strengths(&e, &hand);
            for strict in [false, true] {
                let direct = (0..SPLITS)
                    .filter(|&k| {
                        let (t, m, b) = subsets.split(k);
                        is_valid(t, m, b, strict)
                    })
                    .count();
                assert_eq!(subsets.count_valid(strict), direct);
            }
        }
    }
}

#[test]
fn layouts_are_valid_and_sorted() {
    let e = Evaluator::default();
    let hand: Vec<u8> = (0..13).map(|i| i * 4).collect();
    let all = splits(&e, false, &hand, false).unwrap();
    assert_eq!(all.len(), SPLITS);
    let valid = splits(&e, false, &hand, true).unwrap();
    for s in &valid {
        let t = e.eval3([s[0], s[1], s[2]]);
        let m = e.eval5([s[3], s[4], s[5], s[6], s[7]]);
        let b = e.eval5([s[8], s[9], s[10], s[11], s[12]]);
        assert!(b >= m && m >= t);
        assert!(s[..3].windows(2).all(|w| w[0] < w[1]));
    }
    assert!(splits(&e, false, &hand[..12], true).is_err());
}

/// Every ranking the rules can name: each wheel, flush compare and suit
/// tie-break (the suit order only orders the tie-break).
fn every_ranking() -> impl Iterator<Item = Ranking> {
    (0..8).map(|v| Ranking {
        tie_break_suit: v & 1 != 0,
        flush_suit_first: v & 2 != 0,
        wheel_second: v & 4 != 0,
        ..Ranking::default()
    })
}

/// The lemma behind `first_foul`: under every ranking a five-card
/// strength determines the hand's ranks (checked on every five of the 52
/// cards), so eight cards, which never share one rank, always hold two
/// fives of different strength.
#[test]
fn a_five_card_strength_determines_the_ranks() {
    let deck: Vec<u8> = (0..52).collect();
    for ranking in every_ranking() {
        let e = Evaluator::new(ranking);
        let mut ranks_of = std::collections::HashMap::<u32, [u8; 5]>::new();
        crate::test_support::for_each_combination(&deck, 5, |five| {
            let strength = e.eval5([five[0], five[1], five[2], five[3], five[4]]);
            let mut ranks = [0u8; 5];
            for (r, &card) in ranks.iter_mut().zip(five) {
                *r = crate::cards::rank_index(card);
            }
            ranks.sort_unstable();
            let seen = *ranks_of.entry(strength).or_insert(ranks);
            assert_eq!(seen, ranks, "{ranking:?}: strength {strength} of {five:?}");
        });
    }
}

#[test]
fn first_foul_is_the_first_split_that_fouls() {
    let mut rng = crate::deal::ChaCha20::from_seed(40);
    for ranking in every_ranking() {
        let e = Evaluator::new(ranking);
        for strict in [false, true] {
            for k in 0..200 {
                let deck = crate::deal::shuffled_deck(&mut rng);
                let hand = sorted_hand(&deck[..13]).unwrap();
                let found = first_foul(&e, strict, &hand).expect("every hand has a foul");
                let fouls = |a: &[u8; 13]| {
                    let rows = (e.eval3([a[0], a[1], a[2]]), e.eval_unchecked(&a[3..8]));
                    !is_valid(rows.0, rows.1, e.eval_unchecked(&a[8..]), strict)
                };
                assert!(fouls(&found), "{ranking:?} {strict}: {found:?}");
                if k < 5 {
                    // every split laid out, the first that fouls found apart
                    let every = splits(&e, strict, &hand, false).unwrap();
                    assert_eq!(every.into_iter().find(fouls), Some(found));
                }
            }
        }
    }
}

/// A hand whose early splits are valid: its first foul is found further on.
#[test]
fn first_foul_of_a_hand_sorted_strong_to_the_bottom() {
    let e = Evaluator::new(Ranking::default());
    // the lowest cards on top, the next five in the middle, the five highest
    // (a straight flush) at the bottom: the first split is valid
    let hand = crate::test_support::hand("2d 3c 4h 5s 6d 7c 8h Td Jd Qd Kd Ad 9s");
    let sorted = sorted_hand(&hand).unwrap();
    let found = first_foul(&e, false, &sorted).unwrap();
    let first = splits(&e, false, &sorted, false).unwrap()[0];
    assert_ne!(found, first);
    assert!(!is_valid(
        e.eval3([found[0], found[1], found[2]]),
        e.eval_unchecked(&found[3..8]),
        e.eval_unchecked(&found[8..]),
        false
    ));
}
