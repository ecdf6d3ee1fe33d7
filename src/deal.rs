//! Dealing: a Fisher-Yates shuffle driven by ChaCha20 with rejection sampling,
//! so every permutation of the deck is equally likely.
//!
//! Seeded deals are reproducible on every platform and in every version: the
//! key is the seed as a little-endian `u64` in key words 0-1 (the rest zero),
//! nonce zero, block counter from zero; each 32-bit output word is used in
//! order. Unseeded deals key ChaCha20 with 32 bytes from the operating
//! system's entropy source.

use crate::cards::DECK;
use crate::error::{Error, Result};
use crate::settle::check_seat_count;

pub struct ChaCha20 {
    state: [u32; 16],
    block: [u32; 16],
    used: usize,
}

#[inline(always)]
fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

impl ChaCha20 {
    pub fn new(key: [u32; 8], nonce: [u32; 3], counter: u32) -> Self {
        let mut state = [0u32; 16];
        state[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        state[4..12].copy_from_slice(&key);
        state[12] = counter;
        state[13..].copy_from_slice(&nonce);
        ChaCha20 {
            state,
            block: [0; 16],
            used: 16,
        }
    }

    pub fn from_seed(seed: u64) -> Self {
        let mut key = [0u32; 8];
        key[0] = seed as u32;
        key[1] = (seed >> 32) as u32;
        ChaCha20::new(key, [0; 3], 0)
    }

    pub fn from_entropy() -> Result<Self> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| Error::table(format!("no entropy from the operating system: {e}")))?;
        let mut key = [0u32; 8];
        for (k, chunk) in key.iter_mut().zip(bytes.chunks_exact(4)) {
            *k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        Ok(ChaCha20::new(key, [0; 3], 0))
    }

    fn refill(&mut self) {
        let mut x = self.state;
        for _ in 0..10 {
            quarter(&mut x, 0, 4, 8, 12);
            quarter(&mut x, 1, 5, 9, 13);
            quarter(&mut x, 2, 6, 10, 14);
            quarter(&mut x, 3, 7, 11, 15);
            quarter(&mut x, 0, 5, 10, 15);
            quarter(&mut x, 1, 6, 11, 12);
            quarter(&mut x, 2, 7, 8, 13);
            quarter(&mut x, 3, 4, 9, 14);
        }
        for (out, (a, b)) in self.block.iter_mut().zip(x.iter().zip(self.state.iter())) {
            *out = a.wrapping_add(*b);
        }
        self.state[12] = self.state[12].wrapping_add(1);
        if self.state[12] == 0 {
            self.state[13] = self.state[13].wrapping_add(1);
        }
        self.used = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.used == 16 {
            self.refill();
        }
        let v = self.block[self.used];
        self.used += 1;
        v
    }

    /// Uniform integer in `0..n` (n >= 1) by rejection: no modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        let zone = u32::MAX - (u32::MAX - n + 1) % n;
        loop {
            let v = self.next_u32();
            if v <= zone {
                return v % n;
            }
        }
    }
}

/// A shuffled deck: position i of the deck is dealt to seat `i / 13`.
pub fn shuffled_deck(rng: &mut ChaCha20) -> [u8; DECK] {
    let mut deck: [u8; DECK] = std::array::from_fn(|i| i as u8);
    for i in (1..DECK).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    deck
}

/// Deals 13 cards to each of `seats` seats (as [`check_seat_count`] takes).
pub fn deal(seats: usize, seed: Option<u64>) -> Result<Vec<[u8; 13]>> {
    check_seat_count(seats)?;
    let mut rng = match seed {
        Some(s) => ChaCha20::from_seed(s),
        None => ChaCha20::from_entropy()?,
    };
    let deck = shuffled_deck(&mut rng);
    Ok((0..seats)
        .map(|s| {
            let mut hand: [u8; 13] = deck[13 * s..13 * s + 13].try_into().unwrap();
            hand.sort_unstable();
            hand
        })
        .collect())
}

#[cfg(test)]
mod tests;
