//! Provably fair dealing, algorithm `capsa-fair-1`.
//!
//! Before the deal the server publishes the commitment, the SHA-256 of a
//! 32-byte server seed drawn from the operating system's entropy. Players
//! may add client seeds. After the round the server reveals the seed, and
//! anyone can check the commitment and recompute the deck:
//!
//! * the message `M` is, byte for byte: the 12 ASCII bytes `capsa-fair-1`,
//!   one zero byte, the nonce as 8 bytes big-endian, the number of client
//!   seeds as 4 bytes big-endian, then for each client seed in seat order its
//!   length in bytes as 4 bytes big-endian and its UTF-8 bytes;
//! * block `i` (i = 0, 1, 2, ...) is `HMAC-SHA256(key = server seed,
//!   M || i as 8 bytes big-endian)`, 32 bytes;
//! * the word stream is the blocks' bytes in order, read 4 at a time as
//!   big-endian unsigned 32-bit integers (block 0 gives words 0-7);
//! * the deck is the ids of the rules' deck in ascending order (0..51 for
//!   the 52-card deck) shuffled by [`capsa_core::deal::shuffle`] from that stream
//!   (Fisher-Yates from the top position down to 1, the partner
//!   of position `i` drawn uniformly from `0..=i` by rejection: a word `w`
//!   is drawn again while `w >= 2^32 - 2^32 mod (i + 1)`, then `w mod (i + 1)`);
//!   seat `s` holds deck positions `13s..13s+12`, sorted by id.
//!
//! Length prefixes make the message of two different lists of client seeds
//! differ; the nonce lets one server seed deal several rounds, though
//! [`crate::record`] rounds draw a fresh one each.

use std::cell::RefCell;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use capsa_core::cards::DECK;
use capsa_core::deal::{hands_of, shuffle, shuffled_deck, Words};
use capsa_core::deck::Deck;
use capsa_core::error::{Error, Result};
use capsa_core::table::check_table_seats;

/// The algorithm's id, written into every record that uses it.
pub const ALGORITHM: &str = "capsa-fair-1";
/// The length of a server seed in bytes.
pub const SERVER_SEED_BYTES: usize = 32;
/// The longest client seed, in bytes of UTF-8.
pub const MAX_CLIENT_SEED_BYTES: usize = 256;

/// A server seed: 32 bytes, secret until the round is over.
pub type ServerSeed = [u8; SERVER_SEED_BYTES];

/// The SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The commitment to a server seed: its SHA-256.
pub fn commitment(server_seed: &ServerSeed) -> [u8; 32] {
    sha256(server_seed)
}

/// Lowercase hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// 32 bytes from 64 lowercase hexadecimal digits, or None.
pub fn parse_hex32(text: &str) -> Option<[u8; 32]> {
    let digits = text.as_bytes();
    if digits.len() != 64 {
        return None;
    }
    let value = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *o = (value(pair[0])? << 4) | value(pair[1])?;
    }
    Some(out)
}

/// Checks the client seeds of a table of `seats`: one per seat or none,
/// each at most [`MAX_CLIENT_SEED_BYTES`] bytes of UTF-8.
pub fn check_client_seeds<S: AsRef<str>>(client_seeds: &[S], seats: usize) -> Result<()> {
    if !client_seeds.is_empty() && client_seeds.len() != seats {
        return Err(Error::argument(format!(
            "client_seeds: give one per seat ({seats}) or none, got {}",
            client_seeds.len()
        )));
    }
    for (seat, seed) in client_seeds.iter().enumerate() {
        let len = seed.as_ref().len();
        if len > MAX_CLIENT_SEED_BYTES {
            return Err(Error::argument(format!(
                "client_seeds[{seat}]: a client seed is at most {MAX_CLIENT_SEED_BYTES} bytes \
                 of UTF-8, got {len}"
            ))
            .at_seat(seat));
        }
    }
    Ok(())
}

/// The message `M` of the module documentation.
pub fn message<S: AsRef<str>>(client_seeds: &[S], nonce: u64) -> Vec<u8> {
    let mut m = Vec::with_capacity(32 + client_seeds.len() * 36);
    m.extend_from_slice(ALGORITHM.as_bytes());
    m.push(0);
    m.extend_from_slice(&nonce.to_be_bytes());
    m.extend_from_slice(&(client_seeds.len() as u32).to_be_bytes());
    for seed in client_seeds {
        let bytes = seed.as_ref().as_bytes();
        m.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        m.extend_from_slice(bytes);
    }
    m
}

/// The word stream of the module documentation, from word 0 or any word on.
#[derive(Clone)]
pub struct FairWords {
    keyed: Hmac<Sha256>,
    message: Vec<u8>,
    next_block: u64,
    block: [u8; 32],
    used: usize,
}

