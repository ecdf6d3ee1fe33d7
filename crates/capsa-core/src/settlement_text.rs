//! A settlement as text: its JSON record (the output schema of `capsa
//! settle`, see `docs/cli.md`, shared with `Settlement.to_dict()`) and a
//! readable table.

use std::fmt::Write;

use serde_json::value::RawValue;

use crate::arrangement::{cards_text, push_cards};
use crate::rank::{category_of, CATEGORY_NAMES};
use crate::settle::{PairOutcome, PairResult, SeatInput, SeatResult, Settlement};

/// A pair's outcome as the record names it, indexed by [`PairOutcome`].
pub const OUTCOME_NAMES: [&str; 5] = ["natural", "surrender", "foul", "rows", "unplayed"];

fn outcome_name(o: PairOutcome) -> &'static str {
    OUTCOME_NAMES[o as usize]
}

pub fn row_cards(cards: &[u8; 13], k: usize) -> &[u8] {
    match k {
        0 => &cards[..3],
        1 => &cards[3..8],
        _ => &cards[8..],
    }
}

/// The rows by name in the record's (sorted) key order, each with its index.
pub const ROWS_SORTED: [(&str, usize); 3] = [("bottom", 2), ("middle", 1), ("top", 0)];

/// Appends an integer as JSON writes it.
fn push_int(out: &mut String, v: i64) {
    out.push_str(itoa::Buffer::new().format(v));
}

fn push_bool(out: &mut String, v: bool) {
    out.push_str(if v { "true" } else { "false" });
}

/// Appends `"key":` (keys and names hold nothing JSON escapes).
fn push_key(out: &mut String, key: &str) {
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
}

fn push_figures(out: &mut String, key: &str, s: &Settlement, f: fn(&SeatResult) -> i64) {
    push_key(out, key);
    out.push('[');
    for (k, r) in s.seats.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_int(out, f(r));
    }
    out.push_str("],");
}

/// A pair's record: keys in sorted order, rows bottom, middle, top.
fn push_pair(out: &mut String, p: &PairResult) {
    let int = |out: &mut String, key: &str, v: i64| {
        push_key(out, key);
        push_int(out, v);
        out.push(',');
    };
    // a pair's terms are written only when one is not neutral, so that a
    // settlement under rules without them reads as it always has
    let terms = p.has_terms();
    out.push('{');
    if terms {
        int(out, "base", p.base);
    }
    int(out, "bonus", p.bonus);
    if terms {
        int(out, "cap", p.cap);
        int(out, "horse", p.horse);
    }
    int(out, "money", p.money);
    int(out, "multiplier", p.multiplier);
    if terms {
        int(out, "natural_bonus", p.natural_bonus);
    }
    push_key(out, "outcome");
    out.push('"');
    out.push_str(outcome_name(p.outcome));
    out.push_str("\",");
    int(out, "overall", p.overall);
    int(out, "points", p.points);
    int(out, "row_points", p.row_points);
    push_key(out, "rows");
    for (k, (name, row)) in ROWS_SORTED.iter().enumerate() {
        out.push(if k == 0 { '{' } else { ',' });
        push_key(out, name);
        push_int(out, i64::from(p.rows[*row]));
    }
    out.push_str("},");
    int(out, "royalties", p.royalties);
    int(out, "scoop", i64::from(p.scoop));
    if terms {
        int(out, "seat_multiplier", p.seat_multiplier);
    }
    push_key(out, "seats");
    out.push('[');
    push_int(out, p.i as i64);
    out.push(',');
    push_int(out, p.j as i64);
    out.push_str("],");
    int(out, "stake", p.stake);
    push_key(out, "sweep_all");
    push_bool(out, p.sweep_all);
    out.push('}');
}

/// A seat's record: keys in sorted order, rows bottom, middle, top.
fn push_seat(out: &mut String, k: usize, r: &SeatResult, input: &SeatInput) {
    let int = |out: &mut String, key: &str, v: i64| {
        push_key(out, key);
        push_int(out, v);
        out.push(',');
    };
    out.push('{');
    push_key(out, "foul");
    push_bool(out, r.foul);
    out.push(',');
    int(out, "money", r.money);
    push_key(out, "natural");
    match r.natural {
        Some((n, _)) => {
            out.push('"');
            out.push_str(n.name());
            out.push_str("\",");
        }
        None => out.push_str("null,"),
    }
    int(out, "natural_points", r.natural.map_or(0, |(_, p)| p));
    int(out, "net", r.net);
    int(out, "points", r.points);
    int(out, "rake", r.rake);
    push_key(out, "rows");
    for (n, (name, row)) in ROWS_SORTED.iter().enumerate() {
        out.push(if n == 0 { '{' } else { ',' });
        push_key(out, name);
        out.push_str("{\"cards\":\"");
        push_cards(out, row_cards(&input.cards, *row));
        out.push_str("\",\"category\":\"");
        out.push_str(CATEGORY_NAMES[category_of(r.strengths[*row]) as usize]);
        out.push_str("\",\"royalty\":");
        push_int(out, r.royalties[*row]);
        out.push_str(",\"strength\":");
        push_int(out, i64::from(r.strengths[*row]));
        out.push('}');
    }
    out.push_str("},");
    int(out, "seat", k as i64);
    push_key(out, "surrender");
    push_bool(out, r.surrender);
    out.push(',');
    push_key(out, "swept_all");
    push_bool(out, r.swept_all);
    out.push('}');
}

