//! Times `best_arrangement` (the solver) on one core for each preset's
//! shipped tables and rules defaults, and the greedy baseline. Run:
//! `cargo bench --bench solver`.

use std::hint::black_box;
use std::time::Instant;

use capsa::deal::{shuffled_deck, ChaCha20};
use capsa::rules::Rules;
use capsa::solver::{deal_seed, Arranger, Strategy, Tables};

fn main() {
    let n: usize = std::env::args()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(20_000);
    let hands: Vec<[u8; 13]> = (0..n)
        .map(|i| {
            let d = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(42, i as u64)));
            d[..13].try_into().unwrap()
        })
        .collect();
    let rules = Rules::default();
    for (name, strategy) in [("solver", Strategy::Solver), ("greedy", Strategy::Greedy)] {
        let a = Arranger::new(strategy, &rules, Tables::nearest(&rules), 4).unwrap();
        let t = Instant::now();
        let mut acc = 0.0;
        for h in &hands {
            acc += black_box(a.choose(h).unwrap()).expected_points;
        }
        let dt = t.elapsed().as_secs_f64();
        println!(
            "{name:>8}: {n} hands in {dt:.2}s = {:.0} hands/s on one core (mean value {:.3})",
            n as f64 / dt,
            acc / n as f64
        );
    }
}
