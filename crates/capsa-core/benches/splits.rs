//! Classifies all 72,072 splits of random hands and reports the time per
//! hand, checking the valid fraction while it times.
//! Run: `cargo bench --bench splits`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::deal::{shuffled_deck, ChaCha20};
use capsa_core::rank::{Evaluator, Ranking};
use capsa_core::splits::lanes::{LaneStrengths, LANES};
use capsa_core::splits::{count_splits, sorted_hand, subset_strengths, SPLITS};

fn main() {
    let mut rng = ChaCha20::from_seed(5);
    let hands: Vec<[u8; 13]> = (0..2_000)
        .map(|_| shuffled_deck(&mut rng)[..13].try_into().unwrap())
        .collect();
    for (name, ranking) in [
        ("capsa-susun (suit tie-break)", Ranking::default()),
        (
            "tie_break=none",
            Ranking {
                tie_break_suit: false,
                ..Ranking::default()
            },
        ),
    ] {
        let e = Evaluator::new(ranking);
        let mut best = f64::MAX;
        let mut valid = 0usize;
        for _ in 0..3 {
            let t = Instant::now();
            valid = hands
                .iter()
                .map(|h| count_splits(&e, false, black_box(h)).unwrap())
                .sum();
            best = best.min(t.elapsed().as_secs_f64());
        }
        let sorted: Vec<[u8; 13]> = hands.iter().map(|h| sorted_hand(h).unwrap()).collect();
        let mut lanes = LaneStrengths::default();
        let mut best_lanes = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let mut in_lanes = 0usize;
            for group in black_box(&sorted).chunks(LANES) {
                let counts = lanes.count_valid(&e, group, false);
                in_lanes += counts[..group.len()]
                    .iter()
                    .map(|&c| c as usize)
                    .sum::<usize>();
            }
            best_lanes = best_lanes.min(t.elapsed().as_secs_f64());
            assert_eq!(in_lanes, valid);
        }
        let (mut ranking_lanes, mut counting_lanes, mut portable) = (0.0, 0.0, 0.0);
        for group in sorted.chunks(LANES) {
            let t = Instant::now();
            lanes.rank(&e, black_box(group));
            ranking_lanes += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let counts = black_box(lanes.count(false));
            counting_lanes += t.elapsed().as_secs_f64();
            let t = Instant::now();
            assert_eq!(black_box(lanes.count_portable(false)), counts);
            portable += t.elapsed().as_secs_f64();
        }
        let per_hand = |t: f64| t / hands.len() as f64 * 1e6;
        println!(
            "{name:30} {:7.1} us per hand, {LANES} hands at a time (sorted already): ranking {:5.1} us, counting {:5.1} us (without AVX2 {:5.1} us)",
            per_hand(best_lanes),
            per_hand(ranking_lanes),
            per_hand(counting_lanes),
            per_hand(portable),
        );
        let t = Instant::now();
        let subsets: Vec<_> = hands
            .iter()
            .map(|h| subset_strengths(&e, &sorted_hand(black_box(h)).unwrap()))
            .collect();
        let ranking_part = t.elapsed().as_secs_f64() / hands.len() as f64;
        let t = Instant::now();
        let counted: usize = subsets.iter().map(|s| s.count_valid(false)).sum();
        let counting_part = t.elapsed().as_secs_f64() / hands.len() as f64;
        assert_eq!(counted, valid);
        println!(
            "{name:30} of which ranking the 1,573 subsets {:5.1} us, counting {:5.1} us",
            ranking_part * 1e6,
            counting_part * 1e6
        );
        let frac = valid as f64 / (hands.len() * SPLITS) as f64;
        assert!((0.25..0.37).contains(&frac), "valid fraction {frac}");
        println!(
            "{name:30} {:7.1} us per hand ({:6.0} hands/s, {:.1}% valid)",
            best / hands.len() as f64 * 1e6,
            hands.len() as f64 / best,
            frac * 100.0
        );
    }
}
