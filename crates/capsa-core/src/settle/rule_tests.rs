//! Hand-computed tables for the rules after the base: ranked royalties,
//! scoop by seats, exempt sweeps, foul modes `none` and `refuse`, caps, the
//! horse card, banker games and tiers of naturals (docs/rules.md,
//! "Settlement").

use super::*;
use crate::error::ErrorKind;
use crate::naturals::Natural;
use crate::rules::{CapStage, FoulMode, NaturalEntry, NaturalOpponents, RoyaltyMode, Rules};
use crate::test_support::{hand, without_suit_tie_break};

fn seat(text: &str) -> SeatInput {
    SeatInput::playing(hand(text), true)
}

fn seats(texts: &[&str]) -> Vec<SeatInput> {
    texts.iter().map(|t| seat(t)).collect()
}

/// One point a row, no overall point, no royalties, no naturals: a scoop
/// pays 3 x 2, a sweep-all (at 3 seats or more) 3 x 4.
fn bare() -> Rules {
    Rules {
        royalty_mode: RoyaltyMode::None,
        overall_point: 0,
        scoop_multiplier: 2,
        sweep_all_multiplier: 4,
        sweep_all_min_players: 3,
        naturals: vec![],
        ..Rules::default()
    }
}

/// Settles through both outputs and checks they agree and balance.
fn run(rules: &Rules, table: &[SeatInput]) -> Settlement {
    let s = settle(rules, table, &Stakes::Uniform(1)).unwrap();
    let n = table.len();
    let (mut p, mut m) = ([0i64; 4], [0i64; 4]);
    settle_points(rules, table, &Stakes::Uniform(1), &mut p[..n], &mut m[..n]).unwrap();
    for k in 0..n {
        assert_eq!(p[k], s.seats[k].points);
        assert_eq!(m[k], s.seats[k].money);
    }
    assert_eq!(s.seats.iter().map(|r| r.points).sum::<i64>(), 0);
    for q in &s.pairs {
        if !q.has_terms() {
            assert_eq!(q.points, q.base);
        }
    }
    s
}

fn pair(s: &Settlement, i: usize, j: usize) -> PairResult {
    *s.pairs.iter().find(|p| p.i == i && p.j == j).unwrap()
}

fn points(s: &Settlement) -> Vec<i64> {
    s.seats.iter().map(|r| r.points).collect()
}

// Seat 0 beats every other seat in every row, without royalties.
const SWEEP: [&str; 4] = [
    "As Ah Kd | 2s 5s 7s 9s Js | 3h 6h 8h Th Qh",
    "Ad Kc Qd | 2d 2c 4d 5d 7c | 3d 3c 8d 9d Tc",
    "Ac Kh Qc | 4c 4h 6d 8c Jd | 5c 5h 9c Td Jc",
    "Ks Qs Jh | 6c 6s 2h 3s 4s | 7d 7h 8s 9h Ts",
];

// Seat 0 fouls (a pair of aces over a jack-high middle); seat 1 wins the
// middle and the bottom against it and loses the top.
const FOUL: [&str; 3] = [
    "Ac Ah 4d | 2c 5c 7d Tc Jd | Kc Qc 6h 4h 3h",
    "Ad Kd Qd | 8d 8c 8h 3d 3c | 9d 9c 9h 9s 2d",
    "2h 5d 6d | Ts Th 7c 4c 2s | Js Jh Qs Ks As",
];

// Six pairs from cards SWEEP's seats 0 and 1 do not hold, arranged validly.
const SIX_PAIRS: &str = "4s 4h 9c | 6s 6c Ts Td Jc | Ks Kh Qs Qc Jh";
// Six pairs arranged as a foul: a pair of sixes over a pair of deuces.
const SIX_PAIRS_FOULED: &str = "Ks Kh 2h | 4s 4h 5h 6s 7h | 5c 6d 7d 9h 9c";

