//! Settlement of a table. See RULES.md section 6 and docs/rules.md.
//!
//! One routine, [`settle_into`], applies the rules and writes every figure of
//! a round into fixed-size arrays (at most four seats, six pairs). [`settle`]
//! copies them into vectors; [`settle_points`] copies only each seat's points
//! and money, so the batch path never allocates. All arithmetic is on `i64`
//! and checked: a round whose figures do not fit is an error, never a panic or
//! a silent wrap.

use std::cmp::Ordering;

use crate::cards::{card_text, DECK};
use crate::error::{Error, Result};
use crate::naturals::{self, Natural};
use crate::rules::{FoulMode, NaturalResolve, NaturalTies, RoyaltyMode, Rules};

/// Most seats at one table (one deck of 52 cards, 13 each).
pub const MAX_SEATS: usize = 4;
/// Most pairs at one table: `MAX_SEATS * (MAX_SEATS - 1) / 2`.
pub const MAX_PAIRS: usize = 6;

/// The pairs in settlement order (`i < j`, lexicographic). A table of `P`
/// seats uses the pairs with `j < P`, which keeps this order.
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

/// The stake per point of every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stakes<'a> {
    /// One stake for every pair.
    Uniform(i64),
    /// `P * P` row-major, symmetric, non-negative; the diagonal is ignored.
    Matrix(&'a [i64]),
}

