//! The reader of a rules dict (as `capsa.Rules.to_dict()` gives), knob by
//! knob through the engine's knob table.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};

use crate::errors::{err, py_err};
use capsa_core::cards::rank_of_letter;
use capsa_core::error::ErrorKind;
use capsa_core::naturals::{Natural, NATURAL_NAMES};
use capsa_core::rank::category_index;
use capsa_core::rules::knobs::{Knob, KnobType, KNOBS};
use capsa_core::rules::{
    check_naturals, KnobValue, NaturalEntry, RaisedBy, RankedRow, RuleChoice, Rules,
};

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
        return Err(got(path, "an integer", v));
    }
    v.extract::<i64>()
        .map_err(|_| got(path, "an integer of 64 bits", v))
}

fn read_flag(v: &Bound<'_, PyAny>, path: &str) -> PyResult<bool> {
    if !v.is_instance_of::<PyBool>() {
        return Err(got(path, "true or false", v));
    }
    v.extract()
}

fn read_rank(v: &Bound<'_, PyAny>, path: &str) -> PyResult<u8> {
    v.extract::<String>()
        .ok()
        .and_then(|text| rank_of_letter(&text))
        .ok_or_else(|| got(path, "a rank letter 2..9, T, J, Q, K or A", v))
}

/// A value as an error message shows it: its repr, cut short.
fn shown(v: &Bound<'_, PyAny>) -> String {
    let text = v
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

fn got(path: &str, what: &str, v: &Bound<'_, PyAny>) -> PyErr {
    must_be(path, &format!("{what}, got {}", shown(v)))
}

fn rules_err(e: capsa_core::error::Error) -> PyErr {
    py_err(e.context("rules"))
}

/// One entry of `naturals.enabled`, the one at `index`: its fields read by
/// their types, a field of another natural refused whenever it is given,
/// and the entry checked by the engine ([`NaturalEntry::check`]).
fn read_entry(item: &Bound<'_, PyAny>, index: usize) -> PyResult<NaturalEntry> {
    let path = format!("naturals.enabled[{index}]");
    let d = item
        .cast::<PyDict>()
        .ok()
        .filter(|d| d.contains("name").unwrap_or(false) && d.contains("points").unwrap_or(false))
        .ok_or_else(|| got(&path, "a table with name, points and optional fields", item))?;
    let name_value = d.get_item("name")?.expect("checked above");
    let natural = name_value
        .extract::<String>()
        .ok()
        .and_then(|name| Natural::from_name(&name))
        .ok_or_else(|| {
            err(
                ErrorKind::Rules,
                format!(
                    "rules: {path}.name {} is not a natural; the naturals are: {}",
                    shown(&name_value),
                    NATURAL_NAMES.join(", ")
                ),
            )
        })?;
    let points = d.get_item("points")?.expect("checked above");
    let mut entry = NaturalEntry::new(natural, read_int(&points, &format!("{path}.points"))?);
    let (mut raised_points, mut raised_by) = (None, None);
    for (k, v) in d.iter() {
        let field = k.extract::<String>().ok();
        let Some(field) = field
            .filter(|f| f == "name" || f == "points" || NaturalEntry::FIELDS.contains(&f.as_str()))
        else {
            return Err(err(
                ErrorKind::Rules,
                format!(
                    "rules: {path} ({}): {} is not a field of an entry; the fields are: name, points, {}",
                    natural.name(),
                    shown(&k),
                    NaturalEntry::FIELDS.join(", ")
                ),
            ));
        };
        if let Some(fault) = NaturalEntry::given_fault(index, natural, &field) {
            return Err(rules_err(fault));
        }
        let at = format!("{path}.{field}");
        match field.as_str() {
            "lowest" => entry.lowest = read_rank(&v, &at)?,
            "highest" => entry.highest = read_rank(&v, &at)?,
            "count" => {
                let count = read_int(&v, &at)?;
                if let Some(fault) = NaturalEntry::count_fault(index, count) {
                    return Err(rules_err(fault));
                }
                entry.count = count as u8;
            }
            "exactly" => entry.exactly = read_flag(&v, &at)?,
            "same_tier" => entry.same_tier = read_flag(&v, &at)?,
            "must_declare" => entry.must_declare = read_flag(&v, &at)?,
            "bonus" => entry.bonus = read_flag(&v, &at)?,
            "raised_points" => raised_points = Some(read_int(&v, &at)?),
            "raised_by" => raised_by = Some(read_raised_by(&v, &at)?),
            _ => {}
        }
    }
    entry.raised = raised(&path, raised_points, raised_by)?;
    entry.check(index).map_err(rules_err)?;
    Ok(entry)
}

/// An entry's `raised_by`: one of the names of `RaisedBy`.
fn read_raised_by(v: &Bound<'_, PyAny>, at: &str) -> PyResult<RaisedBy> {
    let by = v.extract::<String>().ok().and_then(|t| t.parse().ok());
    let names = RaisedBy::NAMES
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
    by.ok_or_else(|| got(at, &format!("one of {names}"), v))
}

/// An entry's raised points: `raised_points` and `raised_by` both or neither.
fn raised(
    path: &str,
    points: Option<i64>,
    by: Option<RaisedBy>,
) -> PyResult<Option<(i64, RaisedBy)>> {
    match (points, by) {
        (Some(p), Some(by)) => Ok(Some((p, by))),
        (None, None) => Ok(None),
        (Some(_), None) | (None, Some(_)) => {
            let (given, missing) = if points.is_some() {
                ("raised_points", "raised_by")
            } else {
                ("raised_by", "raised_points")
            };
            Err(err(
                ErrorKind::Rules,
                format!("rules: {path}.{given} is given without {missing}; give both or neither"),
            ))
        }
    }
}

/// `naturals.enabled`: a list (or tuple) of entries, each read and checked,
/// no natural listed twice.
pub(crate) fn read_naturals(v: &Bound<'_, PyAny>) -> PyResult<Vec<NaturalEntry>> {
    if !(v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>()) {
        return Err(got(
            "naturals.enabled",
            "a list of {name, points} tables",
            v,
        ));
    }
    let mut list = Vec::new();
    for (index, item) in v.try_iter()?.enumerate() {
        list.push(read_entry(&item?, index)?);
    }
    check_naturals(&list).map_err(rules_err)?;
    Ok(list)
}

fn read_ranked(v: &Bound<'_, PyAny>, path: &str) -> PyResult<RankedRow> {
    let table = v.cast::<PyDict>().map_err(|_| must_be(path, "a table"))?;
    let mut row: RankedRow = [[None; 13]; 10];
    for (k, ranks) in table.iter() {
        let cat: String = k.extract()?;
        let idx = category_index(&cat).ok_or_else(|| {
            err(
                ErrorKind::Rules,
                format!("rules: {path}.{cat} is not a category"),
            )
        })?;
        let ranks = ranks
            .cast::<PyDict>()
            .map_err(|_| must_be(&format!("{path}.{cat}"), "a table of rank = points"))?;
        for (r, points) in ranks.iter() {
            let at = format!("{path}.{cat}");
            let rank = read_rank(&r, &at)?;
            row[idx as usize][rank as usize] = Some(read_int(&points, &at)?);
        }
    }
    Ok(row)
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
        KnobType::Text | KnobType::SuitOrder | KnobType::Choice(_) | KnobType::Card => {
            KnobValue::Text(v.extract().map_err(|_| must_be(path, "a string"))?)
        }
        KnobType::Flag => KnobValue::Flag(read_flag(v, path)?),
        KnobType::Int { .. } => KnobValue::Int(read_int(v, path)?),
        KnobType::Naturals => KnobValue::Naturals(read_naturals(v)?),
        KnobType::Royalties(_) => KnobValue::Royalties(read_royalties(v, path)?),
        KnobType::RoyaltiesByRank(_) => KnobValue::RoyaltiesByRank(Box::new(read_ranked(v, path)?)),
    })
}

/// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives): every
/// knob of the table but the optional ones, read by its type, and the
/// rules validated.
pub(crate) fn rules_from_dict(config: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let mut rules = Rules::default();
    for knob in KNOBS {
        let Some(v) = leaf(config, knob.name)? else {
            if !knob.required {
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
            .map_err(|e| e.context("rules"))
            .map_err(py_err)?;
    }
    rules.validate().map_err(py_err)?;
    Ok(rules)
}
