use super::*;
use crate::error::ErrorKind;
use crate::rules::Rules;
use crate::solver::{Strategy, Tables};
use crate::test_support::hand;

fn hands(n: u64) -> Vec<[u8; 13]> {
    (0..n)
        .map(|seed| crate::deal::deal(4, Some(seed)).unwrap()[1])
        .collect()
}

fn solver(tables: &str, seats: usize) -> Solver {
    Solver::new(&Rules::default(), Tables::preset(tables).unwrap(), seats).unwrap()
}

/// A small deep mode with the same model error for the rows and the rest.
fn small(model_error: f64) -> DeepConfig {
    DeepConfig {
        deals: 6,
        candidates: 8,
        model_error,
        rest_error: model_error,
    }
}

#[test]
fn effort_names_round_trip_and_unknown_ones_are_named() {
    for name in EFFORT_NAMES {
        assert_eq!(Effort::from_name(name).unwrap().name(), name);
    }
    let e = Effort::from_name("thorough").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Argument);
    assert!(e.message().contains("\"thorough\"") && e.message().contains("fast, deep"));
}

#[test]
fn deep_choices_arrange_the_hand_and_do_not_depend_on_the_order_of_its_cards() {
    for seats in 2..=4 {
        let s = solver("capsa-susun", seats);
        for hand in hands(4) {
            let ranked = s.rank_deep(&hand, 3, &small(0.1)).unwrap();
            assert!(!ranked.is_empty() && ranked.len() <= 3);
            for c in &ranked {
                let mut got = c.cards;
                got.sort_unstable();
                let mut want = hand;
                want.sort_unstable();
                assert_eq!(got, want);
                assert!(s.value_of(&c.cards).is_some(), "{:?} fouls", c.cards);
            }
            assert!(ranked
                .windows(2)
                .all(|w| w[0].expected_points >= w[1].expected_points));
            let mut reversed = hand;
            reversed.reverse();
            assert_eq!(s.rank_deep(&reversed, 3, &small(0.1)).unwrap(), ranked);
        }
    }
}

/// With no trust in the samples (b = 0) the deep ranking is the model's.
#[test]
fn a_zero_model_error_keeps_the_models_ranking() {
    let s = solver("pagat", 2);
    for hand in hands(6) {
        let deep = s.rank_deep(&hand, 5, &small(0.0)).unwrap();
        let fast = s.rank(&hand, 5).unwrap();
        for (d, f) in deep.iter().zip(&fast) {
            assert_eq!(d.cards, f.cards);
            assert!((d.expected_points - f.expected_points).abs() < 1e-9);
        }
    }
}

/// With full trust in the samples (b = inf) every estimate is a mean of
/// whole points over the samples: 3 heads-up opponents per deal.
#[test]
fn an_infinite_model_error_gives_sampled_means() {
    let s = solver("pagat", 2);
    let cfg = small(f64::INFINITY);
    let samples = 3.0 * cfg.deals as f64;
    for hand in hands(4) {
        for c in s.rank_deep(&hand, 4, &cfg).unwrap() {
            let total = c.expected_points * samples;
            assert!((total - total.round()).abs() < 1e-6, "{total}");
        }
    }
}

/// Trusting the model for the rows and the samples for the rest, each
/// estimate is the model's row value plus a mean of whole points: under
/// capsa-susun scoring the rest (the scoop) is not zero.
#[test]
fn the_rows_can_come_from_the_model_and_the_rest_from_the_samples() {
    let s = solver("capsa-susun", 2);
    let cfg = DeepConfig {
        model_error: 0.0,
        rest_error: f64::INFINITY,
        ..small(0.0)
    };
    let samples = 3.0 * cfg.deals as f64;
    let mut rest_seen = false;
    for hand in hands(8) {
        for c in s.rank_deep(&hand, 4, &cfg).unwrap() {
            let rows = match c.declare_natural {
                true => continue,
                false => s.row_values_of(&[c.cards])[0].unwrap(),
            };
            let total = (c.expected_points - rows) * samples;
            assert!((total - total.round()).abs() < 1e-6, "{total}");
            rest_seen |= total.round() != 0.0;
        }
    }
    assert!(rest_seen, "no sample scooped");
}

/// A scoop under capsa-susun scoring doubles the rows (3 points and the
/// royalties, which it does not multiply): the rest is the other 3.
#[test]
fn a_scoop_splits_into_its_rows_and_the_doubling() {
    let rules = Rules::default();
    let winner = hand("2s 2h 2d As Ks Qs Js 9s Ah Kh Qh Jh Th");
    let loser = hand("3c 4d 5c 6d 8c 9d Tc Jd Qc Kd 7h 5h 3h");
    let seats = [winner, loser].map(|cards| SeatInput {
        cards,
        surrender: false,
        declare_natural: false,
        banker: false,
        multiplier: 1,
    });
    let s = settle(&rules, &seats, &Stakes::Uniform(1)).unwrap();
    let (rows, rest) = split_points(&s);
    assert_eq!(s.pairs[0].scoop, 1);
    assert_eq!(rows + rest, s.seats[0].points as f64);
    assert_eq!(rest, 3.0);
    assert_eq!(rows, 3.0 + s.pairs[0].royalties as f64);
}

#[test]
fn k_out_of_range_is_an_argument_error_naming_k() {
    let s = solver("pagat", 4);
    let hand = hands(1)[0];
    for k in [0, MAX_DEEP_CHOICES + 1] {
        let e = s.rank_deep(&hand, k, &small(0.1)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Argument);
        assert!(e.message().contains(&format!("k = {k}")), "{e}");
    }
    let e = s.rank_deep(&hand[..12], 1, &small(0.1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Hand);
}

#[test]
fn the_baselines_refuse_the_deep_mode() {
    let rules = Rules::default();
    for strategy in [Strategy::Greedy, Strategy::Random] {
        let a = crate::solver::arranger(&rules, None, 4, strategy).unwrap();
        let e = a.choose_with(&hands(1)[0], Effort::Deep).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Argument);
        assert!(e.message().contains(strategy.name()), "{e}");
    }
}
