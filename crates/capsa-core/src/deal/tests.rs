use super::*;

#[test]
fn rfc7539_block() {
    // RFC 7539 section 2.3.2 test vector
    let key: [u32; 8] = std::array::from_fn(|i| {
        u32::from_le_bytes([
            4 * i as u8,
            4 * i as u8 + 1,
            4 * i as u8 + 2,
            4 * i as u8 + 3,
        ])
    });
    let mut c = ChaCha20::new(key, [0x0900_0000, 0x4a00_0000, 0], 1);
    assert_eq!(c.next_u32(), 0xe4e7_f110);
    assert_eq!(c.next_u32(), 0x1559_3bd1);
    for _ in 0..13 {
        c.next_u32();
    }
    assert_eq!(c.next_u32(), 0x4e3c_50a2);
}

#[test]
fn seeded_deal_is_stable_and_complete() {
    let a = deal(4, Some(7)).unwrap();
    let b = deal(4, Some(7)).unwrap();
    assert_eq!(a, b);
    let mut all: Vec<u8> = a.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..52).collect::<Vec<u8>>());
    assert!(deal(5, Some(1)).is_err());
    assert!(deal(1, Some(1)).is_err());
}

#[test]
fn below_is_unbiased_enough() {
    let mut rng = ChaCha20::from_seed(1);
    let mut counts = [0u32; 3];
    for _ in 0..30_000 {
        counts[rng.below(3) as usize] += 1;
    }
    for c in counts {
        assert!((9_500..10_500).contains(&c), "{counts:?}");
    }
}
