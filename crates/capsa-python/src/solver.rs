//! Binding of the arranging solver and the measurement tools.

use std::sync::atomic::Ordering;
use std::time::Duration;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::conversion::cards::{card_rows, read_hand_of};
use super::conversion::choices::{effort_arg, strategy_arg, tables_arg, tables_for, RulesArg};
use super::conversion::numbers::{
    count_arg, int_in_range, seed_arg, solver_seats, table_seats_arg, train_hands, train_iterations,
};
use crate::errors::{err, py_err};
use capsa_core::auto_arrange::{self, AutoPolicy};
use capsa_core::batch;
use capsa_core::error::ErrorKind;
use capsa_core::rules::Rules;
use capsa_core::solver::{self as core, Choice, Effort, Strategy, Tables};
use capsa_core::tournament;

/// More choices than any hand has (72,072 splits, and a natural).
const MAX_CHOICES: i128 = 72_073;

type ChoiceTuple = (Vec<u32>, bool, f64);

fn tuple(c: &Choice) -> ChoiceTuple {
    (
        c.cards.iter().map(|&x| x as u32).collect(),
        c.declare_natural,
        c.expected_points,
    )
}

/// The best arrangement of 13 cards: (ids laid out top 0-2, middle 3-7,
/// bottom 8-12; declare the natural; estimated expected points). See
/// ``capsa.solver.best_arrangement``.
#[pyfunction]
#[pyo3(
    signature = (cards, rules=None, *, seats=None, strategy="solver", tables=None, effort="fast"),
    text_signature = "(cards, rules=None, *, seats=4, strategy='solver', tables=None, effort='fast')"
)]
fn best_arrangement(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    seats: Option<&Bound<'_, PyAny>>,
    strategy: &str,
    tables: Option<&Bound<'_, PyBytes>>,
    effort: &str,
) -> PyResult<ChoiceTuple> {
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = solver_seats(seats, &r.deck)?;
    let ids = read_hand_of(cards, &[13], "a 13-card hand", &r)?;
    let strategy = strategy_arg(strategy)?;
    let effort = effort_arg(effort)?;
    let tables = tables_for(&r, tables)?;
    py.detach(|| {
        let a = core::arranger(&r, tables.as_ref(), seats, strategy)?;
        a.choose_with(&ids, effort)
    })
    .map(|c| tuple(&c))
    .map_err(py_err)
}

// the core's `capsa_core::auto_arrange`
/// How a round's auto-arrange ``policy`` (``"solver"``, ``"greedy"`` or
/// ``"foul"``) arranges a seat that did not submit by the close, at a table
/// of ``seats``: (ids laid out top 0-2, middle 3-7, bottom 8-12; whether it
/// declares a natural its hand holds). ``ArgumentError`` for another policy.
#[pyfunction]
#[pyo3(signature = (cards, rules, seats, policy))]
fn auto_arrangement(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    seats: &Bound<'_, PyAny>,
    policy: &str,
) -> PyResult<(Vec<u32>, bool)> {
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = table_seats_arg(seats, &r.deck)?;
    let ids = read_hand_of(cards, &[13], "a 13-card hand", &r)?;
    let policy = AutoPolicy::from_name(policy).map_err(py_err)?;
    let choice = py
        .detach(|| auto_arrange::auto_arrangement(&r, &ids, seats, policy))
        .map_err(py_err)?;
    Ok((
        choice.cards.iter().map(|&x| u32::from(x)).collect(),
        choice.declare_natural,
    ))
}

/// The k best choices, best first, each (ids, declare_natural, expected
/// points). See ``capsa.solver.rank_arrangements``.
#[pyfunction]
#[pyo3(
    signature = (cards, rules=None, k=None, *, seats=None, tables=None, effort="fast"),
    text_signature = "(cards, rules=None, k=5, *, seats=4, tables=None, effort='fast')"
)]
fn rank_arrangements(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    k: Option<&Bound<'_, PyAny>>,
    seats: Option<&Bound<'_, PyAny>>,
    tables: Option<&Bound<'_, PyBytes>>,
    effort: &str,
) -> PyResult<Vec<ChoiceTuple>> {
    let k = match k {
        Some(k) => int_in_range(k, "k", 1, i128::MAX, ErrorKind::Argument)?,
        None => 5,
    };
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = solver_seats(seats, &r.deck)?;
    let ids = read_hand_of(cards, &[13], "a 13-card hand", &r)?;
    let effort = effort_arg(effort)?;
    // the deep mode's limit is checked on the k given, before the clamp below
    if effort == Effort::Deep && k > core::MAX_DEEP_CHOICES as i128 {
        return Err(err(
            ErrorKind::Argument,
            format!(
                "effort 'deep' ranks 1 to {} choices, got k = {k}",
                core::MAX_DEEP_CHOICES
            ),
        ));
    }
    // a hand has at most 72,072 splits (and a natural), so any larger k
    // asks for all of them
    let k = k.min(MAX_CHOICES) as usize;
    let tables = tables_for(&r, tables)?;
    py.detach(|| {
        let a = core::arranger(&r, tables.as_ref(), seats, Strategy::Solver)?;
        a.rank_with(&ids, k, effort)
    })
    .map(|v| v.iter().map(tuple).collect())
    .map_err(py_err)
}

