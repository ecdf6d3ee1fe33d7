//! The arranging solver.
//!
//! # Model
//!
//! For each row (top, middle, bottom) a [`Tables`] value holds the
//! distribution of the row hand a well-playing opponent sets there, over
//! *rank classes*: `strength >> 10` (category and rank key; suits ignored).
//! The tables are computed by simulation (iterated best response, see
//! [`train`]) and shipped per preset in `python/capsa/tables/*.bin`, which
//! are compiled into the library.
//!
//! Against one such opponent, a row hand of strength `s` wins, ties or
//! loses with the probabilities read off the distribution (with
//! `tie_break = "suit"` an equal rank class is split half and half), and the
//! expected royalties of each outcome follow from the rules' own royalty
//! table. Treating the three rows as independent, the exact expected points
//! of a split against one opponent is a sum over the 27 win/tie/lose
//! patterns (row points, overall point, scoop multiplier and bonus,
//! royalties in every mode). Sweep-all adds `P(win all three)^(seats-1)`
//! times the extra over the scoop rate (and subtracts the symmetric term for
//! being swept, with the scoop rate between two self-play hands recorded in
//! the tables).
//!
//! # Card removal
//!
//! The opponent's cards come from the 39 the hand does not hold, so the
//! distribution is reweighted per hand: each class's probability is
//! multiplied by the share of its card combinations the opponent can still
//! hold (the product over its rank groups of C(left, n) / C(4, n); for five
//! distinct ranks the non-flush combinations left, for a flush the suits
//! still complete at every rank), then renormalised. The reweighting is
//! exact for which row hands remain possible and ignores how the own cards
//! change the opponent's choice among them. It is applied to the refined
//! candidates (one pass over the opponent's classes per row, summed into
//! the buckets those candidates' classes cut them into); the fast score
//! uses the unconditioned tables.
//!
//! # Search
//!
//! Every valid split is enumerated as (top, {A, B}) with the stronger of the
//! two five-card hands in the bottom (validity forces it), about 36,000
//! candidates. Each is scored by a cheap form (separable row values plus
//! the scoop term), and the best [`REFINE`] get the exact 27-pattern value.
//! A natural is declared when its points beat the best arrangement's value.
//!
//! # Custom rules
//!
//! Tables depend on the ranking and on how opponents play, which depends on
//! the scoring. For rules that are not a preset, [`Tables::nearest`] picks
//! the shipped tables with the same ranking and the closest scoring; the
//! expected value is always computed with the given rules' own numbers.
//! [`train`] computes tables for any rules on demand.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::cards::check_hand;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::error::{Error, Result, ROW_NAMES};
use crate::naturals::{self, Natural};
use crate::rank::category_of;
use crate::rank::{Evaluator, Ranking};
use crate::rules::{RoyaltyMode, Rules, BOTTOM, MIDDLE, TOP};
use crate::splits::{self, SUBSETS3, SUBSETS5};

/// Shift from a strength to its rank class.
pub const CLASS_SHIFT: u32 = 10;
/// Candidates that get the exact expected value.
pub const REFINE: usize = 24;
/// The presets with shipped tables.
pub const PRESETS: [&str; 6] = [
    "capsa-susun",
    "pagat",
    "2-4",
    "1-6",
    "mau-binh",
    "hawaiian-gardens",
];

const MAGIC: &[u8; 8] = b"CAPSATB1";

// ------------------------------------------------------------------ tables

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
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A varint at `*pos`, advancing it; the error says what is wrong.
fn get_varint(data: &[u8], pos: &mut usize) -> std::result::Result<u64, &'static str> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *data.get(*pos).ok_or("truncated data")?;
        *pos += 1;
        let bits = (b & 0x7f) as u64;
        // the tenth byte may carry only the top bit of a u64
        if shift == 63 && bits > 1 {
            return Err("a varint overflows 64 bits");
        }
        v |= bits << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
        shift += 7;
        if shift > 63 {
            return Err("a varint is longer than 10 bytes");
        }
    }
}

/// Bounds of a tables file: the header (about 500 bytes as trained) and the
/// entries per row (a row holds at most one per rank class: 455 three-card,
/// 11,323 five-card classes with the flush suit ranked).
pub const MAX_HEADER_BYTES: usize = 4096;
pub const MAX_ROW_ENTRIES: usize = 1 << 14;
/// Ranges of the training parameters ([`TrainConfig`]).
pub const MAX_TRAIN_HANDS: usize = 10_000_000;
pub const MAX_TRAIN_ITERATIONS: usize = 100;
pub const MAX_NAME_LEN: usize = 64;

/// The metadata keys of a tables file, every one required: what [`train`]
/// writes (the training parameters, `scoop_rate`, and [`rules_meta`]).
pub const META_KEYS: [&str; 20] = [
    "format",
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

/// Checks a tables name (the `preset` key, [`TrainConfig::name`]): 1 to 64
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

/// The 30 royalties (top, middle, bottom by category), as the rules allow
/// them: non-negative, on the top row only for high card, pair and trips.
fn meta_royalties(v: &str) -> std::result::Result<(), String> {
    let values: Vec<&str> = v.split(',').collect();
    if values.len() != 30 {
        return Err(format!("must list 30 values, got {}", values.len()));
    }
    for (i, x) in values.iter().enumerate() {
        meta_int(x, 0, i64::MAX as i128).map_err(|m| format!("value {i} {m}"))?;
        if i < 10 && *x != "0" && ![0, 1, 3].contains(&i) {
            return Err(format!(
                "value {i}: a top-row royalty can only name high-card, pair or trips"
            ));
        }
    }
    Ok(())
}

/// Checks the value of a known metadata key.
fn check_meta_value(key: &str, v: &str) -> std::result::Result<(), String> {
    const MAX_I64: i128 = i64::MAX as i128;
    match key {
        "format" => meta_choice(v, &["1"]),
        "preset" => check_tables_name(v)
            .map_err(|_| format!("must be 1 to {MAX_NAME_LEN} of A-Z a-z 0-9 _ . -")),
        "seats" => meta_int(v, 2, 4),
        "hands" => meta_int(v, 1, MAX_TRAIN_HANDS as i128),
        "iterations" => meta_int(v, 0, MAX_TRAIN_ITERATIONS as i128),
        "seed" => meta_int(v, 0, u64::MAX as i128),
        "scoop_rate" => match v.parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(()),
            _ => Err("must be a probability, a finite number in [0, 1]".into()),
        },
        "wheel" => meta_choice(v, &["low", "second"]),
        "flush_compare" => meta_choice(v, &["ranks", "suit-first"]),
        "tie_break" => meta_choice(v, &["suit", "none"]),
        "royalty_mode" => meta_choice(v, &["winner", "always", "none"]),
        "royalty_adds" => meta_choice(v, &["true", "false"]),
        "row_points" | "overall_point" | "scoop_bonus" | "sweep_all_bonus" => {
            meta_int(v, 0, MAX_I64)
        }
        "scoop_multiplier" | "sweep_all_multiplier" => meta_int(v, 1, MAX_I64),
        "sweep_all_min_players" => meta_int(v, 2, 5),
        "royalties" => meta_royalties(v),
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

    fn get_f64(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|v| v.parse().ok())
    }

    /// Serialises: magic `CAPSATB1`, a little-endian `u32` length and that
    /// many bytes of `key=value` lines, then for each row a varint count and
    /// (varint class delta, varint weight) pairs; weights are rounded to
    /// integers. Keyed by rank-class value, never by an internal index.
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
        if pos != data.len() {
            return Err(bad(format!(
                "{} trailing bytes after the rows",
                data.len() - pos
            )));
        }
        let t = Tables { meta, rows };
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
            if !META_KEYS.contains(&k.as_str()) {
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
        let wheel_second = self.get("wheel") == Some("second");
        let suit_first = self.get("flush_compare") == Some("suit-first");
        for (r, row) in self.rows.iter().enumerate() {
            let at = |m: String| bad(format!("row {}: {m}", ROW_NAMES[r])).at_row(r);
            let valid = row_classes(wheel_second, suit_first, r);
            if row.is_empty() {
                return Err(at("no entries".into()));
            }
            if row.len() > valid.len() {
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
                if valid.binary_search(&class).is_err() {
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
        Ok(())
    }

    /// The shipped tables of a preset.
    pub fn preset(name: &str) -> Option<&'static Tables> {
        shipped().iter().find(|(n, _)| *n == name).map(|(_, t)| t)
    }

    /// The shipped tables whose training rules are nearest to `rules`: the
    /// same ranking (wheel, flush_compare) first, then the closest scoring
    /// (see [`scoring_distance`]). A preset's own rules give its own tables.
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

    /// Name of the preset (or `custom`) the tables were trained for.
    pub fn name(&self) -> &str {
        self.get("preset").unwrap_or("custom")
    }
}

/// Metadata describing the rules tables are trained for.
pub fn rules_meta(rules: &Rules) -> Vec<(String, String)> {
    let r = &rules.evaluator.ranking;
    let roy: Vec<String> = rules
        .royalties
        .iter()
        .flat_map(|row| row.iter().map(|v| v.to_string()))
        .collect();
    let mode = match rules.royalty_mode {
        RoyaltyMode::Winner => "winner",
        RoyaltyMode::Always => "always",
        RoyaltyMode::None => "none",
    };
    [
        (
            "wheel",
            if r.wheel_second { "second" } else { "low" }.to_string(),
        ),
        (
            "flush_compare",
            if r.flush_suit_first {
                "suit-first"
            } else {
                "ranks"
            }
            .to_string(),
        ),
        (
            "tie_break",
            if r.tie_break_suit { "suit" } else { "none" }.to_string(),
        ),
        ("row_points", rules.row_points.to_string()),
        ("overall_point", rules.overall_point.to_string()),
        ("royalty_mode", mode.to_string()),
        ("royalty_adds", rules.royalty_adds.to_string()),
        ("scoop_multiplier", rules.scoop_multiplier.to_string()),
        ("scoop_bonus", rules.scoop_bonus.to_string()),
        (
            "sweep_all_multiplier",
            rules.sweep_all_multiplier.to_string(),
        ),
        ("sweep_all_bonus", rules.sweep_all_bonus.to_string()),
        (
            "sweep_all_min_players",
            rules.sweep_all_min_players.to_string(),
        ),
        ("royalties", roy.join(",")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Distance between `rules` and the rules `tables` were trained for: 1000
/// per ranking knob that differs (wheel, flush_compare), then the scoring
/// knobs weighted by how much they move points (multipliers and row points
/// x3, bonuses and the overall point x1, royalties x0.25 each, royalty mode
/// and adds x5).
pub fn scoring_distance(rules: &Rules, tables: &Tables) -> f64 {
    let mine = rules_meta(rules);
    let mut d = 0.0;
    for (k, v) in &mine {
        let Some(theirs) = tables.get(k) else {
            d += 10.0;
            continue;
        };
        let w = match k.as_str() {
            "wheel" | "flush_compare" => 1000.0,
            "tie_break" => 0.5,
            "royalty_mode" | "royalty_adds" => 5.0,
            "row_points" | "scoop_multiplier" | "sweep_all_multiplier" => 3.0,
            "sweep_all_min_players" => 1.0,
            _ => 1.0,
        };
        if k == "royalties" {
            let a: Vec<f64> = v.split(',').filter_map(|x| x.parse().ok()).collect();
            let b: Vec<f64> = theirs.split(',').filter_map(|x| x.parse().ok()).collect();
            d += a
                .iter()
                .zip(b.iter())
                .map(|(x, y)| (x - y).abs())
                .sum::<f64>()
                * 0.25;
        } else if let (Ok(x), Ok(y)) = (v.parse::<f64>(), theirs.parse::<f64>()) {
            d += w * (x - y).abs();
        } else if v != theirs {
            d += w;
        }
    }
    d
}

macro_rules! shipped_file {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/python/capsa/tables/",
                $name,
                ".bin"
            )) as &[u8],
        )
    };
}

fn shipped() -> &'static [(&'static str, Tables)] {
    static SHIPPED: OnceLock<Vec<(&'static str, Tables)>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        let files: [(&str, &[u8]); 6] = [
            shipped_file!("capsa-susun"),
            shipped_file!("pagat"),
            shipped_file!("2-4"),
            shipped_file!("1-6"),
            shipped_file!("mau-binh"),
            shipped_file!("hawaiian-gardens"),
        ];
        files
            .iter()
            .map(|(n, b)| (*n, Tables::from_bytes(b).expect("shipped tables parse")))
            .collect()
    })
}

