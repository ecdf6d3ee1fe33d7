use std::collections::HashMap;

use super::super::classes::{all_classes, deck_classes, ClassCards, CLASS_SHIFT};
use super::*;
use crate::rank::wide::WideEvaluator;
use crate::rank::{Evaluator, Rank};
use crate::rules::Rules;
use crate::test_support::for_each_combination;

/// The share of each class's combinations left, as the card-removal pass
/// sums it, equals the count of hands of that class among the cards of
/// `deck` that `own` leaves over the count among all of them.
fn check_shares<E: Rank>(
    e: &E,
    five: bool,
    deck: &Deck,
    classes: &[(u32, ClassCards)],
    own: &[u8],
) {
    let n = if five { 5 } else { 3 };
    let count = |cards: &[u8]| {
        let mut m: HashMap<u32, f64> = HashMap::new();
        for_each_combination(cards, n, |hand| {
            *m.entry(e.eval_unchecked(hand) >> CLASS_SHIFT)
                .or_insert(0.0) += 1.0;
        });
        m
    };
    let full: Vec<u8> = deck.ids();
    let left: Vec<u8> = full.iter().copied().filter(|c| !own.contains(c)).collect();
    let all = count(&full);
    let rest = count(&left);
    let mut live = LiveSet::default();
    for (c, info) in classes {
        live.push(*c, 1.0, 0.0, 1.0, info);
    }
    let rm = Removal::new(own, deck);
    let mut pos = [0usize; 3];
    for (c, _) in classes {
        live.sum_until(&rm, &mut pos, *c);
        let got = live.sum_until(&rm, &mut pos, c + 1)[0];
        let want = rest.get(c).copied().unwrap_or(0.0) / all[c];
        assert!((got - want).abs() < 1e-5, "class {c:#x}: {got} vs {want}");
    }
}

fn check(e: &Evaluator, five: bool, own: &[u8]) {
    check_shares(e, five, &Deck::default(), &all_classes(e, five), own);
}

/// Under a deck with copies the shares count cards per rank: exact for the
/// three-card rows, whose hands are their rank groups alone (a second copy
/// of the hand's own cards among them).
#[test]
fn removal_by_rank_matches_counting_for_the_top_of_a_deck_with_copies() {
    let mut rules = Rules::default();
    rules.deck.added_suits = 0b0110;
    let own: Vec<u8> = vec![0, 1, 2, 5, 9, 13, 17, 21, 48, 49, 53, 54, 82];
    let wide = WideEvaluator::new(rules.evaluator);
    check_shares(
        &wide,
        false,
        &rules.deck,
        &deck_classes(&rules, false),
        &own,
    );
}

#[test]
fn removal_share_matches_counting() {
    let own: Vec<u8> = vec![0, 1, 2, 5, 9, 13, 17, 21, 48, 49, 50, 51, 30];
    for ranking in [
        crate::rank::Ranking::default(),
        crate::rank::Ranking {
            flush_suit_first: true,
            wheel_second: true,
            ..Default::default()
        },
    ] {
        let e = Evaluator::new(ranking);
        check(&e, false, &own);
        check(&e, true, &own);
    }
}

/// The build for AVX2 and POPCNT and the portable one give the same bits
/// for every bucket of every row of the shipped model, whichever of them
/// `sum_until` takes on this processor; so does the solver's output.
#[test]
fn both_builds_of_the_sums_give_the_same_bits() {
    let rules = crate::rules::Rules::default();
    let solver =
        crate::solver::Solver::new(&rules, crate::solver::Tables::nearest(&rules), 4).unwrap();
    for hand in super::super::tests::hands(200, 7) {
        let rm = Removal::new(&hand, &rules.deck);
        for model in &solver.model {
            let live = &model.live;
            // buckets of a few classes each, as a hand's queries cut them
            let (mut wide, mut portable) = ([0usize; 3], [0usize; 3]);
            for hi in model.keys.iter().step_by(37).chain([&u32::MAX]) {
                let a = live.sum_until(&rm, &mut wide, *hi);
                let b = live.sum_until_portable(&rm, &mut portable, *hi);
                assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "below {hi:#x}");
                assert_eq!(wide, portable);
            }
        }
    }
}
