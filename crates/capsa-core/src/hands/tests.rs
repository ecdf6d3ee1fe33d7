use super::*;
use crate::rules::KnobValue;
use crate::test_support::cards;

fn with_deck(added: &str, decks: i64, jokers: i64) -> Rules {
    let mut r = Rules::default();
    r.set_knob("deck.added_suits", KnobValue::Text(added.into()))
        .unwrap();
    r.set_knob("deck.decks", KnobValue::Int(decks)).unwrap();
    r.set_knob("deck.jokers", KnobValue::Int(jokers)).unwrap();
    r.validate().unwrap();
    r
}

#[test]
fn the_deck_decides_which_cards_a_hand_may_hold() {
    let standard = Rules::default();
    let spades = with_deck("s", 1, 0);
    let copy = cards("As' Ks Qd");
    assert!(check(&standard, &copy, &[3], "a hand").is_err());
    check(&spades, &copy, &[3], "a hand").unwrap();
    let err = check(&spades, &cards("Ah' Ks Qd"), &[3], "a hand").unwrap_err();
    assert!(err.message().contains("not in the 65-card deck"), "{err}");
    assert!(check(&spades, &cards("BJ Ks Qd"), &[3], "a hand").is_err());
    check(&with_deck("none", 1, 1), &cards("BJ Ks Qd"), &[3], "a hand").unwrap();
}

#[test]
fn a_52_card_hand_ranks_alike_under_every_deck() {
    let wide = with_deck("none", 2, 2);
    for text in [
        "As Ks Qs Js Ts",
        "2d 3c 4h 5s 6d",
        "Ah Ad Kc",
        "9s 9h 9d 9c 2d",
    ] {
        let ids = cards(text);
        assert_eq!(
            strength(&wide, &ids),
            strength(&Rules::default(), &ids),
            "{text}"
        );
    }
}

#[test]
fn five_of_a_kind_in_the_middle_over_a_straight_flush_fouls() {
    let rules = with_deck("none", 2, 0);
    let ids = cards("2c 3d 4h | 9s 9s' 9h 9h' 9d | 5d 6d 7d 8d 9d'");
    assert!(fouls(&rules, &ids));
    let ids = cards("2c 3d 4h | 5d 6d 7d 8d 9d' | 9s 9s' 9h 9h' 9d");
    assert!(!fouls(&rules, &ids));
    assert!(count_splits(&rules, &ids).unwrap() >= 1);
    assert_eq!(
        splits(&rules, &ids, true).unwrap().len(),
        count_splits(&rules, &ids).unwrap()
    );
}

#[test]
fn batches_rank_as_single_calls() {
    let rules = with_deck("sh", 1, 2);
    let rows = cards("As As' Kh Kh' BJ Qs Js Ts 9s RJ 2d 3c 4h 5s 6d");
    let got = strengths(&rules, &rows, 5).unwrap();
    for (k, row) in rows.chunks(5).enumerate() {
        assert_eq!(got[k], strength(&rules, row));
    }
    let bad = cards("As As' Kh Kd' BJ");
    let err = strengths(&rules, &bad, 5).unwrap_err();
    assert!(err.message().contains("Kd'"), "{err}");
}
