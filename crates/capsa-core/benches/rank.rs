//! Ranks all 2,598,960 five-card hands on one core, checks the category counts
//! and the sum of the strengths once, the sum again in every timed run, and
//! prints hands per second:
//! enumerated (loops over the cards, each hand ascending), the same hands as
//! an array in a fixed random order, and that array with each hand's cards
//! in a fixed random order too. Then the evaluator of decks with copies and
//! jokers: the same 52-card hands through it (equal sums, its cost over the
//! 52-card one), and random hands of a 65-card deck and of two decks with two
//! jokers. Run: `cargo bench --bench rank`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::rank::wide::WideEvaluator;
use capsa_core::rank::{category_of, Evaluator, Rank, Ranking, FIVE_OF_A_KIND};

const COUNTS: [u64; 10] = [
    1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4,
];

/// Calls `f` with every hand's strength, the hands enumerated in order.
#[inline(always)]
fn for_all_hands(e: &Evaluator, mut f: impl FnMut(u32)) {
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for g in d + 1..52 {
                        f(e.eval5([a, b, c, d, g]));
                    }
                }
            }
        }
    }
}

/// The category counts and the sum of the strengths of every hand.
fn census(e: &Evaluator) -> ([u64; 10], u64) {
    let mut counts = [0u64; 10];
    let mut sum = 0u64;
    for_all_hands(e, |s| {
        counts[category_of(s) as usize] += 1;
        sum = sum.wrapping_add(s as u64);
    });
    (counts, sum)
}

/// The sum of the strengths of every hand: what the timed runs check
/// against the census, without the census's store per hand.
fn all_hands_sum(e: &Evaluator) -> u64 {
    let mut sum = 0u64;
    for_all_hands(e, |s| sum = sum.wrapping_add(s as u64));
    sum
}

/// Every hand in a fixed random order, and the same with each hand's cards
/// in a fixed random order as well.
fn hands_arrays() -> (Vec<[u8; 5]>, Vec<[u8; 5]>) {
    let mut v = Vec::with_capacity(2_598_960);
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for f in d + 1..52 {
                        v.push([a, b, c, d, f]);
                    }
                }
            }
        }
    }
    // a fixed shuffle so that memory order does not follow rank order
    let mut rng = capsa_core::deal::ChaCha20::from_seed(42);
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
    let mut mixed = v.clone();
    for hand in &mut mixed {
        for i in (1..5).rev() {
            hand.swap(i, rng.below(i as u32 + 1) as usize);
        }
    }
    (v, mixed)
}

fn strength_sum(e: &Evaluator, hands: &[[u8; 5]]) -> u64 {
    hands
        .iter()
        .fold(0u64, |acc, h| acc.wrapping_add(e.eval5(*h) as u64))
}

fn best_of<F: FnMut() -> u64>(runs: usize, mut f: F) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    // the first evaluator of each wheel mode builds its tables
    for wheel_second in [false, true] {
        let t = Instant::now();
        black_box(Evaluator::new(Ranking {
            wheel_second,
            ..Ranking::default()
        }));
        println!(
            "tables for wheel_second={wheel_second} built in {:.2} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let modes = [
        (
            "tie_break=none",
            Ranking {
                tie_break_suit: false,
                ..Ranking::default()
            },
        ),
        ("tie_break=suit (capsa-susun)", Ranking::default()),
    ];
    let (shuffled, mixed) = hands_arrays();
    for (name, ranking) in modes {
        let e = Evaluator::new(ranking);
        let (mut counts, sum) = census(&e);
        counts[8] += counts[9];
        counts[9] = 0;
        let mut want = COUNTS;
        want[8] += want[9];
        want[9] = 0;
        assert_eq!(counts, want, "category counts are wrong");
        let n = 2_598_960f64;
        let t = best_of(5, || {
            let s = all_hands_sum(black_box(&e));
            assert_eq!(s, sum, "enumerated strengths changed between runs");
            s
        });
        println!(
            "{name:32} enumerated: {:8.1} M hands/s ({:.2} ms)",
            n / t / 1e6,
            t * 1e3
        );
        for (what, hands) in [("shuffled array", &shuffled), ("shuffled cards", &mixed)] {
            let t = best_of(5, || {
                let s = strength_sum(black_box(&e), hands);
                assert_eq!(
                    s, sum,
                    "{what}: the strengths differ from the enumerated ones"
                );
                s
            });
            println!(
                "{name:32} {what}: {:6.1} M hands/s ({:.2} ms)",
                n / t / 1e6,
                t * 1e3
            );
        }
    }
    wide_decks(&shuffled);
}

/// `count` random five-card hands of the deck whose ids are `deck`.
fn deck_hands(deck: &[u8], count: usize, seed: u64) -> Vec<[u8; 5]> {
    let mut rng = capsa_core::deal::ChaCha20::from_seed(seed);
    let mut cards = deck.to_vec();
    (0..count)
        .map(|_| {
            for i in 0..5 {
                let j = i + rng.below((cards.len() - i) as u32) as usize;
                cards.swap(i, j);
            }
            [cards[0], cards[1], cards[2], cards[3], cards[4]]
        })
        .collect()
}

fn wide_sum(w: &WideEvaluator, hands: &[[u8; 5]]) -> u64 {
    hands
        .iter()
        .fold(0u64, |acc, h| acc.wrapping_add(w.eval5(*h) as u64))
}

/// The evaluator of decks with copies and jokers, on 52-card hands (it must
/// give the 52-card strengths) and on hands of larger decks.
fn wide_decks(shuffled: &[[u8; 5]]) {
    let e = Evaluator::new(Ranking::default());
    let w = WideEvaluator::new(e);
    let want = strength_sum(&e, shuffled);
    let n = shuffled.len() as f64;
    let t = best_of(5, || {
        let s = wide_sum(black_box(&w), shuffled);
        assert_eq!(s, want, "the wide evaluator changed a 52-card strength");
        s
    });
    println!(
        "wide evaluator, 52-card hands  shuffled array: {:6.1} M hands/s ({:.2} ms)",
        n / t / 1e6,
        t * 1e3
    );
    let spades: Vec<u8> = (0..52u8)
        .chain((52..104).filter(|id| id % 4 == 3))
        .collect();
    let two_decks: Vec<u8> = (0..106u8).collect();
    for (name, deck) in [
        ("65 cards (added spades)", spades),
        ("106 cards (two decks, two jokers)", two_decks),
    ] {
        let hands = deck_hands(&deck, 2_000_000, 7);
        let mut counts = [0u64; 11];
        let mut sum = 0u64;
        for h in &hands {
            let s = w.eval5(*h);
            counts[category_of(s) as usize] += 1;
            sum = sum.wrapping_add(s as u64);
        }
        assert!(
            deck.len() < 100 || counts[FIVE_OF_A_KIND as usize] > 0,
            "two decks deal five of a kind"
        );
        let jokers = hands.iter().filter(|h| h.iter().any(|&c| c >= 104)).count();
        let t = best_of(5, || {
            let s = wide_sum(black_box(&w), &hands);
            assert_eq!(s, sum, "{name}: the strengths changed between runs");
            s
        });
        println!(
            "{name:34} random hands: {:6.1} M hands/s ({:.2} ms; {:.1}% with a joker, {} five of a kind)",
            hands.len() as f64 / t / 1e6,
            t * 1e3,
            100.0 * jokers as f64 / hands.len() as f64,
            counts[FIVE_OF_A_KIND as usize],
        );
    }
}