// ------------------------------------------------------------------ model

/// Win/tie/lose probabilities of a row hand and, per outcome, the expected
/// row points (`v`) and royalty net (`r`), both already multiplied by the
/// outcome's probability. Index 0 win, 1 tie, 2 lose.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowOutcome {
    pub p: [f64; 3],
    pub v: [f64; 3],
    pub r: [f64; 3],
}

impl RowOutcome {
    #[inline(always)]
    fn total(&self) -> f64 {
        self.v[0] + self.v[1] + self.v[2] + self.r[0] + self.r[1] + self.r[2]
    }
}

/// One row's opponent distribution compiled for some rules: prefix sums over
/// the sorted classes and a hash index for exact hits.
struct RowModel {
    keys: Vec<u32>,
    /// Exclusive prefix sums (len n + 1) of p, p*R, p*R*[R > rp], p*[R <= rp].
    cp: Vec<f64>,
    cr: Vec<f64>,
    cbig: Vec<f64>,
    csmall: Vec<f64>,
    /// Open addressing: (class, index + 1); index 0 marks an empty slot.
    slots: Vec<(u32, u32)>,
    bits: u32,
    /// Fast-score values (value, P(win), P(lose)) of a hand of each class.
    fast: Vec<[f32; 3]>,
    /// The classes the opponent plays (weight > 0): class, probability,
    /// royalty and the cards that make it, for the card-removal reweighting.
    live: LiveSet,
}

/// The ranks (and for flushes the suits) a rank class is made of.
#[derive(Clone, Copy, Debug, Default)]
struct ClassCards {
    /// Distinct ranks and how many cards of each.
    ranks: [u8; 5],
    counts: [u8; 5],
    len: u8,
    /// 0: any suits (the rank groups decide); 1: five distinct ranks that
    /// are not a flush; 2: a flush in one of `suits`.
    kind: u8,
    suits: u8,
}

/// What the hand's own 13 cards leave for an opponent: per rank the
/// available suits as a 4-bit mask (index 13: all four), and per (rank,
/// group size) the share C(available, size) / C(4, size) of the group's card
/// combinations still possible (index 65: one).
struct Removal {
    masks: [u8; 14],
    share: [f32; 66],
}

impl Removal {
    fn new(cards: &[u8]) -> Removal {
        let mut masks = [0xfu8; 14];
        for &c in cards {
            masks[(c >> 2) as usize] &= !(1 << (c & 3));
        }
        let mut share = [1.0f32; 66];
        for r in 0..13 {
            let a = masks[r].count_ones() as usize;
            for n in 0..5 {
                let mut c = 1.0;
                for k in 0..n {
                    c *= a.saturating_sub(k) as f32 / (4 - k) as f32;
                }
                share[5 * r + n] = c;
            }
        }
        Removal { masks, share }
    }
}

/// The classes the opponent plays in a row, compiled for the card-removal
/// pass, in three class-sorted lists by how the share of their card
/// combinations left is computed. Each entry carries `[p, p * royalty, p *
/// royalty if it beats the row points, p if not]`, scaled by the share.
#[derive(Default)]
struct LiveSet {
    /// Paired five-card hands and every three-card hand: the product of the
    /// rank groups' shares (`Removal::share` indices, 65 pads).
    grouped: LiveList<[u8; 4]>,
    /// Five distinct ranks, not a flush: the rank combinations left minus
    /// the flushes among them, over 4^5 - 4.
    distinct: LiveList<[u8; 5]>,
    /// Flushes: the share of the class's suits still possible at every rank
    /// (the ranks and the suit mask; 1 / |suits| is in the values).
    flush: LiveList<([u8; 5], u8)>,
}

#[derive(Default)]
struct LiveList<T> {
    class: Vec<u32>,
    cards: Vec<T>,
    val: Vec<[f32; 4]>,
}

impl<T> LiveList<T> {
    fn push(&mut self, class: u32, cards: T, val: [f32; 4]) {
        self.class.push(class);
        self.cards.push(cards);
        self.val.push(val);
    }

    /// Σ share * val over the entries from `*pos` on whose class is below
    /// `hi`; advances `*pos` past them.
    #[inline(always)]
    fn sum_until(&self, pos: &mut usize, hi: u32, share: impl Fn(&T) -> f32) -> [f64; 4] {
        let mut acc = [0f64; 4];
        let mut i = *pos;
        while i < self.class.len() && self.class[i] < hi {
            let f = share(&self.cards[i]) as f64;
            let v = &self.val[i];
            for k in 0..4 {
                acc[k] += f * v[k] as f64;
            }
            i += 1;
        }
        *pos = i;
        acc
    }
}

impl LiveSet {
    fn push(&mut self, class: u32, p: f64, roy: f64, rp: f64, c: &ClassCards) {
        let big = roy > rp;
        let val = [
            p,
            p * roy,
            if big { p * roy } else { 0.0 },
            if big { 0.0 } else { p },
        ];
        let n = c.len as usize;
        let mut ranks = [13u8; 5];
        ranks[..n].copy_from_slice(&c.ranks[..n]);
        match c.kind {
            1 => self.distinct.push(class, ranks, val.map(|x| x as f32)),
            2 => {
                let inv = 1.0 / c.suits.count_ones().max(1) as f64;
                self.flush
                    .push(class, (ranks, c.suits), val.map(|x| (x * inv) as f32));
            }
            _ => {
                let mut idx = [65u8; 4];
                for (x, (r, k)) in idx.iter_mut().zip(c.ranks.iter().zip(&c.counts)).take(n) {
                    *x = 5 * r + k;
                }
                self.grouped.push(class, idx, val.map(|x| x as f32));
            }
        }
    }

    /// Σ over the classes from the cursors on that are below `hi` of the
    /// share of combinations left times the values; advances the cursors.
    fn sum_until(&self, rm: &Removal, pos: &mut [usize; 3], hi: u32) -> [f64; 4] {
        let s = &rm.share;
        let m = &rm.masks;
        let g = self.grouped.sum_until(&mut pos[0], hi, |i| {
            s[i[0] as usize] * s[i[1] as usize] * s[i[2] as usize] * s[i[3] as usize]
        });
        let d = self.distinct.sum_until(&mut pos[1], hi, |r| {
            let k = r.map(|x| m[x as usize]);
            let prod: u32 = k.iter().map(|x| x.count_ones()).product();
            let all = k[0] & k[1] & k[2] & k[3] & k[4];
            (prod - all.count_ones()) as f32 * (1.0 / 1020.0)
        });
        let f = self.flush.sum_until(&mut pos[2], hi, |(r, suits)| {
            let all = m[r[0] as usize]
                & m[r[1] as usize]
                & m[r[2] as usize]
                & m[r[3] as usize]
                & m[r[4] as usize]
                & suits;
            all.count_ones() as f32
        });
        std::array::from_fn(|k| g[k] + d[k] + f[k])
    }
}

/// Cumulative sums of a row's opponent distribution over sorted classes
/// (see [`RowModel`]); probabilities sum to one.
struct Cum<'a> {
    keys: &'a [u32],
    cp: &'a [f64],
    cr: &'a [f64],
    cbig: &'a [f64],
    csmall: &'a [f64],
}

