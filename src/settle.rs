//! Settlement of a table: docs/rules.md, "Settlement".
//!
//! One routine, `settle_into`, checks the table and applies the rules, with
//! its working figures in fixed-size arrays (at most four seats, six pairs).
//! It hands each pair's and seat's result to an output: [`settle`] keeps them
//! all, [`settle_points`] only each seat's points and money, so the batch path
//! never allocates (and, the core being inlined into each, computes nothing
//! it drops). The random parts of a round (row results, fouls) are settled
//! with selects and look-ups rather than branches, for speed.
//!
//! Every figure a settlement reports is exact, and a round is refused
//! exactly when one of them does not fit in `i64`, never because a step on
//! the way does, and never with a panic or a silent wrap. The routine is
//! generic over the integer its working figures are kept in ([`Width`]): a
//! round is first settled in `i64` with checked steps (exact whenever they
//! all succeed), and only a round where one fails is settled again in
//! `i128`, where a failed step proves that a reported figure cannot fit.

use std::cmp::Ordering;

use crate::cards::{card_text, DECK};
use crate::error::{Error, Result};
use crate::naturals::{self, Natural};
use crate::rules::{FoulMode, NaturalResolve, NaturalTies, RoyaltyMode, Rules};

/// Fewest seats at one table.
pub const MIN_SEATS: usize = 2;
/// Most seats at one table (one deck of 52 cards, 13 each).
pub const MAX_SEATS: usize = 4;
/// Most pairs at one table: `MAX_SEATS * (MAX_SEATS - 1) / 2`.
pub const MAX_PAIRS: usize = 6;

/// The pairs of a four-seat table in settlement order (`i < j`,
/// lexicographic); see `pairs_of`.
const PAIRS: [(usize, usize); MAX_PAIRS] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// One seat's submitted arrangement: ids, top = `[0..3]`, middle = `[3..8]`,
/// bottom = `[8..13]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInput {
    pub cards: [u8; 13],
    /// Asks to surrender (only allowed when the rules enable surrender).
    pub surrender: bool,
    /// Declares its natural if its 13 cards qualify for an enabled one.
    pub declare_natural: bool,
}

/// The error for a table of `got` seats (a count, or e.g. "more than 4"
/// when a reader stopped counting): the one wording of the seat-count rule.
pub fn seat_count_error(got: impl std::fmt::Display) -> Error {
    Error::table(format!(
        "a table has {MIN_SEATS} to {MAX_SEATS} seats, got {got}"
    ))
}

/// Checks that a table of `n` seats can be played: [`MIN_SEATS`] to
/// [`MAX_SEATS`] (docs/rules.md, "Settlement").
pub fn check_seat_count(n: usize) -> Result<()> {
    if (MIN_SEATS..=MAX_SEATS).contains(&n) {
        Ok(())
    } else {
        Err(seat_count_error(n))
    }
}

/// The stake per point of every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stakes<'a> {
    /// One stake for every pair.
    Uniform(i64),
    /// `P * P` row-major, symmetric, non-negative; the diagonal is ignored.
    Matrix(&'a [i64]),
}

impl Stakes<'_> {
    /// Checks the stakes of an `n`-seat table: non-negative, and a matrix
    /// of the right size and symmetric.
    pub fn check(&self, n: usize) -> Result<()> {
        match *self {
            Stakes::Uniform(s) if s < 0 => {
                Err(Error::table(format!("the stake must be >= 0, got {s}")))
            }
            Stakes::Uniform(_) => Ok(()),
            Stakes::Matrix(m) => {
                if m.len() != n * n {
                    return Err(Error::table(format!(
                        "the stakes matrix of a {n}-seat table needs {} entries ({n} x {n}), got {}",
                        n * n,
                        m.len()
                    )));
                }
                for i in 0..n {
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        let v = m[i * n + j];
                        if v < 0 {
                            return Err(Error::table(format!(
                                "the stake between seat {i} and seat {j} must be >= 0, got {v}"
                            )));
                        }
                        let w = m[j * n + i];
                        if v != w {
                            return Err(Error::table(format!(
                                "the stakes matrix is not symmetric: [{i}][{j}] = {v} but [{j}][{i}] = {w}"
                            )));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Stake of the pair (i, j); the stakes must have passed `check(n)`.
    #[inline(always)]
    fn get(&self, n: usize, i: usize, j: usize) -> i64 {
        match *self {
            Stakes::Uniform(s) => s,
            Stakes::Matrix(m) => m[i * n + j],
        }
    }
}

/// One seat's result for the round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// Strengths of the submitted top, middle and bottom.
    pub strengths: [u32; 3],
    /// The royalty table value of each row's hand (0 when `royalty_mode` is
    /// none), whether or not the round paid it.
    pub royalties: [i64; 3],
    /// The seat was settled as fouled: its arrangement is invalid and it
    /// neither declared a natural nor surrendered.
    pub foul: bool,
    /// The seat was settled as surrendered: it asked to and did not declare a
    /// natural (a declared natural is settled first).
    pub surrender: bool,
    /// The declared natural and its points, if any.
    pub natural: Option<(Natural, i64)>,
    /// The seat swept all (docs/rules.md, "Sweep-all").
    pub swept_all: bool,
    pub points: i64,
    pub money: i64,
    pub rake: i64,
    /// `money - rake`.
    pub net: i64,
}

/// How a pair was settled: the first step of docs/rules.md, "Settlement", that applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PairOutcome {
    Natural,
    Surrender,
    Foul,
    #[default]
    Rows,
}

/// One pair's result, from seat `i`'s point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairResult {
    pub i: usize,
    pub j: usize,
    pub outcome: PairOutcome,
    /// +1 i won the row, -1 j won it, 0 tie (all 0 unless outcome is Rows).
    pub rows: [i8; 3],
    /// `rows` of docs/rules.md, "Step 4: rows": i's row points minus j's (0 unless Rows).
    pub row_points: i64,
    /// The overall point, signed (0 unless Rows).
    pub overall: i64,
    /// Rows: `roy`, i's royalties minus j's. Foul: the royalties the fouled
    /// seat pays, signed from i's view. Both before any multiplier.
    pub royalties: i64,
    /// +1 i won all three rows (or collected a foul), -1 j did, 0 neither.
    pub scoop: i8,
    /// The multiplier in force came from `sweep_all` (a sweep-all scoop, a
    /// foul in foul mode `sweep-all`, a `scoop`-mode foul collected by a seat
    /// that swept all, a `fixed`-mode foul whose royalties were multiplied
    /// at the sweep-all rate).
    pub sweep_all: bool,
    /// The multiplier applied (1 when none).
    pub multiplier: i64,
    /// The scoop, sweep-all or foul bonus, signed from i's view.
    pub bonus: i64,
    /// What i collects from j (negative: i pays).
    pub points: i64,
    pub stake: i64,
    /// `points * stake`.
    pub money: i64,
}

/// The whole settlement of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub seats: Vec<SeatResult>,
    pub pairs: Vec<PairResult>,
}

/// Where the core writes a round's results: every figure for [`settle`],
/// only each seat's points and money for [`settle_points`]. The core is
/// generic over it, so the batch path drops what it does not keep.
trait Out {
    fn pair(&mut self, p: PairResult);
    fn seat(&mut self, s: usize, r: SeatResult);
    /// Forgets what a pass that stopped part-way wrote.
    fn clear(&mut self);
}

struct Full(Settlement);

impl Out for Full {
    #[inline(always)]
    fn pair(&mut self, p: PairResult) {
        self.0.pairs.push(p);
    }
    #[inline(always)]
    fn seat(&mut self, _s: usize, r: SeatResult) {
        self.0.seats.push(r);
    }
    fn clear(&mut self) {
        self.0.pairs.clear();
        self.0.seats.clear();
    }
}

struct Totals<'a> {
    points: &'a mut [i64],
    money: &'a mut [i64],
}

impl Out for Totals<'_> {
    #[inline(always)]
    fn pair(&mut self, _p: PairResult) {}
    #[inline(always)]
    fn seat(&mut self, s: usize, r: SeatResult) {
        self.points[s] = r.points;
        self.money[s] = r.money;
    }
    // seats are written only once the whole round is settled
    fn clear(&mut self) {}
}

