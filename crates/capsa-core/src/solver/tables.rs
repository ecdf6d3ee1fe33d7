//! The tables file: its format, its validation and the tables shipped per
//! preset.

use std::sync::OnceLock;

use super::classes::{all_classes, CLASS_SHIFT};
use super::joint::Joint;
use super::varint::{get_varint, put_varint};
use crate::error::{Error, Result};
use crate::rank::{Evaluator, Ranking, CATEGORY_SHIFT, DECK52_CATEGORIES, FIVE_OF_A_KIND, FLUSH};
use crate::rows::ROW_NAMES;
use crate::rules::knobs::{Knob, KnobType, INT_MAX, KNOBS};
use crate::rules::{FlushCompare, KnobValue, RuleChoice, Rules, Wheel, TOP};
use crate::table::{MAX_TABLE_SEATS, MIN_SEATS};

/// The shipped tables files, `(preset, bytes)`, by name: every
/// `tables/<preset>.bin` of this crate, found by the build script.
const SHIPPED_FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/shipped_tables.rs"));

/// The presets with shipped tables, by name.
pub fn shipped_presets() -> impl Iterator<Item = &'static str> {
    SHIPPED_FILES.iter().map(|(name, _)| *name)
}

/// The bytes of a preset's shipped tables file, or `None` for a preset that
/// ships none (it plays the nearest shipped tables).
pub fn shipped_bytes(name: &str) -> Option<&'static [u8]> {
    SHIPPED_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

const MAGIC: &[u8; 8] = b"CAPSATB1";

/// Per-row distributions of an opponent's row hands over rank classes.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// `key=value` metadata, exactly the keys of [`META_KEYS`]: the rules
    /// the tables were trained for (used to pick the nearest tables for
    /// custom rules), the training parameters and `scoop_rate` (probability
    /// that one self-play hand wins all three rows against another).
    pub meta: Vec<(String, String)>,
    /// For top, middle, bottom: (rank class, weight), sorted by class.
    pub rows: [Vec<(u32, f64)>; 3],
    /// The copula of the opponent's rows (see the `joint` module); tables
    /// of earlier trainers have none.
    pub joint: Option<Joint>,
}

/// Bounds of a tables file: the header (about 500 bytes as trained) and the
/// entries per row (a row holds at most one per rank class: 455 three-card,
/// 11,323 five-card classes with the flush suit ranked).
pub const MAX_HEADER_BYTES: usize = 4096;
pub const MAX_ROW_ENTRIES: usize = 1 << 14;
/// Ranges of the training parameters ([`TrainConfig`](super::TrainConfig)).
pub const MAX_TRAIN_HANDS: usize = 10_000_000;
pub const MAX_TRAIN_ITERATIONS: usize = 100;
pub const MAX_NAME_LEN: usize = 64;

/// The metadata keys of a tables file, every one required: what [`train`](super::train)
/// writes (the training parameters and `scoop_rate`, the first
/// [`TRAINING_KEYS`], then the rules of [`rules_meta`]: each the `tables`
/// key of rows of the knob table, in the order the format writes them).
pub const TRAINING_KEYS: usize = 8;
pub const META_KEYS: [&str; 21] = [
    "format",
    "trainer",
    "preset",
    "seats",
    "hands",
    "iterations",
    "seed",
    "scoop_rate",
    "wheel",
    "flush_compare",
    "tie_break",
    "row_points",
    "overall_point",
    "royalty_mode",
    "royalty_adds",
    "scoop_multiplier",
    "scoop_bonus",
    "sweep_all_multiplier",
    "sweep_all_bonus",
    "sweep_all_min_players",
    "royalties",
];

/// The metadata keys a tables file holds only where its rules leave the
/// knobs' defaults: the deck (added suits, decks and jokers, joined by
/// commas), so that the 52-card deck's files are as they were.
pub const OPTIONAL_META_KEYS: [&str; 1] = ["deck"];

/// Checks a tables name (the `preset` key, [`TrainConfig::name`](super::TrainConfig::name)): 1 to 64
/// of `A-Z a-z 0-9 _ . -`, so that it can never break the header's
/// `key=value` lines.
pub fn check_tables_name(name: &str) -> Result<()> {
    let safe = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.is_empty() || name.len() > MAX_NAME_LEN || !name.chars().all(safe) {
        return Err(Error::rules(format!(
            "solver tables: name {name:?} must be 1 to {MAX_NAME_LEN} of A-Z a-z 0-9 _ . -"
        )));
    }
    Ok(())
}