/// A row's opponent distribution reweighted for one hand's card removal,
/// summed over the buckets that a few query classes cut the classes into:
/// in doubled class space, key `2q - 1` holds the classes between the
/// previous query and `q`, key `2q` the class `q`, and a last key the
/// classes above every query. Answers exactly for the query classes.
#[derive(Default)]
struct Adjusted {
    keys: Vec<u32>,
    cp: Vec<f64>,
    cr: Vec<f64>,
    cbig: Vec<f64>,
    csmall: Vec<f64>,
}

impl Adjusted {
    /// `queries`: sorted, distinct classes.
    fn new(md: &RowModel, rm: &Removal, queries: &[u32]) -> Adjusted {
        let k = queries.len();
        let nb = 2 * k + 1;
        let mut sums = Vec::with_capacity(nb);
        let mut pos = [0usize; 3];
        for &q in queries {
            sums.push(md.live.sum_until(rm, &mut pos, q));
            sums.push(md.live.sum_until(rm, &mut pos, q + 1));
        }
        sums.push(md.live.sum_until(rm, &mut pos, u32::MAX));
        let total: f64 = sums.iter().map(|x| x[0]).sum();
        let inv = if total > 0.0 { 1.0 / total } else { 0.0 };
        let mut a = Adjusted {
            keys: Vec::with_capacity(nb),
            cp: Vec::with_capacity(nb + 1),
            cr: Vec::with_capacity(nb + 1),
            cbig: Vec::with_capacity(nb + 1),
            csmall: Vec::with_capacity(nb + 1),
        };
        for q in queries {
            a.keys.push((2 * q).saturating_sub(1));
            a.keys.push(2 * q);
        }
        a.keys.push(u32::MAX);
        let mut acc = [0f64; 4];
        for x in &sums {
            a.cp.push(acc[0]);
            a.cr.push(acc[1]);
            a.cbig.push(acc[2]);
            a.csmall.push(acc[3]);
            for (t, v) in acc.iter_mut().zip(x.iter()) {
                *t += v * inv;
            }
        }
        a.cp.push(acc[0]);
        a.cr.push(acc[1]);
        a.cbig.push(acc[2]);
        a.csmall.push(acc[3]);
        a
    }

    fn cum(&self) -> Cum<'_> {
        Cum {
            keys: &self.keys,
            cp: &self.cp,
            cr: &self.cr,
            cbig: &self.cbig,
            csmall: &self.csmall,
        }
    }

    /// Position of a query class's own bucket (always a hit).
    #[inline(always)]
    fn locate(&self, class: u32) -> (usize, bool) {
        let i = self.keys.partition_point(|&k| k < 2 * class);
        debug_assert_eq!(self.keys.get(i), Some(&(2 * class)));
        (i, true)
    }
}

impl RowModel {
    fn new(rules: &Rules, row: usize, dist: &[(u32, f64)]) -> RowModel {
        // every class of the row's hand size, so that lookups always hit
        let classes = all_classes(&rules.evaluator, row != TOP);
        let mut all: Vec<(u32, f64)> = dist.to_vec();
        all.extend(classes.iter().map(|c| (c.0, 0.0)));
        all.sort_by_key(|x| x.0);
        all.dedup_by(|later, first| {
            if later.0 == first.0 {
                first.1 += later.1;
                true
            } else {
                false
            }
        });
        let dist = &all[..];
        let total: f64 = dist.iter().map(|x| x.1).sum::<f64>().max(1e-300);
        let n = dist.len();
        let mut cp = Vec::with_capacity(n + 1);
        let mut cr = Vec::with_capacity(n + 1);
        let mut cbig = Vec::with_capacity(n + 1);
        let mut csmall = Vec::with_capacity(n + 1);
        let (mut a, mut b, mut c, mut d) = (0.0, 0.0, 0.0, 0.0);
        let rp = rules.row_points as f64;
        let mut live = LiveSet::default();
        for &(class, w) in dist {
            cp.push(a);
            cr.push(b);
            cbig.push(c);
            csmall.push(d);
            let p = w / total;
            let roy = royalty_of_class(rules, row, class);
            if p > 0.0 {
                let info = classes
                    .binary_search_by_key(&class, |x| x.0)
                    .map(|k| classes[k].1)
                    .unwrap_or_default();
                live.push(class, p, roy, rp, &info);
            }
            a += p;
            b += p * roy;
            if roy > rp {
                c += p * roy;
            } else {
                d += p;
            }
        }
        cp.push(a);
        cr.push(b);
        cbig.push(c);
        csmall.push(d);
        let bits = (usize::BITS - (2 * n.max(4)).leading_zeros()).max(4);
        let mut slots = vec![(0u32, 0u32); 1 << bits];
        let keys: Vec<u32> = dist.iter().map(|x| x.0).collect();
        for (i, &k) in keys.iter().enumerate() {
            let mut h = hash(k, bits);
            while slots[h].1 != 0 {
                h = (h + 1) & ((1 << bits) - 1);
            }
            slots[h] = (k, i as u32 + 1);
        }
        RowModel {
            keys,
            cp,
            cr,
            cbig,
            csmall,
            slots,
            bits,
            fast: Vec::new(),
            live,
        }
    }

    fn cum(&self) -> Cum<'_> {
        Cum {
            keys: &self.keys,
            cp: &self.cp,
            cr: &self.cr,
            cbig: &self.cbig,
            csmall: &self.csmall,
        }
    }

    /// (position of the first class >= `class`, whether it is equal).
    #[inline(always)]
    fn locate(&self, class: u32) -> (usize, bool) {
        let mask = (1usize << self.bits) - 1;
        let mut h = hash(class, self.bits);
        loop {
            let (k, i) = self.slots[h];
            if i == 0 {
                break;
            }
            if k == class {
                return (i as usize - 1, true);
            }
            h = (h + 1) & mask;
        }
        (self.keys.partition_point(|&k| k < class), false)
    }
}

/// Every rank class of three-card (or five-card) hands under a ranking,
/// sorted, with the cards that make it.
fn all_classes(e: &Evaluator, five: bool) -> Vec<(u32, ClassCards)> {
    let mut out: Vec<(u32, ClassCards)> = Vec::new();
    let groups = |r: &[u8]| {
        let mut c = ClassCards::default();
        for &k in r {
            let n = c.len as usize;
            if n > 0 && c.ranks[n - 1] == k {
                c.counts[n - 1] += 1;
            } else {
                c.ranks[n] = k;
                c.counts[n] = 1;
                c.len += 1;
            }
        }
        c
    };
    if five {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        for x in d..13 {
                            if a == x {
                                continue;
                            }
                            let r = [a, b, c, d, x];
                            let mut info = groups(&r);
                            // suits 0,1,2,3,0 by position: distinct within a
                            // rank group, never a flush
                            let cards: [u8; 5] = std::array::from_fn(|i| 4 * r[i] + (i % 4) as u8);
                            if info.len == 5 {
                                info.kind = 1;
                            }
                            out.push((e.eval5(cards) >> CLASS_SHIFT, info));
                            if info.len == 5 {
                                for suit in 0..4 {
                                    let f = ClassCards {
                                        kind: 2,
                                        suits: 1 << suit,
                                        ..info
                                    };
                                    out.push((e.eval5(r.map(|k| 4 * k + suit)) >> CLASS_SHIFT, f));
                                }
                            }
                        }
                    }
                }
            }
        }
    } else {
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    let info = groups(&[a, b, c]);
                    out.push((e.eval3([4 * a, 4 * b + 1, 4 * c + 2]) >> CLASS_SHIFT, info));
                }
            }
        }
    }
    out.sort_unstable_by_key(|x| x.0);
    // one class for several suits of a flush (unless the suit ranks it)
    out.dedup_by(|later, first| {
        if later.0 == first.0 {
            first.1.suits |= later.1.suits;
            true
        } else {
            false
        }
    });
    out
}

fn fast_of(o: &RowOutcome) -> [f32; 3] {
    [o.total() as f32, o.p[0] as f32, o.p[2] as f32]
}

#[inline(always)]
fn hash(k: u32, bits: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

fn royalty_of_class(rules: &Rules, row: usize, class: u32) -> f64 {
    if rules.royalty_mode == RoyaltyMode::None {
        return 0.0;
    }
    // total for any class: a category beyond the royalty table pays nothing
    let category = (class >> (28 - CLASS_SHIFT)) as usize;
    rules.royalties[row].get(category).copied().unwrap_or(0) as f64
}

/// The solver's strategies (and baselines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Maximises the expected points (the model above).
    Solver,
    /// The model without the scoop and sweep-all terms: rows scored apart.
    Separable,
    /// Strongest bottom, then the strongest middle of the rest.
    Greedy,
    /// A uniformly random valid split (seeded by the cards: deterministic).
    Random,
}

pub const STRATEGY_NAMES: [&str; 4] = ["solver", "separable", "greedy", "random"];