#[test]
fn scoop_by_seats_multiplies_a_scoop_by_the_players_at_two_three_and_four_seats() {
    let rules = Rules {
        scoop_by_seats: true,
        scoop_multiplier: 7,
        sweep_all_min_players: 5,
        ..bare()
    };
    for n in 2..=4 {
        let s = run(&rules, &seats(&SWEEP[..n]));
        for j in 1..n {
            let p = pair(&s, 0, j);
            assert_eq!(
                (p.scoop, p.multiplier, p.points),
                (1, n as i64, 3 * n as i64)
            );
        }
    }
    // a foul in mode scoop pays a scoop: (3 + 0) x 3 at three seats
    let rules = Rules {
        foul_mode: FoulMode::Scoop,
        ..rules
    };
    let s = run(&rules, &seats(&FOUL));
    assert_eq!((pair(&s, 0, 1).points, pair(&s, 0, 2).points), (-9, -9));
    assert_eq!(pair(&s, 0, 1).multiplier, 3);
}

#[test]
fn foul_mode_none_compares_a_fouled_arrangement_as_it_stands() {
    let rules = Rules {
        foul_mode: FoulMode::NoFoul,
        ..bare()
    };
    let s = run(&rules, &seats(&FOUL));
    assert!(s.seats.iter().all(|r| !r.foul));
    let p = pair(&s, 0, 1);
    // seat 0's pair of aces takes the top; seat 1 the middle and bottom
    assert_eq!(
        (p.outcome, p.rows, p.points),
        (PairOutcome::Rows, [1, -1, -1], -1)
    );
}

