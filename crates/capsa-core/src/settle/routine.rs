//! The one settlement routine, `settle_into`, and its two outputs:
//! [`settle`] keeps every result, [`settle_points`] each seat's figures.

use super::checks::{check_banker, check_seats, refused_foul};
use super::facts::{pairs_of, row_scales, seat_facts, sweep_all, SeatFacts};
use super::inputs::{SeatInput, Stakes};
use super::pair::{pair_terms, pair_value};
use super::plan::{plain_table, Plan};
use super::rake::round_rake;
use super::results::{
    Full, Out, PairOutcome, PairResult, SeatOutcome, SeatResult, Settlement, Totals,
    TotalsAndOutcomes,
};
use super::width::{overflow, too_wide, Stop, Width};
use crate::error::{Error, Result};
use crate::naturals::EntryScan;
use crate::rules::{FoulMode, Rules};
use crate::table::{MAX_SEATS, MAX_TABLE_SEATS};

/// Settles a table (docs/rules.md, "Settlement").
pub fn settle(rules: &Rules, seats: &[SeatInput], stakes: &Stakes) -> Result<Settlement> {
    let n = seats.len().min(MAX_TABLE_SEATS);
    let mut out = Full(Settlement {
        seats: Vec::with_capacity(n),
        pairs: Vec::with_capacity(n * n.saturating_sub(1) / 2),
    });
    settle_into(rules, seats, stakes, &mut out)?;
    Ok(out.0)
}

/// Fast path for batch settlement: no allocation; writes per-seat points and
/// money into the slices (len P). Same checks and same numbers as [`settle`].
/// On an error the slices are left untouched.
pub fn settle_points(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    points: &mut [i64],
    money: &mut [i64],
) -> Result<()> {
    if points.len() != seats.len() || money.len() != seats.len() {
        return Err(Error::table(format!(
            "points and money need one entry per seat ({} seats), got {} and {}",
            seats.len(),
            points.len(),
            money.len()
        )));
    }
    settle_into(rules, seats, stakes, &mut Totals { points, money })
}

/// [`settle_points`] that also writes each seat's [`SeatOutcome`] into
/// `outcomes` (len P, reset first): the bulk path's analytics columns.
pub fn settle_points_and_outcomes(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    points: &mut [i64],
    money: &mut [i64],
    outcomes: &mut [SeatOutcome],
) -> Result<()> {
    let n = seats.len();
    if points.len() != n || money.len() != n || outcomes.len() != n {
        return Err(Error::table(format!(
            "points, money and outcomes need one entry per seat ({n} seats), got {}, {} and {}",
            points.len(),
            money.len(),
            outcomes.len()
        )));
    }
    outcomes.fill(SeatOutcome::default());
    let mut out = TotalsAndOutcomes {
        points,
        money,
        outcomes,
    };
    settle_into(rules, seats, stakes, &mut out)
}

/// Checks the table, settles it and writes the results into `out`: in
/// `i64`, and again in `i128` if a step does not fit in `i64`.
#[inline(always)]
pub(super) fn settle_into<O: Out>(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> Result<()> {
    let scan = EntryScan::of(&rules.naturals);
    // plain tables, most of every batch, settle by a copy of the routine
    // with the house terms' steps left out; tables of a 52-card deck's size
    // by a copy whose working arrays hold four seats
    let settled = if seats.len() > MAX_SEATS {
        settle_larger(rules, &scan, seats, stakes, out)
    } else if plain_table(rules, seats, scan.bonus) {
        settle_with::<i64, O, true, MAX_SEATS>(rules, &scan, seats, stakes, out)
    } else {
        settle_with::<i64, O, false, MAX_SEATS>(rules, &scan, seats, stakes, out)
    };
    match settled {
        Ok(()) => Ok(()),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::TooWide) => settle_wide(rules, seats, stakes, out),
    }
}

