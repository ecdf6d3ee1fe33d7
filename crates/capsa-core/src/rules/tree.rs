//! Rules read from a parsed TOML tree, knob by knob through the knob table:
//! how the core reads its shipped presets ([`crate::presets`]). A knob's
//! value is read by its type; a key the table does not know is refused, so
//! a preset cannot carry a knob the engine would ignore.

use toml::{Table, Value};

use super::knobs::{Knob, KnobType, KNOBS};
use super::{check_naturals, KnobValue, NaturalEntry, RaisedBy, RankedRow, Rules};
use crate::cards::rank_of_letter;
use crate::error::{Error, Result};
use crate::naturals::Natural;
use crate::rank::category_index;

/// The keys of a tree that are not knobs: the preset a rules file starts from.
const NOT_KNOBS: [&str; 1] = ["base"];

fn must_be(path: &str, what: &str) -> Error {
    Error::rules(format!("{path} must be {what}"))
}

/// The value at a dotted path, or `None` when a table on the way or the
/// leaf is missing.
fn leaf<'t>(tree: &'t Table, path: &str) -> Result<Option<&'t Value>> {
    let mut table = tree;
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        let Some(value) = table.get(part) else {
            return Ok(None);
        };
        if parts.peek().is_none() {
            return Ok(Some(value));
        }
        table = value.as_table().ok_or_else(|| must_be(part, "a table"))?;
    }
    Ok(None)
}

fn int(v: &Value, path: &str) -> Result<i64> {
    v.as_integer().ok_or_else(|| must_be(path, "an integer"))
}

fn flag(v: &Value, path: &str) -> Result<bool> {
    v.as_bool().ok_or_else(|| must_be(path, "true or false"))
}

fn text<'v>(v: &'v Value, path: &str) -> Result<&'v str> {
    v.as_str().ok_or_else(|| must_be(path, "a string"))
}

fn rank(v: &str, path: &str) -> Result<u8> {
    rank_of_letter(v).ok_or_else(|| must_be(path, "a rank letter 2..9, T, J, Q, K or A"))
}

fn table<'v>(v: &'v Value, path: &str) -> Result<&'v Table> {
    v.as_table().ok_or_else(|| must_be(path, "a table"))
}

fn category(name: &str, path: &str) -> Result<usize> {
    category_index(name)
        .map(usize::from)
        .ok_or_else(|| Error::rules(format!("{path}.{name} is not a category")))
}

/// One entry of `naturals.enabled`, checked by the engine.
fn entry(v: &Value, index: usize) -> Result<NaturalEntry> {
    let path = format!("naturals.enabled[{index}]");
    let fields = table(v, &path)?;
    let name = fields
        .get("name")
        .ok_or_else(|| must_be(&path, "a table with a name"))?;
    let natural = Natural::from_name(text(name, &path)?)
        .ok_or_else(|| Error::rules(format!("{path}.name is not a natural")))?;
    let points = fields
        .get("points")
        .ok_or_else(|| must_be(&path, "a table with points"))?;
    let mut entry = NaturalEntry::new(natural, int(points, &path)?);
    let (mut raised_points, mut raised_by) = (None, None);
    for (field, v) in fields {
        if let Some(fault) = NaturalEntry::given_fault(index, natural, field) {
            return Err(fault);
        }
        let at = format!("{path}.{field}");
        match field.as_str() {
            "name" | "points" => {}
            "lowest" => entry.lowest = rank(text(v, &at)?, &at)?,
            "highest" => entry.highest = rank(text(v, &at)?, &at)?,
            "count" => {
                let count = int(v, &at)?;
                if let Some(fault) = NaturalEntry::count_fault(index, count) {
                    return Err(fault);
                }
                entry.count = count as u8;
            }
            "exactly" => entry.exactly = flag(v, &at)?,
            "same_tier" => entry.same_tier = flag(v, &at)?,
            "must_declare" => entry.must_declare = flag(v, &at)?,
            "bonus" => entry.bonus = flag(v, &at)?,
            "raised_points" => raised_points = Some(int(v, &at)?),
            "raised_by" => {
                let by: RaisedBy = text(v, &at)?
                    .parse()
                    .map_err(|_| must_be(&at, "one of the raised_by names"))?;
                raised_by = Some(by);
            }
            _ => return Err(Error::rules(format!("{at} is not a field of an entry"))),
        }
    }
    entry.raised = match (raised_points, raised_by) {
        (Some(points), Some(by)) => Some((points, by)),
        (None, None) => None,
        _ => {
            return Err(must_be(
                &path,
                "given raised_points and raised_by both or neither",
            ))
        }
    };
    entry.check(index)?;
    Ok(entry)
}