impl Strategy {
    pub fn from_name(name: &str) -> Result<Strategy> {
        match name {
            "solver" => Ok(Strategy::Solver),
            "separable" => Ok(Strategy::Separable),
            "greedy" => Ok(Strategy::Greedy),
            "random" => Ok(Strategy::Random),
            _ => Err(Error::rules(format!(
                "unknown strategy {name:?}; the strategies are {}",
                STRATEGY_NAMES.join(", ")
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Solver => "solver",
            Strategy::Separable => "separable",
            Strategy::Greedy => "greedy",
            Strategy::Random => "random",
        }
    }
}

/// One arrangement choice: the 13 ids laid out top 0-2, middle 3-7, bottom
/// 8-12 (each row by ascending id), whether to declare the hand's natural,
/// and the estimated expected points of the hand (summed over opponents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    pub cards: [u8; 13],
    pub declare_natural: bool,
    pub expected_points: f64,
}

/// A solver compiled for one rules, tables and table size.
pub struct Solver {
    rules: Rules,
    seats: usize,
    model: [RowModel; 3],
    /// Fast-score scoop gain per pattern probability.
    scoop_gain: f64,
    /// Sweep-all gain over the scoop rate per opponent, 0 when not possible.
    sweep_gain: f64,
    sweep_on: bool,
    scoop_rate: f64,
    separable: bool,
    tables_name: String,
}

#[derive(Clone, Copy)]
struct Cand {
    score: f32,
    t: u16,
    m: u16,
    b: u16,
}

/// Fast-score values of one five-card subset: strength, then (value,
/// P(win), P(lose)) as a middle and as a bottom.
#[derive(Clone, Copy, Default)]
struct P5 {
    s: u32,
    m: [f32; 3],
    b: [f32; 3],
}

/// The strengths of every 3- and 5-card subset of a sorted hand, in the
/// split table's subset order (lexicographic position lists), on the stack.
pub struct Hand {
    pub cards: [u8; 13],
    pub s3: [u32; SUBSETS3],
    pub s5: [u32; SUBSETS5],
}

impl Hand {
    /// Checks and sorts the 13 cards and ranks every subset.
    pub fn new(e: &Evaluator, cards: &[u8]) -> Result<Hand> {
        check_hand(cards, &[13], "a hand to arrange")?;
        let mut c: [u8; 13] = cards.try_into().expect("13 cards");
        c.sort_unstable();
        let mut s3 = [0u32; SUBSETS3];
        let mut k = 0;
        for a in 0..11 {
            for b in a + 1..12 {
                for d in b + 1..13 {
                    s3[k] = e.eval3([c[a], c[b], c[d]]);
                    k += 1;
                }
            }
        }
        let mut s5 = [0u32; SUBSETS5];
        k = 0;
        for a in 0..9 {
            for b in a + 1..10 {
                for x in b + 1..11 {
                    for y in x + 1..12 {
                        for z in y + 1..13 {
                            s5[k] = e.eval5([c[a], c[b], c[x], c[y], c[z]]);
                            k += 1;
                        }
                    }
                }
            }
        }
        Ok(Hand { cards: c, s3, s5 })
    }
}

struct ScanArgs<'a> {
    s3: &'a [u32; SUBSETS3],
    ft: &'a [[f32; 3]; SUBSETS3],
    f5: &'a [P5; 2048],
    gain: f32,
    sweep: f32,
    sweep_l: f32,
    keep: usize,
}

#[cold]
#[inline(never)]
fn insert(best: &mut Vec<Cand>, keep: usize, c: Cand) -> f32 {
    let pos = best.partition_point(|x| x.score >= c.score);
    best.insert(pos, c);
    if best.len() > keep {
        best.pop();
    }
    if best.len() == keep {
        best[keep - 1].score
    } else {
        f32::NEG_INFINITY
    }
}

/// The fast-score scan over every valid split; `SWEEP` is the power of
/// P(win all three) in the sweep-all term (0: no term).
fn scan<const STRICT: bool, const SWEEP: u8>(a: &ScanArgs) -> Vec<Cand> {
    let pairs = pair_table();
    let mut best: Vec<Cand> = Vec::with_capacity(a.keep + 1);
    let mut threshold = f32::NEG_INFINITY;
    for t in 0..SUBSETS3 {
        let st = a.s3[t];
        let [tv, tw, tl] = a.ft[t];
        for &[x, y] in &pairs[t * 126..t * 126 + 126] {
            let (px, py) = (&a.f5[x as usize & 2047], &a.f5[y as usize & 2047]);
            let (pm, pb, m, b) = if px.s <= py.s {
                (px, py, x, y)
            } else {
                (py, px, y, x)
            };
            let ok = if STRICT {
                (pb.s > pm.s) & (pm.s > st)
            } else {
                pm.s >= st
            };
            let pw3 = tw * pm.m[1] * pb.b[1];
            let pl3 = tl * pm.m[2] * pb.b[2];
            let mut score = tv + pm.m[0] + pb.b[0] + a.gain * (pw3 - pl3);
            if SWEEP > 0 {
                let sw = match SWEEP {
                    1 => pw3,
                    2 => pw3 * pw3,
                    _ => pw3 * pw3 * pw3,
                };
                score += a.sweep * sw - a.sweep_l * pl3;
            }
            // branch-free validity: an invalid split never passes, a valid
            // one always does (a NaN or -inf score from extreme rules
            // becomes the lowest finite score, so the scan keeps a split)
            let score = if ok {
                score.max(f32::MIN)
            } else {
                f32::NEG_INFINITY
            };
            if score > threshold {
                threshold = insert(
                    &mut best,
                    a.keep,
                    Cand {
                        score,
                        t: t as u16,
                        m,
                        b,
                    },
                );
            }
        }
    }
    best
}

/// For each top (index into the 3-subsets): the 126 unordered pairs of
/// complementary 5-subsets of the other ten cards.
fn pair_table() -> &'static Vec<[u16; 2]> {
    static PAIRS: OnceLock<Vec<[u16; 2]>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let t = splits::table();
        let mut index5 = vec![u16::MAX; 1 << 13];
        for (i, &m) in t.masks5.iter().enumerate() {
            index5[m as usize] = i as u16;
        }
        let full: u16 = (1 << 13) - 1;
        let mut out = Vec::with_capacity(SUBSETS3 * 126);
        for &top in &t.masks3 {
            let rest = full & !top;
            let low = rest & rest.wrapping_neg();
            for &m in &t.masks5 {
                if m & top == 0 && m & low != 0 {
                    out.push([index5[m as usize], index5[(rest & !m) as usize]]);
                }
            }
        }
        debug_assert_eq!(out.len(), SUBSETS3 * 126);
        out
    })
}

impl Solver {
    /// Compiles the solver. `seats` is the table size (2..=4).
    pub fn new(rules: &Rules, tables: &Tables, seats: usize) -> Result<Solver> {
        if !(2..=4).contains(&seats) {
            return Err(Error::table(format!(
                "a table has 2 to 4 seats, got {seats}"
            )));
        }
        // tables built in Rust rather than read by `from_bytes` are checked too
        tables.validate()?;
        let rp = rules.row_points as f64;
        let op = rules.overall_point as f64;
        let m = rules.scoop_multiplier as f64;
        let sweep_on = seats >= rules.sweep_all_min_players;
        let ms = rules.sweep_all_multiplier as f64;
        let mut solver = Solver {
            model: [
                RowModel::new(rules, TOP, &tables.rows[TOP]),
                RowModel::new(rules, MIDDLE, &tables.rows[MIDDLE]),
                RowModel::new(rules, BOTTOM, &tables.rows[BOTTOM]),
            ],
            scoop_gain: (m - 1.0) * (3.0 * rp + op) + rules.scoop_bonus as f64,
            sweep_gain: if sweep_on {
                (ms - m) * (3.0 * rp + op) + rules.sweep_all_bonus as f64 - rules.scoop_bonus as f64
            } else {
                0.0
            },
            sweep_on,
            scoop_rate: tables.get_f64("scoop_rate").unwrap_or(0.05),
            rules: rules.clone(),
            seats,
            separable: false,
            tables_name: tables.name().to_string(),
        };
        for row in 0..3 {
            let fast: Vec<[f32; 3]> = solver.model[row]
                .keys
                .iter()
                .map(|&k| fast_of(&solver.row_outcome(row, k << CLASS_SHIFT)))
                .collect();
            solver.model[row].fast = fast;
        }
        Ok(solver)
    }

