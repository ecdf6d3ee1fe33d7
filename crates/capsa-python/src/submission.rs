//! A seat's submitted arrangement checked against the hand it was dealt:
//! `submission`, which `capsa.Round` calls as a player submits, and the
//! check a restored round's deal makes of each arrangement.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::conversion::choices::RulesArg;
use super::conversion::seats::submitted_arrangement;
use crate::errors::py_err;
use capsa_core::arrangement::{cards_text, dealt_difference};
use capsa_core::error::Error;
use capsa_core::rules::Rules;

/// Reads a submission (an Arrangement, "top / middle / bottom" text or 13
/// cards in row order) and checks it holds exactly ``hand``; returns its 13
/// ids. ``HandError``/``CardError`` name the seat and the cards.
#[pyfunction]
#[pyo3(signature = (arrangement, hand, seat, rules=None))]
fn submission<'py>(
    arrangement: &Bound<'py, PyAny>,
    hand: Vec<u8>,
    seat: usize,
    rules: Option<RulesArg<'py>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let rules = rules.unwrap_or_default();
    PyTuple::new(
        arrangement.py(),
        checked_submission(arrangement, &hand, seat, rules.get())?,
    )
}

pub(crate) fn checked_submission(
    arrangement: &Bound<'_, PyAny>,
    hand: &[u8],
    seat: usize,
    rules: &Rules,
) -> PyResult<Vec<u32>> {
    let at_seat = |e: Error| py_err(e.context(format_args!("seat {seat}")).at_seat(seat));
    let ids = submitted_arrangement(arrangement, seat, rules)?;
    if let Some((foreign, kept)) = dealt_difference(&ids, hand) {
        return Err(at_seat(Error::hand(format!(
            "the arrangement holds {} that the seat was not dealt (and not its {}); \
             its hand is {}",
            cards_text(&foreign),
            cards_text(&kept),
            cards_text(hand)
        ))));
    }
    Ok(ids.into_iter().map(u32::from).collect())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(submission, m)?)?;
    Ok(())
}
