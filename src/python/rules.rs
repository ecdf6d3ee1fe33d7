//! `RuleSet`, the compiled rules (read knob by knob through the knob table),
//! `Knob` and `KNOBS`, the knob table for Python, and the `rules` argument
//! every entry point takes.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};
use std::sync::OnceLock;

use super::errors::err;
use crate::error::ErrorKind;
use crate::naturals::{Natural, NATURAL_NAMES};
use crate::rank::category_index;
use crate::rules::knobs::{Knob, KnobDefault, KnobType, KNOBS};
use crate::rules::{rule_choices, KnobValue, Rules};

/// The engine's compiled form of a rules value. `capsa.Rules` is a subclass:
/// every entry point takes a `RuleSet` (so any `capsa.Rules`) as is.
#[pyclass(frozen, subclass, module = "capsa._core")]
pub struct RuleSet {
    pub(crate) rules: Rules,
}

/// The value at a dotted path of a nested dict, or `None` when a table on
/// the way or the leaf is missing.
fn leaf<'py>(cfg: &Bound<'py, PyDict>, path: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    let mut cur: Bound<'py, PyAny> = cfg.clone().into_any();
    for part in path.split('.') {
        let d = cur.cast::<PyDict>().map_err(|_| {
            err(
                ErrorKind::Rules,
                format!("rules: {path} is not inside a table"),
            )
        })?;
        match d.get_item(part)? {
            Some(v) => cur = v,
            None => return Ok(None),
        }
    }
    Ok(Some(cur))
}

fn must_be(path: &str, what: &str) -> PyErr {
    err(ErrorKind::Rules, format!("rules: {path} must be {what}"))
}

fn read_int(v: &Bound<'_, PyAny>, path: &str) -> PyResult<i64> {
    if v.is_instance_of::<PyBool>() {
        return Err(must_be(path, "an integer"));
    }
    v.extract::<i64>().map_err(|_| must_be(path, "an integer"))
}

fn read_naturals(v: &Bound<'_, PyAny>, path: &str) -> PyResult<Vec<(Natural, i64)>> {
    let mut list = Vec::new();
    for item in v.try_iter()? {
        let item = item?;
        let d = item
            .cast::<PyDict>()
            .map_err(|_| must_be(path, "a list of {name, points} tables"))?;
        let name: String = leaf(d, "name")?
            .ok_or_else(|| must_be(path, "a list of {name, points} tables"))?
            .extract()
            .map_err(|_| must_be(&format!("{path}[].name"), "a string"))?;
        let n = Natural::from_name(&name).ok_or_else(|| {
            err(
                ErrorKind::Rules,
                format!("rules: {path} names unknown natural {name:?}"),
            )
        })?;
        let points =
            leaf(d, "points")?.ok_or_else(|| must_be(path, "a list of {name, points} tables"))?;
        list.push((n, read_int(&points, &format!("{path}[].points"))?));
    }
    Ok(list)
}

fn read_royalties(v: &Bound<'_, PyAny>, path: &str) -> PyResult<[i64; 10]> {
    let table = v.cast::<PyDict>().map_err(|_| must_be(path, "a table"))?;
    let mut row = [0i64; 10];
    for (k, v) in table.iter() {
        let cat: String = k.extract()?;
        let idx = category_index(&cat).ok_or_else(|| {
            err(
                ErrorKind::Rules,
                format!("rules: {path}.{cat} is not a category"),
            )
        })?;
        row[idx as usize] = read_int(&v, &format!("{path}.{cat}"))?;
    }
    Ok(row)
}

/// Reads one knob's value from Python by the table's type of it.
fn read_knob(knob: &Knob, v: &Bound<'_, PyAny>) -> PyResult<KnobValue> {
    let path = knob.name;
    Ok(match knob.kind {
        KnobType::Text | KnobType::SuitOrder | KnobType::Choice(_) => {
            KnobValue::Text(v.extract().map_err(|_| must_be(path, "a string"))?)
        }
        KnobType::Flag => {
            if !v.is_instance_of::<PyBool>() {
                return Err(must_be(path, "true or false"));
            }
            KnobValue::Flag(v.extract()?)
        }
        KnobType::Int { .. } => KnobValue::Int(read_int(v, path)?),
        KnobType::Naturals => KnobValue::Naturals(read_naturals(v, path)?),
        KnobType::Royalties(_) => KnobValue::Royalties(read_royalties(v, path)?),
    })
}

#[pymethods]
impl RuleSet {
    /// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives): every
    /// knob of the table but the optional ones, read by its type.
    #[new]
    fn py_new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        let mut rules = Rules::default();
        for knob in &KNOBS {
            let Some(v) = leaf(config, knob.name)? else {
                if knob.default == KnobDefault::Absent {
                    continue;
                }
                return Err(err(
                    ErrorKind::Rules,
                    format!("rules: missing key {}", knob.name),
                ));
            };
            let value = read_knob(knob, &v)?;
            rules
                .set_knob(knob.name, value)
                .map_err(|e| e.context("rules"))?;
        }
        rules.validate()?;
        Ok(RuleSet { rules })
    }
}