/// Best arrangements of N hands ((N, 13) ids) on all cores: uint8 (N, 13),
/// each row laid out top 0-2, middle 3-7, bottom 8-12. See
/// ``capsa.solver.best_arrangement_batch``.
#[pyfunction]
#[pyo3(
    signature = (ids, rules=None, *, seats=None, strategy="solver", tables=None, effort="fast"),
    text_signature = "(ids, rules=None, *, seats=4, strategy='solver', tables=None, effort='fast')"
)]
#[allow(clippy::too_many_arguments)]
fn best_arrangement_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
    seats: Option<&Bound<'py, PyAny>>,
    strategy: &str,
    tables: Option<&Bound<'py, PyBytes>>,
    effort: &str,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = solver_seats(seats, &r.deck)?;
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let strategy = strategy_arg(strategy)?;
    let effort = effort_arg(effort)?;
    let tables = tables_for(&r, tables)?;
    let rows = py
        .detach(|| {
            let a = core::arranger(&r, tables.as_ref(), seats, strategy)?;
            batch::best_arrangements(&a, data, effort)
        })
        .map_err(py_err)?;
    let n = rows.len();
    let flat: Vec<u8> = rows.into_iter().flatten().collect();
    let out =
        Array2::from_shape_vec((n, 13), flat).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(out.into_pyarray(py))
}

/// How often a training's progress is reported to its callback.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Trains on a thread of its own while this one (holding no GIL between
/// reports) calls `report(done, total)` as the deals arranged grow, and
/// checks for signals: an exception from either stops the training and is
/// raised.
fn train_reporting(
    r: &Rules,
    cfg: &core::TrainConfig,
    report: &Py<PyAny>,
) -> PyResult<core::Tables> {
    let progress = core::TrainProgress::default();
    let total = core::train_deals(r, cfg);
    let mut failed: Option<PyErr> = None;
    let mut shown = usize::MAX;
    let mut tell = |done: usize, failed: &mut Option<PyErr>| {
        if done == shown || failed.is_some() {
            return;
        }
        shown = done;
        let said = Python::attach(|py| {
            py.check_signals()?;
            report.call1(py, (done, total)).map(drop)
        });
        if let Err(e) = said {
            progress.stop.store(true, Ordering::Relaxed);
            *failed = Some(e);
        }
    };
    let trained = std::thread::scope(|scope| {
        let worker = scope.spawn(|| core::train_with(r, cfg, &progress));
        tell(0, &mut failed);
        while !worker.is_finished() {
            std::thread::sleep(PROGRESS_EVERY);
            tell(progress.done.load(Ordering::Relaxed), &mut failed);
        }
        worker.join()
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let tables = trained
        .map_err(|_| PyValueError::new_err("the training thread panicked"))?
        .map_err(py_err)?;
    tell(progress.done.load(Ordering::Relaxed), &mut failed);
    match failed {
        Some(e) => Err(e),
        None => Ok(tables),
    }
}

/// Trains per-row tables for the rules by iterated best response; returns
/// the tables file's bytes. Every parameter but ``progress`` is required:
/// the defaults are ``TRAIN_DEFAULTS``, applied by
/// ``capsa.solver.train_tables``. ``progress(done, total)`` is called as
/// deals are arranged.
#[pyfunction]
#[pyo3(signature = (rules, *, seats, hands, iterations, seed, name, progress=None))]
#[allow(clippy::too_many_arguments)]
fn train_tables<'py>(
    py: Python<'py>,
    rules: Option<RulesArg<'py>>,
    seats: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = train_hands)] hands: usize,
    #[pyo3(from_py_with = train_iterations)] iterations: usize,
    #[pyo3(from_py_with = seed_arg)] seed: u64,
    name: &str,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = solver_seats(Some(seats), &r.deck)?;
    let cfg = core::TrainConfig {
        hands,
        iterations,
        seed,
        seats,
        name: name.to_string(),
    };
    cfg.validate(&r).map_err(py_err)?;
    let t = match progress {
        None => py.detach(|| core::train(&r, &cfg)).map_err(py_err)?,
        Some(report) => {
            if !report.bind(py).is_callable() {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "progress is a callable (done, total) or None",
                ));
            }
            py.detach(|| train_reporting(&r, &cfg, &report))?
        }
    };
    Ok(PyBytes::new(py, &t.to_bytes()))
}

/// Metadata of the tables the solver uses for ``rules`` (the given tables or
/// the nearest shipped ones), plus ``distance`` (0 for a preset's own rules).
/// See ``capsa.solver.tables_info``.
#[pyfunction]
#[pyo3(signature = (rules=None, tables=None))]
fn solver_tables_info<'py>(
    py: Python<'py>,
    rules: Option<RulesArg<'py>>,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules.unwrap_or_default();
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
    d.set_item("joint", t.joint.as_ref().map(|j| j.bins))?;
    Ok(d)
}

