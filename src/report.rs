//! Reports of a settlement: its JSON record (the output schema of `capsa
//! settle`, see `docs/cli.md`, shared with `Settlement.to_dict()`) and a
//! readable table.

use std::fmt::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::arrangement::cards_text;
use crate::rank::{category_of, CATEGORY_NAMES};
use crate::settle::{PairOutcome, PairResult, SeatInput, SeatResult, Settlement};

fn outcome_name(o: PairOutcome) -> &'static str {
    match o {
        PairOutcome::Natural => "natural",
        PairOutcome::Surrender => "surrender",
        PairOutcome::Foul => "foul",
        PairOutcome::Rows => "rows",
    }
}

fn row_cards(cards: &[u8; 13], k: usize) -> &[u8] {
    match k {
        0 => &cards[..3],
        1 => &cards[3..8],
        _ => &cards[8..],
    }
}

/// The three rows of a seat or a pair, keys in sorted order.
#[derive(Serialize)]
struct RowsJson<T> {
    bottom: T,
    middle: T,
    top: T,
}

impl<T> RowsJson<T> {
    /// From values indexed top 0, middle 1, bottom 2.
    fn of(row: impl Fn(usize) -> T) -> Self {
        RowsJson {
            bottom: row(2),
            middle: row(1),
            top: row(0),
        }
    }
}

#[derive(Serialize)]
struct PairJson {
    bonus: i64,
    money: i64,
    multiplier: i64,
    outcome: &'static str,
    overall: i64,
    points: i64,
    row_points: i64,
    rows: RowsJson<i8>,
    royalties: i64,
    scoop: i8,
    seats: [usize; 2],
    stake: i64,
    sweep_all: bool,
}

#[derive(Serialize)]
struct RowJson {
    cards: String,
    category: &'static str,
    royalty: i64,
    strength: u32,
}

#[derive(Serialize)]
struct SeatJson {
    foul: bool,
    money: i64,
    natural: Option<&'static str>,
    natural_points: i64,
    net: i64,
    points: i64,
    rake: i64,
    rows: RowsJson<RowJson>,
    seat: usize,
    surrender: bool,
    swept_all: bool,
}

/// A settlement's record; serde writes the fields in this (sorted) order.
#[derive(Serialize)]
struct SettlementJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RawValue>,
    money: Vec<i64>,
    net: Vec<i64>,
    pairs: Vec<PairJson>,
    points: Vec<i64>,
    rake: Vec<i64>,
    seats: Vec<SeatJson>,
}

fn pair_json(p: &PairResult) -> PairJson {
    PairJson {
        bonus: p.bonus,
        money: p.money,
        multiplier: p.multiplier,
        outcome: outcome_name(p.outcome),
        overall: p.overall,
        points: p.points,
        row_points: p.row_points,
        rows: RowsJson::of(|row| p.rows[row]),
        royalties: p.royalties,
        scoop: p.scoop,
        seats: [p.i, p.j],
        stake: p.stake,
        sweep_all: p.sweep_all,
    }
}

fn seat_json(k: usize, r: &SeatResult, input: &SeatInput) -> SeatJson {
    SeatJson {
        foul: r.foul,
        money: r.money,
        natural: r.natural.map(|(n, _)| n.name()),
        natural_points: r.natural.map_or(0, |(_, p)| p),
        net: r.net,
        points: r.points,
        rake: r.rake,
        rows: RowsJson::of(|row| RowJson {
            cards: cards_text(row_cards(&input.cards, row)),
            category: CATEGORY_NAMES[category_of(r.strengths[row]) as usize],
            royalty: r.royalties[row],
            strength: r.strengths[row],
        }),
        seat: k,
        surrender: r.surrender,
        swept_all: r.swept_all,
    }
}

/// Every figure of a settlement as compact JSON with sorted keys, with
/// `"id"` first when an id (raw JSON text, as the round gave it) is given.
pub fn write_settlement_json(
    out: &mut String,
    s: &Settlement,
    inputs: &[SeatInput],
    id: Option<&str>,
) {
    let id: Option<&RawValue> = id.and_then(|text| serde_json::from_str(text).ok());
    let figure = |f: fn(&SeatResult) -> i64| s.seats.iter().map(f).collect();
    let record = SettlementJson {
        id,
        money: figure(|r| r.money),
        net: figure(|r| r.net),
        pairs: s.pairs.iter().map(pair_json).collect(),
        points: figure(|r| r.points),
        rake: figure(|r| r.rake),
        seats: s
            .seats
            .iter()
            .zip(inputs)
            .enumerate()
            .map(|(k, (r, input))| seat_json(k, r, input))
            .collect(),
    };
    // plain data: serialising it cannot fail
    if let Ok(text) = serde_json::to_string(&record) {
        out.push_str(&text);
    }
}

/// Every figure of a settlement as JSON text (see [`write_settlement_json`]).
pub fn settlement_json(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::with_capacity(3072);
    write_settlement_json(&mut out, s, inputs, None);
    out
}

/// A table a player or a support agent can read.
pub fn explain(s: &Settlement, inputs: &[SeatInput]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
        "seat", "top", "middle", "bottom", "points", "money", "rake", "net"
    );
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        write_seat_lines(&mut out, k, r, input);
    }
    let _ = writeln!(out);
    for p in &s.pairs {
        write_pair_line(&mut out, p);
    }
    out
}

/// A seat's line of the table, and a line of notes when it has any.
fn write_seat_lines(out: &mut String, k: usize, r: &SeatResult, input: &SeatInput) {
    // the rows of a seat settled as fouled, surrendered or by its declared
    // natural are never compared, so they earn nothing
    let rows_earn = !(r.foul || r.surrender || r.natural.is_some());
    let row = |cards: &[u8], st: u32, roy: i64| {
        let mut t = format!(
            "{} {}",
            cards_text(cards),
            CATEGORY_NAMES[category_of(st) as usize]
        );
        if roy > 0 && rows_earn {
            let _ = write!(t, " +{roy}");
        }
        t
    };
    let _ = writeln!(
        out,
        "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
        k,
        row(&input.cards[..3], r.strengths[0], r.royalties[0]),
        row(&input.cards[3..8], r.strengths[1], r.royalties[1]),
        row(&input.cards[8..], r.strengths[2], r.royalties[2]),
        r.points,
        r.money,
        r.rake,
        r.net
    );
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
    if !notes.is_empty() {
        let _ = writeln!(out, "      {}", notes.join("; "));
    }
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
    };
    let _ = writeln!(
        out,
        "seat {} vs seat {}: {what} => seat {} {:+} points ({:+} money at stake {})",
        p.i, p.j, p.i, p.points, p.money, p.stake
    );
}