impl FairWords {
    /// The stream of a server seed, the client seeds and the nonce (the
    /// seeds are not checked here: see [`check_client_seeds`]).
    pub fn new<S: AsRef<str>>(server_seed: &ServerSeed, client_seeds: &[S], nonce: u64) -> Self {
        FairWords {
            // HMAC takes a key of any length: this cannot fail
            keyed: <Hmac<Sha256> as Mac>::new_from_slice(server_seed)
                .expect("HMAC takes any key length"),
            message: message(client_seeds, nonce),
            next_block: 0,
            block: [0; 32],
            used: 32,
        }
    }

    /// Moves to word `index` of the stream.
    pub fn seek(&mut self, index: u64) {
        self.next_block = index / 8;
        self.refill();
        self.used = (index % 8) as usize * 4;
    }

    /// Block `i` of the stream.
    pub fn block(&self, i: u64) -> [u8; 32] {
        let mut mac = self.keyed.clone();
        mac.update(&self.message);
        mac.update(&i.to_be_bytes());
        mac.finalize().into_bytes().into()
    }

    fn refill(&mut self) {
        self.block = self.block(self.next_block);
        self.next_block = self.next_block.wrapping_add(1);
        self.used = 0;
    }
}

impl Words for FairWords {
    #[inline]
    fn next_word(&mut self) -> u32 {
        if self.used == 32 {
            self.refill();
        }
        let b = &self.block[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// The shuffled deck of a server seed, client seeds and nonce.
pub fn deck<S: AsRef<str>>(server_seed: &ServerSeed, client_seeds: &[S], nonce: u64) -> [u8; DECK] {
    shuffled_deck(&mut FairWords::new(server_seed, client_seeds, nonce))
}

/// The hands of a provably fair deal of the 52-card deck to `seats` seats
/// (2..=4), with the client seeds checked.
pub fn deal<S: AsRef<str>>(
    server_seed: &ServerSeed,
    client_seeds: &[S],
    nonce: u64,
    seats: usize,
) -> Result<Vec<[u8; 13]>> {
    deal_deck(&Deck::default(), server_seed, client_seeds, nonce, seats)
}

/// The hands of a provably fair deal of `deck` to `seats` seats (as
/// [`check_table_seats`] takes), with the client seeds checked: the deck's
/// ids in ascending order shuffled from the seeds' word stream, so that the
/// 52-card deck deals as [`deck`] shuffles.
pub fn deal_deck<S: AsRef<str>>(
    deck: &Deck,
    server_seed: &ServerSeed,
    client_seeds: &[S],
    nonce: u64,
    seats: usize,
) -> Result<Vec<[u8; 13]>> {
    check_table_seats(deck, seats)?;
    check_client_seeds(client_seeds, seats)?;
    let dealt = dealt_deck(deck, server_seed, client_seeds, nonce);
    Ok(hands_of(&dealt, seats))
}

/// The rules' deck shuffled from a server seed, client seeds and nonce
/// (the 52-card deck gives [`deck`]).
pub fn shuffled<S: AsRef<str>>(
    deck: &Deck,
    server_seed: &ServerSeed,
    client_seeds: &[S],
    nonce: u64,
) -> Vec<u8> {
    let mut ids = deck.ids();
    shuffle(
        &mut FairWords::new(server_seed, client_seeds, nonce),
        &mut ids,
    );
    ids
}

/// A deck shuffled on this thread, with what it was shuffled from.
struct LastDeck {
    deck: Deck,
    server_seed: ServerSeed,
    client_seeds: Vec<String>,
    nonce: u64,
    shuffled: Vec<u8>,
}

thread_local! {
    /// The last deck [`deal_deck`] shuffled on this thread: a round is
    /// dealt, and dealt again from its seeds as its record is written.
    static LAST_DECK: RefCell<Option<LastDeck>> = const { RefCell::new(None) };
}

/// [`shuffled`], taken from [`LAST_DECK`] when it was shuffled from the
/// same deck, seeds and nonce.
fn dealt_deck<S: AsRef<str>>(
    deck: &Deck,
    server_seed: &ServerSeed,
    client_seeds: &[S],
    nonce: u64,
) -> Vec<u8> {
    LAST_DECK.with_borrow_mut(|last| {
        let same = |l: &&LastDeck| {
            l.deck == *deck
                && l.server_seed == *server_seed
                && l.nonce == nonce
                && l.client_seeds
                    .iter()
                    .map(String::as_str)
                    .eq(client_seeds.iter().map(AsRef::as_ref))
        };
        if let Some(l) = last.as_ref().filter(same) {
            return l.shuffled.clone();
        }
        let dealt = shuffled(deck, server_seed, client_seeds, nonce);
        *last = Some(LastDeck {
            deck: *deck,
            server_seed: *server_seed,
            client_seeds: client_seeds.iter().map(|s| s.as_ref().to_owned()).collect(),
            nonce,
            shuffled: dealt.clone(),
        });
        dealt
    })
}

#[cfg(test)]
mod tests;
