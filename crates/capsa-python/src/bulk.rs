//! Binding of bulk settlement (`settle_rounds`: per-round stakes and
//! flags, rake and net, bad rounds reported by row), of the seats of
//! records as the columns of a rounds table (`record_seats`) and of the
//! variant simulator (`simulate`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::conversion::cards::table_cards;
use super::conversion::choices::RulesArg;
use super::conversion::flags::read_flags;
use super::conversion::numbers::threads_arg;
use super::conversion::roles::batch_roles;
use super::conversion::stakes::stake_per_round_arg;
use super::records::RecordView;
use crate::errors::{err, py_err};
use capsa_core::batch::Banker;
use capsa_core::bulk::{self as core, Rounds};
use capsa_core::error::ErrorKind;
use capsa_core::table::{MAX_TABLE_SEATS, MIN_SEATS};

mod simulate;

/// The figures (4, P, N), the outcomes (5, P, N), the rows that could not
/// be settled and their reasons.
type Settled<'py> = (
    Bound<'py, PyArray3<i64>>,
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
);

// the outcome rows are those of `capsa_core::bulk::outcome_bytes`
/// Settles N rounds of P seats ((N, P, 13) ids), each with its own stake.
///
/// ``stakes`` is one int64 per round (None: the rules' stake), the flags (N,
/// P) bool arrays; ``banker`` (an int or an int (N,) array) and
/// ``multipliers`` (an int (N, P) array) give a banker game's roles;
/// ``threads`` caps the cores (default all). Returns the figures as int64 (4,
/// P, N): points, money, rake, net, each seat's column contiguous; the
/// outcomes as uint8 (5, P, N): fouled (0/1), natural (0: none, else its
/// index in ``NATURAL_NAMES`` plus one), scoops (opponents won all three rows
/// against), swept (0/1), surrendered (0/1); the rows that could not be
/// settled (int64, in order) and their reasons ("Kind: message"), whose
/// figures and outcomes are zero. A bad argument raises before any round is
/// settled.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, stakes=None, surrender=None, declare_natural=None, *, threads=None, banker=None, multipliers=None))]
#[allow(clippy::too_many_arguments)]
fn settle_rounds<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
    stakes: Option<&Bound<'py, PyAny>>,
    surrender: Option<&Bound<'py, PyAny>>,
    declare_natural: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    banker: Option<&Bound<'py, PyAny>>,
    multipliers: Option<&Bound<'py, PyAny>>,
) -> PyResult<Settled<'py>> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let arr = table_cards(cards, &r.deck)?;
    let (n, p) = (arr.shape[0], arr.shape[1]);
    let data = arr.ids()?;
    let stakes = stake_per_round_arg(stakes, n)?;
    let surrender = read_flags(surrender, n, p, "surrender")?;
    let declare = read_flags(declare_natural, n, p, "declare_natural")?;
    let threads = threads_arg(threads)?;
    let (banker, multipliers) = batch_roles(banker, multipliers, n, p)?;
    let banker: Option<Vec<i64>> = match banker {
        Banker::None => None,
        b => Some(
            (0..n)
                .map(|row| b.of_row(row).map_or(-1, |s| s as i64))
                .collect(),
        ),
    };
    let rounds = Rounds {
        seats: p,
        cards: data,
        stakes: stakes.as_deref(),
        surrender: surrender.as_deref(),
        declare_natural: declare.as_deref(),
        banker: banker.as_deref(),
        multipliers: multipliers.as_deref(),
    };
    let (totals, errors) = py
        .detach(|| core::with_threads(threads, || core::settle_rounds(r, &rounds)))
        .map_err(py_err)?
        .map_err(py_err)?;
    let figures = Array3::from_shape_vec((core::FIGURES.len(), p, n), totals.figures)
        .map_err(|e| err(ErrorKind::Table, format!("cannot shape the result: {e}")))?
        .into_pyarray(py);
    let outcomes = Array3::from_shape_vec((core::OUTCOMES.len(), p, n), totals.outcomes)
        .map_err(|e| err(ErrorKind::Table, format!("cannot shape the result: {e}")))?
        .into_pyarray(py);
    let rows: Vec<i64> = errors.iter().map(|(row, _)| *row as i64).collect();
    let reasons = errors
        .into_iter()
        .map(|(_, e)| format!("{}: {}", e.kind().name(), e.message()))
        .collect();
    Ok((figures, outcomes, rows.into_pyarray(py), reasons))
}

/// The seats of many records read, as a rounds table of ``width`` seats
/// (2 to 8; ``TableError`` otherwise) takes them, in three buffers: each
/// record's seat count (a byte a record); each seat's arrangement as 13
/// card ids, top row first (13 bytes a seat of the width, zero for a seat
/// it lacks); each seat's ``auto``, ``surrender`` and ``declare_natural``
/// as 0 or 1 (3 bytes a seat of the width).
#[pyfunction]
#[pyo3(signature = (views, width = 4))]
fn record_seats<'py>(
    py: Python<'py>,
    views: Vec<PyRef<'py, RecordView>>,
    width: usize,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    if !(MIN_SEATS..=MAX_TABLE_SEATS).contains(&width) {
        return Err(err(
            ErrorKind::Table,
            format!("a rounds table has {MIN_SEATS} to {MAX_TABLE_SEATS} seats, got {width}"),
        ));
    }
    let mut counts = Vec::with_capacity(views.len());
    let mut cards = vec![0u8; views.len() * width * 13];
    let mut flags = vec![0u8; views.len() * width * 3];
    for (k, view) in views.iter().enumerate() {
        let seats = &view.record.seats;
        // a record holds 2 to 8 seats
        counts.push(seats.len() as u8);
        for (s, seat) in seats.iter().take(width).enumerate() {
            let at = (k * width + s) * 13;
            cards[at..at + 13].copy_from_slice(&seat.arrangement);
            let at = (k * width + s) * 3;
            flags[at] = u8::from(seat.auto);
            flags[at + 1] = u8::from(seat.surrender);
            flags[at + 2] = u8::from(seat.declare_natural);
        }
    }
    Ok((
        PyBytes::new(py, &counts),
        PyBytes::new(py, &cards),
        PyBytes::new(py, &flags),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(settle_rounds, m)?)?;
    m.add_function(wrap_pyfunction!(record_seats, m)?)?;
    simulate::register(m)
}