#[test]
fn foul_mode_refuse_refuses_a_fouled_seat_but_not_a_natural_or_a_surrender() {
    let rules = Rules {
        foul_mode: FoulMode::Refuse,
        naturals: vec![NaturalEntry::new(Natural::SixPairs, 3)],
        surrender_enabled: true,
        ..bare()
    };
    let e = settle(&rules, &seats(&FOUL), &Stakes::Uniform(1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Table);
    assert_eq!(
        e.message(),
        "seat 0's arrangement fouls and the rules refuse fouled arrangements"
    );
    assert_eq!(e.seat(), Some(0));
    // the fouled seat surrenders: nothing is refused
    let mut table = seats(&FOUL);
    table[0].surrender = true;
    let s = run(&rules, &table);
    assert_eq!(pair(&s, 0, 1).outcome, PairOutcome::Surrender);
    // six pairs arranged as a foul: declared, it is settled as a natural
    let mut table = seats(&[SWEEP[0], SWEEP[1], SIX_PAIRS_FOULED]);
    let s = run(&rules, &table);
    assert_eq!(pair(&s, 0, 2).points, -3);
    // declined, its rows foul and the table is refused, naming seat 2
    table[2].declare_natural = false;
    let e = settle(&rules, &table, &Stakes::Uniform(1)).unwrap_err();
    assert_eq!(e.seat(), Some(2));
}

#[test]
fn exempt_sweeps_leave_a_natural_opponent_out_of_the_test() {
    let block = Rules {
        naturals: vec![NaturalEntry::new(Natural::SixPairs, 3)],
        ..bare()
    };
    let exempt = Rules {
        sweep_all_natural_opponents: NaturalOpponents::Exempt,
        ..block.clone()
    };
    let table = seats(&[SWEEP[0], SWEEP[1], SIX_PAIRS]);
    // block: the natural prevents the sweep, seat 0 scoops seat 1 (3 x 2)
    let s = run(&block, &table);
    assert!(!s.seats[0].swept_all);
    assert_eq!((pair(&s, 0, 1).points, pair(&s, 0, 2).points), (6, -3));
    // exempt: seat 0 swept all (three players, seat 1 left): 3 x 4
    let s = run(&exempt, &table);
    assert!(s.seats[0].swept_all);
    let p = pair(&s, 0, 1);
    assert_eq!((p.sweep_all, p.multiplier, p.points), (true, 4, 12));
    assert_eq!(pair(&s, 0, 2).points, -3);
    // the natural collects 3 from each
    assert_eq!(points(&s), [9, -15, 6]);
    // the players counted include the natural: two seats are too few
    let s = run(
        &Rules {
            sweep_all_min_players: 4,
            ..exempt.clone()
        },
        &table,
    );
    assert!(!s.seats[0].swept_all);
    // no opponent left: no sweep
    let s = run(
        &Rules {
            sweep_all_min_players: 2,
            ..exempt
        },
        &seats(&[SWEEP[0], SIX_PAIRS]),
    );
    assert!(!s.seats[0].swept_all);
}

/// Two seats where seat 0 scoops (3 x 2 = 6); seat 0 holds the A of spades.
fn scoop_with_horse(stage: CapStage, cap: i64, horse: Option<u8>) -> PairResult {
    let rules = Rules {
        horse_card: horse,
        horse_multiplier: 3,
        cap_pair: cap,
        cap_stage: stage,
        ..bare()
    };
    pair(&run(&rules, &seats(&SWEEP[..2])), 0, 1)
}

#[test]
fn the_horse_card_multiplies_a_pair_where_one_seat_holds_it() {
    let ace_spades = hand("As Ah Kd | 2s 5s 7s 9s Js | 3h 6h 8h Th Qh")[0];
    let p = scoop_with_horse(CapStage::Pair, 0, Some(ace_spades));
    assert_eq!((p.base, p.horse, p.points, p.cap), (6, 3, 18, 0));
    // a card neither holds multiplies nothing
    let four_spades = crate::test_support::cards("4s")[0];
    let p = scoop_with_horse(CapStage::Pair, 0, Some(four_spades));
    assert_eq!((p.horse, p.points), (1, 6));
}

#[test]
fn a_cap_binds_before_the_horse_card_at_stage_pair_and_after_it_at_stage_final() {
    let ace_spades = hand("As Ah Kd | 2s 5s 7s 9s Js | 3h 6h 8h Th Qh")[0];
    // pair: min(6, 5) x 3 = 15; final: min(6 x 3, 5) = 5
    let p = scoop_with_horse(CapStage::Pair, 5, Some(ace_spades));
    assert_eq!((p.base, p.cap, p.horse, p.points), (6, 5, 3, 15));
    let p = scoop_with_horse(CapStage::Final, 5, Some(ace_spades));
    assert_eq!((p.base, p.cap, p.horse, p.points), (6, 5, 3, 5));
    // a cap at stage pair the base does not reach binds nothing
    let p = scoop_with_horse(CapStage::Pair, 7, Some(ace_spades));
    assert_eq!((p.cap, p.points), (0, 18));
    // the same cap at stage final binds the multiplied points
    let p = scoop_with_horse(CapStage::Final, 7, Some(ace_spades));
    assert_eq!((p.cap, p.points), (7, 7));
    // the horse card and a huge multiplier at stage final: the cap, not an overflow
    let rules = Rules {
        horse_card: Some(ace_spades),
        horse_multiplier: i64::MAX,
        cap_pair: 100,
        cap_stage: CapStage::Final,
        ..bare()
    };
    let s = run(&rules, &seats(&SWEEP[..2]));
    assert_eq!(pair(&s, 0, 1).points, 100);
}

#[test]
fn the_cap_of_a_pair_is_its_sweep_all_or_scoop_cap_with_their_fallbacks() {
    // four seats: seat 0 sweeps all (12 a pair)
    let table = seats(&SWEEP);
    let with = |pair_cap: i64, scoop: i64, sweep: i64| {
        let rules = Rules {
            cap_pair: pair_cap,
            cap_scoop: scoop,
            cap_sweep_all: sweep,
            ..bare()
        };
        pair(&run(&rules, &table), 0, 1)
    };
    assert_eq!(with(0, 0, 10).points, 10);
    assert_eq!(with(0, 8, 0).points, 8);
    assert_eq!(with(5, 0, 0).points, 5);
    assert_eq!(with(5, 8, 0).points, 8);
    assert_eq!(with(5, 8, 10).cap, 10);
    assert_eq!(with(0, 0, 0).points, 12);
    // a scoop's cap does not bind a pair without a scoop
    let rules = Rules {
        cap_scoop: 1,
        foul_mode: FoulMode::NoFoul,
        ..bare()
    };
    let s = run(&rules, &seats(&FOUL));
    let p = pair(&s, 0, 1);
    assert_eq!((p.scoop, p.cap, p.points), (0, 0, -1));
    // seat 1 scoops seat 2: 6, capped at 1
    let p = pair(&s, 1, 2);
    assert_eq!((p.scoop, p.base, p.cap, p.points), (1, 6, 1, 1));
}

/// A banker game of `table` with `banker` and the seats' multipliers.
fn banked(table: &[&str], banker: usize, multipliers: &[i64]) -> Vec<SeatInput> {
    let mut t = seats(table);
    for (s, seat) in t.iter_mut().enumerate() {
        seat.banker = s == banker;
        seat.multiplier = multipliers[s];
    }
    t
}

fn banker_rules() -> Rules {
    Rules {
        banker_enabled: true,
        banker_max_multiplier: 5,
        ..bare()
    }
}

#[test]
fn a_banker_game_settles_the_banker_pairs_only_times_the_players_multipliers() {
    // seat 0 scoops the banker (seat 1): 6 x 2; seat 2 scoops it: 6 x 3
    let s = run(&banker_rules(), &banked(&SWEEP[..3], 1, &[2, 1, 3]));
    let p = pair(&s, 0, 1);
    assert_eq!((p.base, p.seat_multiplier, p.points), (6, 2, 12));
    // seat 0 beats both, but only the banker sweeps all
    assert!(!s.seats[0].swept_all && !p.sweep_all);
    let p = pair(&s, 1, 2);
    assert_eq!((p.base, p.seat_multiplier, p.points), (-6, 3, -18));
    let p = pair(&s, 0, 2);
    assert_eq!(p.outcome, PairOutcome::Unplayed);
    assert_eq!(
        (p.base, p.points, p.money, p.horse, p.seat_multiplier),
        (0, 0, 0, 1, 1)
    );
    assert_eq!(points(&s), [12, -30, 18]);
}

#[test]
fn only_the_banker_sweeps_all() {
    let rules = Rules {
        sweep_all_min_players: 4,
        ..banker_rules()
    };
    let s = run(&rules, &banked(&SWEEP, 0, &[1, 1, 1, 1]));
    assert!(s.seats[0].swept_all);
    assert_eq!(points(&s), [36, -12, -12, -12]);
    let s = run(&rules, &banked(&SWEEP, 3, &[1, 1, 1, 1]));
    assert!(!s.seats[0].swept_all);
    assert_eq!(pair(&s, 0, 3).points, 6);
}

#[test]
fn a_banker_that_wins_ties_scoops_with_a_tied_row() {
    // without a suit tie-break the tops A-K-Q of seats 1 and 2 tie; seat 2
    // wins the middle and the bottom
    let rules = Rules {
        evaluator: without_suit_tie_break(),
        banker_wins_ties: true,
        ..banker_rules()
    };
    let plain = Rules {
        banker_wins_ties: false,
        ..rules.clone()
    };
    let table = &[SWEEP[0], SWEEP[1], SWEEP[2]];
    let s = run(&plain, &banked(table, 2, &[1, 1, 1]));
    let p = pair(&s, 1, 2);
    assert_eq!((p.rows, p.scoop, p.points), ([0, -1, -1], 0, -2));
    // the banker (seat 2) takes the tied top: a scoop, 3 x 2
    let s = run(&rules, &banked(table, 2, &[1, 1, 1]));
    let p = pair(&s, 1, 2);
    assert_eq!((p.rows, p.scoop, p.points), ([-1, -1, -1], -1, -6));
    // a banker (seat 1) that loses two rows takes the tie and nothing more
    let s = run(&rules, &banked(table, 1, &[1, 1, 1]));
    let p = pair(&s, 1, 2);
    assert_eq!((p.rows, p.scoop, p.points), ([1, -1, -1], 0, -1));
}

#[test]
fn the_banker_and_the_multipliers_are_checked_naming_the_seat_and_value() {
    let refused = |rules: &Rules, table: &[SeatInput]| {
        let e = settle(rules, table, &Stakes::Uniform(1)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Table);
        (e.seat(), e.message().to_string())
    };
    let (seat, text) = refused(&bare(), &banked(&SWEEP[..2], 1, &[1, 1]));
    assert_eq!(seat, Some(1));
    assert!(text.starts_with("seat 1 is named the banker, but the rules do not play a banker game"));
    let (seat, text) = refused(&bare(), &banked(&SWEEP[..2], 9, &[1, 2]));
    assert_eq!(seat, Some(1));
    assert_eq!(
        text,
        "seat 1's multiplier must be 1 outside a banker game, got 2"
    );
    let (seat, text) = refused(&banker_rules(), &seats(&SWEEP[..2]));
    assert_eq!(seat, None);
    assert!(text.contains("no seat is named the banker"));
    let mut two = banked(&SWEEP[..3], 0, &[1, 1, 1]);
    two[2].banker = true;
    let (seat, text) = refused(&banker_rules(), &two);
    assert_eq!(seat, Some(2));
    assert_eq!(
        text,
        "seats 0 and 2 are both named the banker; a table has one banker"
    );
    let (seat, text) = refused(&banker_rules(), &banked(&SWEEP[..3], 0, &[1, 6, 1]));
    assert_eq!(seat, Some(1));
    assert_eq!(
        text,
        "seat 1's multiplier must be in 1..=5 (banker.max_multiplier), got 6"
    );
    let (_, text) = refused(&banker_rules(), &banked(&SWEEP[..3], 0, &[1, 0, 1]));
    assert!(text.ends_with("got 0"));
    let (seat, text) = refused(&banker_rules(), &banked(&SWEEP[..3], 0, &[2, 1, 1]));
    assert_eq!(seat, Some(0));
    assert_eq!(
        text,
        "seat 0 is the banker, whose multiplier must be 1, got 2"
    );
}

#[test]
fn the_terms_at_their_neutral_values_change_no_settlement() {
    // a cap no pair reaches and a horse card worth 1 take the terms' path
    let neutral = |base: Rules| Rules {
        cap_pair: i64::MAX,
        horse_card: Some(0),
        horse_multiplier: 1,
        ..base
    };
    for seed in 0..300u64 {
        let n = 2 + (seed % 3) as usize;
        let hands = crate::deal::deal(n, Some(seed)).unwrap();
        let table: Vec<SeatInput> = hands.iter().map(|&h| SeatInput::playing(h, true)).collect();
        for base in [Rules::default(), bare()] {
            let a = settle(&base, &table, &Stakes::Uniform(3)).unwrap();
            let b = settle(&neutral(base), &table, &Stakes::Uniform(3)).unwrap();
            assert_eq!(a, b);
        }
    }
}

// No J, Q or K (and three flushes, not enabled here); arranged as a foul.
const NO_PICTURES: &str = "Ad 2d 3d | 5d 6d 7d 8d 9d | 2c 3c 4c 5c 7c";

fn entry(natural: Natural, points: i64) -> NaturalEntry {
    NaturalEntry::new(natural, points)
}

#[test]
fn a_bonus_natural_collects_on_top_of_a_real_natural_and_of_the_rows() {
    let bonus = NaturalEntry {
        bonus: true,
        ..entry(Natural::SixPairs, 3)
    };
    let rules = Rules {
        naturals: vec![entry(Natural::NoPictureCards, 4), bonus],
        ..bare()
    };
    // the real natural settles the pair (-4); the bonus natural adds 3
    let s = run(&rules, &seats(&[SIX_PAIRS, NO_PICTURES]));
    let p = pair(&s, 0, 1);
    assert_eq!(p.outcome, PairOutcome::Natural);
    assert_eq!((p.base, p.natural_bonus, p.points), (-4, 3, -1));
    assert_eq!(s.seats[0].natural, Some((Natural::SixPairs, 3)));
    // against rows: seat 2 plays its six pairs and is swept by seat 0
    // (12), then collects its 3 from each
    let s = run(&rules, &seats(&[SWEEP[0], SWEEP[1], SIX_PAIRS]));
    assert!(s.seats[0].swept_all);
    let p = pair(&s, 0, 2);
    assert_eq!(
        (p.outcome, p.base, p.natural_bonus, p.points),
        (PairOutcome::Rows, 12, -3, 9)
    );
    let p = pair(&s, 1, 2);
    assert_eq!((p.natural_bonus, p.points), (-3, p.base - 3));
}

#[test]
fn a_bonus_natural_listed_first_does_not_beat_a_real_natural() {
    let bonus = NaturalEntry {
        bonus: true,
        ..entry(Natural::SixPairs, 3)
    };
    // the bonus natural's place in the list gives it no strength: the real
    // natural settles the pair as against a seat without one
    let rules = Rules {
        naturals: vec![bonus, entry(Natural::NoPictureCards, 4)],
        ..bare()
    };
    let s = run(&rules, &seats(&[SIX_PAIRS, NO_PICTURES]));
    let p = pair(&s, 0, 1);
    assert_eq!(
        (p.outcome, p.base, p.natural_bonus, p.points),
        (PairOutcome::Natural, -4, 3, -1)
    );
}

#[test]
fn a_natural_that_must_be_declared_is_declared_when_the_seat_declines() {
    let mut table = seats(&[SWEEP[0], SIX_PAIRS]);
    table[1].declare_natural = false;
    let plain = Rules {
        naturals: vec![entry(Natural::SixPairs, 3)],
        ..bare()
    };
    // declined: seat 0 scoops it, 3 x 2
    assert_eq!(pair(&run(&plain, &table), 0, 1).points, 6);
    let must = Rules {
        naturals: vec![NaturalEntry {
            must_declare: true,
            ..entry(Natural::SixPairs, 3)
        }],
        ..bare()
    };
    let p = pair(&run(&must, &table), 0, 1);
    assert_eq!((p.outcome, p.points), (PairOutcome::Natural, -3));
}

#[test]
fn two_naturals_of_one_tier_push_and_of_two_tiers_resolve() {
    let table = seats(&[SIX_PAIRS, NO_PICTURES]);
    let tiers = Rules {
        naturals: vec![
            entry(Natural::SixPairs, 3),
            entry(Natural::NoPictureCards, 4),
        ],
        ..bare()
    };
    assert_eq!(pair(&run(&tiers, &table), 0, 1).points, 3);
    let one_tier = Rules {
        naturals: vec![
            entry(Natural::SixPairs, 3),
            NaturalEntry {
                same_tier: true,
                ..entry(Natural::NoPictureCards, 4)
            },
        ],
        ..bare()
    };
    let p = pair(&run(&one_tier, &table), 0, 1);
    assert_eq!((p.outcome, p.points), (PairOutcome::Natural, 0));
}

#[test]
fn a_ranked_royalty_is_paid_in_place_of_its_category() {
    let pair_cat = crate::rank::category_index("pair").unwrap() as usize;
    let mut rules = Rules {
        royalty_mode: RoyaltyMode::Winner,
        ..bare()
    };
    // a pair of aces on top (rank index 12) is worth 9; other pairs nothing
    rules.royalties_by_rank[0][pair_cat][12] = Some(9);
    rules.index_ranked_royalties();
    let s = run(&rules, &seats(&SWEEP[..2]));
    assert_eq!(s.seats[0].royalties, [9, 0, 0]);
    // a scoop: (3 rows) x 2 + the royalty, not multiplied
    let p = pair(&s, 0, 1);
    assert_eq!((p.royalties, p.points), (9, 15));
}

#[test]
fn the_horse_card_leaves_a_natural_pair_alone_when_horse_naturals_is_false() {
    let four_spades = crate::test_support::cards("4s")[0];
    let rules = |naturals: bool| Rules {
        naturals: vec![entry(Natural::SixPairs, 3)],
        horse_card: Some(four_spades),
        horse_multiplier: 2,
        horse_naturals: naturals,
        ..bare()
    };
    let table = seats(&[SWEEP[0], SIX_PAIRS]);
    assert_eq!(pair(&run(&rules(true), &table), 0, 1).points, -6);
    let p = pair(&run(&rules(false), &table), 0, 1);
    assert_eq!((p.horse, p.points), (1, -3));
}
