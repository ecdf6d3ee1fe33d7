//! Times `best_arrangement` (the solver) on one core for each preset's
//! shipped tables and rules defaults, and the greedy baseline, checking what
//! it times: every arrangement holds the hand's 13 cards and does not foul,
//! and a second pass over the hands gives the same checksum. Run:
//! `cargo bench --bench solver`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::deal::{shuffled_deck, ChaCha20};
use capsa_core::rules::Rules;
use capsa_core::solver::{deal_seed, Arranger, Choice, Strategy, Tables};
use capsa_core::splits::is_valid;

/// Panics unless `choice` arranges exactly the cards of `hand` without a foul.
fn check_choice(rules: &Rules, hand: &[u8; 13], choice: &Choice) {
    let mut got = choice.cards;
    got.sort_unstable();
    let mut want = *hand;
    want.sort_unstable();
    assert_eq!(
        got, want,
        "{:?} is not an arrangement of {hand:?}",
        choice.cards
    );
    let c = &choice.cards;
    let e = &rules.evaluator;
    let top = e.eval3([c[0], c[1], c[2]]);
    let middle = e.eval5(c[3..8].try_into().unwrap());
    let bottom = e.eval5(c[8..].try_into().unwrap());
    assert!(
        is_valid(top, middle, bottom, rules.foul_strict),
        "{c:?} fouls"
    );
}

/// Folds a choice into a running checksum: its cards in row order, the
/// declaration and the exact bits of its value.
fn fold(sum: u64, choice: &Choice) -> u64 {
    let mut h = sum;
    for &card in &choice.cards {
        h = (h ^ u64::from(card)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ u64::from(choice.declare_natural)).wrapping_mul(0x0000_0100_0000_01b3);
    (h ^ choice.expected_points.to_bits()).wrapping_mul(0x0000_0100_0000_01b3)
}

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
        let mut checksum = 0xcbf2_9ce4_8422_2325u64;
        for h in &hands {
            let choice = black_box(a.choose(h).unwrap());
            acc += choice.expected_points;
            checksum = fold(checksum, &choice);
        }
        let dt = t.elapsed().as_secs_f64();
        let mut again = 0xcbf2_9ce4_8422_2325u64;
        for h in &hands {
            let choice = a.choose(h).unwrap();
            check_choice(&rules, h, &choice);
            again = fold(again, &choice);
        }
        assert_eq!(again, checksum, "{name}: a second pass chose differently");
        println!(
            "{name:>8}: {n} hands in {dt:.2}s = {:.0} hands/s on one core (mean value {:.3}, checksum {checksum:016x})",
            n as f64 / dt,
            acc / n as f64
        );
    }
}