/// A decimal integer written as `to_string` writes it, in `lo..=hi`.
fn meta_int(v: &str, lo: i128, hi: i128) -> std::result::Result<(), String> {
    match v.parse::<i128>() {
        Ok(x) if x.to_string() == v && (lo..=hi).contains(&x) => Ok(()),
        _ => Err(format!("must be an integer in {lo}..={hi}")),
    }
}

fn meta_choice(v: &str, options: &[&str]) -> std::result::Result<(), String> {
    if options.contains(&v) {
        Ok(())
    } else {
        Err(format!("must be one of {}", options.join(", ")))
    }
}

/// The royalties (top, middle, bottom by category), as the knob table
/// ranges them: non-negative, nonzero only for a category the row may name.
fn meta_royalties(v: &str) -> std::result::Result<(), String> {
    let rows: Vec<&Knob> = KNOBS
        .iter()
        .filter(|k| k.tables.is_some_and(|t| t.key == "royalties"))
        .collect();
    let values: Vec<&str> = v.split(',').collect();
    let categories = DECK52_CATEGORIES.len();
    if values.len() != rows.len() * categories {
        return Err(format!(
            "must list {} values, got {}",
            rows.len() * categories,
            values.len()
        ));
    }
    for (i, x) in values.iter().enumerate() {
        meta_int(x, 0, INT_MAX as i128).map_err(|m| format!("value {i} {m}"))?;
        let row = rows[i / categories];
        let KnobType::Royalties(allowed) = row.kind else {
            return Err(format!("{} is not a royalty row", row.name));
        };
        if *x != "0" && !allowed.contains(&DECK52_CATEGORIES[i % categories]) {
            return Err(format!(
                "value {i}: {} can only name {}",
                row.name,
                allowed.join(", ")
            ));
        }
    }
    Ok(())
}

/// Checks the value of a known metadata key.
fn check_meta_value(key: &str, v: &str) -> std::result::Result<(), String> {
    match key {
        "format" => meta_choice(v, &["1"]),
        "trainer" => meta_int(v, 1, u32::MAX as i128),
        "preset" => check_tables_name(v)
            .map_err(|_| format!("must be 1 to {MAX_NAME_LEN} of A-Z a-z 0-9 _ . -")),
        "seats" => meta_int(v, MIN_SEATS as i128, MAX_TABLE_SEATS as i128),
        "hands" => meta_int(v, 1, MAX_TRAIN_HANDS as i128),
        "iterations" => meta_int(v, 0, MAX_TRAIN_ITERATIONS as i128),
        "seed" => meta_int(v, 0, u64::MAX as i128),
        "scoop_rate" => match v.parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(()),
            _ => Err("must be a probability, a finite number in [0, 1]".into()),
        },
        "royalties" => meta_royalties(v),
        _ => check_knobs_meta(key, v),
    }
}

/// Checks the value of a rules key: each knob the table writes under it,
/// in order, one comma-separated part each.
fn check_knobs_meta(key: &str, v: &str) -> std::result::Result<(), String> {
    let knobs: Vec<&Knob> = KNOBS
        .iter()
        .filter(|k| k.tables.is_some_and(|t| t.key == key))
        .collect();
    if knobs.is_empty() {
        return Err("is not a tables metadata key".into());
    }
    let parts: Vec<&str> = if knobs.len() == 1 {
        vec![v]
    } else {
        v.split(',').collect()
    };
    if parts.len() != knobs.len() {
        return Err(format!(
            "must list {} values, got {}",
            knobs.len(),
            parts.len()
        ));
    }
    for (knob, part) in knobs.iter().zip(parts) {
        check_knob_meta(knob, part).map_err(|m| format!("{}: {m}", knob.name))?;
    }
    Ok(())
}

/// The first knob of the table written under a metadata key.
fn rules_knob(key: &str) -> Option<&'static Knob> {
    KNOBS
        .iter()
        .find(|k| k.tables.is_some_and(|t| t.key == key))
}

/// Checks a knob's value in the metadata as the knob table ranges it.
fn check_knob_meta(knob: &Knob, v: &str) -> std::result::Result<(), String> {
    match knob.kind {
        KnobType::Choice(names) => meta_choice(v, names),
        KnobType::Flag => meta_choice(v, &["true", "false"]),
        KnobType::Int { min, max } => meta_int(v, min as i128, max as i128),
        _ => Err("is not a tables metadata key".into()),
    }
}

