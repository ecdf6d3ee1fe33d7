//! Steps 1 to 3: each seat's facts (row strengths, royalties, fouls,
//! naturals), who swept all, and the scales of each row.

use super::checks::declared_natural;
use super::inputs::{SeatInput, MAX_PAIRS};
use super::plan::Plan;
use super::width::{too_wide, Stop, Width};
use crate::naturals::{EntryScan, Natural};
use crate::rank::wide::WideEvaluator;
use crate::rank::Rank;
use crate::rules::{FoulMode, RoyaltyMode, Rules};
use crate::table::MAX_TABLE_SEATS;

/// Each table size's pairs in settlement order (`i < j`, lexicographic)
/// and how many there are; see `pairs_of`.
const PAIR_LISTS: [([(usize, usize); MAX_PAIRS], usize); MAX_TABLE_SEATS + 1] = {
    let mut lists = [([(0, 0); MAX_PAIRS], 0); MAX_TABLE_SEATS + 1];
    let mut n = 0;
    while n <= MAX_TABLE_SEATS {
        let mut k = 0;
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n {
                lists[n].0[k] = (i, j);
                k += 1;
                j += 1;
            }
            i += 1;
        }
        lists[n].1 = k;
        n += 1;
    }
    lists
};

/// The pairs of a `n`-seat table in settlement order.
#[inline(always)]
pub(super) fn pairs_of(n: usize) -> &'static [(usize, usize)] {
    match n {
        2 => &[(0, 1)],
        3 => &[(0, 1), (0, 2), (1, 2)],
        4 => &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
        _ => {
            let (list, len) = &PAIR_LISTS[n.min(MAX_TABLE_SEATS)];
            &list[..*len]
        }
    }
}

/// What a seat brings to a comparison of rows, in working integers `W`.
#[derive(Clone, Copy, Default)]
pub(super) struct Side<W> {
    pub(super) strengths: [u32; 3],
    /// What its rows compare by: their strengths, but for a top holding
    /// both jokers under `royalties.top_two_jokers`, above every other.
    pub(super) keys: [u32; 3],
    /// Row points and royalties it scores for each set of rows it wins
    /// (bit r = row r), summed: a look-up rather than a branch per row.
    pub(super) rows_won: [W; 8],
    pub(super) roy_won: [W; 8],
    /// Its three royalties together.
    pub(super) roy_sum: W,
    pub(super) swept_all: bool,
    /// Multiplier and bonus when it wins all three rows against one seat,
    /// and the bonus negated (as seen by the other seat).
    pub(super) scoop_m: i64,
    pub(super) scoop_b: i64,
    pub(super) scoop_b_neg: i64,
}

/// What a non-fouled seat collects from a fouled one, from its own view, and
/// the amounts negated (from the fouled seat's view).
#[derive(Clone, Copy, Default)]
pub(super) struct Collect {
    pub(super) points: i64,
    pub(super) royalties: i64,
    pub(super) multiplier: i64,
    pub(super) bonus: i64,
    pub(super) sweep_all: bool,
    pub(super) points_neg: i64,
    pub(super) royalties_neg: i64,
    pub(super) bonus_neg: i64,
}

/// What the rule text settles per seat before any pair is paid (its first
/// steps), for tables of up to `N` seats: the rows' strengths, the declared natural, surrender and foul (as
/// bit masks over the seats), the royalties, and who swept all.
pub(super) struct SeatFacts<W, const N: usize> {
    pub(super) side: [Side<W>; N],
    /// The declared natural and its points, a bonus natural's included.
    pub(super) natural: [Option<(Natural, i64)>; N],
    /// The tier of the declared natural (lower: stronger).
    pub(super) natural_tier: [usize; N],
    /// A declared bonus natural's points (0: none).
    pub(super) bonus: [i64; N],
    pub(super) royalties: [[i64; 3]; N],
    /// Seats with a declared natural that settles its pairs (not a bonus one).
    pub(super) nat: u8,
    pub(super) sur: u8,
    pub(super) foul: u8,
    pub(super) swept: u8,
    /// Seats holding the horse card.
    pub(super) horse: u8,
}

