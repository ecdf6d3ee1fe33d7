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
