//! Settles tables of larger decks with `settle_points` on one core, naturals
//! off: six-seat tables of a 78-card deck (spades and hearts added) and
//! eight-seat tables of two decks with two jokers, each dealt from a seeded
//! shuffle and played as dealt; checks every round is zero-sum and the
//! results are the same in every timed run, and prints rounds per second.
//! Apart from `benches/settle.rs`, so that the four-seat figures there are
//! timed by the same program from build to build.
//! Run: `cargo bench --bench settle_decks`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::deal::ChaCha20;
use capsa_core::rules::{KnobValue, Rules};
use capsa_core::settle::{settle_points, SeatInput, Stakes};

const TABLES: u64 = 100_000;

fn main() {
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
        let tables = deck_tables(&rules, seats, TABLES);
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
