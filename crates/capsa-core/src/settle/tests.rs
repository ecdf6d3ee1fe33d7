use super::*;
use std::cmp::Ordering;

use super::pair::compare_groups;
use crate::error::{ErrorKind, Result};
use crate::naturals::{self, Natural};
use crate::rules::Rules;
use crate::rules::{FoulMode, NaturalResolve, NaturalTies, Rake, RoyaltyMode};
use crate::test_support::{hand, strict_foul_check, without_suit_tie_break};

/// A seat from "top | middle | bottom" text.
fn seat(text: &str) -> SeatInput {
    SeatInput {
        cards: hand(text),
        surrender: false,
        declare_natural: true,
        banker: false,
        multiplier: 1,
    }
}

fn seats(texts: &[&str]) -> Vec<SeatInput> {
    texts.iter().map(|t| seat(t)).collect()
}

/// The default rules without naturals.
fn plain() -> Rules {
    Rules {
        naturals: vec![],
        ..Rules::default()
    }
}

fn balanced(s: &Settlement) {
    assert_eq!(s.seats.iter().map(|r| r.points).sum::<i64>(), 0);
    assert_eq!(s.seats.iter().map(|r| r.money).sum::<i64>(), 0);
    assert_eq!(
        s.seats.iter().map(|r| r.net + r.rake).sum::<i64>(),
        0,
        "net plus rake must balance"
    );
}

fn run(rules: &Rules, table: &[SeatInput], stakes: Stakes) -> Settlement {
    let s = settle(rules, table, &stakes).unwrap();
    balanced(&s);
    let n = table.len();
    let (mut p, mut m) = ([0i64; 4], [0i64; 4]);
    settle_points(rules, table, &stakes, &mut p[..n], &mut m[..n]).unwrap();
    for k in 0..n {
        assert_eq!(p[k], s.seats[k].points);
        assert_eq!(m[k], s.seats[k].money);
    }
    s
}

fn points(s: &Settlement) -> Vec<i64> {
    s.seats.iter().map(|r| r.points).collect()
}

fn pair(s: &Settlement, i: usize, j: usize) -> PairResult {
    *s.pairs.iter().find(|p| p.i == i && p.j == j).unwrap()
}

// docs/rules.md, "Worked examples", the first: full house J/3, heart flush, straight
// to the 9, pair of aces on the bottom.
const BOTTOMS: [&str; 4] = [
    "Ah As Js | 7h 7s 8s 9h 9s | Jd Jc Jh 3d 3c",
    "Th Ts 6s | Ks Kh Qc Qs 5s | 2h 4h 6h 8h Qh",
    "3s 4s 5h | Td Tc Kc Qd 8d | 5d 6c 7d 8c 9d",
    "3h 4d 6d | 2d 2s 5c 7c 9c | Ad Ac 2c 4c Kd",
];

// Seat 0 beats every other seat in every row, without royalties.
const SWEEP: [&str; 4] = [
    "As Ah Kd | 2s 5s 7s 9s Js | 3h 6h 8h Th Qh",
    "Ad Kc Qd | 2d 2c 4d 5d 7c | 3d 3c 8d 9d Tc",
    "Ac Kh Qc | 4c 4h 6d 8c Jd | 5c 5h 9c Td Jc",
    "Ks Qs Jh | 6c 6s 2h 3s 4s | 7d 7h 8s 9h Ts",
];
// SWEEP with seat 3 fouled (top pair above a king-high middle).
const SWEEP_FOUL3: &str = "6c 6s 2h | Ks Qs Jh 3s 4s | 7d 7h 8s 9h Ts";

// Seat 0 fouls; seat 1 holds royalties 3 (middle full house) + 7
// (bottom quads) and scoops seat 2.
const FOUL: [&str; 3] = [
    "Ac Ah 4d | 2c 5c 7d Tc Jd | Kc Qc 6h 4h 3h",
    "Ad Kd Qd | 8d 8c 8h 3d 3c | 9d 9c 9h 9s 2d",
    "2h 5d 6d | Ts Th 7c 4c 2s | Js Jh Qs Ks As",
];

// Two seats: A wins the middle (full house) and holds quads below B's
// straight flush; B wins top and bottom.
const ROYAL: [&str; 2] = [
    "2d 3d 5c | Kd Kc Kh 4d 4c | 9d 9c 9h 9s 6d",
    "Ad Ac 7h | Qd Qc Qh 5d 5h | 8s 7s 6s 5s 4s",
];

#[test]
fn worked_example_bottom_row() {
    let table = seats(&BOTTOMS);
    let s = run(&plain(), &table, Stakes::Uniform(1_000));
    assert!(s.seats.iter().all(|r| !r.foul));
    // each seat's bottom-row money over its three pairs
    let mut bottom = [0i64; 4];
    for p in &s.pairs {
        assert_eq!(p.outcome, PairOutcome::Rows);
        let v = p.rows[2] as i64 * 1_000;
        bottom[p.i] += v;
        bottom[p.j] -= v;
    }
    assert_eq!(bottom, [3_000, 1_000, -1_000, -3_000]);
    assert_eq!(pair(&s, 1, 2).rows[2], 1);
    assert_eq!(pair(&s, 0, 1).rows[2], 1);
    assert_eq!(pair(&s, 2, 3).rows[2], 1);
}

#[test]
fn foul_pays_twelve_plus_royalties() {
    let table = seats(&FOUL);
    let s = run(&plain(), &table, Stakes::Uniform(1));
    assert_eq!(
        s.seats.iter().map(|r| r.foul).collect::<Vec<_>>(),
        [true, false, false]
    );
    assert_eq!(s.seats[1].royalties, [0, 3, 7]);
    let p01 = pair(&s, 0, 1);
    assert_eq!(p01.outcome, PairOutcome::Foul);
    assert_eq!(p01.points, -22);
    assert_eq!(p01.royalties, -10);
    assert_eq!((p01.scoop, p01.multiplier, p01.sweep_all), (-1, 4, true));
    assert_eq!(pair(&s, 0, 2).points, -12);
    let p12 = pair(&s, 1, 2);
    assert_eq!(p12.outcome, PairOutcome::Rows);
    assert_eq!(p12.rows, [1, 1, 1]);
    assert_eq!((p12.row_points, p12.royalties, p12.scoop), (3, 10, 1));
    assert_eq!((p12.multiplier, p12.sweep_all, p12.points), (2, false, 16));
    assert_eq!(points(&s), [-34, 38, -4]);
    // rake: 3% of 38, rounded down
    assert_eq!((s.seats[1].rake, s.seats[1].net), (1, 37));
    assert_eq!((s.seats[0].rake, s.seats[0].net), (0, -34));
}

