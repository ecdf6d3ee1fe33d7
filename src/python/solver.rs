//! Binding of the arranging solver and the measurement tools.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict};

use rayon::prelude::*;

use super::errors::err;
use super::{read13, rules_arg, uint8_rows};
use crate::cards::check_distinct;
use crate::error::{Error, ErrorKind};
use crate::rules::Rules;
use crate::solver::{self as core, Choice, Strategy, Tables};
use crate::tournament;

fn tables_arg(tables: Option<&Bound<'_, PyBytes>>) -> PyResult<Option<Tables>> {
    tables
        .map(|b| Tables::from_bytes(b.as_bytes()))
        .transpose()
        .map_err(PyErr::from)
}

fn strategy_arg(name: &str) -> PyResult<Strategy> {
    Strategy::from_name(name).map_err(PyErr::from)
}

type ChoiceTuple = (Vec<u32>, bool, f64);

fn tuple(c: &Choice) -> ChoiceTuple {
    (
        c.cards.iter().map(|&x| x as u32).collect(),
        c.declare_natural,
        c.expected_points,
    )
}

/// The best arrangement of 13 cards: (ids laid out top 0-2, middle 3-7,
/// bottom 8-12; declare the natural; estimated expected points).
#[pyfunction]
#[pyo3(signature = (cards, rules=None, *, seats=4, strategy="solver", tables=None))]
fn best_arrangement(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seats: usize,
    strategy: &str,
    tables: Option<&Bound<'_, PyBytes>>,
) -> PyResult<ChoiceTuple> {
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let ids = read13(cards)?;
    let strategy = strategy_arg(strategy)?;
    let tables = tables_arg(tables)?;
    py.detach(|| {
        let a = core::arranger(&r, tables.as_ref(), seats, strategy)?;
        a.choose(&ids)
    })
    .map(|c| tuple(&c))
    .map_err(PyErr::from)
}

/// The k best choices, best first, each (ids, declare_natural, expected
/// points).
#[pyfunction]
#[pyo3(signature = (cards, rules=None, k=5, *, seats=4, tables=None))]
fn rank_arrangements(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    k: usize,
    seats: usize,
    tables: Option<&Bound<'_, PyBytes>>,
) -> PyResult<Vec<ChoiceTuple>> {
    if k == 0 {
        return Err(PyValueError::new_err("k must be >= 1"));
    }
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let ids = read13(cards)?;
    let tables = tables_arg(tables)?;
    py.detach(|| {
        let a = core::arranger(&r, tables.as_ref(), seats, Strategy::Solver)?;
        a.solver().rank(&ids, k)
    })
    .map(|v| v.iter().map(tuple).collect())
    .map_err(PyErr::from)
}

/// Best arrangements of N hands (uint8 (N, 13) ids) on all cores: uint8
/// (N, 13), each row laid out top 0-2, middle 3-7, bottom 8-12.
#[pyfunction]
#[pyo3(signature = (ids, rules=None, *, seats=4, strategy="solver", tables=None))]
fn best_arrangement_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    seats: usize,
    strategy: &str,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let arr = uint8_rows(ids, &[13], "ids")?;
    let data = arr.as_slice()?;
    let strategy = strategy_arg(strategy)?;
    let tables = tables_arg(tables)?;
    let rows = py.detach(|| {
        let a = core::arranger(&r, tables.as_ref(), seats, strategy)?;
        // rows in parallel in small chunks (the solver is ~100 us a hand)
        data.par_chunks(13)
            .enumerate()
            .map(|(i, row)| {
                check_distinct(row)
                    .and_then(|_| Ok(a.choose(row)?.cards))
                    .map_err(|e| match e.kind() {
                        ErrorKind::Card | ErrorKind::Hand => e.context(format_args!("row {i}")),
                        _ => e,
                    })
            })
            .collect::<Result<Vec<[u8; 13]>, Error>>()
    })?;
    let n = rows.len();
    let flat: Vec<u8> = rows.into_iter().flatten().collect();
    let out =
        Array2::from_shape_vec((n, 13), flat).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(out.into_pyarray(py))
}

/// A training size or seed from Python: an int (or an `__index__` type such
/// as a numpy integer; never a bool) that fits a u64; the core checks the
/// ranges ([`core::TrainConfig::validate`]).
fn train_u64(obj: &Bound<'_, PyAny>, key: &str) -> PyResult<u64> {
    let py = obj.py();
    let not_int = || -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "{key} must be an int, not {}",
            obj.get_type().name()?
        )))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(not_int()?);
    }
    match obj.extract::<u64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            let shown = obj
                .extract::<i64>()
                .map_or_else(|_| "an int beyond 64 bits".to_string(), |v| v.to_string());
            Err(err(
                ErrorKind::Argument,
                format!("train_tables: {key} must be a non-negative 64-bit int, got {shown}"),
            ))
        }
        Err(_) => Err(not_int()?),
    }
}

fn train_size(obj: &Bound<'_, PyAny>, key: &str) -> PyResult<usize> {
    let v = train_u64(obj, key)?;
    // beyond usize only on 32-bit targets; saturate into the range check
    Ok(usize::try_from(v).unwrap_or(usize::MAX))
}