/// Every rank class of a row (three-card for the top, five-card otherwise)
/// under a ranking's wheel and flush-compare knobs, sorted.
fn row_classes(wheel_second: bool, flush_suit_first: bool, row: usize) -> &'static [u32] {
    static CLASSES: [OnceLock<Vec<u32>>; 8] = [const { OnceLock::new() }; 8];
    let five = row != TOP;
    let slot = (wheel_second as usize) << 2 | (flush_suit_first as usize) << 1 | five as usize;
    CLASSES[slot].get_or_init(|| {
        let e = Evaluator::new(Ranking {
            wheel_second,
            flush_suit_first,
            tie_break_suit: false,
            ..Ranking::default()
        });
        all_classes(&e, five).into_iter().map(|(c, _)| c).collect()
    })
}

/// The header's `key=value` lines, each ended by a newline.
fn parse_header(text: &str) -> std::result::Result<Vec<(String, String)>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let body = text
        .strip_suffix('\n')
        .ok_or_else(|| "header does not end with a newline".to_string())?;
    body.split('\n')
        .enumerate()
        .map(|(i, line)| match line.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("header line {} {line:?} is not key=value", i + 1)),
        })
        .collect()
}

impl Tables {
    /// The value of a metadata key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a rules knob the metadata names, if it names a valid one.
    fn rule_choice<T: RuleChoice>(&self) -> Option<T> {
        self.get(T::KEY).and_then(|v| v.parse().ok())
    }