/// Every figure of a settlement as compact JSON with sorted keys, with
/// `"id"` first when an id (raw JSON text, as the round gave it) is given.
pub fn write_settlement_json(
    out: &mut String,
    s: &Settlement,
    inputs: &[SeatInput],
    id: Option<&str>,
) {
    out.reserve(512 + 640 * s.seats.len() + 256 * s.pairs.len());
    out.push('{');
    // an id that is not one JSON value is left out
    if let Some(id) = id.and_then(|text| serde_json::from_str::<&RawValue>(text).ok()) {
        push_key(out, "id");
        out.push_str(id.get());
        out.push(',');
    }
    push_figures(out, "money", s, |r| r.money);
    push_figures(out, "net", s, |r| r.net);
    push_key(out, "pairs");
    out.push('[');
    for (k, p) in s.pairs.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_pair(out, p);
    }
    out.push_str("],");
    push_figures(out, "points", s, |r| r.points);
    push_figures(out, "rake", s, |r| r.rake);
    push_key(out, "seats");
    out.push('[');
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_seat(out, k, r, input);
    }
    out.push_str("]}");
}

/// Every figure of a settlement as JSON text (see [`write_settlement_json`]).
pub fn settlement_json(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::with_capacity(3072);
    write_settlement_json(&mut out, s, inputs, None);
    out
}

/// The width `explain` keeps its lines within (money in the billions or a
/// row of large royalties may widen the table past it; a pair's line wraps).
const EXPLAIN_WIDTH: usize = 80;

/// A table a player or a support agent can read: a line of cards and one of
/// categories per seat, in columns as wide as what they hold; the money,
/// rake and net columns only when some seat's differ from its points; then
/// a line (wrapped) per pair.
pub fn explain(s: &Settlement, inputs: &[SeatInput]) -> String {
    let money = s.seats.iter().any(|r| r.money != r.points || r.rake != 0);
    let mut header: Vec<String> = ["seat", "top", "middle", "bottom", "points"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    if money {
        header.extend(["money", "rake", "net"].iter().map(|h| h.to_string()));
    }
    let mut lines = vec![(header, Vec::new(), String::new())];
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        lines.push(seat_cells(k, r, input, money));
    }
    let mut widths = vec![0; lines[0].0.len()];
    for (cells, categories, _) in &lines {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.chars().count());
        }
        for (w, c) in widths[1..].iter_mut().zip(categories) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for (cells, categories, notes) in &lines {
        push_columns(&mut out, cells, &widths);
        if !categories.is_empty() {
            let mut under = vec![String::new()];
            under.extend(categories.iter().cloned());
            push_columns(&mut out, &under, &widths);
        }
        if !notes.is_empty() {
            let indent = " ".repeat(widths[0] + 2);
            push_wrapped(&mut out, &indent, notes, &indent);
        }
    }
    let _ = writeln!(out);
    for p in &s.pairs {
        write_pair_line(&mut out, p);
    }
    out
}

/// A seat's cells (its number, its rows' cards and its figures), its rows'
/// categories with the royalties it earns, and its notes.
fn seat_cells(
    k: usize,
    r: &SeatResult,
    input: &SeatInput,
    money: bool,
) -> (Vec<String>, Vec<String>, String) {
    // the rows of a seat settled as fouled, surrendered or by its declared
    // natural are never compared, so they earn nothing
    let rows_earn = !(r.foul || r.surrender || r.natural.is_some());
    let spans = [(0, 3), (3, 8), (8, input.cards.len())];
    let mut cells = vec![k.to_string()];
    let mut categories = Vec::new();
    for (row, (from, to)) in spans.iter().enumerate() {
        cells.push(cards_text(&input.cards[*from..*to]));
        let mut t = CATEGORY_NAMES[category_of(r.strengths[row]) as usize].to_string();
        if r.royalties[row] > 0 && rows_earn {
            let _ = write!(t, " +{}", r.royalties[row]);
        }
        categories.push(t);
    }
    cells.push(r.points.to_string());
    if money {
        cells.extend([r.money, r.rake, r.net].iter().map(|v| v.to_string()));
    }
    let mut notes = Vec::new();
    if let Some((n, p)) = r.natural {
        notes.push(format!("declares {} ({p} points)", n.name()));
    }
    if r.foul {
        notes.push("fouled: rows out of order".to_string());
    }
    if r.surrender {
        notes.push("surrendered".to_string());
    }
    if r.swept_all {
        notes.push("swept all".to_string());
    }
    (cells, categories, notes.join("; "))
}