/// One knob of the rules: a row of the engine's knob table
/// (``capsa.rules.KNOBS``), which every reader of rules data checks
/// against and ``docs/rules.md`` is written from.
///
/// Raises nothing: the rows are the engine's, built when it loads.
#[pyclass(frozen, module = "capsa._core", name = "Knob")]
pub struct PyKnob {
    /// The dotted name, as rules files and ``rules["..."]`` spell it:
    /// ``"scoop.multiplier"``.
    #[pyo3(get)]
    name: &'static str,
    /// What values it takes: ``"text"``, ``"suit-order"``, ``"choice"``,
    /// ``"bool"``, ``"int"``, ``"naturals"`` or ``"royalties"``.
    #[pyo3(get, name = "type")]
    kind: &'static str,
    choices: Vec<&'static str>,
    /// The least value of an integer knob, else None.
    #[pyo3(get)]
    low: Option<i64>,
    /// The greatest value of an integer knob, else None.
    #[pyo3(get)]
    high: Option<i64>,
    row: &'static Knob,
    /// The sentence of the knob reference in docs/rules.md.
    #[pyo3(get)]
    doc: &'static str,
    /// Whether it changes how hands rank (and so what ``compare`` answers):
    /// ``tie_break``, ``suit_order``, ``flush_compare``, ``wheel``.
    #[pyo3(get)]
    ranking: bool,
    /// The key the solver tables' metadata writes the knob under, or None
    /// for a knob the tables are not trained per.
    #[pyo3(get)]
    tables_key: Option<&'static str>,
    /// Its weight in the distance that picks the nearest shipped tables for
    /// custom rules, or None.
    #[pyo3(get)]
    tables_weight: Option<f64>,
}

#[pymethods]
impl PyKnob {
    /// The names a choice takes, the categories a royalty row may name or
    /// the naturals a naturals list may name, in order; empty for the
    /// other types.
    #[getter]
    fn choices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.choices)
    }

    /// The value in the capsa-susun preset, as ``Rules.to_dict()`` writes
    /// it (a new copy each time); None for an optional knob the preset
    /// leaves out.
    #[getter]
    fn default(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        default_object(py, &self.row.default)
    }

    fn __repr__(&self) -> String {
        format!("Knob({:?}, {})", self.name, self.kind)
    }
}

fn default_object(py: Python<'_>, default: &KnobDefault) -> PyResult<Py<PyAny>> {
    Ok(match *default {
        KnobDefault::Absent => py.None(),
        KnobDefault::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
        KnobDefault::Flag(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        KnobDefault::Int(v) => v.into_pyobject(py)?.into_any().unbind(),
        KnobDefault::Naturals(list) => {
            let items = PyList::empty(py);
            for &(name, points) in list {
                let d = PyDict::new(py);
                d.set_item("name", name)?;
                d.set_item("points", points)?;
                items.append(d)?;
            }
            items.into_any().unbind()
        }
        KnobDefault::Royalties(row) => {
            let d = PyDict::new(py);
            for &(cat, points) in row {
                d.set_item(cat, points)?;
            }
            d.into_any().unbind()
        }
    })
}

fn py_knob(k: &'static Knob) -> PyKnob {
    let (kind, choices, low, high): (&str, Vec<&'static str>, _, _) = match k.kind {
        KnobType::Text => ("text", vec![], None, None),
        KnobType::SuitOrder => ("suit-order", vec![], None, None),
        KnobType::Choice(names) => ("choice", names.to_vec(), None, None),
        KnobType::Flag => ("bool", vec![], None, None),
        KnobType::Int { min, max } => ("int", vec![], Some(min), Some(max)),
        KnobType::Naturals => ("naturals", NATURAL_NAMES.to_vec(), None, None),
        KnobType::Royalties(cats) => ("royalties", cats.to_vec(), None, None),
    };
    PyKnob {
        name: k.name,
        kind,
        choices,
        low,
        high,
        row: k,
        ranking: k.ranking,
        doc: k.doc,
        tables_key: k.tables.map(|t| t.key),
        tables_weight: k.tables.map(|t| t.weight),
    }
}

/// The engine's built-in default rules (the capsa-susun preset).
pub(crate) fn default_rules() -> &'static Rules {
    static DEFAULT: OnceLock<Rules> = OnceLock::new();
    DEFAULT.get_or_init(Rules::default)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<RuleSet>()?;
    let choices = PyDict::new(py);
    for (knob, names) in rule_choices() {
        choices.set_item(knob, PyTuple::new(py, names)?)?;
    }
    m.add("RULE_CHOICES", choices)?;
    m.add_class::<PyKnob>()?;
    let knobs = KNOBS
        .iter()
        .map(|k| Bound::new(py, py_knob(k)))
        .collect::<PyResult<Vec<_>>>()?;
    m.add("KNOBS", PyTuple::new(py, knobs)?)?;
    Ok(())
}