fn naturals(v: &Value) -> Result<Vec<NaturalEntry>> {
    let items = v
        .as_array()
        .ok_or_else(|| must_be("naturals.enabled", "a list of {name, points} tables"))?;
    let list = items
        .iter()
        .enumerate()
        .map(|(index, item)| entry(item, index))
        .collect::<Result<Vec<_>>>()?;
    check_naturals(&list)?;
    Ok(list)
}

fn royalties(v: &Value, path: &str) -> Result<[i64; 10]> {
    let mut row = [0i64; 10];
    for (name, points) in table(v, path)? {
        row[category(name, path)?] = int(points, &format!("{path}.{name}"))?;
    }
    Ok(row)
}

fn ranked(v: &Value, path: &str) -> Result<RankedRow> {
    let mut row: RankedRow = [[None; 13]; 10];
    for (name, ranks) in table(v, path)? {
        let at = format!("{path}.{name}");
        let index = category(name, path)?;
        for (letter, points) in table(ranks, &at)? {
            row[index][usize::from(rank(letter, &at)?)] = Some(int(points, &at)?);
        }
    }
    Ok(row)
}

fn knob_value(knob: &Knob, v: &Value) -> Result<KnobValue> {
    let path = knob.name;
    Ok(match knob.kind {
        KnobType::Text | KnobType::SuitOrder | KnobType::Choice(_) | KnobType::Card => {
            KnobValue::Text(text(v, path)?.to_string())
        }
        KnobType::Flag => KnobValue::Flag(flag(v, path)?),
        KnobType::Int { .. } => KnobValue::Int(int(v, path)?),
        KnobType::Naturals => KnobValue::Naturals(naturals(v)?),
        KnobType::Royalties(_) => KnobValue::Royalties(royalties(v, path)?),
        KnobType::RoyaltiesByRank(_) => KnobValue::RoyaltiesByRank(Box::new(ranked(v, path)?)),
    })
}

/// Every dotted key of the tree's leaves (a table of a royalty row is one
/// knob), to refuse the keys the knob table does not hold.
fn unknown_key(tree: &Table) -> Option<String> {
    let mut pending: Vec<(String, &Table)> = vec![(String::new(), tree)];
    while let Some((prefix, table)) = pending.pop() {
        for (key, value) in table {
            let path = format!("{prefix}{key}");
            let known = KNOBS.iter().any(|k| k.name == path) || NOT_KNOBS.contains(&path.as_str());
            let inside = KNOBS
                .iter()
                .any(|k| k.name.starts_with(&format!("{path}.")));
            match value.as_table() {
                Some(inner) if inside && !known => pending.push((format!("{path}."), inner)),
                _ if known => {}
                _ => return Some(path),
            }
        }
    }
    None
}

/// Rules from a TOML tree holding every required knob (a preset): each knob
/// read by the table's type of it, then the rules validated.
pub fn rules_from_tree(tree: &Table) -> Result<Rules> {
    if let Some(key) = unknown_key(tree) {
        return Err(Error::rules(format!("{key} is not a knob")));
    }
    let mut rules = Rules::default();
    for knob in KNOBS {
        match leaf(tree, knob.name)? {
            Some(v) => rules.set_knob(knob.name, knob_value(knob, v)?)?,
            None if knob.required => {
                return Err(Error::rules(format!("missing key {}", knob.name)));
            }
            None => {}
        }
    }
    rules.validate()?;
    Ok(rules)
}
