//! Settles ~200k pre-dealt four-seat tables with `settle_points` on one core
//! under the capsa-susun rules (naturals on), checks that every round is
//! zero-sum while timing, and prints rounds per second.
//! Run: `cargo bench --bench settle`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::deal::deal;
use capsa_core::rules::Rules;
use capsa_core::settle::{settle_points, SeatInput, Stakes};

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
}
