//! Batch work on every core: the loops behind the batch entry points (many
//! hands, many tables, many stream lines). The Python binding only reads the
//! arrays, runs one of these without the GIL and wraps the result.
//!
//! Rows are independent and given row-major in one slice. A bad argument (a
//! width, the stakes, flag arrays of the wrong size) is an error before any
//! row is processed; a bad row stops the hand batches and names the row,
//! and is reported per row by the table and stream batches, which go on.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::cards::check_distinct;
use crate::error::{Error, ErrorKind, Result};
use crate::naturals;
use crate::rank::Evaluator;
use crate::rules::Rules;
use crate::settle::{settle_points, SeatInput, Stakes};
use crate::solver::{Arranger, Effort};
use crate::splits;
use crate::stream::{settle_line, write_overlong_record, LineOutcome, RulesFor};
use crate::table::{check_table_seats, MAX_TABLE_SEATS};

/// Checks that `data` holds whole rows of `width` ids; returns how many.
fn row_count(data: &[u8], width: usize) -> Result<usize> {
    if width == 0 || data.len() % width != 0 {
        return Err(Error::table(format!(
            "{} ids are not whole rows of {width}",
            data.len()
        )));
    }
    Ok(data.len() / width)
}

/// Runs `f` over the rows of `width` ids in parallel (serially for small
/// inputs), in order, stopping at the first bad row and naming it (a rules
/// error, about every row alike, is passed on as it is).
pub fn map_rows<T: Send + Copy + Default>(
    data: &[u8],
    width: usize,
    f: impl Fn(&[u8]) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    map_row_groups(
        data,
        width,
        1,
        || (),
        |_, rows, out| {
            out[0] = f(rows).map_err(|e| (0, e))?;
            Ok(())
        },
    )
}

/// [`map_rows`] for work done `group` rows at a time: `f` gets a scratch
/// made by `scratch` once per task, up to `group` rows and their outputs,
/// and names a bad row by its place in the group.
pub fn map_row_groups<T: Send + Copy + Default, S>(
    data: &[u8],
    width: usize,
    group: usize,
    scratch: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &[u8], &mut [T]) -> std::result::Result<(), (usize, Error)> + Sync,
) -> Result<Vec<T>> {
    let n = row_count(data, width)?;
    let mut out = vec![T::default(); n];
    // small chunks for expensive rows would be wasteful for cheap ones and
    // vice versa; a few chunks per thread balance both
    let chunk = (n / (rayon::current_num_threads() * 8)).clamp(16, 4096) / group * group;
    let chunk = chunk.max(group);
    let run = |(chunk_index, (rows, outs)): (usize, (&[u8], &mut [T]))| -> Result<()> {
        let mut room = scratch();
        for (k, (rows, outs)) in rows
            .chunks(group * width)
            .zip(outs.chunks_mut(group))
            .enumerate()
        {
            f(&mut room, rows, outs).map_err(|(place, e)| {
                let row_index = chunk_index * chunk + k * group + place;
                if e.kind() == ErrorKind::Rules {
                    e
                } else {
                    e.context(format_args!("row {row_index}"))
                }
            })?;
        }
        Ok(())
    };
    if n <= 64 {
        data.chunks(chunk * width)
            .zip(out.chunks_mut(chunk))
            .enumerate()
            .try_for_each(run)?;
    } else {
        data.par_chunks(chunk * width)
            .zip(out.par_chunks_mut(chunk))
            .enumerate()
            .try_for_each(run)?;
    }
    Ok(out)
}

/// The strengths of hands of `width` (3 or 5) distinct cards.
pub fn strengths(e: &Evaluator, data: &[u8], width: usize) -> Result<Vec<u32>> {
    strengths_of(data, width, |row| {
        check_distinct(row)?;
        Ok(e.eval_unchecked(row))
    })
}

/// The strength `rank` gives each row of `width` (3 or 5) cards.
pub fn strengths_of(
    data: &[u8],
    width: usize,
    rank: impl Fn(&[u8]) -> Result<u32> + Sync,
) -> Result<Vec<u32>> {
    if width != 3 && width != 5 {
        return Err(Error::hand(format!(
            "a hand to rank has 3 or 5 cards, got rows of {width}"
        )));
    }
    map_rows(data, width, rank)
}

/// The number of valid splits of each 13-card hand, counted
/// [`splits::lanes::LANES`] hands at a time.
pub fn count_splits(e: &Evaluator, strict: bool, data: &[u8]) -> Result<Vec<u32>> {
    use splits::lanes::{LaneStrengths, LANES};
    map_row_groups(
        data,
        13,
        LANES,
        LaneStrengths::default,
        |lanes, rows, out| {
            let mut hands = [[0u8; 13]; LANES];
            for (place, (row, hand)) in rows.chunks_exact(13).zip(&mut hands).enumerate() {
                *hand = splits::sorted_hand(row).map_err(|e| (place, e))?;
            }
            let counts = lanes.count_valid(e, &hands[..out.len()], strict);
            out.copy_from_slice(&counts[..out.len()]);
            Ok(())
        },
    )
}

