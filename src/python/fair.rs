//! Binding of the provably fair deal: the commitment, the deal from the
//! seeds, and a submission checked against a hand. The game logic is in
//! `crate::fair`; `capsa.round` is the Python layer.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use super::args::{int_in_range, seats_arg, type_name};
use super::cards::{read_cards, Card, ReadError, Want};
use super::errors::err;
use crate::arrangement::cards_text;
use crate::error::{Error, ErrorKind};
use crate::fair::{self, hex, ServerSeed};

pub(super) fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    obj.cast::<PyBytes>()
        .map(|b| b.as_bytes())
        .map_err(|_| PyTypeError::new_err(format!("{what} must be bytes, not {}", type_name(obj))))
}

pub(super) fn server_seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<ServerSeed> {
    let bytes = bytes_arg(obj, "server_seed")?;
    bytes.try_into().map_err(|_| {
        err(
            ErrorKind::Argument,
            format!(
                "server_seed must be {} bytes, got {}",
                fair::SERVER_SEED_BYTES,
                bytes.len()
            ),
        )
    })
}

pub(super) fn text_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a str, not {}", type_name(obj)))
    })?;
    s.to_str().map(str::to_owned).map_err(|_| {
        err(
            ErrorKind::Argument,
            format!("{what} holds a lone surrogate, which is not a character of UTF-8 text"),
        )
    })
}

/// Client seeds: None (none), or a list or tuple of str, one per seat.
pub(super) fn client_seeds_arg(
    obj: Option<&Bound<'_, PyAny>>,
    seats: usize,
) -> PyResult<Vec<String>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let items: Vec<Bound<'_, PyAny>> = if let Ok(list) = obj.cast::<PyList>() {
        list.iter().take(seats + 1).collect()
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().take(seats + 1).collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "client_seeds must be a list of str (one per seat) or None, not {}",
            type_name(obj)
        )));
    };
    let seeds = items
        .iter()
        .enumerate()
        .map(|(k, s)| text_arg(s, &format!("client_seeds[{k}]")))
        .collect::<PyResult<Vec<String>>>()?;
    fair::check_client_seeds(&seeds, seats)?;
    Ok(seeds)
}

pub(super) fn nonce_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in_range(obj, "nonce", 0, u64::MAX as i128, ErrorKind::Argument)? as u64)
}

/// The commitment to a 32-byte server seed: its SHA-256, lowercase hex.
#[pyfunction]
fn fair_commitment(server_seed: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(hex(&fair::commitment(&server_seed_arg(server_seed)?)))
}

type Hands = (Vec<Vec<u32>>, Vec<Vec<Card>>);

/// The provably fair deal: each seat's 13 ids sorted, and the same as Cards.
#[pyfunction]
#[pyo3(signature = (server_seed, client_seeds, nonce, seats))]
fn fair_deal(
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
) -> PyResult<Hands> {
    let seats = seats_arg(seats)?;
    let seed = server_seed_arg(server_seed)?;
    let client_seeds = client_seeds_arg(client_seeds, seats)?;
    let hands = fair::deal(&seed, &client_seeds, nonce_arg(nonce)?, seats)?;
    let cards = hands
        .iter()
        .map(|h| h.iter().map(|&id| Card { id }).collect())
        .collect();
    let ids = hands
        .iter()
        .map(|h| h.iter().map(|&id| u32::from(id)).collect())
        .collect();
    Ok((ids, cards))
}

/// Reads a submission (an `Arrangement`, "top / middle / bottom" text, or
/// 13 cards in row order) and checks it holds exactly `hand`; returns its
/// 13 ids. An error names the seat and the cards.
#[pyfunction]
fn submission(arrangement: &Bound<'_, PyAny>, hand: Vec<u8>, seat: usize) -> PyResult<Vec<u32>> {
    let at_seat = |e: Error| PyErr::from(e.context(format_args!("seat {seat}")).at_seat(seat));
    let mut ids = Vec::with_capacity(13);
    if let Ok(text) = arrangement.cast::<PyString>() {
        let text = text
            .to_str()
            .map_err(|_| at_seat(Error::card("the arrangement text holds a lone surrogate")))?;
        crate::arrangement::read_arrangement_text(text, &mut ids).map_err(at_seat)?;
    } else {
        let py = arrangement.py();
        let source = match arrangement.getattr(pyo3::intern!(py, "ids")) {
            Ok(ids) if !arrangement.is_instance_of::<PyList>() => ids,
            _ => arrangement.clone(),
        };
        let want = Want {
            sizes: &[13],
            what: "an arrangement",
        };
        match read_cards(&source, &mut ids, want) {
            Ok(()) => {}
            Err(ReadError::Core(e)) => return Err(at_seat(e)),
            Err(ReadError::Py(e)) if e.is_instance_of::<PyTypeError>(py) => {
                return Err(PyTypeError::new_err(format!(
                    "seat {seat}: an arrangement is an Arrangement, \"top / middle / bottom\" \
                     text or 13 cards in row order, not {}",
                    type_name(arrangement)
                )))
            }
            Err(ReadError::Py(e)) => return Err(e),
        }
    }
    crate::cards::check_hand(&ids, &[13], "an arrangement").map_err(at_seat)?;
    let foreign: Vec<u8> = ids.iter().copied().filter(|c| !hand.contains(c)).collect();
    if !foreign.is_empty() {
        let kept: Vec<u8> = hand.iter().copied().filter(|c| !ids.contains(c)).collect();
        return Err(at_seat(Error::hand(format!(
            "the arrangement holds {} that the seat was not dealt (and not its {}); \
             its hand is {}",
            cards_text(&foreign),
            cards_text(&kept),
            cards_text(&hand)
        ))));
    }
    Ok(ids.into_iter().map(u32::from).collect())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FAIR_ALGORITHM", fair::ALGORITHM)?;
    m.add("MAX_CLIENT_SEED_BYTES", fair::MAX_CLIENT_SEED_BYTES)?;
    m.add_function(wrap_pyfunction!(fair_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(fair_deal, m)?)?;
    m.add_function(wrap_pyfunction!(submission, m)?)?;
    Ok(())
}
