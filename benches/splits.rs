//! Classifies all 72,072 splits of random hands and reports the time per
//! hand, checking the valid fraction while it times.
//! Run: `cargo bench --bench splits`.

use std::hint::black_box;
use std::time::Instant;

use capsa::deal::{shuffled_deck, ChaCha20};
use capsa::rank::{Evaluator, Ranking};
use capsa::splits::{count_splits, sorted_hand, subset_strengths, SPLITS};

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
