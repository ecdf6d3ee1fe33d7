//! Dealing: a Fisher-Yates shuffle with rejection sampling, so every
//! permutation of the deck is equally likely, driven by a stream of 32-bit
//! words: ChaCha20 here (the `rand_chacha` crate), or the provably fair
//! HMAC-SHA256 stream of [`crate::fair`].
//!
//! Seeded deals are reproducible on every platform and in every version: the
//! key is the seed as a little-endian `u64` in key words 0-1 (the rest zero),
//! nonce zero, block counter from zero; each 32-bit output word is used in
//! order. Unseeded deals key ChaCha20 with 32 bytes from the operating
//! system's entropy source.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::cards::DECK;
use crate::deck::Deck;
use crate::error::{Error, Result};
use crate::table::check_table_seats;

/// A source of uniformly distributed 32-bit words that a shuffle draws from.
pub trait Words {
    /// The next word of the stream.
    fn next_word(&mut self) -> u32;
}

/// A uniform integer in `0..n` (n >= 1) by rejection: a word in the last
/// partial run of `n` values of the 32-bit range is drawn again, so there is
/// no modulo bias.
pub fn below<W: Words + ?Sized>(words: &mut W, n: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let v = words.next_word();
        if v <= zone {
            return v % n;
        }
    }
}

/// The ChaCha20 stream (RFC 7539 block function, 20 rounds) as 32-bit words,
/// each block's sixteen words in order, then the next block's.
pub struct ChaCha20 {
    rng: ChaCha20Rng,
}

impl ChaCha20 {
    /// The stream of a 256-bit key (eight little-endian words), the RFC's
    /// 96-bit nonce and 32-bit block counter. The crate keeps a 64-bit block
    /// counter in state words 12-13 and a 64-bit stream id in words 14-15,
    /// so the RFC's counter and first nonce word form its counter and the
    /// other two nonce words its stream id: the same state, the same words.
    pub fn new(key: [u32; 8], nonce: [u32; 3], counter: u32) -> Self {
        let mut seed = [0u8; 32];
        for (bytes, word) in seed.chunks_exact_mut(4).zip(key) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        let mut rng = ChaCha20Rng::from_seed(seed);
        rng.set_stream(u64::from(nonce[1]) | (u64::from(nonce[2]) << 32));
        let block = u128::from(counter) | (u128::from(nonce[0]) << 32);
        rng.set_word_pos(block * 16);
        ChaCha20 { rng }
    }

    /// The stream of a 32-byte key (RFC 7539's byte order), nonce and counter zero.
    pub fn from_key(key: [u8; 32]) -> Self {
        ChaCha20 {
            rng: ChaCha20Rng::from_seed(key),
        }
    }

    /// The stream of a seeded deal: the seed as a little-endian `u64` in key
    /// words 0-1, the rest of the key zero.
    pub fn from_seed(seed: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        ChaCha20::from_key(key)
    }

    pub fn from_entropy() -> Result<Self> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)
            .map_err(|e| Error::table(format!("no entropy from the operating system: {e}")))?;
        Ok(ChaCha20::from_key(key))
    }

    /// Moves to word `index` of the stream (16 words a block).
    pub fn seek(&mut self, index: u128) {
        self.rng.set_word_pos(index);
    }

    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// Uniform integer in `0..n` (n >= 1) by rejection: no modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        below(self, n)
    }
}

impl Words for ChaCha20 {
    #[inline]
    fn next_word(&mut self) -> u32 {
        self.rng.next_u32()
    }
}

/// A shuffled deck: position i of the deck is dealt to seat `i / 13`. The
/// ids 0..51 shuffled by Fisher-Yates from the top position down, each swap
/// partner drawn with [`below`].
pub fn shuffled_deck<W: Words + ?Sized>(words: &mut W) -> [u8; DECK] {
    let mut deck: [u8; DECK] = std::array::from_fn(|i| i as u8);
    shuffle(words, &mut deck);
    deck
}

/// The ids of `deck` in ascending order, shuffled as [`shuffle`] does: for
/// the 52-card deck, [`shuffled_deck`] exactly.
pub fn shuffled_ids<W: Words + ?Sized>(deck: &Deck, words: &mut W) -> Vec<u8> {
    let mut ids = deck.ids();
    shuffle(words, &mut ids);
    ids
}

/// Shuffles `ids` in place by Fisher-Yates from the top position down, each
/// swap partner drawn with [`below`].
pub fn shuffle<W: Words + ?Sized>(words: &mut W, ids: &mut [u8]) {
    for i in (1..ids.len()).rev() {
        let j = below(words, i as u32 + 1) as usize;
        ids.swap(i, j);
    }
}

/// The hands of `seats` seats from a shuffled deck: seat `s` holds deck
/// positions `13s..13s+12`, sorted by id.
pub fn hands_of(deck: &[u8], seats: usize) -> Vec<[u8; 13]> {
    deck.chunks_exact(13)
        .take(seats)
        .map(|cards| {
            let mut hand = [0u8; 13];
            hand.copy_from_slice(cards);
            hand.sort_unstable();
            hand
        })
        .collect()
}

/// Deals 13 cards to each of `seats` seats of the 52-card deck (as
/// [`crate::settle::check_seat_count`] takes).
pub fn deal(seats: usize, seed: Option<u64>) -> Result<Vec<[u8; 13]>> {
    deal_deck(&Deck::default(), seats, seed)
}

/// Deals 13 cards to each of `seats` seats of `deck` (as
/// [`check_table_seats`] takes): the deck's ids in ascending order shuffled
/// as [`shuffle`] does, so that the 52-card deck deals as [`deal`].
pub fn deal_deck(deck: &Deck, seats: usize, seed: Option<u64>) -> Result<Vec<[u8; 13]>> {
    check_table_seats(deck, seats)?;
    let mut rng = match seed {
        Some(s) => ChaCha20::from_seed(s),
        None => ChaCha20::from_entropy()?,
    };
    let mut ids = deck.ids();
    shuffle(&mut rng, &mut ids);
    Ok(hands_of(&ids, seats))
}

#[cfg(test)]
mod tests;