    /// (value, P(win), P(lose)) of a row hand, as the fast score uses them.
    #[inline(always)]
    fn fast_outcome(&self, row: usize, s: u32) -> [f32; 3] {
        let md = &self.model[row];
        match md.locate(s >> CLASS_SHIFT) {
            (i, true) => md.fast[i],
            _ => fast_of(&self.row_outcome(row, s)),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seats(&self) -> usize {
        self.seats
    }

    pub fn tables_name(&self) -> &str {
        &self.tables_name
    }

    /// The same solver with the scoop and sweep terms switched off.
    pub fn separable(mut self) -> Solver {
        self.separable = true;
        self
    }

    /// Outcomes of a row hand of strength `s` in `row`.
    pub fn row_outcome(&self, row: usize, s: u32) -> RowOutcome {
        let md = &self.model[row];
        let (i, hit) = md.locate(s >> CLASS_SHIFT);
        self.outcome_in(row, s, &md.cum(), i, hit)
    }

    /// Outcomes of a row hand against the distribution reweighted for the
    /// card removal of the hand it comes from.
    fn row_outcome_adjusted(&self, row: usize, s: u32, adj: &Adjusted) -> RowOutcome {
        let (i, hit) = adj.locate(s >> CLASS_SHIFT);
        self.outcome_in(row, s, &adj.cum(), i, hit)
    }

    /// The opponent distributions of the three rows given the hand's cards.
    /// `strengths[row]` lists the row hands to be asked about.
    fn adjusted(&self, cards: &[u8], strengths: [Vec<u32>; 3]) -> [Adjusted; 3] {
        let rm = Removal::new(cards);
        let mut q = strengths;
        std::array::from_fn(|row| {
            let q = &mut q[row];
            for s in q.iter_mut() {
                *s >>= CLASS_SHIFT;
            }
            q.sort_unstable();
            q.dedup();
            Adjusted::new(&self.model[row], &rm, q)
        })
    }

    /// Outcomes of a row hand of strength `s` against the cumulative
    /// distribution `md`, where `i` is the position of the first class >= the
    /// hand's and `hit` whether it is equal.
    #[inline(always)]
    fn outcome_in(&self, row: usize, s: u32, md: &Cum, i: usize, hit: bool) -> RowOutcome {
        let rules = &self.rules;
        let total = md.cp[md.keys.len()];
        let lt = md.cp[i];
        let eq = if hit { md.cp[i + 1] - md.cp[i] } else { 0.0 };
        let gt = (total - lt - eq).max(0.0);
        let above = if hit { i + 1 } else { i };
        let n = md.keys.len();
        // Σ over classes above mine of p*R etc.
        let r_gt = md.cr[n] - md.cr[above];
        let big_gt = md.cbig[n] - md.cbig[above];
        let small_gt = md.csmall[n] - md.csmall[above];
        let r_lt = md.cr[i];
        let rp = rules.row_points as f64;
        let mine = if rules.royalty_mode == RoyaltyMode::None {
            0.0
        } else {
            rules.royalty(row, s) as f64
        };
        // equal classes: a tie, or half and half under the suit tie-break
        let (w, t, l, eq_l) = if rules.evaluator.ranking.tie_break_suit {
            (lt + 0.5 * eq, 0.0, gt + 0.5 * eq, 0.5 * eq)
        } else {
            (lt, eq, gt, 0.0)
        };
        let mut o = RowOutcome {
            p: [w, t, l],
            ..RowOutcome::default()
        };
        match rules.royalty_mode {
            RoyaltyMode::Winner | RoyaltyMode::None => {
                let adds = rules.royalty_adds || rules.royalty_mode == RoyaltyMode::None;
                if adds {
                    o.v = [rp * w, 0.0, -rp * l];
                    o.r = [mine * w, 0.0, -(r_gt + mine * eq_l)];
                } else {
                    if mine > rp {
                        o.v[0] = 0.0;
                        o.r[0] = mine * w;
                    } else {
                        o.v[0] = rp * w;
                    }
                    let (eq_small, eq_big) = if mine > rp {
                        (0.0, mine * eq_l)
                    } else {
                        (eq_l, 0.0)
                    };
                    o.v[2] = -rp * (small_gt + eq_small);
                    o.r[2] = -(big_gt + eq_big);
                }
            }
            RoyaltyMode::Always => {
                o.v = [rp * w, 0.0, -rp * l];
                let r_eq = mine * eq;
                // opponent royalty mass per outcome region
                let (ow, ot, ol) = if rules.evaluator.ranking.tie_break_suit {
                    (r_lt + 0.5 * r_eq, 0.0, r_gt + 0.5 * r_eq)
                } else {
                    (r_lt, r_eq, r_gt)
                };
                o.r = [mine * w - ow, mine * t - ot, mine * l - ol];
            }
        }
        o
    }

    /// Exact expected points of a split for the whole hand (all opponents),
    /// under the row-independence model.
    pub fn exact_value(&self, rows: &[RowOutcome; 3]) -> f64 {
        let r = &self.rules;
        let rp_op = r.overall_point as f64;
        let m = r.scoop_multiplier as f64;
        let b = r.scoop_bonus as f64;
        let mult = r.scoop_multiply_royalties;
        let mut pair = 0.0;
        let mut e_rows_w = 0.0; // E[rows; all win], E[roy; all win]
        let mut e_roy_w = 0.0;
        let mut e_rows_l = 0.0;
        let mut e_roy_l = 0.0;
        let (mut pw3, mut pl3) = (0.0, 0.0);
        for o0 in 0..3 {
            for o1 in 0..3 {
                for o2 in 0..3 {
                    let o = [o0, o1, o2];
                    let p = [rows[0].p[o0], rows[1].p[o1], rows[2].p[o2]];
                    let pp = p[0] * p[1] * p[2];
                    if pp == 0.0 {
                        continue;
                    }
                    // E[rows * 1(pattern)], E[roy * 1(pattern)]
                    let ev = rows[0].v[o0] * p[1] * p[2]
                        + rows[1].v[o1] * p[0] * p[2]
                        + rows[2].v[o2] * p[0] * p[1];
                    let er = rows[0].r[o0] * p[1] * p[2]
                        + rows[1].r[o1] * p[0] * p[2]
                        + rows[2].r[o2] * p[0] * p[1];
                    let wins = o.iter().filter(|&&x| x == 0).count();
                    let losses = o.iter().filter(|&&x| x == 2).count();
                    let overall = if wins > losses {
                        rp_op
                    } else if losses > wins {
                        -rp_op
                    } else {
                        0.0
                    };
                    if wins == 3 && !self.separable {
                        pair += (ev + overall * pp) * m + b * pp + er * if mult { m } else { 1.0 };
                        e_rows_w += ev + overall * pp;
                        e_roy_w += er;
                        pw3 += pp;
                    } else if losses == 3 && !self.separable {
                        pair += (ev + overall * pp) * m - b * pp + er * if mult { m } else { 1.0 };
                        e_rows_l += ev + overall * pp;
                        e_roy_l += er;
                        pl3 += pp;
                    } else {
                        pair += ev + overall * pp + er;
                    }
                }
            }
        }
        let opp = (self.seats - 1) as f64;
        let mut total = opp * pair;
        if self.sweep_on && !self.separable {
            let ms = r.sweep_all_multiplier as f64;
            let extra_b = r.sweep_all_bonus as f64 - r.scoop_bonus as f64;
            let roy_m = if mult { ms - m } else { 0.0 };
            // per opponent, conditional on sweeping all: E[gain; all win]
            let gain_w = (ms - m) * e_rows_w + extra_b * pw3 + roy_m * e_roy_w;
            let gain_l = (ms - m) * e_rows_l - extra_b * pl3 + roy_m * e_roy_l;
            let others = (self.seats - 2) as i32;
            // I sweep all: win all three against every opponent.
            total += opp * gain_w * pw3.powi(others);
            // An opponent sweeps all (including me).
            total += opp * gain_l * self.scoop_rate.powi(others);
        }
        total
    }

    fn strengths(&self, cards: &[u8]) -> Result<Hand> {
        Hand::new(&self.rules.evaluator, cards)
    }

    /// The `keep` best valid splits by the fast score, refined by the exact
    /// value and sorted best first.
    fn candidates(&self, h: &Hand, keep: usize) -> Vec<(f64, u16, u16, u16)> {
        let strict = self.rules.foul_strict;
        let mut ft = [[0f32; 3]; SUBSETS3];
        for (f, &s) in ft.iter_mut().zip(h.s3.iter()) {
            *f = self.fast_outcome(TOP, s);
        }
        // 2048 entries so that masked u16 indices need no bounds checks
        let mut f5 = [P5::default(); 2048];
        for (f, &s) in f5.iter_mut().zip(h.s5.iter()) {
            *f = P5 {
                s,
                m: self.fast_outcome(MIDDLE, s),
                b: self.fast_outcome(BOTTOM, s),
            };
        }
        let gain = if self.separable {
            0.0
        } else {
            self.scoop_gain as f32
        };
        let others = (self.seats as i32 - 2).max(0);
        let sweep = if self.separable {
            0.0
        } else {
            self.sweep_gain as f32
        };
        let sweep_l = sweep * self.scoop_rate.powi(others) as f32;
        let args = ScanArgs {
            s3: &h.s3,
            ft: &ft,
            f5: &f5,
            gain,
            sweep,
            sweep_l,
            keep,
        };
        let best = match (strict, if sweep != 0.0 { others + 1 } else { 0 }) {
            (false, 0) => scan::<false, 0>(&args),
            (false, 1) => scan::<false, 1>(&args),
            (false, 2) => scan::<false, 2>(&args),
            (false, _) => scan::<false, 3>(&args),
            (true, 0) => scan::<true, 0>(&args),
            (true, 1) => scan::<true, 1>(&args),
            (true, 2) => scan::<true, 2>(&args),
            (true, _) => scan::<true, 3>(&args),
        };
        let adj = self.adjusted(
            &h.cards,
            [
                best.iter().map(|c| h.s3[c.t as usize]).collect(),
                best.iter().map(|c| h.s5[c.m as usize]).collect(),
                best.iter().map(|c| h.s5[c.b as usize]).collect(),
            ],
        );
        let mut out: Vec<(f64, u16, u16, u16)> = best
            .iter()
            .map(|c| {
                let rows = [
                    self.row_outcome_adjusted(TOP, h.s3[c.t as usize], &adj[TOP]),
                    self.row_outcome_adjusted(MIDDLE, h.s5[c.m as usize], &adj[MIDDLE]),
                    self.row_outcome_adjusted(BOTTOM, h.s5[c.b as usize], &adj[BOTTOM]),
                ];
                (self.exact_value(&rows), c.t, c.m, c.b)
            })
            .collect();
        // stable: equal values keep the fast order (deterministic)
        out.sort_by(|x, y| y.0.total_cmp(&x.0));
        out
    }

    /// Expected points of declaring the hand's natural (all opponents).
    fn natural_value(&self, pts: i64) -> f64 {
        (self.seats - 1) as f64 * pts as f64
    }

    /// The `k` best choices, best first. When declaring the natural scores
    /// more than the best arrangement, the first entry declares it (with
    /// the best arrangement's cards).
    pub fn rank(&self, cards: &[u8], k: usize) -> Result<Vec<Choice>> {
        let ss = self.strengths(cards)?;
        // more candidates than valid splits can never be kept
        let cands = self.candidates(&ss, k.clamp(REFINE, SUBSETS3 * 126));
        let mut out: Vec<Choice> = cands
            .iter()
            .map(|&(v, t, m, b)| Choice {
                cards: splits::layout_of(&ss.cards, t, m, b),
                declare_natural: false,
                expected_points: v,
            })
            .collect();
        if let Some((_, pts)) = naturals::strongest(&ss.cards, &self.rules.naturals) {
            let v = self.natural_value(pts);
            if let Some(first) = out.first().copied() {
                let pos = out.partition_point(|c| c.expected_points >= v);
                out.insert(
                    pos,
                    Choice {
                        cards: first.cards,
                        declare_natural: true,
                        expected_points: v,
                    },
                );
            }
        }
        out.truncate(k);
        Ok(out)
    }

    /// The best choice.
    pub fn best(&self, cards: &[u8]) -> Result<Choice> {
        let ss = self.strengths(cards)?;
        let cands = self.candidates(&ss, REFINE);
        let &(v, t, m, b) = cands.first().ok_or_else(no_valid_split)?;
        let mut choice = Choice {
            cards: splits::layout_of(&ss.cards, t, m, b),
            declare_natural: false,
            expected_points: v,
        };
        if let Some((_, pts)) = naturals::strongest(&ss.cards, &self.rules.naturals) {
            let nv = self.natural_value(pts);
            if nv > v {
                choice.declare_natural = true;
                choice.expected_points = nv;
            }
        }
        Ok(choice)
    }

    /// The expected points the model gives an arrangement (top 0-2, middle
    /// 3-7, bottom 8-12), or `None` when it fouls.
    pub fn value_of(&self, arranged: &[u8; 13]) -> Option<f64> {
        let e = &self.rules.evaluator;
        let s = [
            e.eval3([arranged[0], arranged[1], arranged[2]]),
            e.eval5(arranged[3..8].try_into().expect("5")),
            e.eval5(arranged[8..].try_into().expect("5")),
        ];
        if !splits::is_valid(s[0], s[1], s[2], self.rules.foul_strict) {
            return None;
        }
        let adj = self.adjusted(arranged, [vec![s[0]], vec![s[1]], vec![s[2]]]);
        let rows = [
            self.row_outcome_adjusted(TOP, s[0], &adj[TOP]),
            self.row_outcome_adjusted(MIDDLE, s[1], &adj[MIDDLE]),
            self.row_outcome_adjusted(BOTTOM, s[2], &adj[BOTTOM]),
        ];
        Some(self.exact_value(&rows))
    }
}

fn no_valid_split() -> Error {
    Error::hand("no arrangement of these 13 cards passes the rules' foul check")
}

// ------------------------------------------------------------------ baselines

/// Strongest bottom, then the strongest middle of the other eight cards;
/// `None` if that fouls (possible only with `foul_check = "strict"`).
fn greedy_split(ss: &Hand, strict: bool) -> Option<[u8; 13]> {
    let t = splits::table();
    let bi = (0..SUBSETS5).max_by_key(|&i| (ss.s5[i], std::cmp::Reverse(i)))?;
    let bmask = t.masks5[bi];
    let mi = (0..SUBSETS5)
        .filter(|&i| t.masks5[i] & bmask == 0)
        .max_by_key(|&i| (ss.s5[i], std::cmp::Reverse(i)))?;
    let tmask = ((1u16 << 13) - 1) & !bmask & !t.masks5[mi];
    let ti = t.masks3.iter().position(|&m| m == tmask)?;
    if !splits::is_valid(ss.s3[ti], ss.s5[mi], ss.s5[bi], strict) {
        return None;
    }
    Some(splits::layout_of(
        &ss.cards, ti as u16, mi as u16, bi as u16,
    ))
}

fn random_split(h: &Hand, e: &Evaluator, strict: bool) -> Result<[u8; 13]> {
    let ss = splits::subset_strengths(e, &h.cards);
    let valid: Vec<usize> = (0..splits::SPLITS)
        .filter(|&k| {
            let (a, b, c) = ss.split(k);
            splits::is_valid(a, b, c, strict)
        })
        .collect();
    let seed = ss.cards.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
        (h ^ c as u64).wrapping_mul(0x100_0000_01b3)
    });
    if valid.is_empty() {
        return Err(no_valid_split());
    }
    let mut rng = ChaCha20::from_seed(seed);
    let k = valid[rng.below(valid.len() as u32) as usize];
    Ok(ss.layout(k))
}