#[test]
fn scoop_and_sweep_all() {
    let rules = plain();
    let all = seats(&SWEEP);
    // four players: sweep all, 12 from each
    let s = run(&rules, &all, Stakes::Uniform(1));
    assert!(s.seats[0].swept_all);
    assert!(!s.seats[1].swept_all && !s.seats[2].swept_all && !s.seats[3].swept_all);
    for j in 1..4 {
        let p = pair(&s, 0, j);
        assert_eq!(
            (p.points, p.scoop, p.multiplier, p.sweep_all),
            (12, 1, 4, true)
        );
    }
    assert_eq!(s.seats[0].points, 36);
    // two players: a scoop, 6
    let s = run(&rules, &all[..2], Stakes::Uniform(1));
    assert!(!s.seats[0].swept_all);
    let p = pair(&s, 0, 1);
    assert_eq!(
        (p.points, p.scoop, p.multiplier, p.sweep_all),
        (6, 1, 2, false)
    );
    assert_eq!(points(&s), [6, -6]);
    // three players: min_players 4, so scoops only
    let s = run(&rules, &all[..3], Stakes::Uniform(1));
    assert_eq!(s.seats[0].points, 12);
    // ... unless min_players is 3; sweep-all bonus counts once per pair
    let r3 = Rules {
        sweep_all_min_players: 3,
        sweep_all_bonus: 2,
        scoop_bonus: 1,
        ..plain()
    };
    let s = run(&r3, &all[..3], Stakes::Uniform(1));
    assert_eq!(s.seats[0].points, 2 * 14);
    assert_eq!(pair(&s, 0, 1).bonus, 2);
    // a scoop by seat j is signed from i's view
    let s = run(&r3, &[all[1], all[0]], Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!((p.points, p.scoop, p.bonus, p.rows), (-7, -1, -1, [-1; 3]));
    // min_players 5: never
    let never = Rules {
        sweep_all_min_players: 5,
        ..plain()
    };
    let s = run(&never, &all, Stakes::Uniform(1));
    assert_eq!(s.seats[0].points, 18);
    // a fouled opponent counts as swept
    let mut fouled = all.clone();
    fouled[3] = seat(SWEEP_FOUL3);
    let s = run(&rules, &fouled, Stakes::Uniform(1));
    assert!(s.seats[3].foul && s.seats[0].swept_all);
    assert_eq!(pair(&s, 0, 1).points, 12);
    assert_eq!(pair(&s, 0, 3).points, 12);
}

#[test]
fn surrender() {
    let rules = Rules {
        surrender_enabled: true,
        surrender_cost: 3,
        ..plain()
    };
    // a surrender blocks the sweep all; every non-fouled opponent gets 3
    let mut table = seats(&SWEEP);
    table[3].surrender = true;
    let s = run(&rules, &table, Stakes::Uniform(1));
    assert!(s.seats[3].surrender && !s.seats[0].swept_all);
    let p = pair(&s, 0, 3);
    assert_eq!(
        (p.outcome, p.points, p.scoop, p.royalties),
        (PairOutcome::Surrender, 3, 0, 0)
    );
    assert_eq!(pair(&s, 0, 1).points, 6);
    assert_eq!(s.seats[3].points, -9);
    assert_eq!(s.seats[0].points, 15);
    // a surrender against a fouled seat: nothing
    let mut table = seats(&FOUL);
    table[2].surrender = true;
    let s = run(&rules, &table, Stakes::Uniform(1));
    assert_eq!(pair(&s, 0, 2).outcome, PairOutcome::Surrender);
    assert_eq!(pair(&s, 0, 2).points, 0);
    assert_eq!(pair(&s, 1, 2).points, 3);
    assert_eq!(pair(&s, 0, 1).points, -22);
    assert!(!s.seats[2].foul && s.seats[0].foul);
    // both surrender
    let mut table = seats(&ROYAL);
    table[0].surrender = true;
    table[1].surrender = true;
    let s = run(&rules, &table, Stakes::Uniform(1));
    assert_eq!(points(&s), [0, 0]);
    // a seat that surrenders is not reported as fouled
    let mut table = seats(&FOUL);
    table[0].surrender = true;
    let s = run(&rules, &table, Stakes::Uniform(1));
    assert!(!s.seats[0].foul && s.seats[0].surrender);
    assert_eq!(pair(&s, 0, 1).points, -3);
}

#[test]
fn royalty_modes() {
    let table = seats(&ROYAL);
    let s = run(&plain(), &table, Stakes::Uniform(1));
    assert_eq!(s.seats[0].royalties, [0, 3, 7]);
    assert_eq!(s.seats[1].royalties, [0, 3, 9]);
    let p = pair(&s, 0, 1);
    assert_eq!(p.rows, [-1, 1, -1]);
    // winner: A takes 3 for its middle, B 9 for its bottom
    assert_eq!((p.row_points, p.royalties, p.points), (-1, -6, -7));
    let always = Rules {
        royalty_mode: RoyaltyMode::Always,
        ..plain()
    };
    let p = pair(&run(&always, &table, Stakes::Uniform(1)), 0, 1);
    assert_eq!((p.row_points, p.royalties, p.points), (-1, -2, -3));
    let none = Rules {
        royalty_mode: RoyaltyMode::None,
        ..plain()
    };
    let s = run(&none, &table, Stakes::Uniform(1));
    assert_eq!(s.seats[0].royalties, [0; 3]);
    let p = pair(&s, 0, 1);
    assert_eq!((p.row_points, p.royalties, p.points), (-1, 0, -1));
    // royalty_adds = false: a royalty larger than the row point replaces it
    let replace = Rules {
        royalty_adds: false,
        ..plain()
    };
    let p = pair(&run(&replace, &table, Stakes::Uniform(1)), 0, 1);
    assert_eq!((p.row_points, p.royalties, p.points), (-1, -6, -7));
    let s = run(&replace, &seats(&FOUL), Stakes::Uniform(1));
    let p = pair(&s, 1, 2);
    // top scores its row point; middle and bottom score 3 and 7 instead
    assert_eq!((p.row_points, p.royalties, p.points), (1, 10, 2 + 10));
    // with multiply_royalties the royalties of a scoop are doubled too
    let mult = Rules {
        scoop_multiply_royalties: true,
        ..plain()
    };
    let s = run(&mult, &seats(&FOUL), Stakes::Uniform(1));
    assert_eq!(pair(&s, 1, 2).points, 6 + 20);
    assert_eq!(pair(&s, 0, 1).points, -(12 + 40));
    assert_eq!(pair(&s, 0, 2).points, -12);
    // the overall point
    let overall = Rules {
        overall_point: 1,
        ..plain()
    };
    let p = pair(&run(&overall, &table, Stakes::Uniform(1)), 0, 1);
    assert_eq!((p.overall, p.points), (-1, -8));
    let s = run(&overall, &seats(&FOUL), Stakes::Uniform(1));
    assert_eq!(pair(&s, 1, 2).points, (3 + 1) * 2 + 10);
}

#[test]
fn foul_modes() {
    let table = seats(&FOUL);
    let scoop = Rules {
        foul_mode: FoulMode::Scoop,
        ..plain()
    };
    let s = run(&scoop, &table, Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!(
        (p.points, p.multiplier, p.sweep_all, p.royalties),
        (-16, 2, false, -10)
    );
    assert_eq!(pair(&s, 0, 2).points, -6);
    let scoop_overall = Rules {
        overall_point: 2,
        scoop_bonus: 1,
        ..scoop.clone()
    };
    let s = run(&scoop_overall, &table, Stakes::Uniform(1));
    assert_eq!(pair(&s, 0, 2).points, -((3 + 2) * 2 + 1));
    assert_eq!(pair(&s, 0, 2).bonus, -1);
    let fixed = Rules {
        foul_mode: FoulMode::Fixed,
        foul_points: 5,
        ..plain()
    };
    let s = run(&fixed, &table, Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!((p.points, p.multiplier, p.sweep_all), (-15, 1, false));
    assert_eq!(pair(&s, 0, 2).points, -5);
    let fixed_mult = Rules {
        scoop_multiply_royalties: true,
        ..fixed.clone()
    };
    let p = pair(&run(&fixed_mult, &table, Stakes::Uniform(1)), 0, 1);
    assert_eq!((p.points, p.multiplier), (-25, 2));
    let no_roy = Rules {
        foul_pays_royalties: false,
        ..plain()
    };
    let s = run(&no_roy, &table, Stakes::Uniform(1));
    assert_eq!(pair(&s, 0, 1).points, -12);
    assert_eq!(pair(&s, 0, 1).royalties, 0);
    let none = Rules {
        royalty_mode: RoyaltyMode::None,
        ..plain()
    };
    assert_eq!(
        pair(&run(&none, &table, Stakes::Uniform(1)), 0, 1).points,
        -12
    );
    // both fouled: nothing
    let both = [table[0], seat("Ad As 4c | 2d 5d 7h Td Js | Kd Qd 6c 4s 3s")];
    let s = run(&plain(), &both, Stakes::Uniform(1));
    assert!(s.seats[1].foul);
    assert_eq!(
        (pair(&s, 0, 1).outcome, pair(&s, 0, 1).points),
        (PairOutcome::Foul, 0)
    );
    // scoop mode: a seat that swept all collects a foul at the sweep-all rate
    let mut fouled = seats(&SWEEP);
    fouled[3] = seat(SWEEP_FOUL3);
    let s = run(&scoop, &fouled, Stakes::Uniform(1));
    let p = pair(&s, 0, 3);
    assert_eq!(
        (p.points, p.multiplier, p.sweep_all, p.scoop),
        (12, 4, true, 1)
    );
    assert_eq!(pair(&s, 1, 3).points, 6);
    assert_eq!(pair(&s, 2, 3).points, 6);
    // sweep-all mode: every fouled pair pays the sweep-all figure
    let s = run(&plain(), &fouled, Stakes::Uniform(1));
    assert_eq!(pair(&s, 1, 3).points, 12);
    assert!(pair(&s, 1, 3).sweep_all);
    // strict foul check: equal rows foul
    let strict = strict_foul_check(plain());
    // middle and bottom both high-card K-Q-9-7-5
    let eq = seat("2d 3c 4h | Kd Qc 9h 7s 5d | Kc Qh 9s 7d 5c");
    let other = seat("2s 3s 4s | Ks Qs 9d 7c 6s | Ah Kh Qd 8s 6h");
    let s = run(&strict, &[eq, other], Stakes::Uniform(1));
    assert!(s.seats[0].foul);
    let loose = Rules {
        foul_strict: false,
        ..strict
    };
    let s = run(&loose, &[eq, other], Stakes::Uniform(1));
    assert!(!s.seats[0].foul);
}

#[test]
fn ties_under_no_tie_break() {
    let rules = Rules {
        evaluator: without_suit_tie_break(),
        ..plain()
    };
    let a = seat("2d 3d 5c | 7d 7c 9d Td Jc | Ad Ac Kd Qd 8c");
    let b = seat("2h 3h 5s | 7h 7s 9h Th Js | Ah As Kh Qh 8s");
    let s = run(&rules, &[a, b], Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!((p.rows, p.points, p.scoop), ([0; 3], 0, 0));
}

#[test]
fn stakes_and_rake() {
    let table = seats(&SWEEP);
    #[rustfmt::skip]
    let m = [
        0, 100, 10, 10,
        100, 0, 10, 10,
        10, 10, 0, 10,
        10, 10, 10, -7, // the diagonal is ignored
    ];
    let s = run(&plain(), &table, Stakes::Matrix(&m));
    for p in &s.pairs {
        assert_eq!(p.stake, m[p.i * 4 + p.j]);
        assert_eq!(p.money, p.points * p.stake);
    }
    assert_eq!(s.seats[0].money, 12 * 100 + 12 * 10 + 12 * 10);
    assert_eq!(s.seats[0].rake, 1440 * 3 / 100);
    assert_eq!(s.seats[0].net, 1440 - 43);
    for r in &s.seats {
        if r.money > 0 {
            assert_eq!(r.rake, r.money * 3 / 100);
        } else {
            assert_eq!(r.rake, 0);
            assert_eq!(r.net, r.money);
        }
    }
    let no_rake = Rules {
        rake: Rake::default(),
        ..plain()
    };
    let s = run(&no_rake, &table, Stakes::Uniform(250));
    assert!(s.seats.iter().all(|r| r.rake == 0 && r.net == r.money));
    assert_eq!(s.seats[0].money, 36 * 250);
    let s = run(&plain(), &table, Stakes::Uniform(0));
    assert!(s.seats.iter().all(|r| r.money == 0 && r.rake == 0));
}

#[test]
fn errors() {
    let rules = plain();
    let four = seats(&SWEEP);
    let one = Stakes::Uniform(1);
    let table = |r: Result<Settlement>| match r {
        Err(e) if e.kind() == ErrorKind::Table => e.message().to_string(),
        other => panic!("expected a table error, got {other:?}"),
    };
    table(settle(&rules, &four[..1], &one));
    table(settle(&rules, &[], &one));
    let mut five = four.clone();
    five.push(four[0]);
    table(settle(&rules, &five, &one));
    // card id out of range
    let mut bad = four.clone();
    bad[2].cards[5] = 52;
    match settle(&rules, &bad, &one) {
        Err(e) if e.kind() == ErrorKind::Card => assert!(
            e.message().contains("seat 2") && e.message().contains("52"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    // a card twice in one seat, and in two seats
    let mut bad = four.clone();
    bad[1].cards[4] = bad[1].cards[0];
    match settle(&rules, &bad, &one) {
        Err(e) if e.kind() == ErrorKind::Hand => assert!(
            e.message().contains("seat 1") && e.message().contains("twice"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    let mut bad = four[..2].to_vec();
    bad[1].cards[12] = bad[0].cards[3];
    match settle(&rules, &bad, &one) {
        Err(e) if e.kind() == ErrorKind::Hand => {
            let m = e.message();
            assert!(
                m.contains("seat 0") && m.contains("seat 1") && m.contains("2s"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    // surrender not enabled
    let mut bad = four.clone();
    bad[3].surrender = true;
    let m = table(settle(&rules, &bad, &one));
    assert!(m.contains("seat 3") && m.contains("surrender"), "{m}");
    // stakes
    let m = table(settle(&rules, &four, &Stakes::Uniform(-1)));
    assert!(m.contains("-1"));
    let m = table(settle(&rules, &four, &Stakes::Matrix(&[1; 9])));
    assert!(m.contains("16"), "{m}");
    let mut mat = [5i64; 16];
    mat[4 + 2] = -5; // [1][2]
    mat[2 * 4 + 1] = -5;
    let m = table(settle(&rules, &four, &Stakes::Matrix(&mat)));
    assert!(m.contains("stakes[1][2]"), "{m}");
    let mut mat = [5i64; 16];
    mat[3] = 6;
    let m = table(settle(&rules, &four, &Stakes::Matrix(&mat)));
    assert!(m.contains("symmetric"), "{m}");
    // settle_points: same checks, plus the output lengths
    let (mut p, mut mo) = ([7i64; 4], [7i64; 4]);
    assert!(settle_points(&rules, &four, &one, &mut p[..3], &mut mo)
        .is_err_and(|e| e.kind() == ErrorKind::Table));
    let mut bad = four.clone();
    bad[0].cards[0] = 200;
    assert!(settle_points(&rules, &bad, &one, &mut p, &mut mo)
        .is_err_and(|e| e.kind() == ErrorKind::Card));
    // on an error the outputs are untouched
    assert!(settle_points(
        &rules,
        &four,
        &Stakes::Uniform(i64::MAX / 4),
        &mut p,
        &mut mo
    )
    .is_err());
    assert_eq!((p, mo), ([7; 4], [7; 4]));
    // overflow is an error, not a panic
    let huge = Rules {
        sweep_all_multiplier: i64::MAX / 2,
        ..plain()
    };
    table(settle(&huge, &four, &one));
    table(settle(&plain(), &four, &Stakes::Uniform(i64::MAX / 4)));
}

/// Arrangement made legal where sorting rows can: the middle and bottom
/// swapped when the middle is the stronger.
fn sorted_rows(rules: &Rules, mut cards: [u8; 13]) -> [u8; 13] {
    let e = &rules.evaluator;
    let m = e.eval5(cards[3..8].try_into().unwrap());
    let b = e.eval5(cards[8..13].try_into().unwrap());
    if m > b {
        let mid: [u8; 5] = cards[3..8].try_into().unwrap();
        cards.copy_within(8..13, 3);
        cards[8..13].copy_from_slice(&mid);
    }
    cards
}

fn variants(naturals: bool) -> Vec<Rules> {
    let base = if naturals { Rules::default() } else { plain() };
    vec![
        base.clone(),
        Rules {
            royalty_mode: RoyaltyMode::Always,
            foul_mode: FoulMode::Scoop,
            overall_point: 1,
            scoop_bonus: 3,
            sweep_all_min_players: 2,
            ..base.clone()
        },
        Rules {
            royalty_mode: RoyaltyMode::None,
            foul_mode: FoulMode::Fixed,
            foul_points: 7,
            surrender_enabled: true,
            surrender_cost: 3,
            rake: Rake {
                basis_points: 700,
                ..Rake::default()
            },
            evaluator: without_suit_tie_break(),
            ..base.clone()
        },
        Rules {
            royalty_adds: false,
            row_points: 2,
            scoop_multiply_royalties: true,
            sweep_all_min_players: 3,
            foul_strict: true,
            natural_resolve: NaturalResolve::Difference,
            natural_ties: NaturalTies::Compare,
            ..base
        },
    ]
}

/// How often, one time in so many, a random seat keeps its cards as dealt
/// (else its rows are sorted), asks to surrender (where the rules allow it)
/// and declines its natural.
struct SeatOdds {
    as_dealt: u32,
    surrender: u32,
    decline: u32,
}

/// The seats of the dealt `hands`, drawn at `odds`.
fn random_seats(
    rng: &mut crate::deal::ChaCha20,
    rules: &Rules,
    hands: &[[u8; 13]],
    odds: SeatOdds,
) -> Vec<SeatInput> {
    hands
        .iter()
        .map(|&h| SeatInput {
            cards: if rng.below(odds.as_dealt) == 0 {
                h
            } else {
                sorted_rows(rules, h)
            },
            surrender: rules.surrender_enabled && rng.below(odds.surrender) == 0,
            declare_natural: rng.below(odds.decline) != 0,
            banker: false,
            multiplier: 1,
        })
        .collect()
}

/// A symmetric `n` by `n` stake matrix: zero on the diagonal, `stake()`
/// for each pair above it, row by row.
fn symmetric_stakes(n: usize, mut stake: impl FnMut() -> i64) -> Vec<i64> {
    let mut m = vec![0i64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let v = stake();
            (m[i * n + j], m[j * n + i]) = (v, v);
        }
    }
    m
}

fn random_tables(naturals: bool) {
    let rules = variants(naturals);
    let mut rng = crate::deal::ChaCha20::from_seed(99);
    let mut outcomes = [0usize; 4];
    let mut swept = 0;
    for seed in 0..3_000u64 {
        let n = 2 + (seed % 3) as usize;
        let hands = crate::deal::deal(n, Some(seed)).unwrap();
        let r = &rules[(seed / 3 % rules.len() as u64) as usize];
        let odds = SeatOdds {
            as_dealt: 2,
            surrender: 5,
            decline: 4,
        };
        let table = random_seats(&mut rng, r, &hands, odds);
        let m = symmetric_stakes(n, || rng.below(100) as i64);
        for stakes in [Stakes::Uniform(1 + seed as i64 % 50), Stakes::Matrix(&m)] {
            let s = run(r, &table, stakes);
            assert_eq!(s.pairs.len(), n * (n - 1) / 2);
            for p in &s.pairs {
                outcomes[p.outcome as usize] += 1;
                assert_eq!(p.money, p.points * p.stake);
            }
            for (k, seat) in s.seats.iter().enumerate() {
                let sum: i64 = s
                    .pairs
                    .iter()
                    .map(|p| {
                        if p.i == k {
                            p.points
                        } else if p.j == k {
                            -p.points
                        } else {
                            0
                        }
                    })
                    .sum();
                assert_eq!(sum, seat.points);
                swept += seat.swept_all as usize;
            }
        }
    }
    assert!(outcomes.iter().skip(1).all(|&c| c > 0), "{outcomes:?}");
    assert!(swept > 0);
    if naturals {
        assert!(outcomes[PairOutcome::Natural as usize] > 0);
    }
}

#[test]
fn random_tables_balance() {
    random_tables(false);
}

// ---- naturals (docs/rules.md, "Naturals") ----

const DRAGON: &str = "2d 3c 4d | 5c 6d 7c 8d 9c | Td Jc Qd Kc Ad";
const SIX_PAIRS_HIGH: &str = "2h 2s 5h | 5s 8h 8s Jh Js | Kh Ks Ah As 9h";
const SIX_PAIRS_LOW: &str = "3d 3c 4d | 4c 6d 6c 7d 7c | Td Tc Qd Qc 9d";

#[test]
fn naturals_collect_first() {
    let rules = Rules::default();
    // a dragon against an ordinary hand
    let t = [seat(DRAGON), seat(SIX_PAIRS_HIGH)];
    let s = run(&rules, &t, Stakes::Uniform(1));
    assert_eq!(s.seats[0].natural, Some((Natural::Dragon, 208)));
    assert_eq!(s.seats[1].natural, Some((Natural::SixPairs, 3)));
    let p = pair(&s, 0, 1);
    assert_eq!((p.outcome, p.points), (PairOutcome::Natural, 208));
    let diff = Rules {
        natural_resolve: NaturalResolve::Difference,
        ..Rules::default()
    };
    assert_eq!(pair(&run(&diff, &t, Stakes::Uniform(1)), 0, 1).points, 205);
    let t = [seat(SIX_PAIRS_HIGH), seat(DRAGON)];
    assert_eq!(pair(&run(&diff, &t, Stakes::Uniform(1)), 0, 1).points, -205);
    assert_eq!(
        pair(&run(&rules, &t, Stakes::Uniform(1)), 0, 1).points,
        -208
    );
    // declining the natural: the arrangement plays
    let mut t = [seat(DRAGON), seat(SIX_PAIRS_HIGH)];
    t[0].declare_natural = false;
    let s = run(&rules, &t, Stakes::Uniform(1));
    assert_eq!(s.seats[0].natural, None);
    let p = pair(&s, 0, 1);
    assert_eq!((p.outcome, p.points), (PairOutcome::Natural, -3));
    t[1].declare_natural = false;
    let s = run(&rules, &t, Stakes::Uniform(1));
    assert_eq!(pair(&s, 0, 1).outcome, PairOutcome::Rows);
    // a natural collects even from a fouled seat, and a natural asked to
    // surrender still collects
    let sur = Rules {
        surrender_enabled: true,
        surrender_cost: 3,
        ..Rules::default()
    };
    let fouled = seat("Ah As 5h | 2h 8s 9s Jh Qs | Kh 3s 6h 4s 7s");
    let mut t = [seat(SIX_PAIRS_LOW), fouled];
    t[0].surrender = true;
    let s = run(&sur, &t, Stakes::Uniform(1));
    assert!(!s.seats[0].surrender && s.seats[1].foul);
    assert_eq!(pair(&s, 0, 1).points, 3);
    // a natural at the table blocks a sweep all (SWEEP[0] holds three
    // straights, A-2-3, 5-9, T-A: it declines)
    let three = Rules {
        sweep_all_min_players: 3,
        ..Rules::default()
    };
    let mut t = [
        seat(SWEEP[0]),
        seat("2d 3d 4s | 2c 3c 6c 6s 9h | 8d 8s 9d 4d Ad"),
        seat(SWEEP[2]),
    ];
    t[0].declare_natural = false;
    let s = run(&three, &t, Stakes::Uniform(1));
    assert_eq!(s.seats[1].natural, Some((Natural::SixPairs, 3)));
    assert!(!s.seats[0].swept_all);
    assert_eq!(pair(&s, 0, 1).points, -3);
    assert_eq!(pair(&s, 0, 2).points, 6);
    t[1].declare_natural = false;
    let s = run(&three, &t, Stakes::Uniform(1));
    assert!(s.seats[0].swept_all);
    assert_eq!(pair(&s, 0, 1).points, 12);
    assert_eq!(pair(&s, 0, 2).points, 12);
    // SWEEP[0] holds three straights and SWEEP[1] three flushes; declined,
    // the naturals change nothing
    let mut t = seats(&SWEEP);
    let s = run(&rules, &t, Stakes::Uniform(1));
    assert_eq!(s.seats[0].natural, Some((Natural::ThreeStraights, 3)));
    assert_eq!(s.seats[1].natural, Some((Natural::ThreeFlushes, 3)));
    assert_eq!(pair(&s, 0, 1).points, -3);
    for seat in &mut t {
        seat.declare_natural = false;
    }
    assert_eq!(
        run(&rules, &t, Stakes::Uniform(1)),
        run(&plain(), &t, Stakes::Uniform(1))
    );
}

#[test]
fn equal_naturals() {
    let t = [seat(SIX_PAIRS_LOW), seat(SIX_PAIRS_HIGH)];
    let push = Rules::default();
    assert_eq!(pair(&run(&push, &t, Stakes::Uniform(1)), 0, 1).points, 0);
    for resolve in [NaturalResolve::HigherWins, NaturalResolve::Difference] {
        let compare = Rules {
            natural_ties: NaturalTies::Compare,
            natural_resolve: resolve,
            ..Rules::default()
        };
        let s = run(&compare, &t, Stakes::Uniform(1));
        assert_eq!(pair(&s, 0, 1).points, -3);
        // identical rank groups push
        let same = [
            seat(SIX_PAIRS_LOW),
            seat("3h 3s 4h | 4s 6h 6s 7h 7s | Th Ts Qh Qs 9h"),
        ];
        assert_eq!(
            pair(&run(&compare, &same, Stakes::Uniform(1)), 0, 1).points,
            0
        );
    }
    assert_eq!(
        compare_groups(
            &Rules::default(),
            &seat(SIX_PAIRS_HIGH).cards,
            &seat(SIX_PAIRS_LOW).cards
        ),
        Ordering::Greater
    );
}

#[test]
fn random_tables_balance_with_naturals() {
    random_tables(true);
}

// ---- wide figures: refused only when a reported figure does not fit ----

/// Seat 0 wins the middle and the bottom (pairs of sevens and of aces,
/// kicker king-queen-eight), seat 1 the top (a pair of fours); no row
/// holds a royalty.
const TWO_ONE: [&str; 2] = [
    "2d 3d 5c | 7d 7c 9d Td Jc | Ad Ac Kd Qd 8c",
    "4h 4s 2h | 6h 6s 8h 9s Jh | Ah As Kh Qh 7s",
];

fn overflow_error(r: Result<Settlement>) {
    match r {
        Err(e) if e.kind() == ErrorKind::Table => {
            assert!(e.message().contains("64-bit"), "{e}")
        }
        other => panic!("expected the overflow error, got {other:?}"),
    }
}

#[test]
fn unused_huge_row_points_do_not_refuse_a_natural() {
    let rules = Rules {
        row_points: 9 * 10i64.pow(18),
        ..Rules::default()
    };
    // TWO_ONE[0] holds three flushes: it declines them
    let mut t = [seat(SIX_PAIRS_HIGH), seat(TWO_ONE[0])];
    t[1].declare_natural = false;
    let s = run(&rules, &t, Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!((p.outcome, p.points, p.money), (PairOutcome::Natural, 3, 3));
    assert_eq!([s.seats[0].points, s.seats[1].points], [3, -3]);
}

#[test]
fn two_rows_won_one_lost_with_huge_row_points() {
    // 2 * row_points does not fit, 2 - 1 rows = 1 * row_points does
    for rp in [i64::MAX / 3 * 2, i64::MAX] {
        let rules = Rules {
            row_points: rp,
            ..plain()
        };
        let s = run(&rules, &seats(&TWO_ONE), Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.rows, p.row_points, p.points), ([-1, 1, 1], rp, rp));
        let rake = (3 * rp as i128 / 100) as i64;
        assert_eq!((s.seats[0].rake, s.seats[0].net), (rake, rp - rake));
        assert_eq!(s.seats[1].points, -rp);
    }
}

#[test]
fn a_round_that_does_not_fit_is_refused() {
    let two_one = seats(&TWO_ONE);
    // row_points + overall_point
    let rules = Rules {
        row_points: i64::MAX / 3 * 2,
        overall_point: i64::MAX / 2,
        ..plain()
    };
    overflow_error(settle(&rules, &two_one, &Stakes::Uniform(1)));
    // the pair's points fit, its money does not
    let rules = Rules {
        row_points: i64::MAX / 2,
        ..plain()
    };
    overflow_error(settle(&rules, &two_one, &Stakes::Uniform(3)));
    // a scoop's 3 * row_points, and a product beyond i128:
    // (3 * row_points + overall) * multiplier
    let sweep = seats(&SWEEP);
    for (rp, m) in [(i64::MAX / 3 + 1, 1), (i64::MAX, i64::MAX)] {
        let rules = Rules {
            row_points: rp,
            overall_point: i64::MAX,
            scoop_multiplier: m,
            sweep_all_multiplier: m,
            ..plain()
        };
        overflow_error(settle(&rules, &sweep, &Stakes::Uniform(1)));
        let (mut p, mut mo) = ([7i64; 4], [7i64; 4]);
        let r = settle_points(&rules, &sweep, &Stakes::Uniform(1), &mut p, &mut mo);
        assert!(r.is_err_and(|e| e.message().contains("64-bit")));
        assert_eq!((p, mo), ([7; 4], [7; 4]));
    }
}

#[test]
fn fixed_foul_ignores_huge_row_points() {
    let rules = Rules {
        row_points: i64::MAX,
        foul_mode: FoulMode::Fixed,
        foul_points: 5,
        royalty_mode: RoyaltyMode::None,
        ..plain()
    };
    let s = run(&rules, &seats(&FOUL[..2]), Stakes::Uniform(1));
    let p = pair(&s, 0, 1);
    assert_eq!((p.outcome, p.points), (PairOutcome::Foul, -5));
}

#[test]
fn rake_at_extreme_money() {
    let two_one = seats(&TWO_ONE);
    for (percent, rake) in [(100, i64::MAX), (3, (3 * i64::MAX as i128 / 100) as i64)] {
        let rules = Rules {
            rake: Rake {
                basis_points: percent * 100,
                ..Rake::default()
            },
            ..plain()
        };
        let s = run(&rules, &two_one, Stakes::Uniform(i64::MAX));
        let r = s.seats[0];
        assert_eq!((r.money, r.rake, r.net), (i64::MAX, rake, i64::MAX - rake));
        let r = s.seats[1];
        assert_eq!((r.money, r.rake, r.net), (-i64::MAX, 0, -i64::MAX));
    }
}

#[test]
fn seat_money_may_pass_beyond_i64_on_the_way() {
    // SWEEP reordered: seat 3 (SWEEP[2]) pays 12 points to seat 0 and 1
    // to seat 1, then collects 6 from seat 2; its money passes below
    // i64::MIN on the way and ends inside
    let t = seats(&[SWEEP[0], SWEEP[3], SWEEP[1], SWEEP[2]]);
    let (q, h) = (i64::MAX / 12, i64::MAX / 2);
    #[rustfmt::skip]
    let m = [
        0, 0, 0, q,
        0, 0, 0, h,
        0, 0, 0, q,
        q, h, q, 0,
    ];
    let s = run(&plain(), &t, Stakes::Matrix(&m));
    let points: Vec<i64> = [(0, 3), (1, 3), (2, 3)]
        .map(|(i, j)| pair(&s, i, j).points)
        .to_vec();
    assert_eq!(points, [12, 1, -6]);
    let money: Vec<i64> = s.seats.iter().map(|r| r.money).collect();
    assert_eq!(money, [12 * q, h, -6 * q, -6 * q - h]);
}

/// A two's-complement 256-bit integer: wide enough for every figure of
/// a settlement of `i64` rules and stakes, written for the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Big([u64; 4]);

impl Big {
    fn of(x: i64) -> Big {
        let ext = if x < 0 { u64::MAX } else { 0 };
        Big([x as u64, ext, ext, ext])
    }
    fn add(self, o: Big) -> Big {
        let mut out = [0u64; 4];
        let mut carry = 0u128;
        for (k, limb) in out.iter_mut().enumerate() {
            let t = self.0[k] as u128 + o.0[k] as u128 + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        Big(out)
    }
    fn neg(self) -> Big {
        Big(self.0.map(|x| !x)).add(Big::of(1))
    }
    fn sub(self, o: Big) -> Big {
        self.add(o.neg())
    }
    fn mul(self, o: Big) -> Big {
        let mut out = [0u64; 4];
        for a in 0..4 {
            let mut carry = 0u128;
            for b in 0..4 - a {
                let t = self.0[a] as u128 * o.0[b] as u128 + out[a + b] as u128 + carry;
                out[a + b] = t as u64;
                carry = t >> 64;
            }
        }
        Big(out)
    }
    fn small(self) -> Option<i64> {
        let low = self.0[0] as i64;
        (Big::of(low) == self).then_some(low)
    }
}

/// The reported figures of a round as the reference works them out:
/// per pair (row_points, overall, royalties, bonus, points, money), per
/// seat (points, money, rake, net); `None` when one does not fit.
type Figures = (Vec<[i64; 6]>, Vec<[i64; 4]>);

/// Settlement straight from docs/rules.md ("Settlement"), every figure
/// in `Big`. Hands, royalties and naturals come from the evaluator,
/// the royalty table and `naturals::strongest`.
fn reference(
    rules: &Rules,
    table: &[SeatInput],
    stake: &dyn Fn(usize, usize) -> i64,
) -> Option<Figures> {
    let n = table.len();
    let e = &rules.evaluator;
    let strength: Vec<[u32; 3]> = table
        .iter()
        .map(|s| {
            let c = s.cards;
            [
                e.eval3([c[0], c[1], c[2]]),
                e.eval5([c[3], c[4], c[5], c[6], c[7]]),
                e.eval5([c[8], c[9], c[10], c[11], c[12]]),
            ]
        })
        .collect();
    let natural: Vec<Option<(Natural, i64)>> = table
        .iter()
        .map(|s| {
            naturals::declared(&s.cards, rules, s.declare_natural)
                .map(|d| (d.entry.natural, d.points))
        })
        .collect();
    let surrendered: Vec<bool> = (0..n)
        .map(|s| table[s].surrender && natural[s].is_none())
        .collect();
    let fouled: Vec<bool> = (0..n)
        .map(|s| {
            let [t, m, b] = strength[s];
            let legal = if rules.foul_strict {
                t < m && m < b
            } else {
                t <= m && m <= b
            };
            !legal && natural[s].is_none() && !surrendered[s]
        })
        .collect();
    let roy: Vec<[i64; 3]> = (0..n)
        .map(|s| {
            if rules.royalty_mode == RoyaltyMode::None {
                [0; 3]
            } else {
                [0, 1, 2].map(|r| rules.royalty(r, strength[s][r]))
            }
        })
        .collect();
    let roy_total = |s: usize| roy[s].iter().fold(Big::of(0), |a, &x| a.add(Big::of(x)));
    let wins_all = |i: usize, j: usize| (0..3).all(|r| strength[i][r] > strength[j][r]);
    let plain = |s: usize| natural[s].is_none() && !fouled[s] && !surrendered[s];
    let swept: Vec<bool> = (0..n)
        .map(|i| {
            n >= rules.sweep_all_min_players
                && plain(i)
                && (0..n).filter(|&j| j != i).all(|j| {
                    natural[j].is_none() && !surrendered[j] && (fouled[j] || wins_all(i, j))
                })
        })
        .collect();
    let scoop_of = |s: usize| {
        if swept[s] {
            (rules.sweep_all_multiplier, rules.sweep_all_bonus)
        } else {
            (rules.scoop_multiplier, rules.scoop_bonus)
        }
    };
    let roy_factor = |m: i64| if rules.scoop_multiply_royalties { m } else { 1 };
    // what non-fouled `s` collects from a fouled seat: (royalties, bonus, points)
    let foul_amount = |s: usize| {
        let three = Big::of(3).mul(Big::of(rules.row_points));
        let (m, base, bonus) = match rules.foul_mode {
            FoulMode::SweepAll => {
                let (m, b) = (rules.sweep_all_multiplier, rules.sweep_all_bonus);
                (m, three.mul(Big::of(m)).add(Big::of(b)), b)
            }
            FoulMode::Scoop => {
                let (m, b) = scoop_of(s);
                (
                    m,
                    three
                        .add(Big::of(rules.overall_point))
                        .mul(Big::of(m))
                        .add(Big::of(b)),
                    b,
                )
            }
            FoulMode::Fixed => (scoop_of(s).0, Big::of(rules.foul_points), 0),
            FoulMode::NoFoul | FoulMode::Refuse => {
                unreachable!("the reference knows the paying modes")
            }
        };
        let paid = if rules.foul_pays_royalties && rules.royalty_mode != RoyaltyMode::None {
            roy_total(s)
        } else {
            Big::of(0)
        };
        (
            paid,
            Big::of(bonus),
            base.add(paid.mul(Big::of(roy_factor(m)))),
        )
    };
    let rank_groups = |c: &[u8; 13]| {
        let mut count = [0u8; 13];
        for &x in c {
            count[crate::cards::rank_index(x) as usize] += 1;
        }
        let mut ranks: Vec<u8> = (0..13).filter(|&r| count[r as usize] > 0).collect();
        ranks.sort_by_key(|&r| std::cmp::Reverse((count[r as usize], r)));
        ranks
    };
    let zero = Big::of(0);
    let mut pairs = Vec::new();
    let mut points = vec![zero; n];
    let mut money = vec![zero; n];
    for i in 0..n {
        for j in i + 1..n {
            // (row_points, overall, royalties, bonus, points)
            let f = if natural[i].is_some() || natural[j].is_some() {
                let v = match (natural[i], natural[j]) {
                    (Some((_, a)), None) => a,
                    (None, Some((_, b))) => -b,
                    (Some((x, a)), Some((y, b))) if x == y => {
                        let compared = matches!(
                            x,
                            Natural::SixPairs
                                | Natural::FivePairsTrips
                                | Natural::FourTriples
                                | Natural::ThreeQuads
                        );
                        if rules.natural_ties == NaturalTies::Compare && compared {
                            match rank_groups(&table[i].cards).cmp(&rank_groups(&table[j].cards)) {
                                Ordering::Greater => a,
                                Ordering::Less => -b,
                                Ordering::Equal => 0,
                            }
                        } else {
                            0
                        }
                    }
                    (Some((x, a)), Some((y, b))) => {
                        let rank = |m| rules.naturals.iter().position(|e| e.natural == m);
                        match rules.natural_resolve {
                            NaturalResolve::Difference => a - b,
                            NaturalResolve::HigherWins if rank(x) < rank(y) => a,
                            NaturalResolve::HigherWins => -b,
                        }
                    }
                    (None, None) => unreachable!(),
                };
                [zero, zero, zero, zero, Big::of(v)]
            } else if surrendered[i] || surrendered[j] {
                let cost = rules.surrender_cost;
                let v = match (surrendered[i], surrendered[j]) {
                    (true, true) => 0,
                    (true, false) if fouled[j] => 0,
                    (true, false) => -cost,
                    (false, _) if fouled[i] => 0,
                    (false, _) => cost,
                };
                [zero, zero, zero, zero, Big::of(v)]
            } else if fouled[i] && fouled[j] {
                [zero; 5]
            } else if fouled[j] {
                let (r, b, v) = foul_amount(i);
                [zero, zero, r, b, v]
            } else if fouled[i] {
                let (r, b, v) = foul_amount(j);
                [zero, zero, r.neg(), b.neg(), v.neg()]
            } else {
                let (mut rows, mut royalty) = (zero, zero);
                let (mut won_i, mut won_j) = (0, 0);
                for r in 0..3 {
                    let (w, sign) = match strength[i][r].cmp(&strength[j][r]) {
                        Ordering::Greater => (i, Big::of(1)),
                        Ordering::Less => (j, Big::of(-1)),
                        Ordering::Equal => continue,
                    };
                    if w == i {
                        won_i += 1
                    } else {
                        won_j += 1
                    }
                    let value = roy[w][r];
                    let (row, extra) = match rules.royalty_mode {
                        RoyaltyMode::Winner if rules.royalty_adds => (rules.row_points, value),
                        RoyaltyMode::Winner if value > rules.row_points => (0, value),
                        _ => (rules.row_points, 0),
                    };
                    rows = rows.add(sign.mul(Big::of(row)));
                    royalty = royalty.add(sign.mul(Big::of(extra)));
                }
                if rules.royalty_mode == RoyaltyMode::Always {
                    royalty = roy_total(i).sub(roy_total(j));
                }
                let overall = match won_i.cmp(&won_j) {
                    Ordering::Greater => Big::of(rules.overall_point),
                    Ordering::Less => Big::of(rules.overall_point).neg(),
                    Ordering::Equal => zero,
                };
                let (m, bonus) = if won_i == 3 {
                    let (m, b) = scoop_of(i);
                    (m, Big::of(b))
                } else if won_j == 3 {
                    let (m, b) = scoop_of(j);
                    (m, Big::of(b).neg())
                } else {
                    (1, zero)
                };
                let v = rows
                    .add(overall)
                    .mul(Big::of(m))
                    .add(bonus)
                    .add(royalty.mul(Big::of(roy_factor(m))));
                [rows, overall, royalty, bonus, v]
            };
            let m = f[4].mul(Big::of(stake(i, j)));
            points[i] = points[i].add(f[4]);
            points[j] = points[j].sub(f[4]);
            money[i] = money[i].add(m);
            money[j] = money[j].sub(m);
            let mut row = [0i64; 6];
            for (k, x) in f.iter().chain([&m]).enumerate() {
                row[k] = x.small()?;
            }
            pairs.push(row);
        }
    }
    let mut seat_figures = Vec::new();
    for s in 0..n {
        let (p, m) = (points[s].small()?, money[s].small()?);
        let rake = if m > 0 {
            i64::try_from(rules.rake.basis_points as i128 * m as i128 / 10_000).ok()?
        } else {
            0
        };
        seat_figures.push([p, m, rake, m.checked_sub(rake)?]);
    }
    Some((pairs, seat_figures))
}

/// A rule value or a stake: small, or near a power of two, or at the
/// limit, or anywhere in range.
fn extreme(rng: &mut crate::deal::ChaCha20, low: i64) -> i64 {
    let any = ((rng.next_u32() as u64) << 32 | rng.next_u32() as u64) >> 1;
    let v = match rng.below(9) {
        0..=2 => rng.below(4) as i64,
        3 => i64::MAX,
        4 => i64::MAX - rng.below(3) as i64,
        5 => i64::MAX / (2 + rng.below(3) as i64) + rng.below(3) as i64 - 1,
        6 => 1i64 << (31 + rng.below(32)),
        7 => (any >> rng.below(63)) as i64,
        _ => any as i64,
    };
    v.max(low)
}

#[test]
fn extreme_rules_match_the_reference() {
    let mut rng = crate::deal::ChaCha20::from_seed(7);
    let (mut settled, mut refused, mut wide) = (0, 0, 0);
    for seed in 0..6_000u64 {
        let n = 2 + (seed % 3) as usize;
        let base = if seed % 2 == 0 {
            Rules::default()
        } else {
            plain()
        };
        let mut x = |low| extreme(&mut rng, low);
        let mut rules = Rules {
            row_points: x(0),
            overall_point: x(0),
            scoop_multiplier: x(1),
            scoop_bonus: x(0),
            sweep_all_multiplier: x(1),
            sweep_all_bonus: x(0),
            foul_points: x(0),
            surrender_cost: x(0),
            ..base
        };
        for entry in &mut rules.naturals {
            entry.points = x(0);
        }
        for row in &mut rules.royalties {
            for v in row.iter_mut().filter(|v| **v != 0) {
                *v = x(0);
            }
        }
        let uniform = x(0);
        let mut pick = |k: u32| rng.below(k) as usize;
        rules.royalty_mode = [RoyaltyMode::Winner, RoyaltyMode::Always, RoyaltyMode::None][pick(3)];
        rules.royalty_adds = pick(2) == 0;
        rules.foul_mode = [FoulMode::SweepAll, FoulMode::Scoop, FoulMode::Fixed][pick(3)];
        rules.foul_pays_royalties = pick(2) == 0;
        rules.scoop_multiply_royalties = pick(2) == 0;
        rules.sweep_all_min_players = 2 + pick(4);
        rules.surrender_enabled = pick(2) == 0;
        rules.natural_resolve = [NaturalResolve::HigherWins, NaturalResolve::Difference][pick(2)];
        rules.natural_ties = [NaturalTies::Push, NaturalTies::Compare][pick(2)];
        rules.rake.basis_points = [0, 300, 10_000, pick(10_001) as i64][pick(4)];
        rules.validate().unwrap();
        let hands = crate::deal::deal(n, Some(seed)).unwrap();
        let odds = SeatOdds {
            as_dealt: 3,
            surrender: 6,
            decline: 5,
        };
        let table = random_seats(&mut rng, &rules, &hands, odds);
        let m = symmetric_stakes(n, || extreme(&mut rng, 0));
        let matrix = m.clone();
        let stakes = [
            (
                Stakes::Uniform(uniform),
                Box::new(move |_, _| uniform) as Box<dyn Fn(usize, usize) -> i64>,
            ),
            (Stakes::Matrix(&m), Box::new(move |i, j| matrix[i * n + j])),
        ];
        for (stakes, stake) in &stakes {
            let want = reference(&rules, &table, stake);
            let got = settle(&rules, &table, stakes);
            let (mut p, mut mo) = ([0i64; 4], [0i64; 4]);
            let fast = settle_points(&rules, &table, stakes, &mut p[..n], &mut mo[..n]);
            match (want, got) {
                (Some((pairs, seat_figures)), Ok(s)) => {
                    settled += 1;
                    // 3 * row_points does not fit: a seat's look-ups leave i64
                    wide += (rules.row_points > i64::MAX / 3) as usize;
                    let got_pairs: Vec<[i64; 6]> = s
                        .pairs
                        .iter()
                        .map(|p| {
                            [
                                p.row_points,
                                p.overall,
                                p.royalties,
                                p.bonus,
                                p.points,
                                p.money,
                            ]
                        })
                        .collect();
                    assert_eq!(got_pairs, pairs, "seed {seed}: {rules:?}");
                    let got_seats: Vec<[i64; 4]> = s
                        .seats
                        .iter()
                        .map(|r| [r.points, r.money, r.rake, r.net])
                        .collect();
                    assert_eq!(got_seats, seat_figures, "seed {seed}");
                    balanced(&s);
                    assert!(fast.is_ok(), "seed {seed}");
                    for k in 0..n {
                        assert_eq!((p[k], mo[k]), (s.seats[k].points, s.seats[k].money));
                    }
                }
                (None, Err(e)) => {
                    refused += 1;
                    assert!(
                        e.kind() == ErrorKind::Table && e.message().contains("64-bit"),
                        "{e}"
                    );
                    assert_eq!(fast.unwrap_err().message(), e.message());
                }
                (want, got) => {
                    panic!("seed {seed}: reference {want:?}, settle {got:?}\n{rules:?}")
                }
            }
        }
    }
    assert!(
        settled > 1_000 && refused > 1_000 && wide > 100,
        "{settled} settled ({wide} with huge row points), {refused} refused"
    );
}
