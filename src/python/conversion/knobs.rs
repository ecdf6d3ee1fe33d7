//! The reader of a rules dict (as `capsa.Rules.to_dict()` gives), knob by
//! knob through the engine's knob table.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use super::super::errors::err;
use crate::error::ErrorKind;
use crate::naturals::Natural;
use crate::rank::category_index;
use crate::rules::knobs::{rank_of_letter, Knob, KnobType, KNOBS};
use crate::rules::{KnobValue, NaturalEntry, RankedRow, Rules};

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

fn read_flag(v: &Bound<'_, PyAny>, path: &str) -> PyResult<bool> {
    if !v.is_instance_of::<PyBool>() {
        return Err(must_be(path, "true or false"));
    }
    v.extract()
}

fn read_rank(v: &Bound<'_, PyAny>, path: &str) -> PyResult<u8> {
    let text: String = v.extract().map_err(|_| must_be(path, "a rank letter"))?;
    rank_of_letter(&text).ok_or_else(|| must_be(path, "a rank letter 2..9, T, J, Q, K or A"))
}

fn read_small(v: &Bound<'_, PyAny>, path: &str) -> PyResult<u8> {
    let n = read_int(v, path)?;
    u8::try_from(n).map_err(|_| must_be(path, "12 or 13"))
}

fn read_entry(d: &Bound<'_, PyDict>, path: &str) -> PyResult<NaturalEntry> {
    let shape = || must_be(path, "a list of {name, points, ...} tables");
    let name: String = leaf(d, "name")?
        .ok_or_else(shape)?
        .extract()
        .map_err(|_| must_be(&format!("{path}[].name"), "a string"))?;
    let n = Natural::from_name(&name).ok_or_else(|| {
        err(
            ErrorKind::Rules,
            format!("rules: {path} names unknown natural {name:?}"),
        )
    })?;
    let points = leaf(d, "points")?.ok_or_else(shape)?;
    let mut entry = NaturalEntry::new(n, read_int(&points, &format!("{path}[].points"))?);
    let (mut raised_points, mut raised_by) = (None, None);
    for (k, v) in d.iter() {
        let field: String = k.extract().map_err(|_| shape())?;
        let at = format!("{path}[].{field}");
        match field.as_str() {
            "name" | "points" => {}
            "lowest" => entry.lowest = read_rank(&v, &at)?,
            "highest" => entry.highest = read_rank(&v, &at)?,
            "count" => entry.count = read_small(&v, &at)?,
            "exactly" => entry.exactly = read_flag(&v, &at)?,
            "same_tier" => entry.same_tier = read_flag(&v, &at)?,
            "must_declare" => entry.must_declare = read_flag(&v, &at)?,
            "bonus" => entry.bonus = read_flag(&v, &at)?,
            "raised_points" => raised_points = Some(read_int(&v, &at)?),
            "raised_by" => {
                let by: String = v.extract().map_err(|_| must_be(&at, "a string"))?;
                raised_by = Some(
                    by.parse()
                        .map_err(|e: crate::error::Error| e.context("rules"))?,
                );
            }
            _ => {
                return Err(err(
                    ErrorKind::Rules,
                    format!("rules: {path} entry {name:?} has no field {field:?}"),
                ))
            }
        }
    }
    entry.raised = match (raised_points, raised_by) {
        (Some(p), Some(by)) => Some((p, by)),
        (None, None) => None,
        _ => {
            return Err(err(
                ErrorKind::Rules,
                format!("rules: {path} entry {name:?} gives one of raised_points and raised_by; give both or neither"),
            ))
        }
    };
    Ok(entry)
}

fn read_naturals(v: &Bound<'_, PyAny>, path: &str) -> PyResult<Vec<NaturalEntry>> {
    let mut list = Vec::new();
    for item in v.try_iter()? {
        let item = item?;
        let d = item
            .cast::<PyDict>()
            .map_err(|_| must_be(path, "a list of {name, points, ...} tables"))?;
        list.push(read_entry(d, path)?);
    }
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
        KnobType::Naturals => KnobValue::Naturals(read_naturals(v, path)?),
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
            .map_err(|e| e.context("rules"))?;
    }
    rules.validate()?;
    Ok(rules)
}
