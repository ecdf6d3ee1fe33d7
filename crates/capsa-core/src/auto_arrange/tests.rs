use super::*;
use crate::splits::is_valid;
use crate::test_support::strict_foul_check;

fn fouls(rules: &Rules, a: &[u8; 13]) -> bool {
    let e = &rules.evaluator;
    !is_valid(
        e.eval_unchecked(&a[..3]),
        e.eval_unchecked(&a[3..8]),
        e.eval_unchecked(&a[8..]),
        rules.foul_strict,
    )
}

fn sorted(mut a: [u8; 13]) -> [u8; 13] {
    a.sort_unstable();
    a
}

#[test]
fn each_policy_arranges_the_hand_as_it_says() {
    for rules in [Rules::default(), strict_foul_check(Rules::default())] {
        let greedy = solver::arranger(&rules, None, 3, Strategy::Greedy).unwrap();
        let best = solver::arranger(&rules, None, 3, Strategy::Solver).unwrap();
        for seed in 0..40u64 {
            let hand = crate::deal::deal(4, Some(seed)).unwrap()[0];
            let solver_choice = auto_arrangement(&rules, &hand, 3, AutoPolicy::Solver).unwrap();
            let chosen = best.choose(&hand).unwrap();
            assert_eq!(solver_choice.cards, chosen.cards);
            assert_eq!(solver_choice.declare_natural, chosen.declare_natural);
            let g = auto_arrangement(&rules, &hand, 3, AutoPolicy::Greedy).unwrap();
            assert_eq!(g.cards, greedy.arrangement(&hand, Effort::Fast).unwrap());
            assert!(!fouls(&rules, &g.cards) && !fouls(&rules, &solver_choice.cards));
            let f = auto_arrangement(&rules, &hand, 3, AutoPolicy::Foul).unwrap();
            assert!(fouls(&rules, &f.cards) && !f.declare_natural);
            for a in [g.cards, f.cards, solver_choice.cards] {
                assert_eq!(sorted(a), sorted(hand));
            }
        }
    }
}

#[test]
fn greedy_declares_a_natural_the_rules_pay() {
    // six pairs, which the default rules pay
    let hand = crate::test_support::hand("2d 2c 3d 3c 4d 4c 5d 5c 6d 6c 7d 7c Ks");
    let rules = Rules::default();
    assert!(
        auto_arrangement(&rules, &hand, 4, AutoPolicy::Greedy)
            .unwrap()
            .declare_natural
    );
    assert!(
        !auto_arrangement(&rules, &hand, 4, AutoPolicy::Foul)
            .unwrap()
            .declare_natural
    );
}

#[test]
fn policies_by_name_and_their_faults() {
    for name in AUTO_POLICY_NAMES {
        assert_eq!(AutoPolicy::from_name(name).unwrap().name(), name);
    }
    let e = AutoPolicy::from_name("simple").unwrap_err();
    assert!(
        e.message().contains("solver, greedy, foul"),
        "{}",
        e.message()
    );
    let rules = Rules::default();
    assert!(auto_arrangement(&rules, &[0; 13], 4, AutoPolicy::Foul).is_err());
    let hand = crate::deal::deal(4, Some(1)).unwrap()[0];
    assert!(auto_arrangement(&rules, &hand, 5, AutoPolicy::Greedy).is_err());
}

#[test]
fn every_policy_plays_larger_decks() {
    let mut rules = strict_foul_check(Rules::default());
    rules.deck = crate::deck::Deck {
        added_suits: 0,
        decks: 2,
        jokers: 2,
    };
    for seed in 0..30u64 {
        for hand in crate::deal::deal_deck(&rules.deck, 8, Some(seed)).unwrap() {
            let greedy = auto_arrangement(&rules, &hand, 8, AutoPolicy::Greedy).unwrap();
            assert_eq!(sorted(greedy.cards), hand);
            assert!(!crate::hands::fouls(&rules, &greedy.cards), "{hand:?}");
            let foul = auto_arrangement(&rules, &hand, 8, AutoPolicy::Foul).unwrap();
            assert!(crate::hands::fouls(&rules, &foul.cards) && !foul.declare_natural);
        }
    }
    for hand in crate::deal::deal_deck(&rules.deck, 8, Some(1)).unwrap() {
        let solver = auto_arrangement(&rules, &hand, 8, AutoPolicy::Solver).unwrap();
        assert_eq!(sorted(solver.cards), hand);
        assert!(!crate::hands::fouls(&rules, &solver.cards), "{hand:?}");
    }
    let hand = crate::deal::deal_deck(&rules.deck, 2, Some(1)).unwrap()[0];
    let nine = auto_arrangement(&rules, &hand, 9, AutoPolicy::Greedy).unwrap_err();
    assert!(
        nine.message().contains("has 2 to 8 seats, got 9"),
        "{nine:?}"
    );
}