/// The bit set of the naturals (bit `n as u32`) of each 13-card hand of
/// the 52-card deck: the naturals that need copies, bits 16 and up, never
/// qualify, so the sets fit in 16 bits.
pub fn naturals(data: &[u8]) -> Result<Vec<u16>> {
    map_rows(data, 13, |row| {
        check_distinct(row)?;
        let hand: &[u8; 13] = row.try_into().expect("rows of 13");
        Ok(naturals::qualifying(hand) as u16)
    })
}

/// The best arrangement of each 13-card hand by `arranger`, laid out top
/// 0-2, middle 3-7, bottom 8-12. A bad hand stops the batch and is named by
/// its row. `effort` is passed to every choice (deep mode only for the
/// solver and separable).
pub fn best_arrangements(
    arranger: &Arranger,
    data: &[u8],
    effort: Effort,
) -> Result<Vec<[u8; 13]>> {
    row_count(data, 13)?;
    // one row at a time: the solver takes ~100 us a hand; each strategy
    // checks the hand against the rules' deck
    data.par_chunks(13)
        .enumerate()
        .map(|(i, row)| {
            arranger
                .arrangement(row, effort)
                .map_err(|e| match e.kind() {
                    ErrorKind::Card | ErrorKind::Hand => e.context(format_args!("row {i}")),
                    _ => e,
                })
        })
        .collect()
}

/// The flags of the seats of a batch of tables: one per seat of every
/// table, row-major; `None` is every seat's default (no surrender, declare
/// its natural).
#[derive(Clone, Copy, Default)]
pub struct SeatFlags<'a> {
    pub surrender: Option<&'a [bool]>,
    pub declare_natural: Option<&'a [bool]>,
    /// The banker of each table of a banker game (`None`: no banker).
    pub banker: Option<&'a Banker>,
    /// Each seat's multiplier, one per seat of every table (`None`: 1).
    pub multipliers: Option<&'a [i64]>,
}

/// The banker seat of the tables of a batch (docs/rules.md, "Banker games").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Banker {
    None,
    /// The same seat at every table.
    Every(usize),
    /// One seat per table, by row (`None`: that table has no banker).
    PerRow(Vec<Option<u8>>),
}

impl Banker {
    /// The banker of table `row` (which must be in range).
    #[inline(always)]
    pub fn of_row(&self, row: usize) -> Option<usize> {
        match self {
            Banker::None => None,
            Banker::Every(s) => Some(*s),
            Banker::PerRow(rows) => rows[row].map(usize::from),
        }
    }

    /// Checks a banker of `n` tables of `seats` seats: a seat of each.
    pub fn check(&self, n: usize, seats: usize) -> Result<()> {
        let bad = |what: String| Err(Error::argument(what));
        match self {
            Banker::None => Ok(()),
            Banker::Every(s) if *s >= seats => bad(format!(
                "banker must be a seat, in 0..{}, got {s}",
                seats - 1
            )),
            Banker::PerRow(rows) if rows.len() != n => bad(format!(
                "banker needs one seat per table ({n}), got {}",
                rows.len()
            )),
            Banker::PerRow(rows) => {
                let off = |s: &Option<u8>| s.is_some_and(|s| usize::from(s) >= seats);
                match rows.iter().position(off) {
                    Some(row) => bad(format!(
                        "banker[{row}] must be a seat, in 0..{}, got {}",
                        seats - 1,
                        rows[row].map_or(-1, i64::from)
                    )),
                    None => Ok(()),
                }
            }
            Banker::Every(_) => Ok(()),
        }
    }
}

/// Points and money of N tables of P seats (row-major, N * P), and the
/// tables that could not be settled (their points and money are zero).
#[derive(Debug, PartialEq, Eq)]
pub struct BatchSettlement {
    pub points: Vec<i64>,
    pub money: Vec<i64>,
    pub errors: Vec<(usize, Error)>,
}

