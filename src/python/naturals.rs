//! Naturals: `naturals`, `natural`, `naturals_batch`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::arrays::card_rows;
use super::cards::{hand13, read13};
use super::rules::rules_arg;
use crate::batch;
use crate::naturals::{self as natural_core, NATURAL_NAMES};

/// Every natural the 13 cards qualify for, whatever the rules.
#[pyfunction]
fn naturals(cards: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    let ids = read13(cards)?;
    let bits = natural_core::qualifying(&hand13(&ids));
    Ok((0..15)
        .filter(|b| bits & (1 << b) != 0)
        .map(|b| NATURAL_NAMES[b])
        .collect())
}

/// The strongest natural the rules enable that the 13 cards qualify for.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn natural(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<&'static str>> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    Ok(natural_core::strongest(&hand13(&ids), &rules.get().naturals).map(|(n, _)| n.name()))
}

/// Bit sets of the naturals (bit i is NATURAL_NAMES[i]) of N hands given as
/// a uint8 (N, 13) array.
#[pyfunction]
fn naturals_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let out = py.detach(|| batch::naturals(data))?;
    Ok(out.into_pyarray(py))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NATURAL_NAMES", PyTuple::new(m.py(), NATURAL_NAMES)?)?;
    m.add_function(wrap_pyfunction!(naturals, m)?)?;
    m.add_function(wrap_pyfunction!(natural, m)?)?;
    m.add_function(wrap_pyfunction!(naturals_batch, m)?)?;
    Ok(())
}
