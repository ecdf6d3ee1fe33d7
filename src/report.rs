//! Reports of a settlement: its JSON record (the output schema of `capsa
//! settle`, see the README, shared with `Settlement.to_dict()`) and a
//! readable table.

use std::fmt::Write;

use crate::cards::card_text;
use crate::rank::{category_of, CATEGORY_NAMES};
use crate::rows::ROW_NAMES;
use crate::settle::{PairOutcome, SeatInput, Settlement};

fn cards_text(ids: &[u8]) -> String {
    ids.iter()
        .map(|&c| card_text(c))
        .collect::<Vec<_>>()
        .join(" ")
}

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

fn push_list(out: &mut String, values: impl Iterator<Item = i64>) {
    out.push('[');
    for (k, v) in values.enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v}");
    }
    out.push(']');
}

/// Every figure of a settlement as compact JSON with sorted keys, preceded by
/// `"id":…,` when an id is given. Written directly (no value tree) because
/// the command line writes one of these per round.
pub fn write_settlement_json(
    out: &mut String,
    s: &Settlement,
    inputs: &[SeatInput],
    id: Option<&str>,
) {
    out.push('{');
    if let Some(id) = id {
        out.push_str("\"id\":");
        out.push_str(id);
        out.push(',');
    }
    out.push_str("\"money\":");
    push_list(out, s.seats.iter().map(|r| r.money));
    out.push_str(",\"net\":");
    push_list(out, s.seats.iter().map(|r| r.net));
    out.push_str(",\"pairs\":[");
    for (k, p) in s.pairs.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"bonus\":{},\"money\":{},\"multiplier\":{},\"outcome\":\"{}\",\"overall\":{},\
             \"points\":{},\"row_points\":{},\"rows\":{{\"bottom\":{},\"middle\":{},\"top\":{}}},\
             \"royalties\":{},\"scoop\":{},\"seats\":[{},{}],\"stake\":{},\"sweep_all\":{}}}",
            p.bonus,
            p.money,
            p.multiplier,
            outcome_name(p.outcome),
            p.overall,
            p.points,
            p.row_points,
            p.rows[2],
            p.rows[1],
            p.rows[0],
            p.royalties,
            p.scoop,
            p.i,
            p.j,
            p.stake,
            p.sweep_all
        );
    }
    out.push_str("],\"points\":");
    push_list(out, s.seats.iter().map(|r| r.points));
    out.push_str(",\"rake\":");
    push_list(out, s.seats.iter().map(|r| r.rake));
    out.push_str(",\"seats\":[");
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"foul\":{},\"money\":{},\"natural\":",
            r.foul, r.money
        );
        match r.natural {
            Some((n, _)) => {
                let _ = write!(out, "\"{}\"", n.name());
            }
            None => out.push_str("null"),
        }
        let _ = write!(
            out,
            ",\"natural_points\":{},\"net\":{},\"points\":{},\"rake\":{},\"rows\":{{",
            r.natural.map_or(0, |(_, p)| p),
            r.net,
            r.points,
            r.rake
        );
        for (i, row) in [2usize, 1, 0].into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "\"{}\":{{\"cards\":\"{}\",\"category\":\"{}\",\"royalty\":{},\"strength\":{}}}",
                ROW_NAMES[row],
                cards_text(row_cards(&input.cards, row)),
                CATEGORY_NAMES[category_of(r.strengths[row]) as usize],
                r.royalties[row],
                r.strengths[row]
            );
        }
        let _ = write!(
            out,
            "}},\"seat\":{k},\"surrender\":{},\"swept_all\":{}}}",
            r.surrender, r.swept_all
        );
    }
    out.push_str("]}");
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
    let _ = writeln!(out);
    for p in &s.pairs {
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
    out
}