    pub(super) fn get_f64(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|v| v.parse().ok())
    }

    /// Serialises: magic `CAPSATB1`, a little-endian `u32` length and that
    /// many bytes of `key=value` lines, then for each row a varint count and
    /// (varint class delta, varint weight) pairs; weights are rounded to
    /// integers. Keyed by rank-class value, never by an internal index.
    /// Then, if the tables have one, the joint section (varint bins, and
    /// the counts of [`Joint::cells`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let meta: String = self
            .meta
            .iter()
            .map(|(k, v)| format!("{k}={v}\n"))
            .collect();
        out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        out.extend_from_slice(meta.as_bytes());
        for row in &self.rows {
            let kept: Vec<(u32, u64)> = row
                .iter()
                .map(|&(c, w)| (c, w.round() as u64))
                .filter(|&(_, w)| w > 0)
                .collect();
            put_varint(&mut out, kept.len() as u64);
            let mut prev = 0u32;
            for (c, w) in kept {
                // wrapping: never panics on unsorted rows, which `validate` refuses
                put_varint(&mut out, c.wrapping_sub(prev) as u64);
                put_varint(&mut out, w);
                prev = c;
            }
        }
        if let Some(j) = &self.joint {
            j.write(&mut out);
        }
        out
    }

    /// Parses and validates a tables file (see [`Tables::to_bytes`] and
    /// [`Tables::validate`]); whatever it accepts, the solver can use.
    pub fn from_bytes(data: &[u8]) -> Result<Tables> {
        let bad = |m: String| Error::rules(format!("solver tables: {m}"));
        if data.get(..8) != Some(&MAGIC[..]) {
            return Err(bad("not a capsa tables file (bad magic)".into()));
        }
        let len = data
            .get(8..12)
            .ok_or_else(|| bad("truncated header length".into()))?;
        let n = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
        if n > MAX_HEADER_BYTES {
            return Err(bad(format!(
                "header length {n} exceeds {MAX_HEADER_BYTES} bytes"
            )));
        }
        let text = data
            .get(12..12 + n)
            .ok_or_else(|| bad(format!("truncated header: {n} bytes announced")))?;
        let text = std::str::from_utf8(text).map_err(|_| bad("header is not UTF-8".into()))?;
        let meta = parse_header(text).map_err(bad)?;
        let mut pos = 12 + n;
        let mut rows: [Vec<(u32, f64)>; 3] = Default::default();
        for (r, row) in rows.iter_mut().enumerate() {
            let name = ROW_NAMES[r];
            let count = get_varint(data, &mut pos)
                .map_err(|m| bad(format!("row {name} count: {m}")).at_row(r))?;
            if count > MAX_ROW_ENTRIES as u64 {
                return Err(bad(format!(
                    "row {name} has {count} entries, more than {MAX_ROW_ENTRIES}"
                ))
                .at_row(r));
            }
            let mut class = 0u64;
            for i in 0..count {
                let at = |m: &str| bad(format!("row {name} entry {i}: {m}")).at_row(r);
                let delta = get_varint(data, &mut pos).map_err(at)?;
                let w = get_varint(data, &mut pos).map_err(at)?;
                class = class
                    .checked_add(delta)
                    .filter(|&c| c <= u32::MAX as u64)
                    .ok_or_else(|| at("class out of range"))?;
                if w == 0 {
                    // `to_bytes` writes only positive weights
                    return Err(at("weight 0"));
                }
                row.push((class as u32, w as f64));
            }
        }
        let joint = if pos < data.len() {
            Some(Joint::read(data, &mut pos).map_err(|m| bad(format!("joint section: {m}")))?)
        } else {
            None
        };
        if pos != data.len() {
            return Err(bad(format!(
                "{} trailing bytes after the joint section",
                data.len() - pos
            )));
        }
        let t = Tables { meta, rows, joint };
        t.validate()?;
        Ok(t)
    }

    /// Checks what the solver relies on: exactly the keys of [`META_KEYS`],
    /// once each, with values in range; per row at least one entry, classes
    /// strictly increasing and each a rank class of the row's hand size
    /// under the tables' ranking, weights finite and non-negative with a
    /// positive finite total.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Error::rules(format!("solver tables: {m}"));
        for (i, (k, v)) in self.meta.iter().enumerate() {
            if !META_KEYS.contains(&k.as_str()) && !OPTIONAL_META_KEYS.contains(&k.as_str()) {
                return Err(bad(format!("unknown metadata key {k:?}")));
            }
            if self.meta[..i].iter().any(|(other, _)| other == k) {
                return Err(bad(format!("metadata key {k} is given twice")));
            }
            check_meta_value(k, v).map_err(|m| bad(format!("metadata {k}={v:?} {m}")))?;
        }
        if let Some(k) = META_KEYS.iter().find(|k| self.get(k).is_none()) {
            return Err(bad(format!("metadata key {k} is missing")));
        }
        let wheel_second = self.rule_choice::<Wheel>().is_some_and(Wheel::flag);
        let suit_first = self
            .rule_choice::<FlushCompare>()
            .is_some_and(FlushCompare::flag);
        // a deck with copies or jokers also ranks five of a kind, and
        // flushes holding a pair
        let copies_or_jokers = holds_copies_or_jokers(self);
        for (r, row) in self.rows.iter().enumerate() {
            let at = |m: String| bad(format!("row {}: {m}", ROW_NAMES[r])).at_row(r);
            let valid = row_classes(wheel_second, suit_first, r);
            let beyond_52 = |class: u32| {
                let category = (class >> (CATEGORY_SHIFT - CLASS_SHIFT)) as u8;
                copies_or_jokers && r != TOP && matches!(category, FLUSH | FIVE_OF_A_KIND)
            };
            if row.is_empty() {
                return Err(at("no entries".into()));
            }
            if row.len() > valid.len() && !copies_or_jokers {
                return Err(at(format!(
                    "{} entries, more than its {} rank classes",
                    row.len(),
                    valid.len()
                )));
            }
            let mut total = 0.0;
            for (i, &(class, w)) in row.iter().enumerate() {
                if i > 0 && class <= row[i - 1].0 {
                    return Err(at(format!(
                        "entry {i}: class {class:#x} is not above the previous {:#x}",
                        row[i - 1].0
                    )));
                }
                if valid.binary_search(&class).is_err() && !beyond_52(class) {
                    let cards = if r == TOP { "three" } else { "five" };
                    return Err(at(format!(
                        "entry {i}: class {class:#x} (category {}) is not a {cards}-card rank class",
                        class >> (28 - CLASS_SHIFT)
                    )));
                }
                if !(w.is_finite() && w >= 0.0) {
                    return Err(at(format!("entry {i}: weight {w} is not finite and >= 0")));
                }
                total += w;
            }
            if !(total.is_finite() && total > 0.0) {
                return Err(at(format!(
                    "weights sum to {total}, not a positive finite number"
                )));
            }
        }
        if let Some(j) = &self.joint {
            j.validate()
                .map_err(|m| bad(format!("joint section: {m}")))?;
        }
        Ok(())
    }

    /// The shipped tables of a preset.
    pub fn preset(name: &str) -> Option<&'static Tables> {
        shipped().iter().find(|(n, _)| *n == name).map(|(_, t)| t)
    }

    /// The shipped tables whose training rules are nearest to `rules`: the
    /// same ranking (wheel, flush_compare) first, then the closest scoring
    /// (see [`scoring_distance`]). A preset's own rules give tables at
    /// distance 0: its own, or the first shipped of presets that differ only
    /// in knobs the metadata does not hold (the horse card, a banker's ties).
    pub fn nearest(rules: &Rules) -> &'static Tables {
        let mut best: Option<(f64, &'static Tables)> = None;
        for (_, t) in shipped() {
            let d = scoring_distance(rules, t);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, t));
            }
        }
        best.expect("tables are shipped for every preset").1
    }

    /// Checks that the tables can play `rules` (a `RulesError` naming the
    /// knob and both values otherwise): trained under the same `wheel` and
    /// `flush_compare`, which decide the hands a rank class number stands
    /// for, and for the same deck, whose hands the classes count.
    /// `tie_break` may differ: a rank class leaves the suits out, so it only
    /// changes how the training opponents played, as the scoring knobs do.
    pub fn check_fits(&self, rules: &Rules) -> Result<()> {
        let ranking = &rules.evaluator.ranking;
        let deck_key = OPTIONAL_META_KEYS[0];
        let knobs = [
            (
                Wheel::KEY,
                Wheel::from_flag(ranking.wheel_second).to_string(),
            ),
            (
                FlushCompare::KEY,
                FlushCompare::from_flag(ranking.flush_suit_first).to_string(),
            ),
            (deck_key, meta_values(rules, deck_key)),
        ];
        for (key, want) in knobs {
            let trained = match self.get(key) {
                Some(v) => v.to_string(),
                None if key == deck_key => optional_default(key),
                None => String::new(),
            };
            if trained != want {
                let why = if key == deck_key {
                    "they count the hands of another deck"
                } else {
                    "their rank classes would be read as other hands"
                };
                return Err(Error::rules(format!(
                    "solver tables: trained for {key} = {trained:?} but the rules have \
                     {key} = {want:?}: {why} (train tables for these rules)"
                )));
            }
        }
        Ok(())
    }

    /// Name of the preset (or `custom`) the tables were trained for.
    pub fn name(&self) -> &str {
        self.get("preset").unwrap_or("custom")
    }
}

