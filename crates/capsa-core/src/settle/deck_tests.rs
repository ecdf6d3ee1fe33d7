//! Tables of larger decks (docs/rules.md, "Tables of larger decks").

use super::*;
use crate::deal::ChaCha20;
use crate::error::ErrorKind;
use crate::rules::{KnobValue, RoyaltyMode, Rules, TOP};
use crate::test_support::cards;

/// capsa-susun's scoring with no naturals, on the deck the knobs make.
fn deck_rules(added: &str, decks: i64, jokers: i64) -> Rules {
    let mut r = Rules {
        naturals: vec![],
        ..Rules::default()
    };
    r.set_knob("deck.added_suits", KnobValue::Text(added.into()))
        .unwrap();
    r.set_knob("deck.decks", KnobValue::Int(decks)).unwrap();
    r.set_knob("deck.jokers", KnobValue::Int(jokers)).unwrap();
    r
}

fn seat(text: &str) -> SeatInput {
    SeatInput::playing(cards(text).try_into().expect("13 cards"), false)
}

/// `n` hands of 13 from a seeded shuffle of the deck's cards, as dealt.
fn dealt(rules: &Rules, n: usize, seed: u64) -> Vec<SeatInput> {
    let mut ids = rules.deck.ids();
    let mut rng = ChaCha20::from_seed(seed);
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.below(i as u32 + 1) as usize);
    }
    (0..n)
        .map(|s| SeatInput::playing(ids[13 * s..13 * s + 13].try_into().unwrap(), false))
        .collect()
}

#[test]
fn every_table_size_a_deck_seats_settles_and_balances() {
    for (rules, most) in [
        (deck_rules("s", 1, 0), 5),
        (deck_rules("sh", 1, 0), 6),
        (deck_rules("none", 2, 2), 8),
        (deck_rules("none", 1, 2), 4),
    ] {
        for n in 2..=most {
            for seed in 0..20 {
                let table = dealt(&rules, n, seed);
                let s = settle(&rules, &table, &Stakes::Uniform(3)).unwrap();
                assert_eq!(s.seats.len(), n);
                assert_eq!(s.pairs.len(), n * (n - 1) / 2);
                assert_eq!(s.seats.iter().map(|r| r.points).sum::<i64>(), 0);
                let mut points = vec![0; n];
                let mut money = vec![0; n];
                settle_points(&rules, &table, &Stakes::Uniform(3), &mut points, &mut money)
                    .unwrap();
                assert_eq!(points, s.seats.iter().map(|r| r.points).collect::<Vec<_>>());
            }
        }
        let err = settle(&rules, &dealt(&rules, most, 1)[..1], &Stakes::Uniform(1)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Table);
    }
}

#[test]
fn a_table_larger_than_its_deck_is_refused() {
    let rules = deck_rules("s", 1, 0);
    let six = [dealt(&rules, 5, 1), dealt(&rules, 1, 2)].concat();
    let err = settle(&rules, &six, &Stakes::Uniform(1)).unwrap_err();
    assert!(err.message().contains("2 to 5 seats, got 6"), "{err}");
    let mut table = dealt(&rules, 2, 1);
    table[1].cards[4] = crate::deck::BLACK_JOKER;
    let err = settle(&rules, &table, &Stakes::Uniform(1)).unwrap_err();
    assert!(err.message().contains("BJ (id 104)"), "{err}");
    table[1].cards[4] = table[0].cards[7];
    assert_eq!(
        settle(&rules, &table, &Stakes::Uniform(1))
            .unwrap_err()
            .kind(),
        ErrorKind::Hand
    );
}

#[test]
fn five_of_a_kind_wins_its_row_and_pays_no_royalty_unless_set() {
    let rules = deck_rules("none", 2, 0);
    let five = seat("2c 3d 4h | 5h 6h 7h 8h Th | 9s 9s' 9h 9h' 9d");
    let quads = seat("2d 3c 4s | Ac Ad As Kc Ks | Kd Kd' Kh Kh' 2h");
    let s = settle(&rules, &[five, quads], &Stakes::Uniform(1)).unwrap();
    assert!(!s.seats[0].foul && !s.seats[1].foul);
    assert_eq!(s.seats[0].royalties[2], 0, "five of a kind pays no royalty");
    let plain = Rules {
        royalty_mode: RoyaltyMode::None,
        ..rules.clone()
    };
    let s = settle(&plain, &[five, quads], &Stakes::Uniform(1)).unwrap();
    // the top and the middle lost, the bottom won: five of a kind over quads
    assert_eq!(s.pairs[0].points, -1);
}

