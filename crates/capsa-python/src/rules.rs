//! `RuleSet`, the compiled rules (read knob by knob through the knob table
//! by `conversion::knobs`), and `Knob` and `KNOBS`, the knob table for
//! Python.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};
use std::sync::OnceLock;

use super::conversion::knobs::{read_naturals, rules_from_dict};
use capsa_core::cards::RANK_CHARS;
use capsa_core::naturals::NATURAL_NAMES;
use capsa_core::presets;
use capsa_core::rules::knobs::{Knob, KnobDefault, KnobType, KNOBS};
use capsa_core::rules::{rule_choices, NaturalEntry, Rules};

/// The engine's compiled form of a rules value.
///
/// ``capsa.Rules`` is a subclass: every ``rules`` argument is ``None`` (the
/// default preset) or a ``RuleSet``, so any ``capsa.Rules``; anything else is
/// a ``TypeError``. ``RuleSet(config)`` compiles a full rules dict (as
/// ``capsa.Rules.to_dict()`` gives): every knob but the optional ones, each
/// read by its type.
///
/// Raises ``RulesError`` naming the key for a missing or bad one.
#[pyclass(frozen, subclass, module = "capsa._core")]
pub struct RuleSet {
    pub(crate) rules: Rules,
}

#[pymethods]
impl RuleSet {
    /// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives): every
    /// knob of the table but the optional ones, read by its type.
    #[new]
    fn py_new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        Ok(RuleSet {
            rules: rules_from_dict(config)?,
        })
    }
}

/// ``naturals.enabled`` read and checked by the engine, as rules data
/// writes it: each entry's name, points and the optional fields away from
/// their defaults, in order (rank letters as ``"T"``).
///
/// Raises ``RulesError`` naming the entry and the field for every fault of
/// the list.
#[pyfunction]
fn natural_entries<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = value.py();
    let out = PyList::empty(py);
    for entry in read_naturals(value)? {
        let d = PyDict::new(py);
        d.set_item("name", entry.natural.name())?;
        d.set_item("points", entry.points)?;
        let plain = NaturalEntry::new(entry.natural, entry.points);
        let letter = |rank: u8| char::from(RANK_CHARS[rank as usize]).to_string();
        if entry.lowest != plain.lowest {
            d.set_item("lowest", letter(entry.lowest))?;
        }
        if entry.highest != plain.highest {
            d.set_item("highest", letter(entry.highest))?;
        }
        if entry.count != plain.count {
            d.set_item("count", entry.count)?;
        }
        if entry.exactly {
            d.set_item("exactly", true)?;
        }
        if entry.same_tier {
            d.set_item("same_tier", true)?;
        }
        if let Some((points, by)) = entry.raised {
            d.set_item("raised_points", points)?;
            d.set_item("raised_by", by.to_string())?;
        }
        if entry.must_declare {
            d.set_item("must_declare", true)?;
        }
        if entry.bonus {
            d.set_item("bonus", true)?;
        }
        out.append(d)?;
    }
    Ok(out)
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
    /// ``"bool"``, ``"int"``, ``"naturals"``, ``"royalties"``,
    /// ``"royalties-by-rank"`` or ``"card"``.
    #[pyo3(get, name = "type")]
    kind: &'static str,
    choices: Vec<&'static str>,
    /// The least value of an integer knob, else None.
    #[pyo3(get)]
    low: Option<i64>,
    /// The greatest value of an integer knob, the most bytes of UTF-8 of a
    /// text knob, else None.
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
    /// Whether rules data in full must give it; a knob that need not reads
    /// as its default when left out, and ``Rules.to_dict()`` leaves it out
    /// at its default.
    #[pyo3(get)]
    required: bool,
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

    /// Why ``value`` is out of the knob's range (``"must be >= 0"``,
    /// ``"must be in 2..5"``): an integer knob's, or a royalty's points; None
    /// when it is in range or the knob holds no integers. The engine's own
    /// check, which rules data is checked by as it is read. Raises nothing
    /// (``TypeError`` for a value that is not an int).
    fn fault(&self, value: i128) -> Option<String> {
        self.row.int_fault(value)
    }

    /// Why a royalty row may not name ``category`` (``"is not a category
    /// of that row; the categories are: ..."``), or None. Raises nothing
    /// (``TypeError`` for a category that is not a str).
    fn category_fault(&self, category: &str) -> Option<String> {
        self.row.category_fault(category)
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
        KnobDefault::NoRankedRoyalties => PyDict::new(py).into_any().unbind(),
    })
}

fn py_knob(k: &'static Knob) -> PyKnob {
    let (kind, choices, low, high): (&str, Vec<&'static str>, _, _) = match k.kind {
        KnobType::Text => {
            let most = capsa_core::texts::rules_text_bound(k.name).map(|b| b as i64);
            ("text", vec![], None, most)
        }
        KnobType::SuitOrder => ("suit-order", vec![], None, None),
        KnobType::Choice(names) => ("choice", names.to_vec(), None, None),
        KnobType::Flag => ("bool", vec![], None, None),
        KnobType::Int { min, max } => ("int", vec![], Some(min), Some(max)),
        KnobType::Naturals => ("naturals", NATURAL_NAMES.to_vec(), None, None),
        KnobType::Royalties(cats) => ("royalties", cats.to_vec(), None, None),
        KnobType::RoyaltiesByRank(cats) => ("royalties-by-rank", cats.to_vec(), None, None),
        KnobType::Card => ("card", vec![], None, None),
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
        required: k.required,
    }
}

/// The engine's built-in default rules (the capsa-susun preset).
pub(crate) fn default_rules() -> &'static Rules {
    static DEFAULT: OnceLock<Rules> = OnceLock::new();
    DEFAULT.get_or_init(Rules::default)
}

/// The TOML text of a shipped preset (the engine's own data), or None for a
/// name that is not one.
#[pyfunction]
fn preset_text(name: &str) -> Option<&'static str> {
    presets::text(name)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<RuleSet>()?;
    m.add(
        "PRESETS",
        PyTuple::new(py, presets::names().collect::<Vec<_>>())?,
    )?;
    m.add("DEFAULT_PRESET", presets::DEFAULT_PRESET)?;
    m.add_function(wrap_pyfunction!(preset_text, m)?)?;
    m.add_function(wrap_pyfunction!(natural_entries, m)?)?;
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