/// Settles N tables of `seats` seats, each seat 13 ids laid out top,
/// middle, bottom (`data` is N * seats * 13 ids). The seat count, the
/// stakes and the flags are checked before any table is settled; a table
/// that cannot be settled is listed in `errors` by its row, and the others
/// are settled.
pub fn settle_tables(
    rules: &Rules,
    data: &[u8],
    seats: usize,
    stakes: &Stakes,
    flags: SeatFlags<'_>,
) -> Result<BatchSettlement> {
    check_table_seats(&rules.deck, seats)?;
    let n = row_count(data, seats * 13)?;
    stakes.check(seats).map_err(|e| e.context("stakes"))?;
    for (what, f) in [
        ("surrender", flags.surrender),
        ("declare_natural", flags.declare_natural),
    ] {
        if let Some(f) = f.filter(|f| f.len() != n * seats) {
            return Err(Error::table(format!(
                "{what} needs one flag per seat ({n} x {seats}), got {}",
                f.len()
            )));
        }
    }
    if let Some(m) = flags.multipliers.filter(|m| m.len() != n * seats) {
        return Err(Error::table(format!(
            "multipliers needs one per seat ({n} x {seats}), got {}",
            m.len()
        )));
    }
    if let Some(b) = flags.banker {
        b.check(n, seats)?;
    }
    let p = seats;
    let mut points = vec![0i64; n * p];
    let mut money = vec![0i64; n * p];
    let chunk = (n / (rayon::current_num_threads() * 8)).clamp(64, 8192);
    let errors = points
        .par_chunks_mut(chunk * p)
        .zip(money.par_chunks_mut(chunk * p))
        .zip(data.par_chunks(chunk * p * 13))
        .enumerate()
        .flat_map_iter(|(c, ((pts, mon), tables))| {
            let mut errs = Vec::new();
            let mut table_seats = [SeatInput {
                cards: [0; 13],
                surrender: false,
                declare_natural: true,
                banker: false,
                multiplier: 1,
            }; MAX_TABLE_SEATS];
            let rows = pts
                .chunks_mut(p)
                .zip(mon.chunks_mut(p))
                .zip(tables.chunks_exact(p * 13));
            for (k, ((pt, mo), table)) in rows.enumerate() {
                let row = c * chunk + k;
                let seat_ids = table_seats.iter_mut().zip(table.chunks_exact(13));
                let banker = flags.banker.and_then(|b| b.of_row(row));
                for (s, (seat, ids)) in seat_ids.enumerate() {
                    seat.cards.copy_from_slice(ids);
                    let flag = row * p + s;
                    seat.surrender = flags.surrender.is_some_and(|f| f[flag]);
                    seat.declare_natural = flags.declare_natural.is_none_or(|f| f[flag]);
                    seat.banker = banker == Some(s);
                    seat.multiplier = flags.multipliers.map_or(1, |m| m[flag]);
                }
                if let Err(e) = settle_points(rules, &table_seats[..p], stakes, pt, mo) {
                    pt.fill(0);
                    mo.fill(0);
                    errs.push((row, e));
                }
            }
            errs
        })
        .collect();
    Ok(BatchSettlement {
        points,
        money,
        errors,
    })
}

/// One line of a JSON Lines stream: its bytes without the line feed, or
/// (for a line longer than a round may be, never read whole) its length.
#[derive(Clone, Copy)]
pub enum StreamLine<'a> {
    Bytes(&'a [u8]),
    Overlong(usize),
}

/// Output buffers of [`settle_lines`] given back with [`recycle`], for the
/// next chunks: a chunk's records are most of a megabyte, and a fresh
/// buffer of that size is mapped and faulted in page by page, which cost
/// more than copying it.
static SPARE_BUFFERS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Buffers kept for reuse at most: a block of the stream's size in chunks.
const MAX_SPARE_BUFFERS: usize = 64;

/// An empty buffer of at least `capacity` bytes, reused when one is spare.
fn output_buffer(capacity: usize) -> String {
    let spare = SPARE_BUFFERS.lock().ok().and_then(|mut spare| spare.pop());
    let mut out = spare.unwrap_or_default();
    out.clear();
    out.reserve(capacity);
    out
}

/// Gives the parts [`settle_lines`] returned back for reuse, once written.
pub fn recycle(parts: Vec<String>) {
    if let Ok(mut spare) = SPARE_BUFFERS.lock() {
        let room = MAX_SPARE_BUFFERS.saturating_sub(spare.len());
        spare.extend(parts.into_iter().take(room));
    }
}

/// Settles the lines of a JSON Lines stream in parallel, line
/// `first_line + k` being `lines[k]`. Returns the output records in order,
/// one line each (a blank line gives none), in consecutive parts, and how
/// many rounds failed.
pub fn settle_lines(
    lines: &[StreamLine<'_>],
    first_line: usize,
    rules_for: &RulesFor<'_>,
) -> (Vec<String>, usize) {
    const CHUNK: usize = 256;
    let settle_chunk = |c: usize, chunk: &[StreamLine<'_>]| {
        let mut out = output_buffer(chunk.len() * 3072);
        let mut failed = 0;
        for (k, line) in chunk.iter().enumerate() {
            let number = first_line + c * CHUNK + k;
            let outcome = match *line {
                StreamLine::Bytes(b) => settle_line(b, number, rules_for, &mut out),
                StreamLine::Overlong(length) => {
                    write_overlong_record(&mut out, number, length);
                    LineOutcome::Failed
                }
            };
            if outcome != LineOutcome::Blank {
                out.push('\n');
            }
            failed += (outcome == LineOutcome::Failed) as usize;
        }
        (out, failed)
    };
    // one chunk is settled here: handing it to the thread pool costs more
    // than a round (a request of the conformance protocol is one line)
    let parts: Vec<(String, usize)> = if lines.len() <= CHUNK {
        vec![settle_chunk(0, lines)]
    } else {
        lines
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| settle_chunk(c, chunk))
            .collect()
    };
    let failed = parts.iter().map(|(_, f)| f).sum();
    (parts.into_iter().map(|(text, _)| text).collect(), failed)
}

#[cfg(test)]
mod tests;