/// Duplicate tournament between strategies (names); returns a dict. See
/// ``capsa.solver.duplicate_tournament``.
#[pyfunction]
#[pyo3(
    signature = (strategies, rules=None, *, seats=None, deals=None, seed=None, tables=None),
    text_signature = "(strategies, rules=None, *, seats=4, deals=2000, seed=0, tables=None)"
)]
#[allow(clippy::too_many_arguments)]
fn duplicate_tournament<'py>(
    py: Python<'py>,
    strategies: Vec<String>,
    rules: Option<RulesArg<'py>>,
    seats: Option<&Bound<'py, PyAny>>,
    deals: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let seats = solver_seats(seats, &r.deck)?;
    let deals = deals.map_or(Ok(2000), |d| count_arg(d, "deals"))?;
    let seed = seed.map_or(Ok(0), seed_arg)?;
    let strats: Vec<Strategy> = strategies
        .iter()
        .map(|s| strategy_arg(s))
        .collect::<PyResult<_>>()?;
    let tables = tables_for(&r, tables)?;
    let rep = py
        .detach(|| {
            tournament::duplicate_tournament(&r, tables.as_ref(), &strats, seats, deals, seed)
        })
        .map_err(py_err)?;
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

/// Best-response check of a strategy at an effort against opponents of a
/// strategy (heads-up); returns a dict. See
/// ``capsa.solver.best_response_check``.
#[pyfunction]
#[pyo3(
    signature = (
        rules=None, *, hands=None, opponents=None, seed=None, tables=None,
        strategy="solver", effort="fast", opponents_strategy="solver"
    ),
    text_signature = "(rules=None, *, hands=100, opponents=1000, seed=0, tables=None, \
                      strategy='solver', effort='fast', opponents_strategy='solver')"
)]
#[allow(clippy::too_many_arguments)]
fn best_response_check<'py>(
    py: Python<'py>,
    rules: Option<RulesArg<'py>>,
    hands: Option<&Bound<'py, PyAny>>,
    opponents: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyBytes>>,
    strategy: &str,
    effort: &str,
    opponents_strategy: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let hands = hands.map_or(Ok(100), |h| count_arg(h, "hands"))?;
    let opponents = opponents.map_or(Ok(1000), |o| count_arg(o, "opponents"))?;
    let seed = seed.map_or(Ok(0), seed_arg)?;
    let rules = rules.unwrap_or_default();
    let r: Rules = rules.get().clone();
    let cfg = core::CheckConfig {
        strategy: strategy_arg(strategy)?,
        effort: effort_arg(effort)?,
        opponents: strategy_arg(opponents_strategy)?,
    };
    let tables = tables_for(&r, tables)?;
    let rep = py
        .detach(|| core::best_response_check(&r, tables.as_ref(), hands, opponents, seed, &cfg))
        .map_err(py_err)?;
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

/// The strategy names (``capsa.solver.STRATEGIES``).
#[pyfunction]
fn solver_strategies() -> Vec<&'static str> {
    core::STRATEGY_NAMES.to_vec()
}

/// The effort names (``capsa.solver.EFFORTS``).
#[pyfunction]
fn solver_efforts() -> Vec<&'static str> {
    core::EFFORT_NAMES.to_vec()
}

/// The bytes of a preset's shipped tables file (embedded in the engine), or
/// None for a name that ships none.
#[pyfunction]
fn shipped_tables<'py>(py: Python<'py>, name: &str) -> Option<Bound<'py, PyBytes>> {
    core::shipped_bytes(name).map(|bytes| PyBytes::new(py, bytes))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shipped_tables, m)?)?;
    m.add_function(wrap_pyfunction!(best_arrangement, m)?)?;
    m.add_function(wrap_pyfunction!(auto_arrangement, m)?)?;
    m.add_function(wrap_pyfunction!(rank_arrangements, m)?)?;
    m.add_function(wrap_pyfunction!(best_arrangement_batch, m)?)?;
    m.add_function(wrap_pyfunction!(train_tables, m)?)?;
    m.add("TRAINER_VERSION", core::TRAINER_VERSION)?;
    let defaults = PyDict::new(m.py());
    defaults.set_item("seats", core::DEFAULT_TRAIN_SEATS)?;
    defaults.set_item("hands", core::DEFAULT_TRAIN_HANDS)?;
    defaults.set_item("iterations", core::DEFAULT_TRAIN_ITERATIONS)?;
    defaults.set_item("seed", core::DEFAULT_TRAIN_SEED)?;
    m.add("TRAIN_DEFAULTS", defaults)?;
    m.add_function(wrap_pyfunction!(solver_tables_info, m)?)?;
    m.add_function(wrap_pyfunction!(duplicate_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(best_response_check, m)?)?;
    m.add_function(wrap_pyfunction!(solver_strategies, m)?)?;
    m.add_function(wrap_pyfunction!(solver_efforts, m)?)?;
    m.add("MAX_DEEP_CHOICES", core::MAX_DEEP_CHOICES)?;
    Ok(())
}
