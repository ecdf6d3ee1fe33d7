//! Times `naturals::qualifying` on 1,000,000 random 13-card hands on one core,
//! counting the hands that qualify for each natural while it times and
//! printing them next to the exact expectation. Also times hands biased toward
//! the partition naturals. Run: `cargo bench --bench naturals`.

use std::hint::black_box;
use std::time::Instant;

use capsa_core::deal::{shuffled_deck, ChaCha20};
use capsa_core::naturals::{declared_in, qualifying, Natural, NaturalEntry, ALL};

const HANDS: usize = 1_000_000;
/// Exact number of 13-card hands per natural (out of C(52,13)), in `ALL` order.
const EXACT: [u64; 16] = [
    4,
    67_108_864,
    66_080,
    22_060,
    11_440,
    37_442_160,
    37_442_160,
    20_801_200,
    523_001_600,
    6_772_480,
    342_692_064,
    2_856_863_152,
    2_029_579_776,
    5_705_516_392,
    12_033_222_880,
    1_423_319_040,
];
const TOTAL: f64 = 635_013_559_600.0;

fn random_hands(seed: u64) -> Vec<[u8; 13]> {
    let mut rng = ChaCha20::from_seed(seed);
    let mut v = Vec::with_capacity(HANDS);
    while v.len() < HANDS {
        let d = shuffled_deck(&mut rng);
        for seat in 0..4 {
            v.push(d[13 * seat..13 * seat + 13].try_into().unwrap());
        }
    }
    v
}

/// Hands of 7 consecutive ranks or of 2 suits: many partition checks go deep.
fn biased_hands(seed: u64) -> Vec<[u8; 13]> {
    let mut rng = ChaCha20::from_seed(seed);
    let mut v = Vec::with_capacity(HANDS);
    while v.len() < HANDS {
        let pool: Vec<u8> = if v.len() % 2 == 0 {
            let start = rng.below(7) as u8;
            (4 * start..4 * start + 28).collect()
        } else {
            let a = rng.below(4) as u8;
            let b = (a + 1 + rng.below(3) as u8) % 4;
            (0..52u8).filter(|c| c & 3 == a || c & 3 == b).collect()
        };
        let mut p = pool;
        for i in 0..13 {
            let j = i + rng.below((p.len() - i) as u32) as usize;
            p.swap(i, j);
        }
        v.push(p[..13].try_into().unwrap());
    }
    v
}

fn count(hands: &[[u8; 13]]) -> [u32; 17] {
    let mut counts = [0u32; 17];
    for h in hands {
        let q = qualifying(black_box(h));
        counts[16] += (q == 0) as u32;
        let mut bits = q;
        while bits != 0 {
            counts[bits.trailing_zeros() as usize] += 1;
            bits &= bits - 1;
        }
    }
    counts
}

fn time(label: &str, hands: &[[u8; 13]]) -> [u32; 17] {
    let mut best = f64::MAX;
    let mut counts = [0u32; 17];
    for _ in 0..7 {
        let t = Instant::now();
        counts = black_box(count(black_box(hands)));
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{label:24} {:7.1} M hands/s ({:.2} ms for {} hands, {:.1} ns/hand)",
        hands.len() as f64 / best / 1e6,
        best * 1e3,
        hands.len(),
        best * 1e9 / hands.len() as f64
    );
    counts
}

fn main() {
    let hands = random_hands(7);
    let counts = time("random hands", &hands);
    println!("{:24} {:>8} {:>10}", "natural", "counted", "expected");
    for (i, n) in ALL.iter().enumerate() {
        let expect = HANDS as f64 * EXACT[i] as f64 / TOTAL;
        let got = counts[i] as f64;
        println!("{:24} {:>8} {:>10.1}", n.name(), counts[i], expect);
        assert!(
            (got - expect).abs() <= 6.0 * expect.sqrt() + 4.0,
            "{}: counted {got}, expected {expect:.1}",
            n.name()
        );
    }
    println!("{:24} {:>8}", "(none)", counts[16]);

    // the seat's natural under capsa-susun's four naturals, declared
    let entries = [
        NaturalEntry::new(Natural::Dragon, 208),
        NaturalEntry::new(Natural::ThreeFlushes, 3),
        NaturalEntry::new(Natural::ThreeStraights, 3),
        NaturalEntry::new(Natural::SixPairs, 3),
    ];
    let mut best = f64::MAX;
    let mut found = 0;
    for _ in 0..7 {
        let t = Instant::now();
        found = hands
            .iter()
            .filter(|h| declared_in(black_box(h), black_box(&entries), true).is_some())
            .count();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{:24} {:7.1} M hands/s ({:.1} ns/hand, {found} declared)",
        "declared, capsa-susun",
        hands.len() as f64 / best / 1e6,
        best * 1e9 / hands.len() as f64
    );

    let biased = biased_hands(8);
    let counts = time("biased hands", &biased);
    println!(
        "  of which three-straights {}, three-flushes {}, three-straight-flushes {}",
        counts[12], counts[13], counts[3]
    );
}
