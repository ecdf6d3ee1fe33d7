//! The splits of 13 cards: `splits`, `is_foul`, `count_splits`,
//! `count_splits_batch`.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::arrays::card_rows;
use super::cards::read13;
use super::rules::rules_arg;
use crate::batch;
use crate::splits as split_core;

/// Every split of 13 cards (or only the valid ones) as a uint8 (K, 13) array.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, valid_only=true))]
fn splits<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    valid_only: bool,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let (e, strict) = (r.evaluator, r.foul_strict);
    let rows = py.detach(|| split_core::splits(&e, strict, &ids, valid_only))?;
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    let arr = Array2::from_shape_vec((rows.len(), 13), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// True when 13 cards laid out top 0-2, middle 3-7, bottom 8-12 foul: their
/// rows are out of order under the rules (the check settlement makes).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn is_foul(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let e = &r.evaluator;
    let (top, middle, bottom) = (
        e.eval_unchecked(&ids[..3]),
        e.eval_unchecked(&ids[3..8]),
        e.eval_unchecked(&ids[8..]),
    );
    Ok(!split_core::is_valid(top, middle, bottom, r.foul_strict))
}

/// The number of valid splits of 13 cards (out of 72,072).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn count_splits(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let (e, strict) = (r.evaluator, r.foul_strict);
    py.detach(|| split_core::count_splits(&e, strict, &ids))
        .map_err(PyErr::from)
}

/// Valid-split counts of N hands given as a uint8 (N, 13) array.
#[pyfunction]
#[pyo3(signature = (ids, rules=None))]
fn count_splits_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rules = rules_arg(rules)?;
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let r = rules.get();
    let out = py.detach(|| batch::count_splits(&r.evaluator, r.foul_strict, data))?;
    Ok(out.into_pyarray(py))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits_batch, m)?)?;
    Ok(())
}
