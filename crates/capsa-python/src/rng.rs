//! Binding of the raw generator output for statistical batteries: words
//! and shuffles of the provably fair and the seeded generators.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::conversion::numbers::{
    int_in_range, nonce_arg, seed_arg, size_arg, u64_arg, MAX_RNG_CHUNK,
};
use super::conversion::text::{key32_arg, server_seed_arg};
use super::errors::err;
use capsa_core::deal::{shuffled_deck, ChaCha20, Words};
use capsa_core::error::ErrorKind;
use capsa_records::fair::{self, FairWords};

/// ``count`` words of the fair deal's HMAC-SHA256 stream from word ``start``
/// (no client seeds), as the stream's bytes (each word big-endian).
#[pyfunction]
fn rng_words_fair(
    py: Python<'_>,
    server_seed: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let seed = server_seed_arg(server_seed)?;
    let nonce = nonce_arg(nonce)?;
    let start = u64_arg(start, "start")?;
    let count = size_arg(count, "count", MAX_RNG_CHUNK)?;
    let no_seeds: [&str; 0] = [];
    let out = py.detach(|| {
        let mut words = FairWords::new(&seed, &no_seeds, nonce);
        words.seek(start);
        let mut out = Vec::with_capacity(4 * count);
        for _ in 0..count {
            out.extend_from_slice(&words.next_word().to_be_bytes());
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// ``count`` words of the ChaCha20 stream of a 32-byte key from word
/// ``start``, as the key stream's bytes (each word little-endian).
#[pyfunction]
fn rng_words_chacha20(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let key = key32_arg(key)?;
    let start = int_in_range(start, "start", 0, (1i128 << 68) - 1, ErrorKind::Argument)? as u128;
    let count = size_arg(count, "count", MAX_RNG_CHUNK)?;
    let out = py.detach(|| {
        let mut rng = ChaCha20::from_key(key);
        rng.seek(start);
        let mut out = Vec::with_capacity(4 * count);
        for _ in 0..count {
            out.extend_from_slice(&rng.next_word().to_le_bytes());
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// The decks (52 ids each, in deck order) of the fair deals of a server seed
/// with no client seeds and nonces ``first_nonce``, ``first_nonce + 1``, ...
#[pyfunction]
fn rng_shuffles_fair(
    py: Python<'_>,
    server_seed: &Bound<'_, PyAny>,
    first_nonce: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let seed = server_seed_arg(server_seed)?;
    let first = nonce_arg(first_nonce)?;
    let count = size_arg(count, "count", MAX_RNG_CHUNK)?;
    if first.checked_add(count as u64).is_none() {
        return Err(err(
            ErrorKind::Argument,
            "first_nonce + count must stay below 2**64",
        ));
    }
    let no_seeds: [&str; 0] = [];
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(52 * count);
        for k in 0..count as u64 {
            out.extend_from_slice(&fair::deck(&seed, &no_seeds, first + k));
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// The decks (52 ids each, in deck order) of the seeded deals of seeds
/// ``first_seed``, ``first_seed + 1``, ... (``capsa.deal(seats, seed)``).
#[pyfunction]
fn rng_shuffles_seeded(
    py: Python<'_>,
    first_seed: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let first = seed_arg(first_seed)?;
    let count = size_arg(count, "count", MAX_RNG_CHUNK)?;
    if first.checked_add(count as u64).is_none() {
        return Err(err(
            ErrorKind::Argument,
            "first_seed + count must stay below 2**64",
        ));
    }
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(52 * count);
        for k in 0..count as u64 {
            out.extend_from_slice(&shuffled_deck(&mut ChaCha20::from_seed(first + k)));
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_RNG_CHUNK", MAX_RNG_CHUNK)?;
    m.add_function(wrap_pyfunction!(rng_words_fair, m)?)?;
    m.add_function(wrap_pyfunction!(rng_words_chacha20, m)?)?;
    m.add_function(wrap_pyfunction!(rng_shuffles_fair, m)?)?;
    m.add_function(wrap_pyfunction!(rng_shuffles_seeded, m)?)?;
    Ok(())
}