/// An arranging strategy ready to play: a solver for the model strategies.
pub struct Arranger {
    pub strategy: Strategy,
    solver: Solver,
}

impl Arranger {
    pub fn new(strategy: Strategy, rules: &Rules, tables: &Tables, seats: usize) -> Result<Self> {
        let mut solver = Solver::new(rules, tables, seats)?;
        if strategy == Strategy::Separable {
            solver = solver.separable();
        }
        Ok(Arranger { strategy, solver })
    }

    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The arrangement and whether to declare a natural. Baselines declare
    /// any natural the rules pay.
    pub fn choose(&self, cards: &[u8]) -> Result<Choice> {
        match self.strategy {
            Strategy::Solver | Strategy::Separable => self.solver.best(cards),
            Strategy::Greedy | Strategy::Random => {
                let ss = self.solver.strengths(cards)?;
                let strict = self.solver.rules.foul_strict;
                let arranged = if self.strategy == Strategy::Greedy {
                    match greedy_split(&ss, strict) {
                        Some(a) => a,
                        None => self.solver.best(cards)?.cards,
                    }
                } else {
                    random_split(&ss, &self.solver.rules.evaluator, strict)?
                };
                let declare = naturals::strongest(&ss.cards, &self.solver.rules.naturals).is_some();
                let expected_points = self.solver.value_of(&arranged).unwrap_or(f64::NAN);
                Ok(Choice {
                    cards: arranged,
                    declare_natural: declare,
                    expected_points,
                })
            }
        }
    }
}

// ------------------------------------------------------------------ cache

type CacheKey = (String, usize, Strategy, u64);
type ArrangerCache = Vec<(CacheKey, Arc<Arranger>)>;

/// A compiled arranger for (rules, tables, seats, strategy), cached.
/// `tables = None` uses [`Tables::nearest`].
pub fn arranger(
    rules: &Rules,
    tables: Option<&Tables>,
    seats: usize,
    strategy: Strategy,
) -> Result<Arc<Arranger>> {
    static CACHE: OnceLock<Mutex<ArrangerCache>> = OnceLock::new();
    let tables_id = match tables {
        None => 0,
        Some(t) => fingerprint(&t.to_bytes()),
    };
    let key: CacheKey = (format!("{rules:?}"), seats, strategy, tables_id);
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, a)) = cache
        .lock()
        .map_err(|_| Error::table("solver cache poisoned"))?
        .iter()
        .find(|(k, _)| *k == key)
    {
        return Ok(a.clone());
    }
    let t = tables.unwrap_or_else(|| Tables::nearest(rules));
    let a = Arc::new(Arranger::new(strategy, rules, t, seats)?);
    let mut c = cache
        .lock()
        .map_err(|_| Error::table("solver cache poisoned"))?;
    if c.len() > 64 {
        c.remove(0);
    }
    c.push((key, a.clone()));
    Ok(a)
}

fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
        (h ^ c as u64).wrapping_mul(0x100_0000_01b3)
    }) | 1
}

/// Arranges many hands (rows of 13 ids) on all cores.
pub fn arrange_batch(arr: &Arranger, hands: &[[u8; 13]]) -> Result<Vec<Choice>> {
    hands.par_iter().map(|h| arr.choose(h)).collect()
}

// ------------------------------------------------------------------ training

/// Seed of deal `i` of a seeded run (independent of the thread count).
pub fn deal_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i.wrapping_add(1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

type Counts = ([HashMap<u32, u64>; 3], u64, u64);

/// Row classes of `deals` four-hand deals arranged by `arr`, and the number
/// of scoops among the pairs (seat 0 vs 1, 2 vs 3) and of pairs.
fn count_rows(arr: &Arranger, deals: usize, seed: u64) -> Result<Counts> {
    let e = arr.solver.rules.evaluator;
    let chunks: Vec<std::ops::Range<usize>> = (0..deals)
        .step_by(256)
        .map(|s| s..(s + 256).min(deals))
        .collect();
    let parts: Vec<Result<Counts>> = chunks
        .into_par_iter()
        .map(|range| {
            let mut c: Counts = Default::default();
            for d in range {
                let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, d as u64)));
                let mut rows = [[0u32; 3]; 4];
                for (seat, r) in rows.iter_mut().enumerate() {
                    let ch = arr.choose(&deck[13 * seat..13 * seat + 13])?;
                    let a = ch.cards;
                    *r = [
                        e.eval3([a[0], a[1], a[2]]),
                        e.eval5(a[3..8].try_into().expect("5")),
                        e.eval5(a[8..].try_into().expect("5")),
                    ];
                    for (map, s) in c.0.iter_mut().zip(r.iter()) {
                        *map.entry(s >> CLASS_SHIFT).or_insert(0) += 1;
                    }
                }
                for (x, y) in [(0, 1), (2, 3)] {
                    let w = (0..3).filter(|&k| rows[x][k] > rows[y][k]).count();
                    let l = (0..3).filter(|&k| rows[x][k] < rows[y][k]).count();
                    c.1 += (w == 3) as u64 + (l == 3) as u64;
                    c.2 += 2;
                }
            }
            Ok(c)
        })
        .collect();
    let mut total: Counts = Default::default();
    for p in parts {
        let p = p?;
        for row in 0..3 {
            for (k, v) in &p.0[row] {
                *total.0[row].entry(*k).or_insert(0) += v;
            }
        }
        total.1 += p.1;
        total.2 += p.2;
    }
    Ok(total)
}

fn counts_to_rows(c: &Counts) -> [Vec<(u32, f64)>; 3] {
    std::array::from_fn(|row| {
        let mut v: Vec<(u32, f64)> = c.0[row].iter().map(|(&k, &n)| (k, n as f64)).collect();
        v.sort_unstable_by_key(|x| x.0);
        v
    })
}

/// Settings of [`train`].
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hands per iteration (dealt four to a deck).
    pub hands: usize,
    /// Best-response iterations after the greedy start.
    pub iterations: usize,
    pub seed: u64,
    /// The table size the opponents play for (the sweep-all terms).
    pub seats: usize,
    /// Name written into the tables' metadata.
    pub name: String,
}