#[test]
fn either_copy_of_the_horse_card_is_the_horse_card() {
    let mut rules = deck_rules("h", 1, 0);
    rules.horse_card = Some(50); // Ah
    rules.horse_multiplier = 2;
    let holder = seat("2c 3d 4h | 5c 6d 7h 8s Tc | Jd Qh Ks Ah' 9c");
    let other = seat("2d 3c 4s | 5d 6c 7s 8h Td | Jc Qs Kh 9h Kd");
    let s = settle(&rules, &[holder, other], &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.pairs[0].horse, 2);
}

#[test]
fn naturals_of_larger_decks_settle_their_pairs() {
    use crate::naturals::{Natural, NaturalEntry};
    use crate::rules::NaturalTies;
    let mut rules = deck_rules("none", 2, 2);
    rules.naturals = vec![
        NaturalEntry::new(Natural::EightOfAKind, 40),
        NaturalEntry::new(Natural::SixOfAKind, 20),
    ];
    rules.natural_ties = NaturalTies::Compare;
    // two jokers make eight kings; six queens; a plain hand
    let declaring = |text: &str| SeatInput::playing(cards(text).try_into().unwrap(), true);
    let eight = declaring("Kc Kd Kh Ks Kc' Kd' 2c 3c 4c 5c 6c BJ RJ");
    let six = declaring("Qc Qd Qh Qs Qc' Qd' 2d 3d 4d 5d 6d 7d 8d");
    let plain = declaring("2h 3h 4h | 5s 6s 7s 8s Ts | 9c 9d 9h Jc Jd");
    let s = settle(&rules, &[eight, six, plain], &Stakes::Uniform(1)).unwrap();
    let points: Vec<i64> = s.seats.iter().map(|x| x.points).collect();
    // eight kings collect 40 from each; six queens 20 from the plain hand
    assert_eq!(points, [80, -20, -60]);
    // six jacks against six queens: the same natural, compared by rank
    let jacks = declaring("Jc Jd Jh Js Jc' Jd' 2h 3h 4h 5h 6h 7h 8h");
    let s = settle(&rules, &[six, jacks], &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.seats[0].points, 20);
    // a joker plays the seventh queen's place: six queens by the joker
    let joker_queens = declaring("Qh' Qs' Qc Qd Qh BJ 9c 9d 9h 9s Tc Td Th");
    let s = settle(&rules, &[joker_queens, jacks], &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.seats[0].points, 20);
}

#[test]
fn five_of_a_kind_pays_its_own_royalty_in_a_five_card_row() {
    let mut rules = deck_rules("none", 2, 0);
    rules
        .set_knob("royalties.bottom_five_of_a_kind", KnobValue::Int(10))
        .unwrap();
    rules
        .set_knob("royalties.middle_five_of_a_kind", KnobValue::Int(20))
        .unwrap();
    let five = seat("2c 3d 4h | 5h 6h 7h 8h Th | 9s 9s' 9h 9h' 9d");
    let quads = seat("2d 3c 4s | Ac Ad As Kc Ks | Kd Kd' Kh Kh' 2h");
    let s = settle(&rules, &[five, quads], &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.seats[0].royalties, [0, 0, 10]);
    let middle = seat("2c 3d 4h | 9s 9s' 9h 9h' 9d | As As' Ah Ah' Ad");
    let pairs = seat("2d 3c 4s | Kc Ks Qc Qs Jc | Kd Kd' Kh Kh' 2h");
    let s = settle(&rules, &[middle, pairs], &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.seats[0].royalties, [0, 20, 10]);
}

/// 对鬼冲前: under `royalties.top_two_jokers` a top of both jokers (trips
/// of deuces as ranked) wins its row against trips of aces and pays the
/// knob's royalty; its reported strength stays its hand's. 0: ranked.
#[test]
fn a_top_of_both_jokers_wins_its_row_under_the_knob() {
    let mut rules = deck_rules("none", 1, 2);
    rules.royalties[TOP][crate::rank::TRIPS as usize] = 3;
    let table = [
        seat("2d BJ RJ 3c 3h 3s 4d 4c 9s Ts Js Qs Ks"),
        seat("Ah Ad Ac 5c 5h 5s 6d 6c 7d 7c 7h 7s 8d"),
    ];
    let ranked = settle(&rules, &table, &Stakes::Uniform(1)).unwrap();
    assert_eq!(ranked.pairs[0].rows[0], -1);
    assert_eq!(ranked.seats[0].royalties[0], 3);
    rules.top_two_jokers = 20;
    let s = settle(&rules, &table, &Stakes::Uniform(1)).unwrap();
    assert_eq!(s.pairs[0].rows[0], 1);
    assert_eq!(s.seats[0].royalties[0], 20);
    assert_eq!(s.seats[0].strengths, ranked.seats[0].strengths);
    assert_eq!(s.seats.iter().map(|r| r.points).sum::<i64>(), 0);
}