/// The value of a knob as the metadata writes it (a royalty row as its ten
/// values joined by commas).
fn meta_text(value: KnobValue) -> String {
    match value {
        KnobValue::Text(t) => t,
        KnobValue::Flag(b) => b.to_string(),
        KnobValue::Int(v) => v.to_string(),
        KnobValue::Royalties(row) => row.map(|v| v.to_string()).join(","),
        KnobValue::Naturals(_) | KnobValue::RoyaltiesByRank(_) => {
            unreachable!("the naturals and ranked royalties are not tables metadata")
        }
    }
}

/// Metadata describing the rules tables are trained for: for each rules key
/// of [`META_KEYS`], the values of the knobs the knob table writes under it
/// (the three royalty rows under `royalties`), joined by commas; then each
/// of [`OPTIONAL_META_KEYS`] whose knobs are not all at their defaults.
pub fn rules_meta(rules: &Rules) -> Vec<(String, String)> {
    let required = META_KEYS[TRAINING_KEYS..]
        .iter()
        .map(|&key| (key.to_string(), meta_values(rules, key)));
    let optional = OPTIONAL_META_KEYS
        .iter()
        .map(|&key| (key.to_string(), meta_values(rules, key)))
        .filter(|(key, v)| *v != optional_default(key));
    required.chain(optional).collect()
}

/// The values of the knobs the knob table writes under `key`, joined by
/// commas.
fn meta_values(rules: &Rules, key: &str) -> String {
    let values: Vec<String> = KNOBS
        .iter()
        .filter(|k| k.tables.is_some_and(|t| t.key == key))
        .map(|k| meta_text(rules.knob(k.name).expect("an engine knob")))
        .collect();
    values.join(",")
}

