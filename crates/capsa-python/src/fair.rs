//! Binding of the provably fair deal: the commitment, the deal from the
//! seeds, and a round's deal again with its arrangements checked. The game
//! logic is in `capsa_records::fair`; `capsa.round` is the Python layer.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::card::{cards_of, Card};
use super::conversion::cards::hand13;
use super::conversion::choices::RulesArg;
use super::conversion::numbers::{nonce_arg, table_seats_arg};
use super::conversion::text::{client_seeds_arg, server_seed_arg};
use super::submission::checked_submission;
use crate::errors::py_err;
use capsa_core::deck::Deck;
use capsa_core::error::Error;
use capsa_core::hands::fouls;
use capsa_core::naturals as natural_core;
use capsa_records::fair::{self, hex};

/// The commitment to a 32-byte server seed: its SHA-256, lowercase hex.
#[pyfunction]
fn fair_commitment(server_seed: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(hex(&fair::commitment(&server_seed_arg(server_seed)?)))
}

type Hands<'py> = (Vec<Bound<'py, PyTuple>>, Vec<Vec<Py<Card>>>);

/// The provably fair deal of the rules' deck (None: the 52-card deck):
/// each seat's 13 ids sorted (a tuple), and the same as a list of Cards.
///
/// ``client_seeds`` is a list or tuple of str (one per seat, each at most
/// ``MAX_CLIENT_SEED_BYTES`` of UTF-8) or None; ``ArgumentError`` otherwise
/// (``TypeError`` for a wrong type).
#[pyfunction]
#[pyo3(signature = (server_seed, client_seeds, nonce, seats, rules=None))]
fn fair_deal<'py>(
    py: Python<'py>,
    server_seed: &Bound<'py, PyAny>,
    client_seeds: Option<&Bound<'py, PyAny>>,
    nonce: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
) -> PyResult<Hands<'py>> {
    let deck = rules.unwrap_or_default().get().deck;
    let hands = deal_of(server_seed, client_seeds, nonce, seats, &deck)?;
    let cards = hands
        .iter()
        .map(|h| cards_of(py, h))
        .collect::<PyResult<_>>()?;
    let ids = hands
        .iter()
        .map(|h| PyTuple::new(py, h))
        .collect::<PyResult<_>>()?;
    Ok((ids, cards))
}

/// The hands of the fair deal of `deck` from the arguments as given.
fn deal_of(
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
    deck: &Deck,
) -> PyResult<Vec<[u8; 13]>> {
    let seats = table_seats_arg(seats, deck)?;
    let seed = server_seed_arg(server_seed)?;
    let client_seeds = client_seeds_arg(client_seeds, seats)?;
    fair::deal_deck(deck, &seed, &client_seeds, nonce_arg(nonce)?, seats).map_err(py_err)
}

/// Each seat's arrangement: its 13 ids, or None where it has none.
type Arranged = Vec<Option<Vec<u32>>>;

/// What a restored round's deal gives: each seat's hand, its arrangement
/// checked, whether the hand holds a natural the rules enable, whether the
/// arrangement fouls.
type Restored = (Vec<Vec<u32>>, Arranged, Vec<bool>, Vec<Option<bool>>);

/// The provably fair deal again with each seat's arrangement (or None)
/// checked against its hand, in one call, as a saved round is restored: each
/// seat's 13 ids sorted, each arrangement's 13 ids, whether each hand holds a
/// natural ``rules`` enable, and whether each arrangement fouls under them.
/// Raises what ``fair_deal`` and ``submission`` raise.
#[pyfunction]
#[pyo3(signature = (server_seed, client_seeds, nonce, seats, arrangements, rules))]
fn fair_deal_checked(
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
    arrangements: Vec<Option<Bound<'_, PyAny>>>,
    rules: Option<RulesArg<'_>>,
) -> PyResult<Restored> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let hands = deal_of(server_seed, client_seeds, nonce, seats, &r.deck)?;
    let seats = hands.len();
    if arrangements.len() != seats {
        return Err(py_err(Error::argument(format!(
            "arrangements: one per seat ({seats}), got {}",
            arrangements.len()
        ))));
    }
    let mut arranged = Vec::with_capacity(seats);
    for (k, (arrangement, hand)) in arrangements.iter().zip(&hands).enumerate() {
        arranged.push(match arrangement {
            Some(a) => Some(checked_submission(a, hand, k, r)?),
            None => None,
        });
    }
    let naturals = hands
        .iter()
        .map(|h| natural_core::declared(&hand13(h), r, true).is_some())
        .collect();
    let fouled = arranged
        .iter()
        .map(|a| {
            a.as_ref().map(|ids| {
                let ids: Vec<u8> = ids.iter().map(|&id| id as u8).collect();
                fouls(r, &ids)
            })
        })
        .collect();
    let ids = hands
        .iter()
        .map(|h| h.iter().map(|&id| u32::from(id)).collect())
        .collect();
    Ok((ids, arranged, naturals, fouled))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FAIR_ALGORITHM", fair::ALGORITHM)?;
    m.add("MAX_CLIENT_SEED_BYTES", fair::MAX_CLIENT_SEED_BYTES)?;
    m.add_function(wrap_pyfunction!(fair_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(fair_deal, m)?)?;
    m.add_function(wrap_pyfunction!(fair_deal_checked, m)?)?;
    Ok(())
}