impl TrainConfig {
    /// Checks the name ([`check_tables_name`]: a `RulesError`) and the
    /// ranges of the sizes (an `ArgumentError`).
    pub fn validate(&self) -> Result<()> {
        check_tables_name(&self.name)?;
        let ranges = [
            ("hands", self.hands, 1, MAX_TRAIN_HANDS),
            ("iterations", self.iterations, 0, MAX_TRAIN_ITERATIONS),
            ("seats", self.seats, 2, 4),
        ];
        for (key, v, lo, hi) in ranges {
            if !(lo..=hi).contains(&v) {
                return Err(Error::argument(format!(
                    "training {key} must be {lo} to {hi}, got {v}"
                )));
            }
        }
        Ok(())
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hands: 200_000,
            iterations: 4,
            seed: 1,
            seats: 4,
            name: "custom".into(),
        }
    }
}

/// Computes tables for `rules` by iterated best response: the opponents'
/// row distributions of greedy play, then repeatedly of the solver playing
/// against the current tables; each new estimate is averaged with the
/// previous tables (weights 1/2) to damp oscillation. Every iteration deals
/// fresh hands; the result depends only on the rules and the config.
pub fn train(rules: &Rules, cfg: &TrainConfig) -> Result<Tables> {
    cfg.validate()?;
    let deals = cfg.hands.div_ceil(4).max(1);
    let start_tables = Tables::nearest(rules);
    let greedy = Arranger::new(Strategy::Greedy, rules, start_tables, cfg.seats)?;
    let c = count_rows(&greedy, deals, deal_seed(cfg.seed, 0))?;
    let mut rows = counts_to_rows(&c);
    let mut scoop_rate = c.1 as f64 / c.2.max(1) as f64;
    let make = |rows: &[Vec<(u32, f64)>; 3], scoop_rate: f64, iters: usize| {
        let mut meta = vec![
            ("format".to_string(), "1".to_string()),
            ("preset".to_string(), cfg.name.clone()),
            ("seats".to_string(), cfg.seats.to_string()),
            ("hands".to_string(), (deals * 4).to_string()),
            ("iterations".to_string(), iters.to_string()),
            ("seed".to_string(), cfg.seed.to_string()),
            ("scoop_rate".to_string(), format!("{scoop_rate:.6}")),
        ];
        meta.extend(rules_meta(rules));
        Tables {
            meta,
            rows: rows.clone(),
        }
    };
    for it in 0..cfg.iterations {
        let tables = make(&rows, scoop_rate, it);
        let solver = Arranger::new(Strategy::Solver, rules, &tables, cfg.seats)?;
        let c = count_rows(&solver, deals, deal_seed(cfg.seed, it as u64 + 1))?;
        let fresh = counts_to_rows(&c);
        rows = std::array::from_fn(|r| mix(&rows[r], &fresh[r]));
        scoop_rate = 0.5 * scoop_rate + 0.5 * c.1 as f64 / c.2.max(1) as f64;
    }
    // Whole weights, as the file stores them, so that the tables equal
    // what `from_bytes` reads back. Every class of the last estimate has a
    // weight of at least 1/2, so no row is left empty.
    let whole: [Vec<(u32, f64)>; 3] = std::array::from_fn(|r| {
        rows[r]
            .iter()
            .map(|&(c, w)| (c, w.round()))
            .filter(|&(_, w)| w > 0.0)
            .collect()
    });
    let tables = make(&whole, scoop_rate, cfg.iterations);
    tables.validate()?;
    Ok(tables)
}

fn mix(a: &[(u32, f64)], b: &[(u32, f64)]) -> Vec<(u32, f64)> {
    let ta: f64 = a.iter().map(|x| x.1).sum();
    let tb: f64 = b.iter().map(|x| x.1).sum();
    let mut m: HashMap<u32, f64> = HashMap::new();
    for &(k, w) in a {
        *m.entry(k).or_insert(0.0) += 0.5 * w * tb / ta.max(1e-300);
    }
    for &(k, w) in b {
        *m.entry(k).or_insert(0.0) += 0.5 * w;
    }
    let mut v: Vec<(u32, f64)> = m.into_iter().collect();
    v.sort_unstable_by_key(|x| x.0);
    v
}

/// The shipped or nearest tables' name for rules (for reports).
pub fn tables_for(rules: &Rules) -> &'static Tables {
    Tables::nearest(rules)
}

/// Checks the category of a class (used by tests and tools).
pub fn class_category(class: u32) -> u8 {
    category_of(class << CLASS_SHIFT)
}