impl<W: Width, const N: usize> SeatFacts<W, N> {
    /// Facts with nothing found yet.
    #[inline(always)]
    pub(super) fn new() -> Self {
        SeatFacts {
            side: [Side::<W>::default(); N],
            natural: [None; N],
            natural_tier: [usize::MAX; N],
            bonus: [0; N],
            royalties: [[0i64; 3]; N],
            nat: 0,
            sur: 0,
            foul: 0,
            swept: 0,
            horse: 0,
        }
    }
}

/// Step 1: each seat's rows, natural, surrender, foul and royalties.
#[inline(always)]
pub(super) fn seat_facts<W: Width, const N: usize>(
    rules: &Rules,
    scan: &EntryScan,
    seats: &[SeatInput],
    facts: &mut SeatFacts<W, N>,
) {
    if rules.deck.is_standard() {
        row_strengths(&rules.evaluator, seats, facts);
    } else {
        deck_row_strengths(rules, seats, facts);
    }
    for (s, seat) in seats.iter().enumerate() {
        let st = facts.side[s].strengths;
        let invalid = rules.fouls(st[0], st[1], st[2]);
        let declared = declared_natural(rules, scan, seat);
        // a bonus natural plays its rows like any seat
        let mut settles = false;
        if let Some(d) = declared {
            facts.natural[s] = Some((d.natural, d.points));
            facts.natural_tier[s] = d.tier;
            if d.bonus {
                facts.bonus[s] = d.points;
            } else {
                settles = true;
                facts.nat |= 1 << s;
            }
        }
        // a declared natural is settled first; a surrender before a foul
        let surrender = seat.surrender && !settles;
        facts.sur |= (surrender as u8) << s;
        facts.foul |= ((invalid && !settles && !surrender) as u8) << s;
        if rules.royalty_mode != RoyaltyMode::None {
            facts.royalties[s] = [
                rules.royalty(0, st[0]),
                rules.royalty(1, st[1]),
                rules.royalty(2, st[2]),
            ];
        }
    }
    if rules.top_two_jokers > 0 {
        two_jokers_on_top(rules, seats, facts);
    }
    if let Some(h) = rules.horse_card {
        // either copy of the horse card's face is the horse card
        let copy = (!rules.deck.is_standard()).then_some(h + 52);
        for (s, seat) in seats.iter().enumerate() {
            let holds = seat.cards.iter().any(|&c| c == h || Some(c) == copy);
            facts.horse |= (holds as u8) << s;
        }
    }
}

/// A top holding both jokers under `royalties.top_two_jokers` (对鬼冲前):
/// it compares above every top without them (two such tops as ranked) and
/// its royalty is the knob's; its strength, which fouls and the report
/// read, is its hand's.
#[inline(never)]
fn two_jokers_on_top<W: Width, const N: usize>(
    rules: &Rules,
    seats: &[SeatInput],
    facts: &mut SeatFacts<W, N>,
) {
    for (s, seat) in seats.iter().enumerate() {
        if rules.two_jokers_on_top(&seat.cards[..3]) {
            let side = &mut facts.side[s];
            side.keys[0] = TWO_JOKERS_ON_TOP | side.strengths[0];
            if rules.royalty_mode != RoyaltyMode::None {
                facts.royalties[s][0] = rules.top_two_jokers;
            }
        }
    }
}

/// The bit a top holding both jokers compares by, above every top's
/// strength (a three-card hand is trips at most: below 2^30).
const TWO_JOKERS_ON_TOP: u32 = 1 << 31;

/// [`row_strengths`] under a deck with copies or jokers, out of the way of
/// the 52-card deck's.
#[inline(never)]
fn deck_row_strengths<W: Width, const N: usize>(
    rules: &Rules,
    seats: &[SeatInput],
    facts: &mut SeatFacts<W, N>,
) {
    row_strengths(&WideEvaluator::new(rules.evaluator), seats, facts);
}

/// Each seat's three row strengths under the ranking `e`.
#[inline(always)]
fn row_strengths<W: Width, E: Rank, const N: usize>(
    e: &E,
    seats: &[SeatInput],
    facts: &mut SeatFacts<W, N>,
) {
    // all the hands first: their table look-ups overlap
    for (d, seat) in facts.side.iter_mut().zip(seats) {
        let c = &seat.cards;
        d.strengths = [
            e.eval3([c[0], c[1], c[2]]),
            e.eval5([c[3], c[4], c[5], c[6], c[7]]),
            e.eval5([c[8], c[9], c[10], c[11], c[12]]),
        ];
        d.keys = d.strengths;
    }
}

