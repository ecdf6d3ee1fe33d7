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
pub use crate::table::{check_seat_count, seat_count_error, MAX_SEATS, MIN_SEATS};

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

impl SeatInput {
    /// A seat that plays `cards` as arranged, declaring a natural or not.
    pub(crate) fn playing(cards: [u8; 13], declare_natural: bool) -> SeatInput {
        SeatInput {
            cards,
            surrender: false,
            declare_natural,
        }
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

/// The rake a seat pays on `money` and its net: `floor(rake_percent *
/// money / 100)` on positive money, zero otherwise (docs/rules.md, "Money,
/// rake and exactness"); `None` when the net does not fit in `i64`. Exact:
/// a product past 64 bits is taken in 128.
#[inline(always)]
pub fn rake_and_net(rules: &Rules, money: i64) -> Option<(i64, i64)> {
    // zero for money <= 0, without a branch on the money
    let positive = money.max(0);
    let rake = match rules.rake_percent.checked_mul(positive) {
        Some(x) => x.div_euclid(100),
        None => {
            i64::try_from((rules.rake_percent as i128 * positive as i128).div_euclid(100)).ok()?
        }
    };
    Some((rake, money.checked_sub(rake)?))
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
        (rake[s], net[s]) = rake_and_net(rules, seat_money[s]).ok_or_else(overflow)?;
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
mod tests;