fn train_seats(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    train_size(obj, "seats")
}

fn train_hands(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    train_size(obj, "hands")
}

fn train_iterations(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    train_size(obj, "iterations")
}

fn train_seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    train_u64(obj, "seed")
}

/// Trains per-row tables for the rules by iterated best response; returns
/// the tables file's bytes.
#[pyfunction]
#[pyo3(signature = (rules=None, *, seats=4, hands=200_000, iterations=4, seed=1, name="custom"))]
fn train_tables<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    #[pyo3(from_py_with = train_seats)] seats: usize,
    #[pyo3(from_py_with = train_hands)] hands: usize,
    #[pyo3(from_py_with = train_iterations)] iterations: usize,
    #[pyo3(from_py_with = train_seed)] seed: u64,
    name: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let cfg = core::TrainConfig {
        hands,
        iterations,
        seed,
        seats,
        name: name.to_string(),
    };
    cfg.validate()?;
    let t = py.detach(|| core::train(&r, &cfg))?;
    Ok(PyBytes::new(py, &t.to_bytes()))
}

/// Metadata of the tables the solver uses for `rules` (the given tables or
/// the nearest shipped ones), plus `distance` (0 for a preset's own rules).
#[pyfunction]
#[pyo3(signature = (rules=None, tables=None))]
fn solver_tables_info<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let r = rules.get();
    let owned = tables_arg(tables)?;
    let t: &Tables = match &owned {
        Some(t) => t,
        None => Tables::nearest(r),
    };
    let d = PyDict::new(py);
    for (k, v) in &t.meta {
        d.set_item(k, v)?;
    }
    d.set_item("distance", core::scoring_distance(r, t))?;
    d.set_item(
        "classes",
        t.rows.iter().map(|x| x.len()).collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// Duplicate tournament between strategies (names); returns a dict.
#[pyfunction]
#[pyo3(signature = (strategies, rules=None, *, seats=4, deals=2000, seed=0, tables=None))]
fn duplicate_tournament<'py>(
    py: Python<'py>,
    strategies: Vec<String>,
    rules: Option<&Bound<'py, PyAny>>,
    seats: usize,
    deals: usize,
    seed: u64,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let strats: Vec<Strategy> = strategies
        .iter()
        .map(|s| strategy_arg(s))
        .collect::<PyResult<_>>()?;
    let tables = tables_arg(tables)?;
    let rep = py.detach(|| {
        tournament::duplicate_tournament(&r, tables.as_ref(), &strats, seats, deals, seed)
    })?;
    let d = PyDict::new(py);
    d.set_item("strategies", strategies)?;
    d.set_item("seats", rep.seats)?;
    d.set_item("deals", rep.deals)?;
    d.set_item("patterns", rep.patterns)?;
    d.set_item("mean", rep.mean)?;
    d.set_item("ci95", rep.ci95)?;
    d.set_item("diff", rep.diff)?;
    d.set_item("diff_ci95", rep.diff_ci95)?;
    Ok(d)
}

/// Best-response check of the solver (heads-up); returns a dict.
#[pyfunction]
#[pyo3(signature = (rules=None, *, hands=100, opponents=1000, seed=0, tables=None))]
fn best_response_check<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    hands: usize,
    opponents: usize,
    seed: u64,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let r: Rules = rules.get().clone();
    let tables = tables_arg(tables)?;
    let rep =
        py.detach(|| tournament::best_response_check(&r, tables.as_ref(), hands, opponents, seed))?;
    let d = PyDict::new(py);
    d.set_item("opponents", rep.opponents)?;
    d.set_item("mean_regret", rep.mean_regret)?;
    d.set_item("regret_ci95", rep.regret_ci95)?;
    d.set_item("mean_holdout_regret", rep.mean_holdout_regret)?;
    d.set_item("holdout_ci95", rep.holdout_ci95)?;
    let per: Vec<(Vec<u32>, usize, f64, f64, f64, f64)> = rep
        .hands
        .iter()
        .map(|h| {
            (
                h.cards.iter().map(|&x| x as u32).collect(),
                h.arrangements,
                h.solver_points,
                h.best_points,
                h.regret,
                h.holdout_regret,
            )
        })
        .collect();
    d.set_item("hands", per)?;
    Ok(d)
}

/// The strategy names.
#[pyfunction]
fn solver_strategies() -> Vec<&'static str> {
    core::STRATEGY_NAMES.to_vec()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(best_arrangement, m)?)?;
    m.add_function(wrap_pyfunction!(rank_arrangements, m)?)?;
    m.add_function(wrap_pyfunction!(best_arrangement_batch, m)?)?;
    m.add_function(wrap_pyfunction!(train_tables, m)?)?;
    m.add_function(wrap_pyfunction!(solver_tables_info, m)?)?;
    m.add_function(wrap_pyfunction!(duplicate_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(best_response_check, m)?)?;
    m.add_function(wrap_pyfunction!(solver_strategies, m)?)?;
    Ok(())
}
