//! Binding of bulk settlement (`settle_rounds`: per-round stakes and
//! flags, rake and net, bad rounds reported by row) and of the variant
//! simulator (`simulate`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::prelude::*;

use super::conversion::cards::table_cards;
use super::conversion::choices::rules_arg_52;
use super::conversion::flags::read_flags;
use super::conversion::numbers::threads_arg;
use super::conversion::roles::batch_roles;
use super::conversion::stakes::stake_per_round_arg;
use super::errors::err;
use crate::batch::Banker;
use crate::bulk::{self as core, Rounds};
use crate::error::ErrorKind;

mod simulate;

/// The figures (4, P, N), the outcomes (5, P, N), the rows that could not
/// be settled and their reasons.
type Settled<'py> = (
    Bound<'py, PyArray3<i64>>,
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
);

/// Settles N rounds of P seats: cards (N, P, 13), an int64 stake per round
/// (None: the rules' stake), (N, P) bool flags. Returns the figures as an
/// int64 (4, P, N) array; `banker` (an int or an int (N,) array) and
/// `multipliers` (an int (N, P) array) for a banker game. Returns the figures as an
/// int64 (4, P, N) array (points, money, rake, net; each seat's column
/// contiguous), the outcomes as a uint8 (5, P, N) array (fouled, natural,
/// scoops, swept, surrendered: `crate::bulk::outcome_bytes`), the rows that
/// could not be settled (int64, in order) and their reasons ("Kind:
/// message"); those rows' figures and outcomes are zero. A bad argument raises before any round is settled.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, stakes=None, surrender=None, declare_natural=None, *, threads=None, banker=None, multipliers=None))]
#[allow(clippy::too_many_arguments)]
fn settle_rounds<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    stakes: Option<&Bound<'py, PyAny>>,
    surrender: Option<&Bound<'py, PyAny>>,
    declare_natural: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    banker: Option<&Bound<'py, PyAny>>,
    multipliers: Option<&Bound<'py, PyAny>>,
) -> PyResult<Settled<'py>> {
    let rules = rules_arg_52(rules, "settle_rounds")?;
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
    let (totals, errors) =
        py.detach(|| core::with_threads(threads, || core::settle_rounds(r, &rounds)))??;
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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(settle_rounds, m)?)?;
    simulate::register(m)
}