/// Step 2, sweep all, over the whole table before any pair is paid: a plain
/// seat (one the plan lets sweep) that won all three rows against every
/// other seat, a fouled one counting as swept; with exempt natural
/// opponents, a seat with a declared natural is left out of the test, and
/// at least one opponent must be left. Returns the bit mask of the seats
/// that swept all.
#[inline(always)]
pub(super) fn sweep_all<W: Width, const N: usize>(
    rules: &Rules,
    plan: &Plan,
    n: usize,
    facts: &SeatFacts<W, N>,
) -> u8 {
    if n < rules.sweep_all_min_players {
        return 0;
    }
    let all = u8::MAX >> (MAX_TABLE_SEATS - n.min(MAX_TABLE_SEATS));
    let plain = all & !(facts.nat | facts.sur | facts.foul);
    let left_out = if plan.exempt { facts.nat } else { 0 };
    let mut beats = [0u8; N];
    for &(i, j) in pairs_of(n) {
        let (a, b) = (facts.side[i].keys, facts.side[j].keys);
        // a tied row counts for the seat that wins ties (a banker's rule)
        let (ti, tj) = (plan.wins_ties >> i & 1 != 0, plan.wins_ties >> j & 1 != 0);
        let won = |x: u32, y: u32, t: bool| (x > y) | ((x == y) & t);
        let all3 = |x: [u32; 3], y: [u32; 3], t: bool| {
            won(x[0], y[0], t) & won(x[1], y[1], t) & won(x[2], y[2], t)
        };
        beats[i] |= (all3(a, b, ti) as u8) << j;
        beats[j] |= (all3(b, a, tj) as u8) << i;
    }
    let mut swept = 0u8;
    for (s, &b) in beats.iter().enumerate().take(n) {
        let others = all & !(1 << s) & !left_out;
        // `&`, not `&&`: no data-dependent branch
        let ok = (plain & plan.may_sweep & (1 << s) != 0)
            & (others != 0)
            & (others & !(facts.foul | (b & plain)) == 0);
        swept |= (ok as u8) << s;
    }
    swept
}

/// Step 3: what each seat scores per set of rows it wins (row points and
/// royalties by `royalty_mode`), its scoop or sweep-all multiplier and
/// bonus, and what it collects from a fouled seat (`None`: that figure does
/// not fit, an error only if a pair needs it).
#[inline(always)]
pub(super) fn row_scales<W: Width, const N: usize>(
    rules: &Rules,
    plan: &Plan,
    n: usize,
    facts: &mut SeatFacts<W, N>,
    collect: &mut [Option<Collect>; N],
) -> std::result::Result<(), Stop> {
    let rp = rules.row_points;
    let rp_w = W::of(rp);
    let zero = W::default();
    // the foul amount before royalties, for a collector that did not and
    // that did sweep all
    let foul_base = [
        foul_base(rules, plan.scoop_m, false),
        foul_base(rules, plan.scoop_m, true),
    ];
    for (s, collected) in collect.iter_mut().enumerate().take(n) {
        let roy = facts.royalties[s];
        let d = &mut facts.side[s];
        d.swept_all = facts.swept & (1 << s) != 0;
        (d.scoop_m, d.scoop_b) = if d.swept_all {
            (rules.sweep_all_multiplier, rules.sweep_all_bonus)
        } else {
            (plan.scoop_m, rules.scoop_bonus)
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

/// The foul amount (docs/rules.md, "Step 3: fouls") without royalties, for a collector
/// that swept all or not.
#[derive(Clone, Copy)]
pub(super) struct FoulBase {
    pub(super) points: i64,
    pub(super) multiplier: i64,
    pub(super) bonus: i64,
    pub(super) sweep_all: bool,
    /// Royalties paid (0 when not paid) are multiplied by this.
    pub(super) roy_m: i64,
    pub(super) pays_royalties: bool,
}

/// `scoop_m` is the scoop multiplier of the table (`Plan::scoop_m`).
pub(super) fn foul_base(rules: &Rules, scoop_m: i64, swept_all: bool) -> Option<FoulBase> {
    let (m, b) = if swept_all {
        (rules.sweep_all_multiplier, rules.sweep_all_bonus)
    } else {
        (scoop_m, rules.scoop_bonus)
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
        // no seat is settled as fouled under these modes
        FoulMode::NoFoul | FoulMode::Refuse => return None,
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