/// Settles a table (docs/rules.md, "Settlement").
pub fn settle(rules: &Rules, seats: &[SeatInput], stakes: &Stakes) -> Result<Settlement> {
    let n = seats.len().min(MAX_SEATS);
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

fn overflow() -> Error {
    Error::table("the settlement does not fit in 64-bit integers (rules or stakes too large)")
}

/// Why a settlement pass stopped.
enum Stop {
    /// The table is wrong, or the round cannot be settled.
    Error(Error),
    /// A step does not fit in the pass's working integer.
    TooWide,
}

impl From<Error> for Stop {
    #[inline(always)]
    fn from(e: Error) -> Stop {
        Stop::Error(e)
    }
}

/// A step of a pass that does not fit in its working integer.
#[inline(always)]
fn too_wide() -> Stop {
    Stop::TooWide
}

/// The integer a settlement pass keeps its working figures in: checked
/// steps, and the figure as reported (`None`: it does not fit in `i64`).
///
/// In `i64` every step that succeeds is exact. In `i128` no step fails
/// unless a reported figure cannot fit: the inputs are `i64` rule values
/// (>= 0, multipliers >= 1, by `Rules::validate`) and stakes (>= 0), so a
/// working figure is a sum of at most three of them (below 2^65), a product
/// of two, or a pair's amount, `(rows + overall) * m + bonus + roy * roy_m`,
/// whose products exceed 2^127 only when `rows` or `roy`, both reported,
/// exceed 2^64, and whose sum leaves `i128` only far outside `i64`.
trait Width: Copy + Default {
    fn of(x: i64) -> Self;
    fn add(self, o: Self) -> Option<Self>;
    fn sub(self, o: Self) -> Option<Self>;
    fn mul(self, o: Self) -> Option<Self>;
    fn reported(self) -> Option<i64>;
}

impl Width for i64 {
    #[inline(always)]
    fn of(x: i64) -> Self {
        x
    }
    #[inline(always)]
    fn add(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Option<Self> {
        self.checked_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Option<Self> {
        self.checked_mul(o)
    }
    #[inline(always)]
    fn reported(self) -> Option<i64> {
        Some(self)
    }
}

impl Width for i128 {
    #[inline(always)]
    fn of(x: i64) -> Self {
        x as i128
    }
    #[inline(always)]
    fn add(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Option<Self> {
        self.checked_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Option<Self> {
        self.checked_mul(o)
    }
    #[inline(always)]
    fn reported(self) -> Option<i64> {
        i64::try_from(self).ok()
    }
}

/// The pairs of a `n`-seat table in settlement order.
#[inline(always)]
fn pairs_of(n: usize) -> &'static [(usize, usize)] {
    match n {
        2 => &[(0, 1)],
        3 => &[(0, 1), (0, 2), (1, 2)],
        _ => &PAIRS,
    }
}

/// Checks the table: seat count, card ids, repeated cards, surrender flags.
#[inline(always)]
fn check_seats(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    let n = seats.len();
    check_seat_count(n)?;
    // branch-free screen; the slow pass finds and words the error
    let mut mask = 0u64;
    let mut high = 0u8;
    let mut surrender = false;
    for seat in seats {
        for &c in &seat.cards {
            high = high.max(c);
            mask |= 1u64 << (c & 63);
        }
        surrender |= seat.surrender;
    }
    if (high as usize) < DECK
        && mask.count_ones() as usize == 13 * n
        && (rules.surrender_enabled || !surrender)
    {
        Ok(())
    } else {
        Err(table_error(rules, seats))
    }
}

/// The first thing wrong with a table that failed the screen, seat by seat.
#[cold]
fn table_error(rules: &Rules, seats: &[SeatInput]) -> Error {
    let mut mask = 0u64;
    for (s, seat) in seats.iter().enumerate() {
        for (pos, &c) in seat.cards.iter().enumerate() {
            if c as usize >= DECK {
                return Error::card(format!(
                    "seat {s}: card id {c} at position {pos} is outside 0..51"
                ))
                .at_seat(s)
                .at_row(row_of(pos));
            }
            let bit = 1u64 << c;
            if mask & bit != 0 {
                return repeated(seats, s, pos);
            }
            mask |= bit;
        }
        if seat.surrender && !rules.surrender_enabled {
            return Error::table(format!(
                "seat {s} asks to surrender, but the rules do not enable surrender"
            ))
            .at_seat(s);
        }
    }
    Error::table("the table cannot be settled")
}

/// The error for the card at `seats[s].cards[pos]`, already seen earlier.
fn repeated(seats: &[SeatInput], s: usize, pos: usize) -> Error {
    let c = seats[s].cards[pos];
    let first = seats
        .iter()
        .enumerate()
        .flat_map(|(t, seat)| seat.cards.iter().enumerate().map(move |(p, &d)| (t, p, d)))
        .find(|&(_, _, d)| d == c)
        .map_or((s, pos), |(t, p, _)| (t, p));
    let text = card_text(c);
    let e = if first.0 == s {
        Error::hand(format!(
            "seat {s}: card {text} (id {c}) appears twice, at positions {} and {pos}",
            first.1
        ))
    } else {
        Error::hand(format!(
            "card {text} (id {c}) is held by seat {} and by seat {s}",
            first.0
        ))
    };
    e.at_seat(s).at_row(row_of(pos))
}

/// The row (0 top, 1 middle, 2 bottom) of position `pos` of an arrangement.
fn row_of(pos: usize) -> usize {
    match pos {
        0..=2 => 0,
        3..=7 => 1,
        _ => 2,
    }
}

/// The natural a seat declares: the strongest enabled one its cards qualify
/// for, when it chooses to declare.
#[inline]
fn declared_natural(rules: &Rules, seat: &SeatInput) -> Option<(Natural, i64)> {
    if !seat.declare_natural || rules.naturals.is_empty() {
        return None;
    }
    naturals::strongest(&seat.cards, &rules.naturals)
}

/// What a seat brings to a comparison of rows, in working integers `W`.
#[derive(Clone, Copy, Default)]
struct Side<W> {
    strengths: [u32; 3],
    /// Row points and royalties it scores for each set of rows it wins
    /// (bit r = row r), summed: a look-up rather than a branch per row.
    rows_won: [W; 8],
    roy_won: [W; 8],
    /// Its three royalties together.
    roy_sum: W,
    swept_all: bool,
    /// Multiplier and bonus when it wins all three rows against one seat,
    /// and the bonus negated (as seen by the other seat).
    scoop_m: i64,
    scoop_b: i64,
    scoop_b_neg: i64,
}

/// What a non-fouled seat collects from a fouled one, from its own view, and
/// the amounts negated (from the fouled seat's view).
#[derive(Clone, Copy, Default)]
struct Collect {
    points: i64,
    royalties: i64,
    multiplier: i64,
    bonus: i64,
    sweep_all: bool,
    points_neg: i64,
    royalties_neg: i64,
    bonus_neg: i64,
}

/// Checks the table, settles it and writes the results into `out`: in
/// `i64`, and again in `i128` if a step does not fit in `i64`.
#[inline(always)]
fn settle_into<O: Out>(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> Result<()> {
    match settle_with::<i64, O>(rules, seats, stakes, out) {
        Ok(()) => Ok(()),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::TooWide) => settle_wide(rules, seats, stakes, out),
    }
}

/// The `i128` pass, for the rare round that does not fit in `i64` on the
/// way; a step that fails here means a reported figure does not fit.
#[cold]
#[inline(never)]
fn settle_wide<O: Out>(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> Result<()> {
    out.clear();
    match settle_with::<i128, O>(rules, seats, stakes, out) {
        Ok(()) => Ok(()),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::TooWide) => Err(overflow()),
    }
}

/// What the rule text settles per seat before any pair is paid (its first
/// steps): the rows' strengths, the declared natural, surrender and foul (as
/// bit masks over the seats), the royalties, and who swept all.
struct SeatFacts<W> {
    side: [Side<W>; MAX_SEATS],
    natural: [Option<(Natural, i64)>; MAX_SEATS],
    /// Position of the declared natural in `rules.naturals` (lower: stronger).
    natural_order: [usize; MAX_SEATS],
    royalties: [[i64; 3]; MAX_SEATS],
    nat: u8,
    sur: u8,
    foul: u8,
    swept: u8,
}

/// The one implementation of the rules: checks the table, settles it with
/// working figures in `W` and writes the results into `out`. Each step is a
/// step of the rule text (docs/rules.md, "Settlement").
#[inline(always)]
fn settle_with<W: Width, O: Out>(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    out: &mut O,
) -> std::result::Result<(), Stop> {
    check_seats(rules, seats)?;
    let n = seats.len();
    stakes.check(n)?;
    // filled in place: a struct this size returned by value is copied
    let mut facts = SeatFacts {
        side: [Side::<W>::default(); MAX_SEATS],
        natural: [None; MAX_SEATS],
        natural_order: [usize::MAX; MAX_SEATS],
        royalties: [[0i64; 3]; MAX_SEATS],
        nat: 0,
        sur: 0,
        foul: 0,
        swept: 0,
    };
    seat_facts(rules, seats, &mut facts);
    facts.swept = sweep_all(rules, n, &facts);
    let mut collect = [None; MAX_SEATS];
    row_scales(rules, n, &mut facts, &mut collect)?;
    // every pair, from i's view; seat totals in the working width
    let mut points = [W::default(); MAX_SEATS];
    let mut money = [W::default(); MAX_SEATS];
    for &(i, j) in pairs_of(n) {
        let mut p = PairResult {
            i,
            j,
            multiplier: 1,
            ..PairResult::default()
        };
        let value = pair_value(rules, seats, &facts, &collect, &mut p).ok_or_else(too_wide)?;
        let stake = stakes.get(n, i, j);
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

/// Step 1: each seat's rows, natural, surrender, foul and royalties.
#[inline(always)]
fn seat_facts<W: Width>(rules: &Rules, seats: &[SeatInput], facts: &mut SeatFacts<W>) {
    let e = &rules.evaluator;
    // all twelve hands first: their table look-ups overlap
    for (d, seat) in facts.side.iter_mut().zip(seats) {
        let c = &seat.cards;
        d.strengths = [
            e.eval3([c[0], c[1], c[2]]),
            e.eval5([c[3], c[4], c[5], c[6], c[7]]),
            e.eval5([c[8], c[9], c[10], c[11], c[12]]),
        ];
    }
    for (s, seat) in seats.iter().enumerate() {
        let st = facts.side[s].strengths;
        let invalid = !crate::splits::is_valid(st[0], st[1], st[2], rules.foul_strict);
        let declared = declared_natural(rules, seat);
        if let Some((m, _)) = declared {
            facts.nat |= 1 << s;
            facts.natural_order[s] = rules
                .naturals
                .iter()
                .position(|&(x, _)| x == m)
                .unwrap_or(usize::MAX);
        }
        facts.natural[s] = declared;
        // a declared natural is settled first; a surrender before a foul
        let surrender = seat.surrender && declared.is_none();
        facts.sur |= (surrender as u8) << s;
        facts.foul |= ((invalid && declared.is_none() && !surrender) as u8) << s;
        if rules.royalty_mode != RoyaltyMode::None {
            facts.royalties[s] = [
                rules.royalty(0, st[0]),
                rules.royalty(1, st[1]),
                rules.royalty(2, st[2]),
            ];
        }
    }
}

/// Step 2, sweep all, over the whole table before any pair is paid: a plain
/// seat that won all three rows against every other seat, a fouled one
/// counting as swept. Returns the bit mask of the seats that swept all.
#[inline(always)]
fn sweep_all<W: Width>(rules: &Rules, n: usize, facts: &SeatFacts<W>) -> u8 {
    if n < rules.sweep_all_min_players {
        return 0;
    }
    let all = (1u8 << n) - 1;
    let plain = all & !(facts.nat | facts.sur | facts.foul);
    let mut beats = [0u8; MAX_SEATS];
    for &(i, j) in pairs_of(n) {
        let (a, b) = (facts.side[i].strengths, facts.side[j].strengths);
        beats[i] |= (((a[0] > b[0]) & (a[1] > b[1]) & (a[2] > b[2])) as u8) << j;
        beats[j] |= (((a[0] < b[0]) & (a[1] < b[1]) & (a[2] < b[2])) as u8) << i;
    }
    let mut swept = 0u8;
    for (s, &b) in beats.iter().enumerate().take(n) {
        let others = all & !(1 << s);
        // `&`, not `&&`: no data-dependent branch
        let ok = (plain & (1 << s) != 0) & (others & !(facts.foul | (b & plain)) == 0);
        swept |= (ok as u8) << s;
    }
    swept
}

/// Step 3: what each seat scores per set of rows it wins (row points and
/// royalties by `royalty_mode`), its scoop or sweep-all multiplier and
/// bonus, and what it collects from a fouled seat (`None`: that figure does
/// not fit, an error only if a pair needs it).
#[inline(always)]
fn row_scales<W: Width>(
    rules: &Rules,
    n: usize,
    facts: &mut SeatFacts<W>,
    collect: &mut [Option<Collect>; MAX_SEATS],
) -> std::result::Result<(), Stop> {
    let rp = rules.row_points;
    let rp_w = W::of(rp);
    let zero = W::default();
    // the foul amount before royalties, for a collector that did not and
    // that did sweep all
    let foul_base = [foul_base(rules, false), foul_base(rules, true)];
    for (s, collected) in collect.iter_mut().enumerate().take(n) {
        let roy = facts.royalties[s];
        let d = &mut facts.side[s];
        d.swept_all = facts.swept & (1 << s) != 0;
        (d.scoop_m, d.scoop_b) = if d.swept_all {
            (rules.sweep_all_multiplier, rules.sweep_all_bonus)
        } else {
            (rules.scoop_multiplier, rules.scoop_bonus)
        };
        d.scoop_b_neg = d.scoop_b.checked_neg().ok_or_else(too_wide)?;
        d.roy_sum = W::of(roy[0])
            .add(W::of(roy[1]))
            .and_then(|x| x.add(W::of(roy[2])))
            .ok_or_else(too_wide)?;
        let mut won = [(zero, zero); 3];
        for r in 0..3 {
            won[r] = match rules.royalty_mode {
                RoyaltyMode::Winner if rules.royalty_adds => (rp_w, W::of(roy[r])),
                RoyaltyMode::Winner if roy[r] > rp => (zero, W::of(roy[r])),
                _ => (rp_w, zero),
            };
        }
        for set in 1..8usize {
            // the set without its lowest row, plus that row
            let r = set.trailing_zeros() as usize;
            let rest = set & (set - 1);
            d.rows_won[set] = d.rows_won[rest].add(won[r].0).ok_or_else(too_wide)?;
            d.roy_won[set] = d.roy_won[rest].add(won[r].1).ok_or_else(too_wide)?;
        }
        // computed for every seat: cheaper than branching on the masks
        let base = foul_base[d.swept_all as usize];
        *collected = base.and_then(|b| b.collect(d.roy_sum));
    }
    Ok(())
}

/// Step 4, one pair: the first that applies of naturals, surrender, fouls
/// and rows. Fills the pair's figures and returns what i collects from j.
#[inline(always)]
fn pair_value<W: Width>(
    rules: &Rules,
    seats: &[SeatInput],
    facts: &SeatFacts<W>,
    collect: &[Option<Collect>; MAX_SEATS],
    p: &mut PairResult,
) -> Option<i64> {
    let (i, j) = (p.i, p.j);
    let (bi, bj) = (1u8 << i, 1u8 << j);
    let both = bi | bj;
    if facts.nat & both != 0 {
        p.outcome = PairOutcome::Natural;
        return natural_pair(
            rules,
            (&seats[i].cards, facts.natural[i], facts.natural_order[i]),
            (&seats[j].cards, facts.natural[j], facts.natural_order[j]),
        );
    }
    if facts.sur & both != 0 {
        p.outcome = PairOutcome::Surrender;
        return surrender_pair(
            rules,
            facts.sur & bi != 0,
            facts.sur & bj != 0,
            facts.foul & both,
        );
    }
    // rows and fouls: both worked out, then one chosen, so that the random
    // outcome costs no mispredicted branch
    let rows = rows_pair(rules, &facts.side[i], &facts.side[j], p);
    let (fi, fj) = (facts.foul & bi != 0, facts.foul & bj != 0);
    if fi | fj {
        // the figures of a foul pair (only `settle` keeps them)
        foul_pair(p, fi, fj, collect);
    }
    let fv = if fj {
        collect[i].map(|c| c.points)
    } else {
        collect[j].map(|c| c.points_neg)
    };
    let fv = if fi & fj { Some(0) } else { fv };
    if fi | fj {
        fv
    } else {
        rows
    }
}

/// A pair where at least one seat surrendered (`si`, `sj`); `fouled` is the
/// mask of the pair's fouled seats: a surrender pays nothing to a foul.
#[inline(always)]
fn surrender_pair(rules: &Rules, si: bool, sj: bool, fouled: u8) -> Option<i64> {
    match (si, sj) {
        (true, true) => Some(0),
        _ if fouled != 0 => Some(0),
        (true, false) => rules.surrender_cost.checked_neg(),
        _ => Some(rules.surrender_cost),
    }
}

/// Step 5: each seat's totals as reported, the rake on its positive money
/// (rounded down) and its net, written to `out`.
#[inline(always)]
fn seat_results<W: Width, O: Out>(
    rules: &Rules,
    n: usize,
    facts: &SeatFacts<W>,
    points: &[W; MAX_SEATS],
    money: &[W; MAX_SEATS],
    out: &mut O,
) -> std::result::Result<(), Stop> {
    let mut seat_points = [0i64; MAX_SEATS];
    let mut seat_money = [0i64; MAX_SEATS];
    let mut rake = [0i64; MAX_SEATS];
    let mut net = [0i64; MAX_SEATS];
    for s in 0..n {
        seat_points[s] = points[s].reported().ok_or_else(overflow)?;
        seat_money[s] = money[s].reported().ok_or_else(overflow)?;
        // zero for money <= 0, without a branch on the money
        let positive = seat_money[s].max(0);
        rake[s] = match rules.rake_percent.checked_mul(positive) {
            Some(x) => x.div_euclid(100),
            None => {
                // a product of two `i64`s: exact in `i128`
                let r = (rules.rake_percent as i128 * positive as i128).div_euclid(100);
                i64::try_from(r).map_err(|_| overflow())?
            }
        };
        net[s] = seat_money[s].checked_sub(rake[s]).ok_or_else(overflow)?;
    }
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
                net: net[s],
            },
        );
    }
    Ok(())
}

/// Whether `ties = "compare"` compares two equal naturals of this kind.
fn comparable(n: Natural) -> bool {
    matches!(
        n,
        Natural::SixPairs | Natural::FivePairsTrips | Natural::FourTriples | Natural::ThreeQuads
    )
}

/// The ranks of 13 cards grouped, groups ordered by size then rank, largest
/// first; returns the ranks and how many groups there are.
fn rank_groups(cards: &[u8; 13]) -> ([u8; 13], usize) {
    let mut count = [0u8; 13];
    for &c in cards {
        count[crate::cards::rank_index(c) as usize] += 1;
    }
    let mut out = [0u8; 13];
    let mut len = 0;
    for size in (1..=4).rev() {
        for r in (0..13u8).rev() {
            if count[r as usize] == size {
                out[len] = r;
                len += 1;
            }
        }
    }
    (out, len)
}

/// Compares two hands' rank groups: the first differing rank decides; if one
/// list is a prefix of the other, the longer one is higher.
fn compare_groups(a: &[u8; 13], b: &[u8; 13]) -> Ordering {
    let (ga, la) = rank_groups(a);
    let (gb, lb) = rank_groups(b);
    ga[..la].cmp(&gb[..lb])
}

/// One side of a natural pair: cards, declared natural, its position in the
/// enabled list.
type NaturalSide<'a> = (&'a [u8; 13], Option<(Natural, i64)>, usize);

/// What i collects from j when at least one declared a natural.
fn natural_pair(rules: &Rules, i: NaturalSide, j: NaturalSide) -> Option<i64> {
    match (i.1, j.1) {
        (Some((_, pi)), None) => Some(pi),
        (None, Some((_, pj))) => pj.checked_neg(),
        (None, None) => Some(0),
        (Some((a, pi)), Some((b, pj))) => {
            if a == b {
                if rules.natural_ties == NaturalTies::Compare && comparable(a) {
                    match compare_groups(i.0, j.0) {
                        Ordering::Greater => Some(pi),
                        Ordering::Less => pj.checked_neg(),
                        Ordering::Equal => Some(0),
                    }
                } else {
                    Some(0)
                }
            } else {
                match (rules.natural_resolve, i.2 < j.2) {
                    // the stronger collects its points minus the weaker's
                    (NaturalResolve::Difference, _) => pi.checked_sub(pj),
                    (NaturalResolve::HigherWins, true) => Some(pi),
                    (NaturalResolve::HigherWins, false) => pj.checked_neg(),
                }
            }
        }
    }
}

/// The foul amount (docs/rules.md, "Step 3: fouls") without royalties, for a collector
/// that swept all or not.
#[derive(Clone, Copy)]
struct FoulBase {
    points: i64,
    multiplier: i64,
    bonus: i64,
    sweep_all: bool,
    /// Royalties paid (0 when not paid) are multiplied by this.
    roy_m: i64,
    pays_royalties: bool,
}

fn foul_base(rules: &Rules, swept_all: bool) -> Option<FoulBase> {
    let (m, b) = if swept_all {
        (rules.sweep_all_multiplier, rules.sweep_all_bonus)
    } else {
        (rules.scoop_multiplier, rules.scoop_bonus)
    };
    let pays = rules.foul_pays_royalties && rules.royalty_mode != RoyaltyMode::None;
    // Every term of a foul amount is >= 0 and every multiplier >= 1 (the
    // rules are validated), so no step exceeds the amount: checked `i64`
    // steps fail exactly when the amount does not fit.
    let three = || rules.row_points.checked_mul(3);
    let (points, m, bonus, sweep_all) = match rules.foul_mode {
        FoulMode::SweepAll => {
            let m = rules.sweep_all_multiplier;
            let b = rules.sweep_all_bonus;
            (three()?.checked_mul(m)?.checked_add(b)?, m, b, true)
        }
        FoulMode::Scoop => {
            let base = three()?
                .checked_add(rules.overall_point)?
                .checked_mul(m)?
                .checked_add(b)?;
            (base, m, b, swept_all)
        }
        FoulMode::Fixed => {
            // the multiplier only ever applies to the royalties here
            if pays && rules.scoop_multiply_royalties {
                (rules.foul_points, m, 0, swept_all)
            } else {
                (rules.foul_points, 1, 0, false)
            }
        }
    };
    Some(FoulBase {
        points,
        multiplier: m,
        bonus,
        sweep_all,
        roy_m: if rules.scoop_multiply_royalties { m } else { 1 },
        pays_royalties: pays,
    })
}

impl FoulBase {
    /// What a collector whose three royalties sum to `roy_sum` collects;
    /// `None` if a figure of it does not fit.
    #[inline(always)]
    fn collect<W: Width>(&self, roy_sum: W) -> Option<Collect> {
        let roy = if self.pays_royalties {
            roy_sum.reported()?
        } else {
            0
        };
        let points = self.points.checked_add(roy.checked_mul(self.roy_m)?)?;
        Some(Collect {
            points,
            royalties: roy,
            multiplier: self.multiplier,
            bonus: self.bonus,
            sweep_all: self.sweep_all,
            points_neg: points.checked_neg()?,
            royalties_neg: roy.checked_neg()?,
            bonus_neg: self.bonus.checked_neg()?,
        })
    }
}

/// The figures of a foul pair (at least one of `fi`, `fj`). The amount is
/// chosen by the caller; a missing `Collect` (overflow) is reported there.
#[inline(always)]
fn foul_pair(p: &mut PairResult, fi: bool, fj: bool, collect: &[Option<Collect>]) {
    // in place: the rows' figures do not apply to a foul
    p.outcome = PairOutcome::Foul;
    p.rows = [0; 3];
    (p.row_points, p.overall, p.royalties, p.bonus) = (0, 0, 0, 0);
    (p.scoop, p.sweep_all, p.multiplier) = (0, false, 1);
    if fi && fj {
        return;
    }
    let (c, sign) = if fj {
        (collect[p.i], 1)
    } else {
        (collect[p.j], -1)
    };
    if let Some(c) = c {
        p.scoop = sign;
        p.sweep_all = c.sweep_all;
        p.multiplier = c.multiplier;
        (p.royalties, p.bonus) = if sign > 0 {
            (c.royalties, c.bonus)
        } else {
            (c.royalties_neg, c.bonus_neg)
        };
    }
}

/// Compares the rows of a pair, fills the pair's figures and returns what i
/// collects from j. Written without data-dependent branches (row results are
/// random): a pair without a scoop is paid as one with multiplier 1, bonus 0.
#[inline(always)]
fn rows_pair<W: Width>(rules: &Rules, a: &Side<W>, b: &Side<W>, p: &mut PairResult) -> Option<i64> {
    let (mut won_i, mut won_j) = (0usize, 0usize);
    for r in 0..3 {
        let gt = a.strengths[r] > b.strengths[r];
        let lt = a.strengths[r] < b.strengths[r];
        p.rows[r] = gt as i8 - lt as i8;
        won_i |= (gt as usize) << r;
        won_j |= (lt as usize) << r;
    }
    let rows = a.rows_won[won_i].sub(b.rows_won[won_j])?;
    let roy = if rules.royalty_mode == RoyaltyMode::Always {
        a.roy_sum.sub(b.roy_sum)?
    } else {
        a.roy_won[won_i].sub(b.roy_won[won_j])?
    };
    let (wins_i, wins_j) = (won_i.count_ones(), won_j.count_ones());
    let more = (wins_i > wins_j) as i64 - (wins_i < wins_j) as i64;
    let overall = rules.overall_point.checked_mul(more)?;
    let (scoop_i, scoop_j) = (won_i == 7, won_j == 7);
    let m = if scoop_i {
        a.scoop_m
    } else if scoop_j {
        b.scoop_m
    } else {
        1
    };
    let bonus = if scoop_i {
        a.scoop_b
    } else if scoop_j {
        b.scoop_b_neg
    } else {
        0
    };
    let roy_m = if rules.scoop_multiply_royalties { m } else { 1 };
    p.row_points = rows.reported()?;
    p.overall = overall;
    p.royalties = roy.reported()?;
    p.scoop = scoop_i as i8 - scoop_j as i8;
    p.sweep_all = (scoop_i & a.swept_all) | (scoop_j & b.swept_all);
    p.multiplier = m;
    p.bonus = bonus;
    rows.add(W::of(overall))?
        .mul(W::of(m))?
        .add(W::of(bonus))?
        .add(roy.mul(W::of(roy_m))?)?
        .reported()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{RANK_CHARS, SUIT_CHARS};
    use crate::error::ErrorKind;
    use crate::rules::{FoulMode, NaturalResolve, NaturalTies, RoyaltyMode};

    fn ids(text: &str) -> Vec<u8> {
        text.split_whitespace()
            .filter(|t| *t != "|")
            .map(|t| {
                let b = t.as_bytes();
                let r = RANK_CHARS.iter().position(|&c| c == b[0]).unwrap();
                let s = SUIT_CHARS.iter().position(|&c| c == b[1]).unwrap();
                (4 * r + s) as u8
            })
            .collect()
    }

    /// A seat from "top | middle | bottom" text.
    fn seat(text: &str) -> SeatInput {
        SeatInput {
            cards: ids(text).try_into().unwrap(),
            surrender: false,
            declare_natural: true,
        }
    }

    fn seats(texts: &[&str]) -> Vec<SeatInput> {
        texts.iter().map(|t| seat(t)).collect()
    }

    /// The default rules without naturals.
    fn plain() -> Rules {
        Rules {
            naturals: vec![],
            ..Rules::default()
        }
    }

    fn balanced(s: &Settlement) {
        assert_eq!(s.seats.iter().map(|r| r.points).sum::<i64>(), 0);
        assert_eq!(s.seats.iter().map(|r| r.money).sum::<i64>(), 0);
        assert_eq!(
            s.seats.iter().map(|r| r.net + r.rake).sum::<i64>(),
            0,
            "net plus rake must balance"
        );
    }

    fn run(rules: &Rules, table: &[SeatInput], stakes: Stakes) -> Settlement {
        let s = settle(rules, table, &stakes).unwrap();
        balanced(&s);
        let n = table.len();
        let (mut p, mut m) = ([0i64; 4], [0i64; 4]);
        settle_points(rules, table, &stakes, &mut p[..n], &mut m[..n]).unwrap();
        for k in 0..n {
            assert_eq!(p[k], s.seats[k].points);
            assert_eq!(m[k], s.seats[k].money);
        }
        s
    }

    fn points(s: &Settlement) -> Vec<i64> {
        s.seats.iter().map(|r| r.points).collect()
    }

    fn pair(s: &Settlement, i: usize, j: usize) -> PairResult {
        *s.pairs.iter().find(|p| p.i == i && p.j == j).unwrap()
    }

    // docs/rules.md, "Worked examples", the first: full house J/3, heart flush, straight
    // to the 9, pair of aces on the bottom.
    const BOTTOMS: [&str; 4] = [
        "Ah As Js | 7h 7s 8s 9h 9s | Jd Jc Jh 3d 3c",
        "Th Ts 6s | Ks Kh Qc Qs 5s | 2h 4h 6h 8h Qh",
        "3s 4s 5h | Td Tc Kc Qd 8d | 5d 6c 7d 8c 9d",
        "3h 4d 6d | 2d 2s 5c 7c 9c | Ad Ac 2c 4c Kd",
    ];

    // Seat 0 beats every other seat in every row, without royalties.
    const SWEEP: [&str; 4] = [
        "As Ah Kd | 2s 5s 7s 9s Js | 3h 6h 8h Th Qh",
        "Ad Kc Qd | 2d 2c 4d 5d 7c | 3d 3c 8d 9d Tc",
        "Ac Kh Qc | 4c 4h 6d 8c Jd | 5c 5h 9c Td Jc",
        "Ks Qs Jh | 6c 6s 2h 3s 4s | 7d 7h 8s 9h Ts",
    ];
    // SWEEP with seat 3 fouled (top pair above a king-high middle).
    const SWEEP_FOUL3: &str = "6c 6s 2h | Ks Qs Jh 3s 4s | 7d 7h 8s 9h Ts";

    // Seat 0 fouls; seat 1 holds royalties 3 (middle full house) + 7
    // (bottom quads) and scoops seat 2.
    const FOUL: [&str; 3] = [
        "Ac Ah 4d | 2c 5c 7d Tc Jd | Kc Qc 6h 4h 3h",
        "Ad Kd Qd | 8d 8c 8h 3d 3c | 9d 9c 9h 9s 2d",
        "2h 5d 6d | Ts Th 7c 4c 2s | Js Jh Qs Ks As",
    ];

    // Two seats: A wins the middle (full house) and holds quads below B's
    // straight flush; B wins top and bottom.
    const ROYAL: [&str; 2] = [
        "2d 3d 5c | Kd Kc Kh 4d 4c | 9d 9c 9h 9s 6d",
        "Ad Ac 7h | Qd Qc Qh 5d 5h | 8s 7s 6s 5s 4s",
    ];

    #[test]
    fn worked_example_bottom_row() {
        let table = seats(&BOTTOMS);
        let s = run(&plain(), &table, Stakes::Uniform(1_000));
        assert!(s.seats.iter().all(|r| !r.foul));
        // each seat's bottom-row money over its three pairs
        let mut bottom = [0i64; 4];
        for p in &s.pairs {
            assert_eq!(p.outcome, PairOutcome::Rows);
            let v = p.rows[2] as i64 * 1_000;
            bottom[p.i] += v;
            bottom[p.j] -= v;
        }
        assert_eq!(bottom, [3_000, 1_000, -1_000, -3_000]);
        assert_eq!(pair(&s, 1, 2).rows[2], 1);
        assert_eq!(pair(&s, 0, 1).rows[2], 1);
        assert_eq!(pair(&s, 2, 3).rows[2], 1);
    }

    #[test]
    fn foul_pays_twelve_plus_royalties() {
        let table = seats(&FOUL);
        let s = run(&plain(), &table, Stakes::Uniform(1));
        assert_eq!(
            s.seats.iter().map(|r| r.foul).collect::<Vec<_>>(),
            [true, false, false]
        );
        assert_eq!(s.seats[1].royalties, [0, 3, 7]);
        let p01 = pair(&s, 0, 1);
        assert_eq!(p01.outcome, PairOutcome::Foul);
        assert_eq!(p01.points, -22);
        assert_eq!(p01.royalties, -10);
        assert_eq!((p01.scoop, p01.multiplier, p01.sweep_all), (-1, 4, true));
        assert_eq!(pair(&s, 0, 2).points, -12);
        let p12 = pair(&s, 1, 2);
        assert_eq!(p12.outcome, PairOutcome::Rows);
        assert_eq!(p12.rows, [1, 1, 1]);
        assert_eq!((p12.row_points, p12.royalties, p12.scoop), (3, 10, 1));
        assert_eq!((p12.multiplier, p12.sweep_all, p12.points), (2, false, 16));
        assert_eq!(points(&s), [-34, 38, -4]);
        // rake: 3% of 38, rounded down
        assert_eq!((s.seats[1].rake, s.seats[1].net), (1, 37));
        assert_eq!((s.seats[0].rake, s.seats[0].net), (0, -34));
    }

    #[test]
    fn scoop_and_sweep_all() {
        let rules = plain();
        let all = seats(&SWEEP);
        // four players: sweep all, 12 from each
        let s = run(&rules, &all, Stakes::Uniform(1));
        assert!(s.seats[0].swept_all);
        assert!(!s.seats[1].swept_all && !s.seats[2].swept_all && !s.seats[3].swept_all);
        for j in 1..4 {
            let p = pair(&s, 0, j);
            assert_eq!(
                (p.points, p.scoop, p.multiplier, p.sweep_all),
                (12, 1, 4, true)
            );
        }
        assert_eq!(s.seats[0].points, 36);
        // two players: a scoop, 6
        let s = run(&rules, &all[..2], Stakes::Uniform(1));
        assert!(!s.seats[0].swept_all);
        let p = pair(&s, 0, 1);
        assert_eq!(
            (p.points, p.scoop, p.multiplier, p.sweep_all),
            (6, 1, 2, false)
        );
        assert_eq!(points(&s), [6, -6]);
        // three players: min_players 4, so scoops only
        let s = run(&rules, &all[..3], Stakes::Uniform(1));
        assert_eq!(s.seats[0].points, 12);
        // ... unless min_players is 3; sweep-all bonus counts once per pair
        let r3 = Rules {
            sweep_all_min_players: 3,
            sweep_all_bonus: 2,
            scoop_bonus: 1,
            ..plain()
        };
        let s = run(&r3, &all[..3], Stakes::Uniform(1));
        assert_eq!(s.seats[0].points, 2 * 14);
        assert_eq!(pair(&s, 0, 1).bonus, 2);
        // a scoop by seat j is signed from i's view
        let s = run(&r3, &[all[1], all[0]], Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.points, p.scoop, p.bonus, p.rows), (-7, -1, -1, [-1; 3]));
        // min_players 5: never
        let never = Rules {
            sweep_all_min_players: 5,
            ..plain()
        };
        let s = run(&never, &all, Stakes::Uniform(1));
        assert_eq!(s.seats[0].points, 18);
        // a fouled opponent counts as swept
        let mut fouled = all.clone();
        fouled[3] = seat(SWEEP_FOUL3);
        let s = run(&rules, &fouled, Stakes::Uniform(1));
        assert!(s.seats[3].foul && s.seats[0].swept_all);
        assert_eq!(pair(&s, 0, 1).points, 12);
        assert_eq!(pair(&s, 0, 3).points, 12);
    }

    #[test]
    fn surrender() {
        let rules = Rules {
            surrender_enabled: true,
            surrender_cost: 3,
            ..plain()
        };
        // a surrender blocks the sweep all; every non-fouled opponent gets 3
        let mut table = seats(&SWEEP);
        table[3].surrender = true;
        let s = run(&rules, &table, Stakes::Uniform(1));
        assert!(s.seats[3].surrender && !s.seats[0].swept_all);
        let p = pair(&s, 0, 3);
        assert_eq!(
            (p.outcome, p.points, p.scoop, p.royalties),
            (PairOutcome::Surrender, 3, 0, 0)
        );
        assert_eq!(pair(&s, 0, 1).points, 6);
        assert_eq!(s.seats[3].points, -9);
        assert_eq!(s.seats[0].points, 15);
        // a surrender against a fouled seat: nothing
        let mut table = seats(&FOUL);
        table[2].surrender = true;
        let s = run(&rules, &table, Stakes::Uniform(1));
        assert_eq!(pair(&s, 0, 2).outcome, PairOutcome::Surrender);
        assert_eq!(pair(&s, 0, 2).points, 0);
        assert_eq!(pair(&s, 1, 2).points, 3);
        assert_eq!(pair(&s, 0, 1).points, -22);
        assert!(!s.seats[2].foul && s.seats[0].foul);
        // both surrender
        let mut table = seats(&ROYAL);
        table[0].surrender = true;
        table[1].surrender = true;
        let s = run(&rules, &table, Stakes::Uniform(1));
        assert_eq!(points(&s), [0, 0]);
        // a seat that surrenders is not reported as fouled
        let mut table = seats(&FOUL);
        table[0].surrender = true;
        let s = run(&rules, &table, Stakes::Uniform(1));
        assert!(!s.seats[0].foul && s.seats[0].surrender);
        assert_eq!(pair(&s, 0, 1).points, -3);
    }

    #[test]
    fn royalty_modes() {
        let table = seats(&ROYAL);
        let s = run(&plain(), &table, Stakes::Uniform(1));
        assert_eq!(s.seats[0].royalties, [0, 3, 7]);
        assert_eq!(s.seats[1].royalties, [0, 3, 9]);
        let p = pair(&s, 0, 1);
        assert_eq!(p.rows, [-1, 1, -1]);
        // winner: A takes 3 for its middle, B 9 for its bottom
        assert_eq!((p.row_points, p.royalties, p.points), (-1, -6, -7));
        let always = Rules {
            royalty_mode: RoyaltyMode::Always,
            ..plain()
        };
        let p = pair(&run(&always, &table, Stakes::Uniform(1)), 0, 1);
        assert_eq!((p.row_points, p.royalties, p.points), (-1, -2, -3));
        let none = Rules {
            royalty_mode: RoyaltyMode::None,
            ..plain()
        };
        let s = run(&none, &table, Stakes::Uniform(1));
        assert_eq!(s.seats[0].royalties, [0; 3]);
        let p = pair(&s, 0, 1);
        assert_eq!((p.row_points, p.royalties, p.points), (-1, 0, -1));
        // royalty_adds = false: a royalty larger than the row point replaces it
        let replace = Rules {
            royalty_adds: false,
            ..plain()
        };
        let p = pair(&run(&replace, &table, Stakes::Uniform(1)), 0, 1);
        assert_eq!((p.row_points, p.royalties, p.points), (-1, -6, -7));
        let s = run(&replace, &seats(&FOUL), Stakes::Uniform(1));
        let p = pair(&s, 1, 2);
        // top scores its row point; middle and bottom score 3 and 7 instead
        assert_eq!((p.row_points, p.royalties, p.points), (1, 10, 2 + 10));
        // with multiply_royalties the royalties of a scoop are doubled too
        let mult = Rules {
            scoop_multiply_royalties: true,
            ..plain()
        };
        let s = run(&mult, &seats(&FOUL), Stakes::Uniform(1));
        assert_eq!(pair(&s, 1, 2).points, 6 + 20);
        assert_eq!(pair(&s, 0, 1).points, -(12 + 40));
        assert_eq!(pair(&s, 0, 2).points, -12);
        // the overall point
        let overall = Rules {
            overall_point: 1,
            ..plain()
        };
        let p = pair(&run(&overall, &table, Stakes::Uniform(1)), 0, 1);
        assert_eq!((p.overall, p.points), (-1, -8));
        let s = run(&overall, &seats(&FOUL), Stakes::Uniform(1));
        assert_eq!(pair(&s, 1, 2).points, (3 + 1) * 2 + 10);
    }

    #[test]
    fn foul_modes() {
        let table = seats(&FOUL);
        let scoop = Rules {
            foul_mode: FoulMode::Scoop,
            ..plain()
        };
        let s = run(&scoop, &table, Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!(
            (p.points, p.multiplier, p.sweep_all, p.royalties),
            (-16, 2, false, -10)
        );
        assert_eq!(pair(&s, 0, 2).points, -6);
        let scoop_overall = Rules {
            overall_point: 2,
            scoop_bonus: 1,
            ..scoop.clone()
        };
        let s = run(&scoop_overall, &table, Stakes::Uniform(1));
        assert_eq!(pair(&s, 0, 2).points, -((3 + 2) * 2 + 1));
        assert_eq!(pair(&s, 0, 2).bonus, -1);
        let fixed = Rules {
            foul_mode: FoulMode::Fixed,
            foul_points: 5,
            ..plain()
        };
        let s = run(&fixed, &table, Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.points, p.multiplier, p.sweep_all), (-15, 1, false));
        assert_eq!(pair(&s, 0, 2).points, -5);
        let fixed_mult = Rules {
            scoop_multiply_royalties: true,
            ..fixed.clone()
        };
        let p = pair(&run(&fixed_mult, &table, Stakes::Uniform(1)), 0, 1);
        assert_eq!((p.points, p.multiplier), (-25, 2));
        let no_roy = Rules {
            foul_pays_royalties: false,
            ..plain()
        };
        let s = run(&no_roy, &table, Stakes::Uniform(1));
        assert_eq!(pair(&s, 0, 1).points, -12);
        assert_eq!(pair(&s, 0, 1).royalties, 0);
        let none = Rules {
            royalty_mode: RoyaltyMode::None,
            ..plain()
        };
        assert_eq!(
            pair(&run(&none, &table, Stakes::Uniform(1)), 0, 1).points,
            -12
        );
        // both fouled: nothing
        let both = [table[0], seat("Ad As 4c | 2d 5d 7h Td Js | Kd Qd 6c 4s 3s")];
        let s = run(&plain(), &both, Stakes::Uniform(1));
        assert!(s.seats[1].foul);
        assert_eq!(
            (pair(&s, 0, 1).outcome, pair(&s, 0, 1).points),
            (PairOutcome::Foul, 0)
        );
        // scoop mode: a seat that swept all collects a foul at the sweep-all rate
        let mut fouled = seats(&SWEEP);
        fouled[3] = seat(SWEEP_FOUL3);
        let s = run(&scoop, &fouled, Stakes::Uniform(1));
        let p = pair(&s, 0, 3);
        assert_eq!(
            (p.points, p.multiplier, p.sweep_all, p.scoop),
            (12, 4, true, 1)
        );
        assert_eq!(pair(&s, 1, 3).points, 6);
        assert_eq!(pair(&s, 2, 3).points, 6);
        // sweep-all mode: every fouled pair pays the sweep-all figure
        let s = run(&plain(), &fouled, Stakes::Uniform(1));
        assert_eq!(pair(&s, 1, 3).points, 12);
        assert!(pair(&s, 1, 3).sweep_all);
        // strict foul check: equal rows foul
        let strict = Rules {
            foul_strict: true,
            evaluator: crate::rank::Evaluator::new(crate::rank::Ranking {
                tie_break_suit: false,
                ..Default::default()
            }),
            ..plain()
        };
        // middle and bottom both high-card K-Q-9-7-5
        let eq = seat("2d 3c 4h | Kd Qc 9h 7s 5d | Kc Qh 9s 7d 5c");
        let other = seat("2s 3s 4s | Ks Qs 9d 7c 6s | Ah Kh Qd 8s 6h");
        let s = run(&strict, &[eq, other], Stakes::Uniform(1));
        assert!(s.seats[0].foul);
        let loose = Rules {
            foul_strict: false,
            ..strict
        };
        let s = run(&loose, &[eq, other], Stakes::Uniform(1));
        assert!(!s.seats[0].foul);
    }

    #[test]
    fn ties_under_no_tie_break() {
        let rules = Rules {
            evaluator: crate::rank::Evaluator::new(crate::rank::Ranking {
                tie_break_suit: false,
                ..Default::default()
            }),
            ..plain()
        };
        let a = seat("2d 3d 5c | 7d 7c 9d Td Jc | Ad Ac Kd Qd 8c");
        let b = seat("2h 3h 5s | 7h 7s 9h Th Js | Ah As Kh Qh 8s");
        let s = run(&rules, &[a, b], Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.rows, p.points, p.scoop), ([0; 3], 0, 0));
    }

    #[test]
    fn stakes_and_rake() {
        let table = seats(&SWEEP);
        #[rustfmt::skip]
        let m = [
            0, 100, 10, 10,
            100, 0, 10, 10,
            10, 10, 0, 10,
            10, 10, 10, -7, // the diagonal is ignored
        ];
        let s = run(&plain(), &table, Stakes::Matrix(&m));
        for p in &s.pairs {
            assert_eq!(p.stake, m[p.i * 4 + p.j]);
            assert_eq!(p.money, p.points * p.stake);
        }
        assert_eq!(s.seats[0].money, 12 * 100 + 12 * 10 + 12 * 10);
        assert_eq!(s.seats[0].rake, 1440 * 3 / 100);
        assert_eq!(s.seats[0].net, 1440 - 43);
        for r in &s.seats {
            if r.money > 0 {
                assert_eq!(r.rake, r.money * 3 / 100);
            } else {
                assert_eq!(r.rake, 0);
                assert_eq!(r.net, r.money);
            }
        }
        let no_rake = Rules {
            rake_percent: 0,
            ..plain()
        };
        let s = run(&no_rake, &table, Stakes::Uniform(250));
        assert!(s.seats.iter().all(|r| r.rake == 0 && r.net == r.money));
        assert_eq!(s.seats[0].money, 36 * 250);
        let s = run(&plain(), &table, Stakes::Uniform(0));
        assert!(s.seats.iter().all(|r| r.money == 0 && r.rake == 0));
    }

    #[test]
    fn errors() {
        let rules = plain();
        let four = seats(&SWEEP);
        let one = Stakes::Uniform(1);
        let table = |r: Result<Settlement>| match r {
            Err(e) if e.kind() == ErrorKind::Table => e.message().to_string(),
            other => panic!("expected a table error, got {other:?}"),
        };
        table(settle(&rules, &four[..1], &one));
        table(settle(&rules, &[], &one));
        let mut five = four.clone();
        five.push(four[0]);
        table(settle(&rules, &five, &one));
        // card id out of range
        let mut bad = four.clone();
        bad[2].cards[5] = 52;
        match settle(&rules, &bad, &one) {
            Err(e) if e.kind() == ErrorKind::Card => assert!(
                e.message().contains("seat 2") && e.message().contains("52"),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        // a card twice in one seat, and in two seats
        let mut bad = four.clone();
        bad[1].cards[4] = bad[1].cards[0];
        match settle(&rules, &bad, &one) {
            Err(e) if e.kind() == ErrorKind::Hand => assert!(
                e.message().contains("seat 1") && e.message().contains("twice"),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        let mut bad = four[..2].to_vec();
        bad[1].cards[12] = bad[0].cards[3];
        match settle(&rules, &bad, &one) {
            Err(e) if e.kind() == ErrorKind::Hand => {
                let m = e.message();
                assert!(
                    m.contains("seat 0") && m.contains("seat 1") && m.contains("2s"),
                    "{m}"
                )
            }
            other => panic!("{other:?}"),
        }
        // surrender not enabled
        let mut bad = four.clone();
        bad[3].surrender = true;
        let m = table(settle(&rules, &bad, &one));
        assert!(m.contains("seat 3") && m.contains("surrender"), "{m}");
        // stakes
        let m = table(settle(&rules, &four, &Stakes::Uniform(-1)));
        assert!(m.contains("-1"));
        let m = table(settle(&rules, &four, &Stakes::Matrix(&[1; 9])));
        assert!(m.contains("16"), "{m}");
        let mut mat = [5i64; 16];
        mat[4 + 2] = -5; // [1][2]
        mat[2 * 4 + 1] = -5;
        let m = table(settle(&rules, &four, &Stakes::Matrix(&mat)));
        assert!(m.contains("seat 1") && m.contains("seat 2"), "{m}");
        let mut mat = [5i64; 16];
        mat[3] = 6;
        let m = table(settle(&rules, &four, &Stakes::Matrix(&mat)));
        assert!(m.contains("symmetric"), "{m}");
        // settle_points: same checks, plus the output lengths
        let (mut p, mut mo) = ([7i64; 4], [7i64; 4]);
        assert!(settle_points(&rules, &four, &one, &mut p[..3], &mut mo)
            .is_err_and(|e| e.kind() == ErrorKind::Table));
        let mut bad = four.clone();
        bad[0].cards[0] = 200;
        assert!(settle_points(&rules, &bad, &one, &mut p, &mut mo)
            .is_err_and(|e| e.kind() == ErrorKind::Card));
        // on an error the outputs are untouched
        assert!(settle_points(
            &rules,
            &four,
            &Stakes::Uniform(i64::MAX / 4),
            &mut p,
            &mut mo
        )
        .is_err());
        assert_eq!((p, mo), ([7; 4], [7; 4]));
        // overflow is an error, not a panic
        let huge = Rules {
            sweep_all_multiplier: i64::MAX / 2,
            ..plain()
        };
        table(settle(&huge, &four, &one));
        table(settle(&plain(), &four, &Stakes::Uniform(i64::MAX / 4)));
    }

    /// Arrangement made legal where sorting rows can: the middle and bottom
    /// swapped when the middle is the stronger.
    fn sorted_rows(rules: &Rules, mut cards: [u8; 13]) -> [u8; 13] {
        let e = &rules.evaluator;
        let m = e.eval5(cards[3..8].try_into().unwrap());
        let b = e.eval5(cards[8..13].try_into().unwrap());
        if m > b {
            let mid: [u8; 5] = cards[3..8].try_into().unwrap();
            cards.copy_within(8..13, 3);
            cards[8..13].copy_from_slice(&mid);
        }
        cards
    }

    fn variants(naturals: bool) -> Vec<Rules> {
        let base = if naturals { Rules::default() } else { plain() };
        vec![
            base.clone(),
            Rules {
                royalty_mode: RoyaltyMode::Always,
                foul_mode: FoulMode::Scoop,
                overall_point: 1,
                scoop_bonus: 3,
                sweep_all_min_players: 2,
                ..base.clone()
            },
            Rules {
                royalty_mode: RoyaltyMode::None,
                foul_mode: FoulMode::Fixed,
                foul_points: 7,
                surrender_enabled: true,
                surrender_cost: 3,
                rake_percent: 7,
                evaluator: crate::rank::Evaluator::new(crate::rank::Ranking {
                    tie_break_suit: false,
                    ..Default::default()
                }),
                ..base.clone()
            },
            Rules {
                royalty_adds: false,
                row_points: 2,
                scoop_multiply_royalties: true,
                sweep_all_min_players: 3,
                foul_strict: true,
                natural_resolve: NaturalResolve::Difference,
                natural_ties: NaturalTies::Compare,
                ..base
            },
        ]
    }

    fn random_tables(naturals: bool) {
        let rules = variants(naturals);
        let mut rng = crate::deal::ChaCha20::from_seed(99);
        let mut outcomes = [0usize; 4];
        let mut swept = 0;
        for seed in 0..3_000u64 {
            let n = 2 + (seed % 3) as usize;
            let hands = crate::deal::deal(n, Some(seed)).unwrap();
            let r = &rules[(seed / 3 % rules.len() as u64) as usize];
            let table: Vec<SeatInput> = hands
                .iter()
                .map(|&h| SeatInput {
                    cards: if rng.below(2) == 0 {
                        h
                    } else {
                        sorted_rows(r, h)
                    },
                    surrender: r.surrender_enabled && rng.below(5) == 0,
                    declare_natural: rng.below(4) != 0,
                })
                .collect();
            let mut m = vec![0i64; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let v = rng.below(100) as i64;
                    m[i * n + j] = v;
                    m[j * n + i] = v;
                }
            }
            for stakes in [Stakes::Uniform(1 + seed as i64 % 50), Stakes::Matrix(&m)] {
                let s = run(r, &table, stakes);
                assert_eq!(s.pairs.len(), n * (n - 1) / 2);
                for p in &s.pairs {
                    outcomes[p.outcome as usize] += 1;
                    assert_eq!(p.money, p.points * p.stake);
                }
                for (k, seat) in s.seats.iter().enumerate() {
                    let sum: i64 = s
                        .pairs
                        .iter()
                        .map(|p| {
                            if p.i == k {
                                p.points
                            } else if p.j == k {
                                -p.points
                            } else {
                                0
                            }
                        })
                        .sum();
                    assert_eq!(sum, seat.points);
                    swept += seat.swept_all as usize;
                }
            }
        }
        assert!(outcomes.iter().skip(1).all(|&c| c > 0), "{outcomes:?}");
        assert!(swept > 0);
        if naturals {
            assert!(outcomes[PairOutcome::Natural as usize] > 0);
        }
    }

    #[test]
    fn random_tables_balance() {
        random_tables(false);
    }

    // ---- naturals (docs/rules.md, "Naturals") ----

    const DRAGON: &str = "2d 3c 4d | 5c 6d 7c 8d 9c | Td Jc Qd Kc Ad";
    const SIX_PAIRS_HIGH: &str = "2h 2s 5h | 5s 8h 8s Jh Js | Kh Ks Ah As 9h";
    const SIX_PAIRS_LOW: &str = "3d 3c 4d | 4c 6d 6c 7d 7c | Td Tc Qd Qc 9d";

    #[test]
    fn naturals_collect_first() {
        let rules = Rules::default();
        // a dragon against an ordinary hand
        let t = [seat(DRAGON), seat(SIX_PAIRS_HIGH)];
        let s = run(&rules, &t, Stakes::Uniform(1));
        assert_eq!(s.seats[0].natural, Some((Natural::Dragon, 208)));
        assert_eq!(s.seats[1].natural, Some((Natural::SixPairs, 3)));
        let p = pair(&s, 0, 1);
        assert_eq!((p.outcome, p.points), (PairOutcome::Natural, 208));
        let diff = Rules {
            natural_resolve: NaturalResolve::Difference,
            ..Rules::default()
        };
        assert_eq!(pair(&run(&diff, &t, Stakes::Uniform(1)), 0, 1).points, 205);
        let t = [seat(SIX_PAIRS_HIGH), seat(DRAGON)];
        assert_eq!(pair(&run(&diff, &t, Stakes::Uniform(1)), 0, 1).points, -205);
        assert_eq!(
            pair(&run(&rules, &t, Stakes::Uniform(1)), 0, 1).points,
            -208
        );
        // declining the natural: the arrangement plays
        let mut t = [seat(DRAGON), seat(SIX_PAIRS_HIGH)];
        t[0].declare_natural = false;
        let s = run(&rules, &t, Stakes::Uniform(1));
        assert_eq!(s.seats[0].natural, None);
        let p = pair(&s, 0, 1);
        assert_eq!((p.outcome, p.points), (PairOutcome::Natural, -3));
        t[1].declare_natural = false;
        let s = run(&rules, &t, Stakes::Uniform(1));
        assert_eq!(pair(&s, 0, 1).outcome, PairOutcome::Rows);
        // a natural collects even from a fouled seat, and a natural asked to
        // surrender still collects
        let sur = Rules {
            surrender_enabled: true,
            surrender_cost: 3,
            ..Rules::default()
        };
        let fouled = seat("Ah As 5h | 2h 8s 9s Jh Qs | Kh 3s 6h 4s 7s");
        let mut t = [seat(SIX_PAIRS_LOW), fouled];
        t[0].surrender = true;
        let s = run(&sur, &t, Stakes::Uniform(1));
        assert!(!s.seats[0].surrender && s.seats[1].foul);
        assert_eq!(pair(&s, 0, 1).points, 3);
        // a natural at the table blocks a sweep all (SWEEP[0] holds three
        // straights, A-2-3, 5-9, T-A: it declines)
        let three = Rules {
            sweep_all_min_players: 3,
            ..Rules::default()
        };
        let mut t = [
            seat(SWEEP[0]),
            seat("2d 3d 4s | 2c 3c 6c 6s 9h | 8d 8s 9d 4d Ad"),
            seat(SWEEP[2]),
        ];
        t[0].declare_natural = false;
        let s = run(&three, &t, Stakes::Uniform(1));
        assert_eq!(s.seats[1].natural, Some((Natural::SixPairs, 3)));
        assert!(!s.seats[0].swept_all);
        assert_eq!(pair(&s, 0, 1).points, -3);
        assert_eq!(pair(&s, 0, 2).points, 6);
        t[1].declare_natural = false;
        let s = run(&three, &t, Stakes::Uniform(1));
        assert!(s.seats[0].swept_all);
        assert_eq!(pair(&s, 0, 1).points, 12);
        assert_eq!(pair(&s, 0, 2).points, 12);
        // SWEEP[0] holds three straights and SWEEP[1] three flushes; declined,
        // the naturals change nothing
        let mut t = seats(&SWEEP);
        let s = run(&rules, &t, Stakes::Uniform(1));
        assert_eq!(s.seats[0].natural, Some((Natural::ThreeStraights, 3)));
        assert_eq!(s.seats[1].natural, Some((Natural::ThreeFlushes, 3)));
        assert_eq!(pair(&s, 0, 1).points, -3);
        for seat in &mut t {
            seat.declare_natural = false;
        }
        assert_eq!(
            run(&rules, &t, Stakes::Uniform(1)),
            run(&plain(), &t, Stakes::Uniform(1))
        );
    }

    #[test]
    fn equal_naturals() {
        let t = [seat(SIX_PAIRS_LOW), seat(SIX_PAIRS_HIGH)];
        let push = Rules::default();
        assert_eq!(pair(&run(&push, &t, Stakes::Uniform(1)), 0, 1).points, 0);
        for resolve in [NaturalResolve::HigherWins, NaturalResolve::Difference] {
            let compare = Rules {
                natural_ties: NaturalTies::Compare,
                natural_resolve: resolve,
                ..Rules::default()
            };
            let s = run(&compare, &t, Stakes::Uniform(1));
            assert_eq!(pair(&s, 0, 1).points, -3);
            // identical rank groups push
            let same = [
                seat(SIX_PAIRS_LOW),
                seat("3h 3s 4h | 4s 6h 6s 7h 7s | Th Ts Qh Qs 9h"),
            ];
            assert_eq!(
                pair(&run(&compare, &same, Stakes::Uniform(1)), 0, 1).points,
                0
            );
        }
        assert_eq!(
            compare_groups(&seat(SIX_PAIRS_HIGH).cards, &seat(SIX_PAIRS_LOW).cards),
            Ordering::Greater
        );
    }

    #[test]
    fn random_tables_balance_with_naturals() {
        random_tables(true);
    }

    // ---- wide figures: refused only when a reported figure does not fit ----

    /// Seat 0 wins the middle and the bottom (pairs of sevens and of aces,
    /// kicker king-queen-eight), seat 1 the top (a pair of fours); no row
    /// holds a royalty.
    const TWO_ONE: [&str; 2] = [
        "2d 3d 5c | 7d 7c 9d Td Jc | Ad Ac Kd Qd 8c",
        "4h 4s 2h | 6h 6s 8h 9s Jh | Ah As Kh Qh 7s",
    ];

    fn overflow_error(r: Result<Settlement>) {
        match r {
            Err(e) if e.kind() == ErrorKind::Table => {
                assert!(e.message().contains("64-bit"), "{e}")
            }
            other => panic!("expected the overflow error, got {other:?}"),
        }
    }

    #[test]
    fn unused_huge_row_points_do_not_refuse_a_natural() {
        let rules = Rules {
            row_points: 9 * 10i64.pow(18),
            ..Rules::default()
        };
        // TWO_ONE[0] holds three flushes: it declines them
        let mut t = [seat(SIX_PAIRS_HIGH), seat(TWO_ONE[0])];
        t[1].declare_natural = false;
        let s = run(&rules, &t, Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.outcome, p.points, p.money), (PairOutcome::Natural, 3, 3));
        assert_eq!([s.seats[0].points, s.seats[1].points], [3, -3]);
    }

    #[test]
    fn two_rows_won_one_lost_with_huge_row_points() {
        // 2 * row_points does not fit, 2 - 1 rows = 1 * row_points does
        for rp in [i64::MAX / 3 * 2, i64::MAX] {
            let rules = Rules {
                row_points: rp,
                ..plain()
            };
            let s = run(&rules, &seats(&TWO_ONE), Stakes::Uniform(1));
            let p = pair(&s, 0, 1);
            assert_eq!((p.rows, p.row_points, p.points), ([-1, 1, 1], rp, rp));
            let rake = (3 * rp as i128 / 100) as i64;
            assert_eq!((s.seats[0].rake, s.seats[0].net), (rake, rp - rake));
            assert_eq!(s.seats[1].points, -rp);
        }
    }

    #[test]
    fn a_round_that_does_not_fit_is_refused() {
        let two_one = seats(&TWO_ONE);
        // row_points + overall_point
        let rules = Rules {
            row_points: i64::MAX / 3 * 2,
            overall_point: i64::MAX / 2,
            ..plain()
        };
        overflow_error(settle(&rules, &two_one, &Stakes::Uniform(1)));
        // the pair's points fit, its money does not
        let rules = Rules {
            row_points: i64::MAX / 2,
            ..plain()
        };
        overflow_error(settle(&rules, &two_one, &Stakes::Uniform(3)));
        // a scoop's 3 * row_points, and a product beyond i128:
        // (3 * row_points + overall) * multiplier
        let sweep = seats(&SWEEP);
        for (rp, m) in [(i64::MAX / 3 + 1, 1), (i64::MAX, i64::MAX)] {
            let rules = Rules {
                row_points: rp,
                overall_point: i64::MAX,
                scoop_multiplier: m,
                sweep_all_multiplier: m,
                ..plain()
            };
            overflow_error(settle(&rules, &sweep, &Stakes::Uniform(1)));
            let (mut p, mut mo) = ([7i64; 4], [7i64; 4]);
            let r = settle_points(&rules, &sweep, &Stakes::Uniform(1), &mut p, &mut mo);
            assert!(r.is_err_and(|e| e.message().contains("64-bit")));
            assert_eq!((p, mo), ([7; 4], [7; 4]));
        }
    }

    #[test]
    fn fixed_foul_ignores_huge_row_points() {
        let rules = Rules {
            row_points: i64::MAX,
            foul_mode: FoulMode::Fixed,
            foul_points: 5,
            royalty_mode: RoyaltyMode::None,
            ..plain()
        };
        let s = run(&rules, &seats(&FOUL[..2]), Stakes::Uniform(1));
        let p = pair(&s, 0, 1);
        assert_eq!((p.outcome, p.points), (PairOutcome::Foul, -5));
    }

    #[test]
    fn rake_at_extreme_money() {
        let two_one = seats(&TWO_ONE);
        for (percent, rake) in [(100, i64::MAX), (3, (3 * i64::MAX as i128 / 100) as i64)] {
            let rules = Rules {
                rake_percent: percent,
                ..plain()
            };
            let s = run(&rules, &two_one, Stakes::Uniform(i64::MAX));
            let r = s.seats[0];
            assert_eq!((r.money, r.rake, r.net), (i64::MAX, rake, i64::MAX - rake));
            let r = s.seats[1];
            assert_eq!((r.money, r.rake, r.net), (-i64::MAX, 0, -i64::MAX));
        }
    }

    #[test]
    fn seat_money_may_pass_beyond_i64_on_the_way() {
        // SWEEP reordered: seat 3 (SWEEP[2]) pays 12 points to seat 0 and 1
        // to seat 1, then collects 6 from seat 2; its money passes below
        // i64::MIN on the way and ends inside
        let t = seats(&[SWEEP[0], SWEEP[3], SWEEP[1], SWEEP[2]]);
        let (q, h) = (i64::MAX / 12, i64::MAX / 2);
        #[rustfmt::skip]
        let m = [
            0, 0, 0, q,
            0, 0, 0, h,
            0, 0, 0, q,
            q, h, q, 0,
        ];
        let s = run(&plain(), &t, Stakes::Matrix(&m));
        let points: Vec<i64> = [(0, 3), (1, 3), (2, 3)]
            .map(|(i, j)| pair(&s, i, j).points)
            .to_vec();
        assert_eq!(points, [12, 1, -6]);
        let money: Vec<i64> = s.seats.iter().map(|r| r.money).collect();
        assert_eq!(money, [12 * q, h, -6 * q, -6 * q - h]);
    }

    /// A two's-complement 256-bit integer: wide enough for every figure of
    /// a settlement of `i64` rules and stakes, written for the reference.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Big([u64; 4]);

    impl Big {
        fn of(x: i64) -> Big {
            let ext = if x < 0 { u64::MAX } else { 0 };
            Big([x as u64, ext, ext, ext])
        }
        fn add(self, o: Big) -> Big {
            let mut out = [0u64; 4];
            let mut carry = 0u128;
            for (k, limb) in out.iter_mut().enumerate() {
                let t = self.0[k] as u128 + o.0[k] as u128 + carry;
                *limb = t as u64;
                carry = t >> 64;
            }
            Big(out)
        }
        fn neg(self) -> Big {
            Big(self.0.map(|x| !x)).add(Big::of(1))
        }
        fn sub(self, o: Big) -> Big {
            self.add(o.neg())
        }
        fn mul(self, o: Big) -> Big {
            let mut out = [0u64; 4];
            for a in 0..4 {
                let mut carry = 0u128;
                for b in 0..4 - a {
                    let t = self.0[a] as u128 * o.0[b] as u128 + out[a + b] as u128 + carry;
                    out[a + b] = t as u64;
                    carry = t >> 64;
                }
            }
            Big(out)
        }
        fn small(self) -> Option<i64> {
            let low = self.0[0] as i64;
            (Big::of(low) == self).then_some(low)
        }
    }

    /// The reported figures of a round as the reference works them out:
    /// per pair (row_points, overall, royalties, bonus, points, money), per
    /// seat (points, money, rake, net); `None` when one does not fit.
    type Figures = (Vec<[i64; 6]>, Vec<[i64; 4]>);

    /// Settlement straight from docs/rules.md ("Settlement"), every figure
    /// in `Big`. Hands, royalties and naturals come from the evaluator,
    /// the royalty table and `naturals::strongest`.
    fn reference(
        rules: &Rules,
        table: &[SeatInput],
        stake: &dyn Fn(usize, usize) -> i64,
    ) -> Option<Figures> {
        let n = table.len();
        let e = &rules.evaluator;
        let strength: Vec<[u32; 3]> = table
            .iter()
            .map(|s| {
                let c = s.cards;
                [
                    e.eval3([c[0], c[1], c[2]]),
                    e.eval5([c[3], c[4], c[5], c[6], c[7]]),
                    e.eval5([c[8], c[9], c[10], c[11], c[12]]),
                ]
            })
            .collect();
        let natural: Vec<Option<(Natural, i64)>> = table
            .iter()
            .map(|s| {
                if s.declare_natural {
                    naturals::strongest(&s.cards, &rules.naturals)
                } else {
                    None
                }
            })
            .collect();
        let surrendered: Vec<bool> = (0..n)
            .map(|s| table[s].surrender && natural[s].is_none())
            .collect();
        let fouled: Vec<bool> = (0..n)
            .map(|s| {
                let [t, m, b] = strength[s];
                let legal = if rules.foul_strict {
                    t < m && m < b
                } else {
                    t <= m && m <= b
                };
                !legal && natural[s].is_none() && !surrendered[s]
            })
            .collect();
        let roy: Vec<[i64; 3]> = (0..n)
            .map(|s| {
                if rules.royalty_mode == RoyaltyMode::None {
                    [0; 3]
                } else {
                    [0, 1, 2].map(|r| rules.royalty(r, strength[s][r]))
                }
            })
            .collect();
        let roy_total = |s: usize| roy[s].iter().fold(Big::of(0), |a, &x| a.add(Big::of(x)));
        let wins_all = |i: usize, j: usize| (0..3).all(|r| strength[i][r] > strength[j][r]);
        let plain = |s: usize| natural[s].is_none() && !fouled[s] && !surrendered[s];
        let swept: Vec<bool> = (0..n)
            .map(|i| {
                n >= rules.sweep_all_min_players
                    && plain(i)
                    && (0..n).filter(|&j| j != i).all(|j| {
                        natural[j].is_none() && !surrendered[j] && (fouled[j] || wins_all(i, j))
                    })
            })
            .collect();
        let scoop_of = |s: usize| {
            if swept[s] {
                (rules.sweep_all_multiplier, rules.sweep_all_bonus)
            } else {
                (rules.scoop_multiplier, rules.scoop_bonus)
            }
        };
        let roy_factor = |m: i64| if rules.scoop_multiply_royalties { m } else { 1 };
        // what non-fouled `s` collects from a fouled seat: (royalties, bonus, points)
        let foul_amount = |s: usize| {
            let three = Big::of(3).mul(Big::of(rules.row_points));
            let (m, base, bonus) = match rules.foul_mode {
                FoulMode::SweepAll => {
                    let (m, b) = (rules.sweep_all_multiplier, rules.sweep_all_bonus);
                    (m, three.mul(Big::of(m)).add(Big::of(b)), b)
                }
                FoulMode::Scoop => {
                    let (m, b) = scoop_of(s);
                    (
                        m,
                        three
                            .add(Big::of(rules.overall_point))
                            .mul(Big::of(m))
                            .add(Big::of(b)),
                        b,
                    )
                }
                FoulMode::Fixed => (scoop_of(s).0, Big::of(rules.foul_points), 0),
            };
            let paid = if rules.foul_pays_royalties && rules.royalty_mode != RoyaltyMode::None {
                roy_total(s)
            } else {
                Big::of(0)
            };
            (
                paid,
                Big::of(bonus),
                base.add(paid.mul(Big::of(roy_factor(m)))),
            )
        };
        let rank_groups = |c: &[u8; 13]| {
            let mut count = [0u8; 13];
            for &x in c {
                count[crate::cards::rank_index(x) as usize] += 1;
            }
            let mut ranks: Vec<u8> = (0..13).filter(|&r| count[r as usize] > 0).collect();
            ranks.sort_by_key(|&r| std::cmp::Reverse((count[r as usize], r)));
            ranks
        };
        let zero = Big::of(0);
        let mut pairs = Vec::new();
        let mut points = vec![zero; n];
        let mut money = vec![zero; n];
        for i in 0..n {
            for j in i + 1..n {
                // (row_points, overall, royalties, bonus, points)
                let f = if natural[i].is_some() || natural[j].is_some() {
                    let v = match (natural[i], natural[j]) {
                        (Some((_, a)), None) => a,
                        (None, Some((_, b))) => -b,
                        (Some((x, a)), Some((y, b))) if x == y => {
                            let compared = matches!(
                                x,
                                Natural::SixPairs
                                    | Natural::FivePairsTrips
                                    | Natural::FourTriples
                                    | Natural::ThreeQuads
                            );
                            if rules.natural_ties == NaturalTies::Compare && compared {
                                match rank_groups(&table[i].cards)
                                    .cmp(&rank_groups(&table[j].cards))
                                {
                                    Ordering::Greater => a,
                                    Ordering::Less => -b,
                                    Ordering::Equal => 0,
                                }
                            } else {
                                0
                            }
                        }
                        (Some((x, a)), Some((y, b))) => {
                            let rank = |m| rules.naturals.iter().position(|&(k, _)| k == m);
                            match rules.natural_resolve {
                                NaturalResolve::Difference => a - b,
                                NaturalResolve::HigherWins if rank(x) < rank(y) => a,
                                NaturalResolve::HigherWins => -b,
                            }
                        }
                        (None, None) => unreachable!(),
                    };
                    [zero, zero, zero, zero, Big::of(v)]
                } else if surrendered[i] || surrendered[j] {
                    let cost = rules.surrender_cost;
                    let v = match (surrendered[i], surrendered[j]) {
                        (true, true) => 0,
                        (true, false) if fouled[j] => 0,
                        (true, false) => -cost,
                        (false, _) if fouled[i] => 0,
                        (false, _) => cost,
                    };
                    [zero, zero, zero, zero, Big::of(v)]
                } else if fouled[i] && fouled[j] {
                    [zero; 5]
                } else if fouled[j] {
                    let (r, b, v) = foul_amount(i);
                    [zero, zero, r, b, v]
                } else if fouled[i] {
                    let (r, b, v) = foul_amount(j);
                    [zero, zero, r.neg(), b.neg(), v.neg()]
                } else {
                    let (mut rows, mut royalty) = (zero, zero);
                    let (mut won_i, mut won_j) = (0, 0);
                    for r in 0..3 {
                        let (w, sign) = match strength[i][r].cmp(&strength[j][r]) {
                            Ordering::Greater => (i, Big::of(1)),
                            Ordering::Less => (j, Big::of(-1)),
                            Ordering::Equal => continue,
                        };
                        if w == i {
                            won_i += 1
                        } else {
                            won_j += 1
                        }
                        let value = roy[w][r];
                        let (row, extra) = match rules.royalty_mode {
                            RoyaltyMode::Winner if rules.royalty_adds => (rules.row_points, value),
                            RoyaltyMode::Winner if value > rules.row_points => (0, value),
                            _ => (rules.row_points, 0),
                        };
                        rows = rows.add(sign.mul(Big::of(row)));
                        royalty = royalty.add(sign.mul(Big::of(extra)));
                    }
                    if rules.royalty_mode == RoyaltyMode::Always {
                        royalty = roy_total(i).sub(roy_total(j));
                    }
                    let overall = match won_i.cmp(&won_j) {
                        Ordering::Greater => Big::of(rules.overall_point),
                        Ordering::Less => Big::of(rules.overall_point).neg(),
                        Ordering::Equal => zero,
                    };
                    let (m, bonus) = if won_i == 3 {
                        let (m, b) = scoop_of(i);
                        (m, Big::of(b))
                    } else if won_j == 3 {
                        let (m, b) = scoop_of(j);
                        (m, Big::of(b).neg())
                    } else {
                        (1, zero)
                    };
                    let v = rows
                        .add(overall)
                        .mul(Big::of(m))
                        .add(bonus)
                        .add(royalty.mul(Big::of(roy_factor(m))));
                    [rows, overall, royalty, bonus, v]
                };
                let m = f[4].mul(Big::of(stake(i, j)));
                points[i] = points[i].add(f[4]);
                points[j] = points[j].sub(f[4]);
                money[i] = money[i].add(m);
                money[j] = money[j].sub(m);
                let mut row = [0i64; 6];
                for (k, x) in f.iter().chain([&m]).enumerate() {
                    row[k] = x.small()?;
                }
                pairs.push(row);
            }
        }
        let mut seat_figures = Vec::new();
        for s in 0..n {
            let (p, m) = (points[s].small()?, money[s].small()?);
            let rake = if m > 0 {
                i64::try_from(rules.rake_percent as i128 * m as i128 / 100).ok()?
            } else {
                0
            };
            seat_figures.push([p, m, rake, m.checked_sub(rake)?]);
        }
        Some((pairs, seat_figures))
    }

    /// A rule value or a stake: small, or near a power of two, or at the
    /// limit, or anywhere in range.
    fn extreme(rng: &mut crate::deal::ChaCha20, low: i64) -> i64 {
        let any = ((rng.next_u32() as u64) << 32 | rng.next_u32() as u64) >> 1;
        let v = match rng.below(9) {
            0..=2 => rng.below(4) as i64,
            3 => i64::MAX,
            4 => i64::MAX - rng.below(3) as i64,
            5 => i64::MAX / (2 + rng.below(3) as i64) + rng.below(3) as i64 - 1,
            6 => 1i64 << (31 + rng.below(32)),
            7 => (any >> rng.below(63)) as i64,
            _ => any as i64,
        };
        v.max(low)
    }

    #[test]
    fn extreme_rules_match_the_reference() {
        let mut rng = crate::deal::ChaCha20::from_seed(7);
        let (mut settled, mut refused, mut wide) = (0, 0, 0);
        for seed in 0..6_000u64 {
            let n = 2 + (seed % 3) as usize;
            let base = if seed % 2 == 0 {
                Rules::default()
            } else {
                plain()
            };
            let mut x = |low| extreme(&mut rng, low);
            let mut rules = Rules {
                row_points: x(0),
                overall_point: x(0),
                scoop_multiplier: x(1),
                scoop_bonus: x(0),
                sweep_all_multiplier: x(1),
                sweep_all_bonus: x(0),
                foul_points: x(0),
                surrender_cost: x(0),
                ..base
            };
            for (_, p) in &mut rules.naturals {
                *p = x(0);
            }
            for row in &mut rules.royalties {
                for v in row.iter_mut().filter(|v| **v != 0) {
                    *v = x(0);
                }
            }
            let uniform = x(0);
            let mut pick = |k: u32| rng.below(k) as usize;
            rules.royalty_mode =
                [RoyaltyMode::Winner, RoyaltyMode::Always, RoyaltyMode::None][pick(3)];
            rules.royalty_adds = pick(2) == 0;
            rules.foul_mode = [FoulMode::SweepAll, FoulMode::Scoop, FoulMode::Fixed][pick(3)];
            rules.foul_pays_royalties = pick(2) == 0;
            rules.scoop_multiply_royalties = pick(2) == 0;
            rules.sweep_all_min_players = 2 + pick(4);
            rules.surrender_enabled = pick(2) == 0;
            rules.natural_resolve =
                [NaturalResolve::HigherWins, NaturalResolve::Difference][pick(2)];
            rules.natural_ties = [NaturalTies::Push, NaturalTies::Compare][pick(2)];
            rules.rake_percent = [0, 3, 100, pick(101) as i64][pick(4)];
            rules.validate().unwrap();
            let hands = crate::deal::deal(n, Some(seed)).unwrap();
            let table: Vec<SeatInput> = hands
                .iter()
                .map(|&h| SeatInput {
                    cards: if rng.below(3) == 0 {
                        h
                    } else {
                        sorted_rows(&rules, h)
                    },
                    surrender: rules.surrender_enabled && rng.below(6) == 0,
                    declare_natural: rng.below(5) != 0,
                })
                .collect();
            let mut m = vec![0i64; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let v = extreme(&mut rng, 0);
                    (m[i * n + j], m[j * n + i]) = (v, v);
                }
            }
            let matrix = m.clone();
            let stakes = [
                (
                    Stakes::Uniform(uniform),
                    Box::new(move |_, _| uniform) as Box<dyn Fn(usize, usize) -> i64>,
                ),
                (Stakes::Matrix(&m), Box::new(move |i, j| matrix[i * n + j])),
            ];
            for (stakes, stake) in &stakes {
                let want = reference(&rules, &table, stake);
                let got = settle(&rules, &table, stakes);
                let (mut p, mut mo) = ([0i64; 4], [0i64; 4]);
                let fast = settle_points(&rules, &table, stakes, &mut p[..n], &mut mo[..n]);
                match (want, got) {
                    (Some((pairs, seat_figures)), Ok(s)) => {
                        settled += 1;
                        // 3 * row_points does not fit: a seat's look-ups leave i64
                        wide += (rules.row_points > i64::MAX / 3) as usize;
                        let got_pairs: Vec<[i64; 6]> = s
                            .pairs
                            .iter()
                            .map(|p| {
                                [
                                    p.row_points,
                                    p.overall,
                                    p.royalties,
                                    p.bonus,
                                    p.points,
                                    p.money,
                                ]
                            })
                            .collect();
                        assert_eq!(got_pairs, pairs, "seed {seed}: {rules:?}");
                        let got_seats: Vec<[i64; 4]> = s
                            .seats
                            .iter()
                            .map(|r| [r.points, r.money, r.rake, r.net])
                            .collect();
                        assert_eq!(got_seats, seat_figures, "seed {seed}");
                        balanced(&s);
                        assert!(fast.is_ok(), "seed {seed}");
                        for k in 0..n {
                            assert_eq!((p[k], mo[k]), (s.seats[k].points, s.seats[k].money));
                        }
                    }
                    (None, Err(e)) => {
                        refused += 1;
                        assert!(
                            e.kind() == ErrorKind::Table && e.message().contains("64-bit"),
                            "{e}"
                        );
                        assert_eq!(fast.unwrap_err().message(), e.message());
                    }
                    (want, got) => {
                        panic!("seed {seed}: reference {want:?}, settle {got:?}\n{rules:?}")
                    }
                }
            }
        }
        assert!(
            settled > 1_000 && refused > 1_000 && wide > 100,
            "{settled} settled ({wide} with huge row points), {refused} refused"
        );
    }
}
