//! Binding of bulk settlement (`settle_rounds`: per-round stakes and
//! flags, rake and net, bad rounds reported by row) and of the variant
//! simulator (`simulate`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::args::{count_arg, type_name};
use super::arrays::card_array;
use super::errors::err;
use super::rules::rules_arg;
use crate::bulk::{self as core, Rounds};
use crate::error::ErrorKind;

mod simulate;

/// The `threads` argument: None (every core) or a count >= 1.
pub(crate) fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads
        .filter(|t| !t.is_none())
        .map(|t| count_arg(t, "threads"))
        .transpose()
}

/// A 1-d int64 array of `n` stakes, or None.
fn read_stakes(obj: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Option<Vec<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let Ok(arr) = obj.cast::<numpy::PyArray1<i64>>() else {
        return Err(PyTypeError::new_err(format!(
            "stakes must be a 1-d numpy int64 array of one stake per round, not {}",
            type_name(obj)
        )));
    };
    let ro = arr.readonly();
    if ro.len() != n {
        return Err(err(
            ErrorKind::Table,
            format!(
                "stakes must have one entry per round ({n}), got {}",
                ro.len()
            ),
        ));
    }
    Ok(Some(ro.as_array().iter().copied().collect()))
}

/// An (n, p) numpy bool array of per-seat flags, or None.
fn read_flags(
    obj: Option<&Bound<'_, PyAny>>,
    n: usize,
    p: usize,
    what: &str,
) -> PyResult<Option<Vec<bool>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let Ok(arr) = obj.cast::<numpy::PyArray2<bool>>() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a 2-d numpy bool array of shape ({n}, {p}), not {}",
            type_name(obj)
        )));
    };
    let ro = arr.readonly();
    if ro.shape() != [n, p] {
        return Err(err(
            ErrorKind::Table,
            format!("{what} must have shape ({n}, {p}), got {:?}", ro.shape()),
        ));
    }
    Ok(Some(ro.as_array().iter().copied().collect()))
}

/// The figures (4, P, N), the rows that could not be settled and their reasons.
type Settled<'py> = (
    Bound<'py, PyArray3<i64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
);

/// Settles N rounds of P seats: cards (N, P, 13), an int64 stake per round
/// (None: the rules' stake), (N, P) bool flags. Returns the figures as an
/// int64 (4, P, N) array (points, money, rake, net; each seat's column
/// contiguous), the rows that could not be settled (int64, in
/// order) and their reasons ("Kind: message"); those rows' figures are
/// zero. A bad argument raises before any round is settled.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, stakes=None, surrender=None, declare_natural=None, *, threads=None))]
fn settle_rounds<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    stakes: Option<&Bound<'py, PyAny>>,
    surrender: Option<&Bound<'py, PyAny>>,
    declare_natural: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Settled<'py>> {
    let rules = rules_arg(rules)?;
    let r = rules.get();
    let arr = card_array(cards, "cards", "(N, P, 13) with P from 2 to 4", |shape| {
        shape.len() == 3 && shape[2] == 13 && (2..=4).contains(&shape[1])
    })?;
    let (n, p) = (arr.shape[0], arr.shape[1]);
    let data = arr.ids()?;
    let stakes = read_stakes(stakes, n)?;
    let surrender = read_flags(surrender, n, p, "surrender")?;
    let declare = read_flags(declare_natural, n, p, "declare_natural")?;
    let threads = threads_arg(threads)?;
    let rounds = Rounds {
        seats: p,
        cards: data,
        stakes: stakes.as_deref(),
        surrender: surrender.as_deref(),
        declare_natural: declare.as_deref(),
    };
    let (totals, errors) =
        py.detach(|| core::with_threads(threads, || core::settle_rounds(r, &rounds)))??;
    let figures = Array3::from_shape_vec((core::FIGURES.len(), p, n), totals.figures)
        .map_err(|e| err(ErrorKind::Table, format!("cannot shape the result: {e}")))?
        .into_pyarray(py);
    let rows: Vec<i64> = errors.iter().map(|(row, _)| *row as i64).collect();
    let reasons = errors
        .into_iter()
        .map(|(_, e)| format!("{}: {}", e.kind().name(), e.message()))
        .collect();
    Ok((figures, rows.into_pyarray(py), reasons))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(settle_rounds, m)?)?;
    simulate::register(m)
}