/// One line of cells: the seat and the rows left-aligned, the figures
/// right-aligned, two spaces apart, no trailing space.
fn push_columns(out: &mut String, cells: &[String], widths: &[usize]) {
    let mut line = String::new();
    for (c, (cell, w)) in cells.iter().zip(widths).enumerate() {
        if c > 0 {
            line.push_str("  ");
        }
        if c < 4 {
            let _ = write!(line, "{cell:<w$}");
        } else {
            let _ = write!(line, "{cell:>w$}");
        }
    }
    let _ = writeln!(out, "{}", line.trim_end());
}

/// ``text`` after ``first``, broken into lines of at most [`EXPLAIN_WIDTH`]
/// characters where a clause ends (after "; " or ", ", before " => " or
/// " ("; a longer clause stays whole), the later lines after ``indent``.
fn push_wrapped(out: &mut String, first: &str, text: &str, indent: &str) {
    let mut clauses = Vec::new();
    let mut rest = text;
    while let Some(at) = next_break(rest) {
        clauses.push(&rest[..at]);
        rest = &rest[at..];
    }
    clauses.push(rest);
    let mut line = first.to_string();
    let mut fresh = true;
    for clause in clauses {
        let len = line.chars().count() + clause.chars().count();
        if !fresh && len > EXPLAIN_WIDTH {
            let _ = writeln!(out, "{}", line.trim_end());
            line = format!("{indent}{}", clause.trim_start());
        } else {
            line.push_str(clause);
        }
        fresh = false;
    }
    let _ = writeln!(out, "{}", line.trim_end());
}

/// Where the first clause of ``text`` ends, if before its end.
fn next_break(text: &str) -> Option<usize> {
    let after = ["; ", ", "]
        .iter()
        .filter_map(|sep| text.find(sep).map(|i| i + sep.len()));
    let before = [" => ", " ("]
        .iter()
        .filter_map(|sep| text.find(sep).filter(|&i| i > 0));
    after.chain(before).filter(|&i| i < text.len()).min()
}

/// How a pair settled, in words.
fn write_pair_line(out: &mut String, p: &PairResult) {
    let mark = |v: i8| match v {
        1 => "won",
        -1 => "lost",
        _ => "tied",
    };
    let what = match p.outcome {
        PairOutcome::Rows => {
            let mut t = format!(
                "top {}, middle {}, bottom {}",
                mark(p.rows[0]),
                mark(p.rows[1]),
                mark(p.rows[2])
            );
            if p.royalties != 0 {
                let _ = write!(t, "; royalties {:+}", p.royalties);
            }
            if p.overall != 0 {
                let _ = write!(t, "; overall {:+}", p.overall);
            }
            if p.scoop != 0 {
                let who = if p.scoop > 0 { p.i } else { p.j };
                let kind = if p.sweep_all { "sweep-all" } else { "scoop" };
                let _ = write!(t, "; {kind} by seat {who} x{}", p.multiplier);
                if p.bonus != 0 {
                    let _ = write!(t, " {:+}", p.bonus);
                }
            }
            t
        }
        PairOutcome::Foul => {
            let mut t = String::from("foul");
            if p.sweep_all {
                t.push_str(" at the sweep-all rate");
            }
            if p.royalties != 0 {
                let _ = write!(t, "; royalties {:+}", p.royalties);
            }
            t
        }
        PairOutcome::Surrender => "surrender".to_string(),
        PairOutcome::Natural => "natural".to_string(),
        PairOutcome::Unplayed => {
            let _ = writeln!(
                out,
                "seat {} vs seat {}: unplayed (neither is the banker)",
                p.i, p.j
            );
            return;
        }
    };
    let mut what = what;
    if p.natural_bonus != 0 {
        let _ = write!(
            what,
            "; base {:+}, bonus natural {:+}",
            p.base, p.natural_bonus
        );
    }
    if p.cap != 0 {
        let _ = write!(what, "; capped at {}", p.cap);
    }
    if p.horse != 1 {
        let _ = write!(what, "; horse card x{}", p.horse);
    }
    if p.seat_multiplier != 1 {
        let _ = write!(what, "; seat multiplier x{}", p.seat_multiplier);
    }
    let mut line = format!(
        "seat {} vs seat {}: {what} => seat {} {:+} points",
        p.i, p.j, p.i, p.points
    );
    if p.stake != 1 || p.money != p.points {
        let _ = write!(line, " ({:+} money at stake {})", p.money, p.stake);
    }
    push_wrapped(out, "", &line, "    ");
}