/// The value of an optional key at the knobs' defaults, which its absence
/// stands for.
fn optional_default(key: &str) -> String {
    static DEFAULTS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    DEFAULTS
        .get_or_init(|| {
            let rules = Rules::default();
            OPTIONAL_META_KEYS
                .iter()
                .map(|&k| (k, meta_values(&rules, k)))
                .collect()
        })
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// The weight of a rules metadata key in [`scoring_distance`].
fn meta_weight(key: &str) -> f64 {
    rules_knob(key)
        .and_then(|k| k.tables)
        .map_or(1.0, |t| t.weight)
}

/// Distance between `rules` and the rules `tables` were trained for: each
/// rules metadata key's difference times its weight in the knob table (the
/// ranking knobs wheel and flush_compare 1000, so the same ranking comes
/// first; royalties per value), 10 for a key the tables lack; the deck's
/// knobs 100,000 each, so that tables of the rules' own deck come before
/// any other.
pub fn scoring_distance(rules: &Rules, tables: &Tables) -> f64 {
    let mine = rules_meta(rules);
    let mut d = deck_distance(rules, tables);
    let required = mine
        .iter()
        .filter(|(k, _)| !OPTIONAL_META_KEYS.contains(&k.as_str()));
    for (k, v) in required {
        let Some(theirs) = tables.get(k) else {
            d += 10.0;
            continue;
        };
        let w = meta_weight(k);
        if k == "royalties" {
            let a: Vec<f64> = v.split(',').filter_map(|x| x.parse().ok()).collect();
            let b: Vec<f64> = theirs.split(',').filter_map(|x| x.parse().ok()).collect();
            d += a
                .iter()
                .zip(b.iter())
                .map(|(x, y)| (x - y).abs())
                .sum::<f64>()
                * w;
        } else if let (Ok(x), Ok(y)) = (v.parse::<f64>(), theirs.parse::<f64>()) {
            d += w * (x - y).abs();
        } else if v != theirs {
            d += w;
        }
    }
    d
}

/// The deck's part of [`scoring_distance`]: its weight for each of the
/// deck's knobs (added suits, decks, jokers) on which the rules and the
/// tables differ (a file without the key holds the 52-card deck).
fn deck_distance(rules: &Rules, tables: &Tables) -> f64 {
    let key = OPTIONAL_META_KEYS[0];
    let mine = meta_values(rules, key);
    let default = optional_default(key);
    let theirs = tables.get(key).unwrap_or(&default);
    let differ = mine
        .split(',')
        .zip(theirs.split(','))
        .filter(|(a, b)| a != b)
        .count();
    meta_weight(key) * differ as f64
}

/// Whether tables trained for a deck with copies or jokers.
fn holds_copies_or_jokers(tables: &Tables) -> bool {
    let key = OPTIONAL_META_KEYS[0];
    tables.get(key).is_some_and(|v| *v != optional_default(key))
}

fn shipped() -> &'static [(&'static str, Tables)] {
    static SHIPPED: OnceLock<Vec<(&'static str, Tables)>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        SHIPPED_FILES
            .iter()
            .map(|(n, b)| (*n, Tables::from_bytes(b).expect("shipped tables parse")))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BOTTOM, MIDDLE};

    #[test]
    fn shipped_tables_write_back_to_their_bytes() {
        assert!(SHIPPED_FILES.len() >= 6);
        for &(name, bytes) in SHIPPED_FILES {
            let t = Tables::from_bytes(bytes).unwrap();
            assert_eq!(t.to_bytes(), bytes, "{name}");
            assert_eq!(Tables::preset(name), Some(&t), "{name}");
        }
    }

    #[test]
    fn tables_round_trip() {
        let t = Tables::preset("pagat").unwrap();
        let again = Tables::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(t, &again);
        assert!(Tables::from_bytes(b"nonsense").is_err());
        let mut bytes = t.to_bytes();
        bytes.push(0);
        assert!(Tables::from_bytes(&bytes).is_err());
    }

    /// The error `from_bytes` gives for the pagat tables edited by `edit`.
    fn load_error(edit: impl FnOnce(&mut Tables)) -> String {
        let mut t = Tables::preset("pagat").unwrap().clone();
        edit(&mut t);
        let e = Tables::from_bytes(&t.to_bytes()).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Rules);
        assert!(
            e.message().starts_with("solver tables: "),
            "{}",
            e.message()
        );
        e.message().to_string()
    }

    fn set_meta(t: &mut Tables, key: &str, value: &str) {
        t.meta.iter_mut().find(|(k, _)| k == key).unwrap().1 = value.into();
    }

    #[test]
    fn metadata_is_validated() {
        let cases: [(&str, &str, &str); 9] = [
            ("scoop_rate", "inf", "scoop_rate"),
            ("scoop_rate", "NaN", "scoop_rate"),
            ("scoop_rate", "-0.1", "scoop_rate"),
            ("scoop_rate", "1.5", "scoop_rate"),
            ("seats", "9", "seats"),
            ("hands", "007", "hands"),
            ("preset", "two words", "preset"),
            ("royalties", "0,0,3", "royalties"),
            ("wheel", "high", "wheel"),
        ];
        for (key, value, culprit) in cases {
            let m = load_error(|t| set_meta(t, key, value));
            assert!(m.contains(culprit), "{key}={value}: {m}");
        }
        let m = load_error(|t| t.meta.push(("colour".into(), "red".into())));
        assert!(m.contains("unknown metadata key \"colour\""), "{m}");
        let m = load_error(|t| t.meta.push(("seats".into(), "4".into())));
        assert!(m.contains("seats is given twice"), "{m}");
        let m = load_error(|t| t.meta.retain(|(k, _)| k != "scoop_rate"));
        assert!(m.contains("scoop_rate is missing"), "{m}");
        // a name that would write its own header lines
        let m = load_error(|t| set_meta(t, "preset", "x\nscoop_rate=inf"));
        assert!(m.contains("scoop_rate"), "{m}");
        let mut top_royalty = vec!["0"; 30];
        top_royalty[2] = "4";
        let m = load_error(|t| set_meta(t, "royalties", &top_royalty.join(",")));
        assert!(m.contains("royalties") && m.contains("value 2"), "{m}");
        // the deck: its three knobs, each in its range
        for (value, culprit) in [
            ("x,1,0", "deck.added_suits"),
            ("c,3,0", "deck.decks"),
            ("c,1,-1", "deck.jokers"),
            ("c,1", "must list 3 values"),
        ] {
            let m = load_error(|t| t.meta.push(("deck".into(), value.into())));
            assert!(m.contains(culprit), "deck={value}: {m}");
        }
    }

    /// Five of a kind is a class of the five-card rows of tables trained for
    /// a deck with copies or jokers, and of no 52-card tables.
    #[test]
    fn five_of_a_kind_is_a_class_only_of_a_deck_with_copies() {
        let five_aces = (FIVE_OF_A_KIND as u32) << (CATEGORY_SHIFT - CLASS_SHIFT) | 12;
        let add = |t: &mut Tables| {
            t.rows[BOTTOM].push((five_aces, 3.0));
            t.rows[BOTTOM].sort_by_key(|x| x.0);
        };
        let m = load_error(add);
        assert!(
            m.contains("row bottom: entry") && m.contains("category 10"),
            "{m}"
        );
        let mut t = Tables::preset("pagat").unwrap().clone();
        add(&mut t);
        t.meta.push(("deck".into(), "c,1,0".into()));
        let read = Tables::from_bytes(&t.to_bytes()).unwrap();
        assert!(read.rows[BOTTOM].iter().any(|&(c, _)| c == five_aces));
        let plain = Rules::default();
        let mut rules = plain.clone();
        rules.deck.added_suits = 0b0010;
        let pagat = Tables::preset("pagat").unwrap();
        let scoring = scoring_distance(&plain, pagat);
        assert_eq!(scoring_distance(&rules, &read), scoring);
        assert!(read.check_fits(&rules).is_ok());
        assert_eq!(scoring_distance(&plain, &read), scoring + 100_000.0);
        assert_eq!(scoring_distance(&rules, pagat), scoring + 100_000.0);
        let e = read.check_fits(&plain).unwrap_err();
        assert!(e.message().contains("another deck"), "{}", e.message());
    }

    #[test]
    fn row_classes_are_validated() {
        // category 10 on the top row: the royalty lookup's old panic
        let m = load_error(|t| *t.rows[TOP].last_mut().unwrap() = (10 << 18, 5.0));
        assert!(
            m.contains("row top: entry") && m.contains("category 10"),
            "{m}"
        );
        // two pair cannot be a three-card hand
        let m = load_error(|t| {
            t.rows[TOP].retain(|&(c, _)| c >> 18 < 2);
            t.rows[TOP].push((2 << 18 | 0x321, 5.0));
        });
        assert!(
            m.contains("row top: entry") && m.contains("category 2"),
            "{m}"
        );
        // a three-card high card is not a five-card class
        let three = Tables::preset("pagat").unwrap().rows[TOP][0].0;
        let m = load_error(|t| t.rows[MIDDLE].insert(0, (three, 5.0)));
        assert!(m.contains("row middle: entry 0"), "{m}");
        // a suit-ranked flush class under flush_compare = ranks
        let flush = Tables::preset("pagat").unwrap().rows[BOTTOM]
            .iter()
            .find(|&&(c, _)| c >> 18 == 5)
            .unwrap()
            .0;
        let m = load_error(|t| {
            let row = &mut t.rows[BOTTOM];
            row.push((flush | 3 << 13, 1.0));
            row.sort_by_key(|x| x.0);
        });
        assert!(m.contains("row bottom: entry"), "{m}");
        let m = load_error(|t| t.rows[MIDDLE].clear());
        assert!(m.contains("row middle: no entries"), "{m}");
        // unsorted rows are refused (`to_bytes` cannot write them as deltas)
        let mut t = Tables::preset("pagat").unwrap().clone();
        t.rows[BOTTOM].swap(3, 4);
        let m = t.validate().unwrap_err().message().to_string();
        assert!(
            m.contains("row bottom: entry 4") && m.contains("not above"),
            "{m}"
        );
        let m = Tables::from_bytes(&t.to_bytes())
            .unwrap_err()
            .message()
            .to_string();
        assert!(m.contains("row bottom entry 4: class out of range"), "{m}");
    }

    #[test]
    fn file_structure_is_validated() {
        let good = Tables::preset("pagat").unwrap().to_bytes();
        let err = |bytes: &[u8]| Tables::from_bytes(bytes).unwrap_err().message().to_string();
        assert!(err(b"nonsense").contains("bad magic"));
        assert!(err(&good[..10]).contains("truncated header length"));
        let mut long = good.clone();
        long[8..12].copy_from_slice(&100_000u32.to_le_bytes());
        assert!(err(&long).contains("header length 100000"));
        assert!(err(&good[..40]).contains("truncated header"));
        let n = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
        let mut latin = good.clone();
        latin[12] = 0xff;
        assert!(err(&latin).contains("not UTF-8"));
        let mut no_eq = good.clone();
        no_eq[12 + 6] = b':'; // "format=1" -> "format:1"
        assert!(err(&no_eq).contains("header line 1"));
        assert!(err(&good[..good.len() - 1]).contains("truncated data"));
        let mut trailing = good.clone();
        trailing.push(0);
        assert!(err(&trailing).contains("1 trailing bytes"));
        // a top row of one entry whose class delta overflows 64 bits
        let mut huge = good[..12 + n].to_vec();
        huge.push(1);
        huge.extend_from_slice(&[0xff; 9]);
        huge.push(0x7f);
        assert!(err(&huge).contains("row top entry 0: a varint overflows"));
        let mut many = good[..12 + n].to_vec();
        put_varint(&mut many, 1 << 40);
        assert!(err(&many).contains("row top has 1099511627776 entries"));
        let mut zero = good[..12 + n].to_vec();
        zero.extend_from_slice(&[1, 1, 0]);
        assert!(err(&zero).contains("row top entry 0: weight 0"));
    }

    #[test]
    fn the_rules_metadata_keys_are_the_knob_tables() {
        let mut from_table: Vec<&str> = KNOBS
            .iter()
            .filter_map(|k| k.tables.map(|t| t.key))
            .collect();
        from_table.dedup();
        let mut keys = META_KEYS[TRAINING_KEYS..].to_vec();
        keys.extend(OPTIONAL_META_KEYS);
        keys.sort_unstable();
        from_table.sort_unstable();
        assert_eq!(keys, from_table);
    }

    #[test]
    fn the_distance_weights_are_the_ones_the_shipped_tables_were_picked_by() {
        let pinned = |key: &str| match key {
            "wheel" | "flush_compare" => 1000.0,
            "tie_break" => 0.5,
            "royalty_mode" | "royalty_adds" => 5.0,
            "row_points" | "scoop_multiplier" | "sweep_all_multiplier" => 3.0,
            "royalties" => 0.25,
            _ => 1.0,
        };
        for key in &META_KEYS[TRAINING_KEYS..] {
            assert_eq!(meta_weight(key), pinned(key), "{key}");
        }
    }

    #[test]
    fn nearest_is_exact_for_default() {
        let r = Rules::default();
        assert_eq!(Tables::nearest(&r).name(), "capsa-susun");
        assert!(scoring_distance(&r, Tables::nearest(&r)) < 1e-9);
    }
}