/// [`settle_with`] for tables of more seats than a 52-card deck deals to,
/// kept apart so that the four-seat copies stay as small as they were.
#[inline(never)]
fn settle_larger<O: Out>(
    rules: &Rules,
    scan: &EntryScan,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> std::result::Result<(), Stop> {
    settle_with::<i64, O, false, MAX_TABLE_SEATS>(rules, scan, seats, stakes, out)
}

/// The `i128` pass, for the rare round that does not fit in `i64` on the
/// way; a step that fails here means a reported figure does not fit.
#[cold]
#[inline(never)]
pub(super) fn settle_wide<O: Out>(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> Result<()> {
    out.clear();
    let scan = EntryScan::of(&rules.naturals);
    let settled = if seats.len() > MAX_SEATS {
        settle_with::<i128, O, false, MAX_TABLE_SEATS>(rules, &scan, seats, stakes, out)
    } else {
        settle_with::<i128, O, false, MAX_SEATS>(rules, &scan, seats, stakes, out)
    };
    match settled {
        Ok(()) => Ok(()),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::TooWide) => Err(overflow()),
    }
}

/// The one implementation of the rules: checks the table, settles it with
/// working figures in `W` and writes the results into `out`. Each step is a
/// step of the rule text (docs/rules.md, "Settlement"). `PLAIN`: the table
/// is plain ([`plain_table`]), its plan known before it is looked at. `N`:
/// the most seats its working arrays hold, at least the table's.
#[inline(always)]
pub(super) fn settle_with<W: Width, O: Out, const PLAIN: bool, const N: usize>(
    rules: &Rules,
    scan: &EntryScan,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> std::result::Result<(), Stop> {
    check_seats(rules, seats)?;
    let n = seats.len();
    let plan = if PLAIN {
        Plan::plain(rules, n)
    } else {
        check_banker(rules, seats)?;
        Plan::new(rules, seats, scan.bonus)
    };
    stakes.check(n)?;
    // filled in place: a struct this size returned by value is copied
    let mut facts = SeatFacts::<W, N>::new();
    seat_facts(rules, scan, seats, &mut facts);
    if rules.foul_mode == FoulMode::Refuse && facts.foul != 0 {
        return Err(refused_foul(facts.foul.trailing_zeros() as usize).into());
    }
    facts.swept = sweep_all(rules, &plan, n, &facts);
    let mut collect = [None; N];
    row_scales(rules, &plan, n, &mut facts, &mut collect)?;
    // every pair, from i's view; seat totals in the working width
    let mut points = [W::default(); N];
    let mut money = [W::default(); N];
    for &(i, j) in pairs_of(n) {
        let mut p = PairResult {
            i,
            j,
            multiplier: 1,
            horse: 1,
            seat_multiplier: 1,
            ..PairResult::default()
        };
        let stake = stakes.get(n, i, j);
        if !plan.played(i, j) {
            // a pair of two seats that are not the banker
            p.outcome = PairOutcome::Unplayed;
            p.stake = stake;
            out.pair(p);
            continue;
        }
        let base =
            pair_value(rules, &plan, seats, &facts, &collect, &mut p).ok_or_else(too_wide)?;
        p.base = base;
        let value = if plan.terms {
            pair_terms(rules, &plan, seats, &facts, base, &mut p).ok_or_else(too_wide)?
        } else {
            base
        };
        p.points = value;
        p.stake = stake;
        // a product of two `i64`s: fails only when it does not fit
        p.money = value.checked_mul(stake).ok_or_else(overflow)?;
        let (value, pair_money) = (W::of(value), W::of(p.money));
        let sums = (|| {
            Some((
                points[i].add(value)?,
                points[j].sub(value)?,
                money[i].add(pair_money)?,
                money[j].sub(pair_money)?,
            ))
        })()
        .ok_or_else(too_wide)?;
        (points[i], points[j], money[i], money[j]) = sums;
        out.pair(p);
    }
    seat_results(rules, n, &facts, &points, &money, out)
}

/// Step 5: each seat's totals as reported, its rake ([`round_rake`]) and
/// its net, written to `out`.
#[inline(always)]
pub(super) fn seat_results<W: Width, O: Out, const N: usize>(
    rules: &Rules,
    n: usize,
    facts: &SeatFacts<W, N>,
    points: &[W; N],
    money: &[W; N],
    out: &mut O,
) -> std::result::Result<(), Stop> {
    let mut seat_points = [0i64; N];
    let mut seat_money = [0i64; N];
    for s in 0..n {
        seat_points[s] = points[s].reported().ok_or_else(overflow)?;
        seat_money[s] = money[s].reported().ok_or_else(overflow)?;
    }
    let rake = round_rake::<N>(&rules.rake, &seat_money[..n]);
    // written only once every seat is known to fit
    for s in 0..n {
        let bit = 1u8 << s;
        out.seat(
            s,
            SeatResult {
                strengths: facts.side[s].strengths,
                royalties: facts.royalties[s],
                foul: facts.foul & bit != 0,
                surrender: facts.sur & bit != 0,
                natural: facts.natural[s],
                swept_all: facts.swept & bit != 0,
                points: seat_points[s],
                money: seat_money[s],
                rake: rake[s],
                // a rake is between 0 and the seat's positive money
                net: seat_money[s] - rake[s],
            },
        );
    }
    Ok(())
}