impl Stakes<'_> {
    fn check(&self, n: usize) -> Result<()> {
        match *self {
            Stakes::Uniform(s) if s < 0 => Err(Error::Table(format!(
                "the stake must be >= 0, got {s}"
            ))),
            Stakes::Uniform(_) => Ok(()),
            Stakes::Matrix(m) => {
                if m.len() != n * n {
                    return Err(Error::Table(format!(
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
                            return Err(Error::Table(format!(
                                "the stake between seat {i} and seat {j} must be >= 0, got {v}"
                            )));
                        }
                        let w = m[j * n + i];
                        if v != w {
                            return Err(Error::Table(format!(
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
    /// The seat swept all (RULES.md section 6).
    pub swept_all: bool,
    pub points: i64,
    pub money: i64,
    pub rake: i64,
    /// `money - rake`.
    pub net: i64,
}

/// How a pair was settled: the first step of RULES.md section 6 that applied.
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
    /// `rows` of RULES section 6: i's row points minus j's (0 unless Rows).
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

/// Every figure of one round, in fixed-size arrays.
#[derive(Default)]
struct Work {
    seats: [SeatResult; MAX_SEATS],
    pairs: [PairResult; MAX_PAIRS],
    n: usize,
    npairs: usize,
}

/// Settles a table (RULES.md section 6).
pub fn settle(rules: &Rules, seats: &[SeatInput], stakes: &Stakes) -> Result<Settlement> {
    let mut w = Work::default();
    settle_into(rules, seats, stakes, &mut w)?;
    Ok(Settlement {
        seats: w.seats[..w.n].to_vec(),
        pairs: w.pairs[..w.npairs].to_vec(),
    })
}

/// Fast path for batch settlement: no allocation; writes per-seat points and
/// money into the slices (len P). Same checks and same numbers as [`settle`].
pub fn settle_points(
    rules: &Rules,
    seats: &[SeatInput],
    stakes: &Stakes,
    points: &mut [i64],
    money: &mut [i64],
) -> Result<()> {
    if points.len() != seats.len() || money.len() != seats.len() {
        return Err(Error::Table(format!(
            "points and money need one entry per seat ({} seats), got {} and {}",
            seats.len(),
            points.len(),
            money.len()
        )));
    }
    let mut w = Work::default();
    settle_into(rules, seats, stakes, &mut w)?;
    for (s, seat) in w.seats[..w.n].iter().enumerate() {
        points[s] = seat.points;
        money[s] = seat.money;
    }
    Ok(())
}

fn overflow() -> Error {
    Error::Table("the settlement does not fit in 64-bit integers (rules or stakes too large)".into())
}

/// Checks the table: seat count, card ids, repeated cards, surrender flags.
fn check_seats(rules: &Rules, seats: &[SeatInput]) -> Result<()> {
    let n = seats.len();
    if !(2..=MAX_SEATS).contains(&n) {
        return Err(Error::Table(format!(
            "a table has 2 to 4 seats, got {n}"
        )));
    }
    let mut mask = 0u64;
    for (s, seat) in seats.iter().enumerate() {
        for (pos, &c) in seat.cards.iter().enumerate() {
            if c as usize >= DECK {
                return Err(Error::Card(format!(
                    "seat {s}: card id {c} at position {pos} is outside 0..51"
                )));
            }
            let bit = 1u64 << c;
            if mask & bit != 0 {
                return Err(repeated(seats, s, pos));
            }
            mask |= bit;
        }
        if seat.surrender && !rules.surrender_enabled {
            return Err(Error::Table(format!(
                "seat {s} asks to surrender, but the rules do not enable surrender"
            )));
        }
    }
    Ok(())
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
    if first.0 == s {
        Error::Hand(format!(
            "seat {s}: card {text} (id {c}) appears twice, at positions {} and {pos}",
            first.1
        ))
    } else {
        Error::Hand(format!(
            "card {text} (id {c}) is held by seat {} and by seat {s}",
            first.0
        ))
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

/// The one implementation of the rules: checks the table and fills `w`.
fn settle_into(rules: &Rules, seats: &[SeatInput], stakes: &Stakes, w: &mut Work) -> Result<()> {
    check_seats(rules, seats)?;
    let n = seats.len();
    stakes.check(n)?;
    w.n = n;

    // Per seat: strengths, royalties, natural, surrender, foul.
    let e = &rules.evaluator;
    // position of the declared natural in `rules.naturals` (lower: stronger)
    let mut natural_order = [usize::MAX; MAX_SEATS];
    for (s, seat) in seats.iter().enumerate() {
        let c = &seat.cards;
        let st = [
            e.eval3([c[0], c[1], c[2]]),
            e.eval5([c[3], c[4], c[5], c[6], c[7]]),
            e.eval5([c[8], c[9], c[10], c[11], c[12]]),
        ];
        let invalid = if rules.foul_strict {
            !(st[2] > st[1] && st[1] > st[0])
        } else {
            !(st[2] >= st[1] && st[1] >= st[0])
        };
        let natural = declared_natural(rules, seat);
        if let Some((nat, _)) = natural {
            natural_order[s] = rules
                .naturals
                .iter()
                .position(|&(m, _)| m == nat)
                .unwrap_or(usize::MAX);
        }
        let surrender = seat.surrender && natural.is_none();
        let r = &mut w.seats[s];
        r.strengths = st;
        r.royalties = if rules.royalty_mode == RoyaltyMode::None {
            [0; 3]
        } else {
            [
                rules.royalty(0, st[0]),
                rules.royalty(1, st[1]),
                rules.royalty(2, st[2]),
            ]
        };
        r.natural = natural;
        r.surrender = surrender;
        r.foul = invalid && natural.is_none() && !surrender;
    }

    // Row results of every pair that compares rows.
    let mut k = 0;
    for &(i, j) in PAIRS.iter().filter(|&&(_, j)| j < n) {
        let p = &mut w.pairs[k];
        *p = PairResult {
            i,
            j,
            multiplier: 1,
            ..PairResult::default()
        };
        let (a, b) = (&w.seats[i], &w.seats[j]);
        p.outcome = if a.natural.is_some() || b.natural.is_some() {
            PairOutcome::Natural
        } else if a.surrender || b.surrender {
            PairOutcome::Surrender
        } else if a.foul || b.foul {
            PairOutcome::Foul
        } else {
            PairOutcome::Rows
        };
        if p.outcome == PairOutcome::Rows {
            for r in 0..3 {
                p.rows[r] = (a.strengths[r] > b.strengths[r]) as i8
                    - (a.strengths[r] < b.strengths[r]) as i8;
            }
        }
        k += 1;
    }
    w.npairs = k;

    // Sweep all: over the whole table, before any pair is paid.
    for s in 0..n {
        let me = &w.seats[s];
        let mut swept = n >= rules.sweep_all_min_players
            && me.natural.is_none()
            && !me.surrender
            && !me.foul;
        for p in &w.pairs[..k] {
            if !swept {
                break;
            }
            let (other, sign) = if p.i == s {
                (p.j, 1)
            } else if p.j == s {
                (p.i, -1)
            } else {
                continue;
            };
            let o = &w.seats[other];
            swept = o.natural.is_none()
                && !o.surrender
                && (o.foul || p.rows == [sign; 3]);
        }
        w.seats[s].swept_all = swept;
    }

    // Points and money of every pair; seat totals.
    for q in 0..k {
        let (i, j) = (w.pairs[q].i, w.pairs[q].j);
        let (a, b) = (w.seats[i], w.seats[j]);
        let p = &mut w.pairs[q];
        let points = match p.outcome {
            PairOutcome::Natural => {
                natural_pair(rules, &seats[i], &seats[j], a.natural, b.natural, natural_order[i], natural_order[j])
            }
            PairOutcome::Surrender => Some(match (a.surrender, b.surrender) {
                (true, true) => 0,
                (true, false) if b.foul => 0,
                (true, false) => -rules.surrender_cost,
                (false, _) if a.foul => 0,
                (false, _) => rules.surrender_cost,
            }),
            PairOutcome::Foul => match (a.foul, b.foul) {
                (true, true) => Some(0),
                (false, true) => foul_pair(rules, &a, p),
                _ => foul_pair(rules, &b, p).and_then(|x| {
                    p.royalties = p.royalties.checked_neg()?;
                    p.bonus = p.bonus.checked_neg()?;
                    p.scoop = -p.scoop;
                    x.checked_neg()
                }),
            },
            PairOutcome::Rows => rows_pair(rules, &a, &b, p),
        }
        .ok_or_else(overflow)?;
        let stake = stakes.get(n, i, j);
        let money = points.checked_mul(stake).ok_or_else(overflow)?;
        p.points = points;
        p.stake = stake;
        p.money = money;
        let add = |x: i64, y: i64| x.checked_add(y).ok_or_else(overflow);
        let sub = |x: i64, y: i64| x.checked_sub(y).ok_or_else(overflow);
        w.seats[i].points = add(w.seats[i].points, points)?;
        w.seats[j].points = sub(w.seats[j].points, points)?;
        w.seats[i].money = add(w.seats[i].money, money)?;
        w.seats[j].money = sub(w.seats[j].money, money)?;
    }

    // Rake on each seat's positive money, rounded down.
    for seat in &mut w.seats[..n] {
        seat.rake = if seat.money > 0 {
            let r = (rules.rake_percent as i128 * seat.money as i128).div_euclid(100);
            i64::try_from(r).map_err(|_| overflow())?
        } else {
            0
        };
        seat.net = seat.money.checked_sub(seat.rake).ok_or_else(overflow)?;
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

/// What i collects from j when at least one declared a natural.
fn natural_pair(
    rules: &Rules,
    si: &SeatInput,
    sj: &SeatInput,
    ni: Option<(Natural, i64)>,
    nj: Option<(Natural, i64)>,
    oi: usize,
    oj: usize,
) -> Option<i64> {
    match (ni, nj) {
        (Some((_, pi)), None) => Some(pi),
        (None, Some((_, pj))) => pj.checked_neg(),
        (None, None) => Some(0),
        (Some((a, pi)), Some((b, pj))) => {
            if a == b {
                if rules.natural_ties == NaturalTies::Compare && comparable(a) {
                    match compare_groups(&si.cards, &sj.cards) {
                        Ordering::Greater => Some(pi),
                        Ordering::Less => pj.checked_neg(),
                        Ordering::Equal => Some(0),
                    }
                } else {
                    Some(0)
                }
            } else {
                match (rules.natural_resolve, oi < oj) {
                    // the stronger collects its points minus the weaker's
                    (NaturalResolve::Difference, _) => pi.checked_sub(pj),
                    (NaturalResolve::HigherWins, true) => Some(pi),
                    (NaturalResolve::HigherWins, false) => pj.checked_neg(),
                }
            }
        }
    }
}

/// Sum of a seat's three royalties.
fn royalty_sum(s: &SeatResult) -> Option<i64> {
    s.royalties[0]
        .checked_add(s.royalties[1])?
        .checked_add(s.royalties[2])
}

/// Fills `p` with the foul figures collected by the non-fouled seat `c`, as
/// if `c` were seat i; returns the amount. The caller flips the signs when
/// `c` is seat j.
fn foul_pair(rules: &Rules, c: &SeatResult, p: &mut PairResult) -> Option<i64> {
    let (m, b) = if c.swept_all {
        (rules.sweep_all_multiplier, rules.sweep_all_bonus)
    } else {
        (rules.scoop_multiplier, rules.scoop_bonus)
    };
    let pays = rules.foul_pays_royalties && rules.royalty_mode != RoyaltyMode::None;
    let roy = if pays { royalty_sum(c)? } else { 0 };
    let three = rules.row_points.checked_mul(3)?;
    let (base, m, bonus, from_sweep) = match rules.foul_mode {
        FoulMode::SweepAll => {
            let m = rules.sweep_all_multiplier;
            let b = rules.sweep_all_bonus;
            (three.checked_mul(m)?.checked_add(b)?, m, b, true)
        }
        FoulMode::Scoop => {
            let base = three
                .checked_add(rules.overall_point)?
                .checked_mul(m)?
                .checked_add(b)?;
            (base, m, b, c.swept_all)
        }
        FoulMode::Fixed => {
            // the multiplier only ever applies to the royalties here
            if pays && rules.scoop_multiply_royalties {
                (rules.foul_points, m, 0, c.swept_all)
            } else {
                (rules.foul_points, 1, 0, false)
            }
        }
    };
    let roy_m = if rules.scoop_multiply_royalties { m } else { 1 };
    p.royalties = roy;
    p.scoop = 1;
    p.sweep_all = from_sweep;
    p.multiplier = m;
    p.bonus = bonus;
    base.checked_add(roy.checked_mul(roy_m)?)
}

/// Compares the rows of a pair (`p.rows` already set) and returns what i
/// collects from j; fills the pair's figures.
fn rows_pair(rules: &Rules, a: &SeatResult, b: &SeatResult, p: &mut PairResult) -> Option<i64> {
    let rp = rules.row_points;
    let (mut rows_i, mut rows_j, mut roy_i, mut roy_j) = (0i64, 0i64, 0i64, 0i64);
    let (mut wins_i, mut wins_j) = (0u8, 0u8);
    for r in 0..3 {
        let d = p.rows[r];
        if d == 0 {
            continue;
        }
        let winner = if d > 0 { a } else { b };
        let (pts, roy) = if rules.royalty_mode == RoyaltyMode::Winner {
            let y = winner.royalties[r];
            if rules.royalty_adds {
                (rp, y)
            } else if y > rp {
                (0, y)
            } else {
                (rp, 0)
            }
        } else {
            (rp, 0)
        };
        if d > 0 {
            wins_i += 1;
            rows_i = rows_i.checked_add(pts)?;
            roy_i = roy_i.checked_add(roy)?;
        } else {
            wins_j += 1;
            rows_j = rows_j.checked_add(pts)?;
            roy_j = roy_j.checked_add(roy)?;
        }
    }
    if rules.royalty_mode == RoyaltyMode::Always {
        roy_i = royalty_sum(a)?;
        roy_j = royalty_sum(b)?;
    }
    let rows = rows_i.checked_sub(rows_j)?;
    let roy = roy_i.checked_sub(roy_j)?;
    let overall = match wins_i.cmp(&wins_j) {
        Ordering::Greater => rules.overall_point,
        Ordering::Less => rules.overall_point.checked_neg()?,
        Ordering::Equal => 0,
    };
    p.row_points = rows;
    p.overall = overall;
    p.royalties = roy;
    let base = rows.checked_add(overall)?;
    if wins_i == 3 || wins_j == 3 {
        let (winner, sign) = if wins_i == 3 { (a, 1i8) } else { (b, -1i8) };
        let (m, bonus) = if winner.swept_all {
            (rules.sweep_all_multiplier, rules.sweep_all_bonus)
        } else {
            (rules.scoop_multiplier, rules.scoop_bonus)
        };
        let roy_m = if rules.scoop_multiply_royalties { m } else { 1 };
        let bonus = if sign > 0 { bonus } else { bonus.checked_neg()? };
        p.scoop = sign;
        p.sweep_all = winner.swept_all;
        p.multiplier = m;
        p.bonus = bonus;
        base.checked_mul(m)?
            .checked_add(bonus)?
            .checked_add(roy.checked_mul(roy_m)?)
    } else {
        base.checked_add(roy)
    }
}