#[allow(dead_code)]
fn _natural_type_check(_: Natural) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn hands(n: usize, seed: u64) -> Vec<[u8; 13]> {
        (0..n)
            .map(|i| {
                let d = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, i as u64)));
                d[..13].try_into().unwrap()
            })
            .collect()
    }

    fn check_valid(rules: &Rules, a: &[u8; 13]) {
        let e = &rules.evaluator;
        let t = e.eval3([a[0], a[1], a[2]]);
        let m = e.eval5(a[3..8].try_into().unwrap());
        let b = e.eval5(a[8..].try_into().unwrap());
        assert!(splits::is_valid(t, m, b, rules.foul_strict), "{a:?} fouls");
    }

    /// FNV-1a over 64-bit words.
    fn mix_word(h: u64, word: u64) -> u64 {
        (h ^ word).wrapping_mul(0x100_0000_01b3)
    }

    fn mix_choice(h: u64, c: &Choice) -> u64 {
        let h = c.cards.iter().fold(h, |h, &x| mix_word(h, x as u64));
        let h = mix_word(h, c.declare_natural as u64);
        mix_word(h, c.expected_points.to_bits())
    }

    /// Every choice the strategies make on seeded deals, under each preset's
    /// shipped tables and a few rules variants, hashed into one number: the
    /// solver's output does not change unless this value is changed too.
    #[test]
    fn solver_output_fingerprint() {
        let deals: Vec<[u8; 13]> = (0..500u64)
            .flat_map(|seed| crate::deal::deal(4, Some(seed)).unwrap())
            .collect();
        let strict = Rules {
            foul_strict: true,
            evaluator: Evaluator::new(crate::rank::Ranking {
                tie_break_suit: false,
                ..Default::default()
            }),
            ..Rules::default()
        };
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for name in PRESETS {
            let tables = Tables::preset(name).unwrap();
            let a = Arranger::new(Strategy::Solver, &Rules::default(), tables, 4).unwrap();
            for d in &deals {
                h = mix_choice(h, &a.choose(d).unwrap());
            }
            for d in &deals[..50] {
                for c in a.solver().rank(d, 5).unwrap() {
                    h = mix_choice(h, &c);
                }
            }
        }
        for (rules, seats) in [(Rules::default(), 2), (Rules::default(), 3), (strict, 2)] {
            for strategy in [
                Strategy::Solver,
                Strategy::Separable,
                Strategy::Greedy,
                Strategy::Random,
            ] {
                let a = arranger(&rules, None, seats, strategy).unwrap();
                for d in &deals[..400] {
                    h = mix_choice(h, &a.choose(d).unwrap());
                }
            }
        }
        assert_eq!(
            h, 0xd10f_2318_2edd_b1c0,
            "solver output fingerprint {h:#018x}"
        );
    }

    #[test]
    fn shipped_tables_write_back_to_their_bytes() {
        let files: [(&str, &[u8]); 6] = [
            shipped_file!("capsa-susun"),
            shipped_file!("pagat"),
            shipped_file!("2-4"),
            shipped_file!("1-6"),
            shipped_file!("mau-binh"),
            shipped_file!("hawaiian-gardens"),
        ];
        for (name, bytes) in files {
            let t = Tables::from_bytes(bytes).unwrap();
            assert_eq!(t.to_bytes(), bytes, "{name}");
            assert_eq!(Tables::preset(name), Some(&t), "{name}");
        }
    }

    #[test]
    fn hand_order_matches_split_table() {
        let e = Evaluator::default();
        for h in hands(20, 4) {
            let fast = Hand::new(&e, &h).unwrap();
            let slow = splits::subset_strengths(&e, &fast.cards);
            assert_eq!(fast.s3.to_vec(), slow.s3);
            assert_eq!(fast.s5.to_vec(), slow.s5);
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
    fn every_shipped_and_trained_table_round_trips() {
        for name in PRESETS {
            let t = Tables::preset(name).unwrap();
            assert_eq!(&Tables::from_bytes(&t.to_bytes()).unwrap(), t, "{name}");
        }
        let cfg = TrainConfig {
            hands: 400,
            iterations: 1,
            name: "tiny.trained-1".into(),
            ..TrainConfig::default()
        };
        let t = train(&Rules::default(), &cfg).unwrap();
        assert_eq!(Tables::from_bytes(&t.to_bytes()).unwrap(), t);
    }

    #[test]
    fn metadata_is_validated() {
        let cases: [(&str, &str, &str); 9] = [
            ("scoop_rate", "inf", "scoop_rate"),
            ("scoop_rate", "NaN", "scoop_rate"),
            ("scoop_rate", "-0.1", "scoop_rate"),
            ("scoop_rate", "1.5", "scoop_rate"),
            ("seats", "5", "seats"),
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
    fn solver_refuses_invalid_tables_built_in_rust() {
        let mut t = Tables::preset("pagat").unwrap().clone();
        t.rows[TOP][0].1 = f64::NAN;
        let e = Solver::new(&Rules::default(), &t, 4).err().unwrap();
        assert!(e.message().contains("row top: entry 0: weight NaN"), "{e}");
        assert_eq!(e.row(), Some("top"));
        t.rows[TOP][0].1 = 1.0;
        set_meta(&mut t, "scoop_rate", "inf");
        assert!(arranger(&Rules::default(), Some(&t), 4, Strategy::Solver).is_err());
    }

    #[test]
    fn training_settings_are_validated() {
        let rules = Rules::default();
        let bad_name = TrainConfig {
            name: "x\nscoop_rate=inf".into(),
            ..TrainConfig::default()
        };
        let e = train(&rules, &bad_name).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Rules);
        assert!(e.message().contains("name \"x\\nscoop_rate=inf\""), "{e}");
        for (cfg, key) in [
            (
                TrainConfig {
                    hands: 0,
                    ..TrainConfig::default()
                },
                "hands",
            ),
            (
                TrainConfig {
                    hands: usize::MAX,
                    ..TrainConfig::default()
                },
                "hands",
            ),
            (
                TrainConfig {
                    iterations: 1000,
                    ..TrainConfig::default()
                },
                "iterations",
            ),
            (
                TrainConfig {
                    seats: 9,
                    ..TrainConfig::default()
                },
                "seats",
            ),
        ] {
            let e = train(&rules, &cfg).unwrap_err();
            assert_eq!(e.kind(), crate::error::ErrorKind::Argument);
            assert!(e.message().contains(key), "{e}");
        }
    }

    #[test]
    fn extreme_requests_and_rules_do_not_panic() {
        let h = hands(1, 9).remove(0);
        let a = arranger(&Rules::default(), None, 4, Strategy::Solver).unwrap();
        let all = a.solver().rank(&h, 1 << 40).unwrap();
        assert!(!all.is_empty() && all.len() <= SUBSETS3 * 126 + 1);
        // scores beyond f32: the fast scan still keeps valid splits
        let huge = Rules {
            row_points: i64::MAX,
            overall_point: i64::MAX,
            scoop_multiplier: i64::MAX,
            scoop_bonus: i64::MAX,
            sweep_all_multiplier: i64::MAX,
            sweep_all_bonus: 0,
            ..Rules::default()
        };
        let zero = Rules {
            row_points: 0,
            overall_point: 0,
            royalties: [[0; 10]; 3],
            scoop_multiplier: 1,
            sweep_all_multiplier: 1,
            naturals: Vec::new(),
            ..Rules::default()
        };
        for rules in [huge, zero] {
            for strategy in [Strategy::Solver, Strategy::Greedy, Strategy::Random] {
                let a = arranger(&rules, None, 4, strategy).unwrap();
                check_valid(&rules, &a.choose(&h).unwrap().cards);
            }
            let r = arranger(&rules, None, 3, Strategy::Solver).unwrap();
            assert_eq!(r.solver().rank(&h, 3).unwrap().len(), 3);
        }
    }

    #[test]
    fn nearest_is_exact_for_default() {
        let r = Rules::default();
        assert_eq!(Tables::nearest(&r).name(), "capsa-susun");
        assert!(scoring_distance(&r, Tables::nearest(&r)) < 1e-9);
    }

    #[test]
    fn solver_never_fouls_and_is_deterministic() {
        let rules = Rules::default();
        for strategy in [
            Strategy::Solver,
            Strategy::Separable,
            Strategy::Greedy,
            Strategy::Random,
        ] {
            let a = arranger(&rules, None, 4, strategy).unwrap();
            for h in hands(200, 5) {
                let c = a.choose(&h).unwrap();
                check_valid(&rules, &c.cards);
                let mut x = c.cards.to_vec();
                x.sort_unstable();
                let mut y = h.to_vec();
                y.sort_unstable();
                assert_eq!(x, y);
                assert_eq!(a.choose(&h).unwrap(), c);
            }
        }
    }

    #[test]
    fn strict_rules_never_foul() {
        let rules = Rules {
            foul_strict: true,
            evaluator: crate::rank::Evaluator::new(crate::rank::Ranking {
                tie_break_suit: false,
                ..Default::default()
            }),
            ..Rules::default()
        };
        let a = arranger(&rules, None, 2, Strategy::Solver).unwrap();
        let g = arranger(&rules, None, 2, Strategy::Greedy).unwrap();
        for h in hands(200, 6) {
            check_valid(&rules, &a.choose(&h).unwrap().cards);
            check_valid(&rules, &g.choose(&h).unwrap().cards);
        }
    }

    #[test]
    fn rank_is_sorted_and_consistent() {
        let rules = Rules::default();
        let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
        for h in hands(50, 7) {
            let r = a.solver().rank(&h, 8).unwrap();
            assert!(!r.is_empty());
            assert!(r
                .windows(2)
                .all(|w| w[0].expected_points >= w[1].expected_points));
            let b = a.solver().best(&h).unwrap();
            assert_eq!(r[0].cards, b.cards);
            assert!((r[0].expected_points - b.expected_points).abs() < 1e-9);
            for c in &r {
                check_valid(&rules, &c.cards);
                if !c.declare_natural {
                    let v = a.solver().value_of(&c.cards).unwrap();
                    assert!((v - c.expected_points).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn dragon_is_declared() {
        let rules = Rules::default();
        let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
        let dragon: Vec<u8> = (0..13).map(|r| 4 * r + (r % 4)).collect();
        let c = a.choose(&dragon).unwrap();
        assert!(c.declare_natural);
        assert!((c.expected_points - 3.0 * 208.0).abs() < 1e-9);
        // no naturals enabled: nothing declared
        let mut none = rules.clone();
        none.naturals.clear();
        let b = arranger(&none, None, 4, Strategy::Solver).unwrap();
        assert!(!b.choose(&dragon).unwrap().declare_natural);
    }

    #[test]
    fn exact_value_matches_brute_force() {
        // Exact 27-pattern value against enumeration of a discrete opponent.
        let rules = Rules {
            overall_point: 1,
            scoop_bonus: 3,
            scoop_multiply_royalties: true,
            ..Rules::default()
        };
        let s = Solver::new(&rules, Tables::preset("capsa-susun").unwrap(), 2).unwrap();
        let outs = [
            RowOutcome {
                p: [0.5, 0.1, 0.4],
                v: [0.5, 0.0, -0.4],
                r: [0.0, 0.0, -0.2],
            },
            RowOutcome {
                p: [0.3, 0.2, 0.5],
                v: [0.3, 0.0, -0.5],
                r: [0.3, 0.0, 0.0],
            },
            RowOutcome {
                p: [0.7, 0.0, 0.3],
                v: [0.7, 0.0, -0.3],
                r: [0.0, 0.0, -0.6],
            },
        ];
        let got = s.exact_value(&outs);
        // brute force over conditional expectations
        let mut want = 0.0;
        for o0 in 0..3 {
            for o1 in 0..3 {
                for o2 in 0..3 {
                    let o = [o0, o1, o2];
                    let p: f64 = (0..3).map(|r| outs[r].p[o[r]]).product();
                    if p == 0.0 {
                        continue;
                    }
                    let rows: f64 = (0..3).map(|r| outs[r].v[o[r]] / outs[r].p[o[r]]).sum();
                    let roy: f64 = (0..3).map(|r| outs[r].r[o[r]] / outs[r].p[o[r]]).sum();
                    let w = o.iter().filter(|&&x| x == 0).count();
                    let l = o.iter().filter(|&&x| x == 2).count();
                    let ov = (w as f64 - l as f64).signum() * if w == l { 0.0 } else { 1.0 };
                    let v = if w == 3 {
                        (rows + ov) * 2.0 + 3.0 + roy * 2.0
                    } else if l == 3 {
                        (rows + ov) * 2.0 - 3.0 + roy * 2.0
                    } else {
                        rows + ov + roy
                    };
                    want += p * v;
                }
            }
        }
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }

    #[test]
    fn solver_value_beats_greedy_value() {
        // the solver's pick has the best model value among what it compares
        let rules = Rules::default();
        let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
        let g = arranger(&rules, None, 4, Strategy::Greedy).unwrap();
        for h in hands(100, 8) {
            let sv = a.choose(&h).unwrap();
            let gv = g.choose(&h).unwrap();
            if !sv.declare_natural {
                assert!(sv.expected_points >= gv.expected_points - 1e-9);
            }
        }
    }
}

#[cfg(test)]
mod removal_tests {
    use super::*;

    /// The share of a class's combinations left equals the count of hands of
    /// that class among the cards left over the count among all 52.
    fn check(e: &Evaluator, five: bool, own: &[u8]) {
        let n = if five { 5 } else { 3 };
        let count = |deck: &[u8]| {
            let mut m: HashMap<u32, f64> = HashMap::new();
            let mut idx: Vec<usize> = (0..n).collect();
            loop {
                let s = if five {
                    e.eval5(std::array::from_fn(|i| deck[idx[i]]))
                } else {
                    e.eval3(std::array::from_fn(|i| deck[idx[i]]))
                };
                *m.entry(s >> CLASS_SHIFT).or_insert(0.0) += 1.0;
                // next combination
                let mut k = n;
                while k > 0 && idx[k - 1] == deck.len() - n + k - 1 {
                    k -= 1;
                }
                if k == 0 {
                    return m;
                }
                idx[k - 1] += 1;
                for j in k..n {
                    idx[j] = idx[j - 1] + 1;
                }
            }
        };
        let full: Vec<u8> = (0..52).collect();
        let left: Vec<u8> = full.iter().copied().filter(|c| !own.contains(c)).collect();
        let all = count(&full);
        let rest = count(&left);
        let mut live = LiveSet::default();
        let classes = all_classes(e, five);
        for (c, info) in &classes {
            live.push(*c, 1.0, 0.0, 1.0, info);
        }
        let rm = Removal::new(own);
        let mut pos = [0usize; 3];
        for (c, _) in &classes {
            live.sum_until(&rm, &mut pos, *c);
            let got = live.sum_until(&rm, &mut pos, c + 1)[0];
            let want = rest.get(c).copied().unwrap_or(0.0) / all[c];
            assert!((got - want).abs() < 1e-5, "class {c:#x}: {got} vs {want}");
        }
    }

    #[test]
    fn removal_share_matches_counting() {
        let own: Vec<u8> = vec![0, 1, 2, 5, 9, 13, 17, 21, 48, 49, 50, 51, 30];
        for ranking in [
            crate::rank::Ranking::default(),
            crate::rank::Ranking {
                flush_suit_first: true,
                wheel_second: true,
                ..Default::default()
            },
        ] {
            let e = Evaluator::new(ranking);
            check(&e, false, &own);
            check(&e, true, &own);
        }
    }
}
