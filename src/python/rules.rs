//! `RuleSet`, the compiled rules, and the `rules` argument every entry point
//! takes.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};
use std::sync::OnceLock;

use super::args::type_name;
use super::errors::err;
use crate::error::ErrorKind;
use crate::naturals::Natural;
use crate::rank::{category_index, parse_suit_order, Evaluator, Ranking};
use crate::rules::{FlushCompare, FoulCheck, RuleChoice, Rules, TieBreak, Wheel, RULE_CHOICES};

/// The engine's compiled form of a rules value. `capsa.Rules` is a subclass:
/// every entry point takes a `RuleSet` (so any `capsa.Rules`) as is.
#[pyclass(frozen, subclass, module = "capsa._core")]
pub struct RuleSet {
    pub(crate) rules: Rules,
}

fn key<'py>(cfg: &Bound<'py, PyDict>, path: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut cur: Bound<'py, PyAny> = cfg.clone().into_any();
    for part in path.split('.') {
        let d = cur.cast::<PyDict>().map_err(|_| {
            err(
                ErrorKind::Rules,
                format!("rules: {path} is not inside a table"),
            )
        })?;
        cur = d
            .get_item(part)?
            .ok_or_else(|| err(ErrorKind::Rules, format!("rules: missing key {path}")))?;
    }
    Ok(cur)
}

fn key_str(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<String> {
    key(cfg, path)?
        .extract::<String>()
        .map_err(|_| err(ErrorKind::Rules, format!("rules: {path} must be a string")))
}

fn key_int(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<i64> {
    let v = key(cfg, path)?;
    if v.is_instance_of::<PyBool>() {
        return Err(err(
            ErrorKind::Rules,
            format!("rules: {path} must be an integer"),
        ));
    }
    v.extract::<i64>().map_err(|_| {
        err(
            ErrorKind::Rules,
            format!("rules: {path} must be an integer"),
        )
    })
}

fn key_bool(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<bool> {
    let v = key(cfg, path)?;
    if !v.is_instance_of::<PyBool>() {
        return Err(err(
            ErrorKind::Rules,
            format!("rules: {path} must be true or false"),
        ));
    }
    v.extract::<bool>()
}

/// A number of players: an integer >= 0; its range is checked by
/// `Rules::validate`, so never clamped here.
fn key_players(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<usize> {
    let v = key_int(cfg, path)?;
    usize::try_from(v).map_err(|_| {
        err(
            ErrorKind::Rules,
            format!("rules: {path} is a number of players, got {v}"),
        )
    })
}

/// The value of a named-choice knob, read from its rules-file key.
fn choice<T: RuleChoice>(cfg: &Bound<'_, PyDict>) -> PyResult<T> {
    Ok(key_str(cfg, T::KEY)?
        .parse::<T>()
        .map_err(|e| e.context("rules"))?)
}

#[pymethods]
impl RuleSet {
    /// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives).
    #[new]
    fn py_new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        let ranking = Ranking {
            suit_strength: parse_suit_order(&key_str(config, "suit_order")?)?,
            tie_break_suit: choice::<TieBreak>(config)?.flag(),
            flush_suit_first: choice::<FlushCompare>(config)?.flag(),
            wheel_second: choice::<Wheel>(config)?.flag(),
        };
        let mut royalties = [[0i64; 10]; 3];
        for (row, name) in ["top", "middle", "bottom"].iter().enumerate() {
            let table = key(config, &format!("royalties.{name}"))?;
            let table = table.cast::<PyDict>().map_err(|_| {
                err(
                    ErrorKind::Rules,
                    format!("rules: royalties.{name} must be a table"),
                )
            })?;
            for (k, v) in table.iter() {
                let cat: String = k.extract()?;
                let idx = category_index(&cat).ok_or_else(|| {
                    err(
                        ErrorKind::Rules,
                        format!("rules: royalties.{name}.{cat} is not a category"),
                    )
                })?;
                royalties[row][idx as usize] = v.extract::<i64>().map_err(|_| {
                    err(
                        ErrorKind::Rules,
                        format!("rules: royalties.{name}.{cat} must be an integer"),
                    )
                })?;
            }
        }
        let mut natural_list = Vec::new();
        let enabled = key(config, "naturals.enabled")?;
        for item in enabled.try_iter()? {
            let item = item?;
            let d = item.cast::<PyDict>().map_err(|_| {
                err(
                    ErrorKind::Rules,
                    "rules: naturals.enabled holds {name, points} tables",
                )
            })?;
            let name = key_str(d, "name")?;
            let n = Natural::from_name(&name).ok_or_else(|| {
                err(
                    ErrorKind::Rules,
                    format!("rules: naturals.enabled names unknown natural {name:?}"),
                )
            })?;
            natural_list.push((n, key_int(d, "points")?));
        }
        let rules = Rules {
            evaluator: Evaluator::new(ranking),
            foul_strict: choice::<FoulCheck>(config)?.flag(),
            row_points: key_int(config, "row_points")?,
            overall_point: key_int(config, "overall_point")?,
            royalty_mode: choice(config)?,
            royalty_adds: key_bool(config, "royalty_adds")?,
            scoop_multiplier: key_int(config, "scoop.multiplier")?,
            scoop_bonus: key_int(config, "scoop.bonus")?,
            scoop_multiply_royalties: key_bool(config, "scoop.multiply_royalties")?,
            sweep_all_multiplier: key_int(config, "sweep_all.multiplier")?,
            sweep_all_bonus: key_int(config, "sweep_all.bonus")?,
            sweep_all_min_players: key_players(config, "sweep_all.min_players")?,
            foul_mode: choice(config)?,
            foul_points: key_int(config, "foul.points")?,
            foul_pays_royalties: key_bool(config, "foul.pays_royalties")?,
            surrender_enabled: key_bool(config, "surrender.enabled")?,
            surrender_cost: key_int(config, "surrender.cost")?,
            naturals: natural_list,
            natural_resolve: choice(config)?,
            natural_ties: choice(config)?,
            royalties,
            stake: key_int(config, "money.stake")?,
            rake_percent: key_int(config, "money.rake_percent")?,
        };
        rules.validate()?;
        Ok(RuleSet { rules })
    }
}

/// The engine's built-in default rules (the capsa-susun preset).
pub(crate) fn default_rules() -> &'static Rules {
    static DEFAULT: OnceLock<Rules> = OnceLock::new();
    DEFAULT.get_or_init(Rules::default)
}

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

/// Resolves the `rules` argument; anything but None or a `RuleSet` is a
/// TypeError.
pub(crate) fn rules_arg<'py>(rules: Option<&Bound<'py, PyAny>>) -> PyResult<RulesArg<'py>> {
    let Some(obj) = rules else {
        return Ok(RulesArg::Default);
    };
    if obj.is_none() {
        return Ok(RulesArg::Default);
    }
    match obj.cast::<RuleSet>() {
        Ok(s) => Ok(RulesArg::Set(s.clone())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "rules must be a capsa.Rules or None, not {}",
            type_name(obj)
        ))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<RuleSet>()?;
    let rule_choices = PyDict::new(py);
    for (knob, names) in RULE_CHOICES {
        rule_choices.set_item(knob, PyTuple::new(py, names)?)?;
    }
    m.add("RULE_CHOICES", rule_choices)?;
    Ok(())
}
