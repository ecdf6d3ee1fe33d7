//! Settles ~200k pre-dealt four-seat tables with `settle_points` on one core
//! under the capsa-susun rules (naturals on), checks that every round is
//! zero-sum while timing, and prints rounds per second; then six-seat tables
//! of a 78-card deck (spades and hearts added) and eight-seat tables of two
//! decks with two jokers, without naturals.
//! Run: `cargo bench --bench settle`.

use std::hint::black_box;
use std::time::Instant;

use capsa::deal::deal;
use capsa::deal::ChaCha20;
use capsa::rules::{KnobValue, Rules};
use capsa::settle::{settle_points, SeatInput, Stakes};

const TABLES: u64 = 200_000;

/// Every seat plays its 13 dealt cards in id order (top = the three lowest):
/// many foul, which is part of a realistic mix.
fn tables() -> Vec<[SeatInput; 4]> {
    (0..TABLES)
        .map(|seed| {
            let hands = deal(4, Some(seed)).expect("four seats");
            std::array::from_fn(|s| SeatInput {
                cards: hands[s],
                surrender: false,
                declare_natural: true,
                banker: false,
                multiplier: 1,
            })
        })
        .collect()
}

/// Settles every table once; returns a checksum. Panics on an unbalanced round.
fn run(rules: &Rules, stakes: &Stakes, tables: &[[SeatInput; 4]]) -> i64 {
    let mut points = [0i64; 4];
    let mut money = [0i64; 4];
    let mut check = 0i64;
    for t in tables {
        settle_points(rules, t, stakes, &mut points, &mut money).expect("a valid table");
        assert!(
            points.iter().sum::<i64>() == 0 && money.iter().sum::<i64>() == 0,
            "round is not zero-sum"
        );
        check = check.wrapping_add(points[0]).wrapping_mul(31);
    }
    check
}

fn main() {
    let tables = tables();
    let n = tables.len() as f64;
    let default = Rules::default();
    let plain = Rules {
        naturals: vec![],
        ..Rules::default()
    };
    #[rustfmt::skip]
    let matrix = [
        0, 100, 10, 10,
        100, 0, 10, 10,
        10, 10, 0, 10,
        10, 10, 10, 0,
    ];
    let cases: [(&str, &Rules, Stakes); 3] = [
        ("capsa-susun, naturals on", &default, Stakes::Uniform(1_000)),
        (
            "capsa-susun, stake matrix",
            &default,
            Stakes::Matrix(&matrix),
        ),
        ("capsa-susun, no naturals", &plain, Stakes::Uniform(1_000)),
    ];
    for (name, rules, stakes) in cases {
        run(rules, &stakes, &tables); // warm-up (tables, caches)
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            black_box(run(black_box(rules), &stakes, black_box(&tables)));
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:28} {:6.2} M four-seat rounds/s ({:.1} ns/round, {} rounds)",
            n / best / 1e6,
            best / n * 1e9,
            tables.len()
        );
    }
    larger_decks();
}

/// `count` tables of `seats` seats dealt from a seeded shuffle of the
/// deck of `rules`, each seat playing its cards as dealt.
fn deck_tables(rules: &Rules, seats: usize, count: u64) -> Vec<Vec<SeatInput>> {
    let deck = rules.deck.ids();
    (0..count)
        .map(|seed| {
            let mut ids = deck.clone();
            let mut rng = ChaCha20::from_seed(seed);
            for i in (1..ids.len()).rev() {
                ids.swap(i, rng.below(i as u32 + 1) as usize);
            }
            (0..seats)
                .map(|s| SeatInput::playing(ids[13 * s..13 * s + 13].try_into().unwrap(), false))
                .collect()
        })
        .collect()
}

/// Six and eight seats of larger decks, naturals off: rounds per second.
fn larger_decks() {
    for (name, added, decks, jokers, seats) in [
        ("78 cards (s, h added)", "sh", 1, 0, 6),
        ("106 cards (two decks, jokers)", "none", 2, 2, 8),
    ] {
        let mut rules = Rules {
            naturals: vec![],
            ..Rules::default()
        };
        rules
            .set_knob("deck.added_suits", KnobValue::Text(added.into()))
            .unwrap();
        rules.set_knob("deck.decks", KnobValue::Int(decks)).unwrap();
        rules
            .set_knob("deck.jokers", KnobValue::Int(jokers))
            .unwrap();
        let tables = deck_tables(&rules, seats, TABLES / 2);
        let run = |rules: &Rules| {
            let mut points = vec![0i64; seats];
            let mut money = vec![0i64; seats];
            let mut check = 0i64;
            for t in &tables {
                settle_points(rules, t, &Stakes::Uniform(10), &mut points, &mut money)
                    .expect("a valid table");
                assert!(points.iter().sum::<i64>() == 0, "round is not zero-sum");
                check = check.wrapping_add(points[0]).wrapping_mul(31);
            }
            check
        };
        let want = run(&rules);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            assert_eq!(
                black_box(run(black_box(&rules))),
                want,
                "{name}: results changed"
            );
            best = best.min(t.elapsed().as_secs_f64());
        }
        let n = tables.len() as f64;
        println!(
            "{name:30} {:6.2} M {seats}-seat rounds/s ({:.1} ns/round, {} rounds)",
            n / best / 1e6,
            best / n * 1e9,
            tables.len()
        );
    }
}
