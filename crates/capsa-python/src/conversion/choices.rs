//! Readers of the arguments that choose: the rules, the stream's named
//! rules, the solver's tables, a strategy, an effort, a natural by name.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::super::rules::{default_rules, RuleSet};
use super::text::type_name;
use crate::errors::{err, py_err};
use capsa_core::error::ErrorKind;
use capsa_core::naturals::{Natural, NATURAL_NAMES};
use capsa_core::rules::Rules;
use capsa_core::solver::{Effort, Strategy, Tables};

/// The `rules` argument: None (the default preset) or a `RuleSet`, which
/// every `capsa.Rules` is.
pub(crate) enum RulesArg<'py> {
    Default,
    Set(Bound<'py, RuleSet>),
}

impl RulesArg<'_> {
    pub(crate) fn get(&self) -> &Rules {
        match self {
            RulesArg::Default => default_rules(),
            RulesArg::Set(s) => &s.get().rules,
        }
    }
}

/// A `rules` argument left out is the default preset.
impl Default for RulesArg<'_> {
    fn default() -> Self {
        RulesArg::Default
    }
}

/// The typed `rules` argument: an entry point takes `Option<RulesArg>`
/// (None: the default preset), read by [`read_rules`] as PyO3 extracts it.
impl<'a, 'py> FromPyObject<'a, 'py> for RulesArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        // PyO3 puts "argument 'rules': " before a TypeError it extracts
        read_rules(&obj.to_owned(), "")
    }
}

/// Rules inside another value (a record's, a reader's `rules`): None (the
/// default preset) or a `RuleSet`; anything else is a TypeError.
pub(crate) fn rules_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<RulesArg<'py>> {
    read_rules(obj, "rules ")
}

/// The one reader of rules: None or a `RuleSet`, else a TypeError whose
/// message starts with `named`.
fn read_rules<'py>(obj: &Bound<'py, PyAny>, named: &str) -> PyResult<RulesArg<'py>> {
    match obj.cast::<RuleSet>() {
        Ok(s) => Ok(RulesArg::Set(s.clone())),
        Err(_) if obj.is_none() => Ok(RulesArg::Default),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{named}must be a capsa.Rules or None, not {}",
            type_name(obj)
        ))),
    }
}

/// The `rules` argument of an entry point that plays the 52-card deck only:
/// rules of another deck are a `RulesError` naming `what` and the deck.
pub(crate) fn rules_arg_52<'py>(
    rules: Option<RulesArg<'py>>,
    what: &str,
) -> PyResult<RulesArg<'py>> {
    let arg = rules.unwrap_or_default();
    let deck = arg.get().deck;
    if !deck.is_standard() {
        return Err(err(
            ErrorKind::Rules,
            format!(
                "{what} plays the 52-card deck; these rules deal {}",
                deck.describe()
            ),
        ));
    }
    Ok(arg)
}

/// The `tables=` argument: a tables file's bytes, read, or None.
pub(crate) fn tables_arg(tables: Option<&Bound<'_, PyBytes>>) -> PyResult<Option<Tables>> {
    tables
        .map(|b| Tables::from_bytes(b.as_bytes()))
        .transpose()
        .map_err(py_err)
}

/// The `tables=` the solver plays with under `rules`: read, and trained
/// for the rules' ranking and deck ([`Tables::check_fits`]: a `RulesError`
/// naming the knob and both values otherwise).
pub(crate) fn tables_for(
    rules: &Rules,
    tables: Option<&Bound<'_, PyBytes>>,
) -> PyResult<Option<Tables>> {
    let Some(t) = tables_arg(tables)? else {
        return Ok(None);
    };
    t.check_fits(rules).map_err(py_err)?;
    Ok(Some(t))
}

/// A strategy named by `name` (one of `STRATEGY_NAMES`).
pub(crate) fn strategy_arg(name: &str) -> PyResult<Strategy> {
    Strategy::from_name(name).map_err(py_err)
}

/// An effort named by `name` (one of `EFFORT_NAMES`).
pub(crate) fn effort_arg(name: &str) -> PyResult<Effort> {
    Effort::from_name(name).map_err(py_err)
}

/// A natural named by `name` (one of `NATURAL_NAMES`).
pub(crate) fn natural_arg(name: &Bound<'_, PyAny>) -> PyResult<Natural> {
    let text = name.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "natural must be a natural's name (a str), not {}",
            type_name(name)
        ))
    })?;
    let text = text.to_str()?;
    Natural::from_name(text).ok_or_else(|| {
        err(
            ErrorKind::Argument,
            format!(
                "{text:?} is not a natural; the naturals are: {}",
                NATURAL_NAMES.join(", ")
            ),
        )
    })
}

/// The `rules` of the `capsa settle` stream: the rules it knows by name
/// (a dict of `RuleSet`), and the name rounds without one use.
pub(crate) struct NamedRules {
    named: Vec<(String, Rules)>,
    default: Option<String>,
}

impl NamedRules {
    pub(crate) fn read(rules: &Bound<'_, PyDict>, default: Option<String>) -> PyResult<Self> {
        let mut named = Vec::with_capacity(rules.len());
        for (k, v) in rules.iter() {
            let set = v
                .cast::<RuleSet>()
                .map_err(|_| PyTypeError::new_err("rules maps names to RuleSet values"))?;
            named.push((k.extract()?, set.get().rules.clone()));
        }
        Ok(NamedRules { named, default })
    }

    pub(crate) fn lookup(&self, name: Option<&str>) -> Result<&Rules, String> {
        let want = match (name, &self.default) {
            (Some(n), _) => n,
            (None, Some(d)) => d.as_str(),
            (None, None) => return Ok(default_rules()),
        };
        self.named
            .iter()
            .find(|(n, _)| n == want)
            .map(|(_, r)| r)
            .ok_or_else(|| {
                let names: Vec<&str> = self.named.iter().map(|(n, _)| n.as_str()).collect();
                format!("unknown rules {want:?}; known: {}", names.join(", "))
            })
    }
}
