//! Binding of the variant simulator: a range of deals played into a
//! summary of integer counts, returned as plain Python values.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::conversion::choices::RulesArg;
use crate::conversion::numbers::{seats_arg, seed_arg, table_seats_arg, threads_arg, u64_arg};
use crate::errors::py_err;
use capsa_core::bulk::simulate::{deal_hands, dealt_naturals, Simulation, Summary};
use capsa_core::bulk::with_threads;
use capsa_core::solver::{Strategy, Tables};

fn histogram(h: &BTreeMap<i64, u64>) -> Vec<(i64, u64)> {
    h.iter().map(|(&v, &c)| (v, c)).collect()
}

fn summary_dict<'py>(py: Python<'py>, s: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seats", s.seats)?;
    d.set_item("deals", s.deals)?;
    let points: Vec<Vec<(i64, u64)>> = s.points.iter().map(histogram).collect();
    d.set_item("points", points)?;
    let net: Vec<Vec<(i64, u64)>> = s.net.iter().map(histogram).collect();
    d.set_item("net", net)?;
    d.set_item("house_rake", histogram(&s.house_rake))?;
    d.set_item("qualifying", s.qualifying.to_vec())?;
    d.set_item("declared", s.declared.to_vec())?;
    d.set_item("fouls", s.fouls)?;
    d.set_item("surrenders", s.surrenders)?;
    d.set_item("sweep_alls", s.sweep_alls)?;
    d.set_item("scoops", s.scoops)?;
    d.set_item("pairs", s.pairs)?;
    let rounds = PyDict::new(py);
    rounds.set_item("natural", s.rounds.natural)?;
    rounds.set_item("foul", s.rounds.foul)?;
    rounds.set_item("surrender", s.rounds.surrender)?;
    rounds.set_item("scoop", s.rounds.scoop)?;
    rounds.set_item("sweep_all", s.rounds.sweep_all)?;
    d.set_item("rounds", rounds)?;
    Ok(d)
}

/// Plays deals ``start .. start + count - 1`` of the run seeded ``seed``
/// (deal i: ``deal(seats, seed=deal_seed(seed, i))``), every seat arranged by
/// ``strategy``, each round settled at the rules' stake; the summary's
/// integer counts as a dict (see ``capsa.simulation.Summary``).
#[pyfunction]
#[pyo3(signature = (rules=None, *, start, count, seats, strategy, seed, tables=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn simulate_deals<'py>(
    py: Python<'py>,
    rules: Option<RulesArg<'py>>,
    start: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    strategy: &str,
    seed: &Bound<'py, PyAny>,
    tables: Option<&Bound<'py, PyBytes>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules.unwrap_or_default();
    let r = rules.get().clone();
    let start = u64_arg(start, "start")?;
    let count = u64_arg(count, "deals")?;
    let seats = table_seats_arg(seats, &r.deck)?;
    let strategy = Strategy::from_name(strategy).map_err(py_err)?;
    let seed = seed_arg(seed)?;
    let tables = tables
        .map(|b| Tables::from_bytes(b.as_bytes()))
        .transpose()
        .map_err(py_err)?;
    let threads = threads_arg(threads)?;
    let summary = py
        .detach(|| {
            let sim = Simulation::new(&r, tables.as_ref(), seats, strategy, seed)?;
            with_threads(threads, || sim.run(start, count))?
        })
        .map_err(py_err)?;
    summary_dict(py, &summary)
}

/// The sorted card ids of each seat in deal ``index`` of a run seeded ``seed``.
#[pyfunction]
#[pyo3(signature = (seed, index, seats))]
fn simulated_deal(
    seed: &Bound<'_, PyAny>,
    index: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
) -> PyResult<Vec<Vec<u32>>> {
    let seed = seed_arg(seed)?;
    let index = u64_arg(index, "index")?;
    let seats = seats_arg(seats)?;
    let hands = deal_hands(seed, index, seats);
    // lists of ints, not bytes
    Ok(hands[..seats]
        .iter()
        .map(|h| h.iter().map(|&c| u32::from(c)).collect())
        .collect())
}

/// Per natural (``NATURAL_NAMES`` order), the hands of deals ``start .. start
/// + count - 1`` of a run seeded ``seed`` that qualify for it (neither
/// arranged nor settled).
#[pyfunction]
#[pyo3(signature = (seed, *, start, count, seats, threads=None))]
fn simulated_naturals(
    py: Python<'_>,
    seed: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<u64>> {
    let seed = seed_arg(seed)?;
    let start = u64_arg(start, "start")?;
    let count = u64_arg(count, "deals")?;
    let seats = seats_arg(seats)?;
    let threads = threads_arg(threads)?;
    let counts = py
        .detach(|| with_threads(threads, || dealt_naturals(seed, start, count, seats)))
        .map_err(py_err)?
        .map_err(py_err)?;
    Ok(counts.to_vec())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_deals, m)?)?;
    m.add_function(wrap_pyfunction!(simulated_deal, m)?)?;
    m.add_function(wrap_pyfunction!(simulated_naturals, m)?)?;
    Ok(())
}
