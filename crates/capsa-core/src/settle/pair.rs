//! Step 4: the points of one pair of seats: surrender, naturals, fouls and
//! the rows.

use std::cmp::Ordering;

use super::facts::{Collect, SeatFacts, Side};
use super::inputs::SeatInput;
use super::plan::Plan;
use super::results::{PairOutcome, PairResult};
use super::width::Width;
use crate::cards::is_joker;
use crate::naturals::{self, Natural};
use crate::rules::{NaturalResolve, NaturalTies, RoyaltyMode, Rules};

/// Step 4, one pair: the first that applies of naturals, surrender, fouls
/// and rows. Fills the pair's figures and returns what i collects from j.
#[inline(always)]
pub(super) fn pair_value<W: Width, const N: usize>(
    rules: &Rules,
    plan: &Plan,
    seats: &[SeatInput],
    facts: &SeatFacts<W, N>,
    collect: &[Option<Collect>; N],
    p: &mut PairResult,
) -> Option<i64> {
    let (i, j) = (p.i, p.j);
    let (bi, bj) = (1u8 << i, 1u8 << j);
    let both = bi | bj;
    if facts.nat & both != 0 {
        p.outcome = PairOutcome::Natural;
        // a bonus natural is no natural here: it is paid on top, in the terms
        let settling = |s: usize| facts.natural[s].filter(|_| facts.nat & (1 << s) != 0);
        return natural_pair(
            rules,
            (&seats[i].cards, settling(i), facts.natural_tier[i]),
            (&seats[j].cards, settling(j), facts.natural_tier[j]),
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
    let ties = (plan.wins_ties & bi != 0, plan.wins_ties & bj != 0);
    let rows = rows_pair(rules, &facts.side[i], &facts.side[j], ties, p);
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
pub(super) fn surrender_pair(rules: &Rules, si: bool, sj: bool, fouled: u8) -> Option<i64> {
    match (si, sj) {
        (true, true) => Some(0),
        _ if fouled != 0 => Some(0),
        (true, false) => rules.surrender_cost.checked_neg(),
        _ => Some(rules.surrender_cost),
    }
}

/// Whether `ties = "compare"` compares two equal naturals of this kind.
pub(super) fn comparable(n: Natural) -> bool {
    use Natural::*;
    matches!(
        n,
        SixPairs
            | FivePairsTrips
            | FourTriples
            | ThreeQuads
            | SixOfAKind
            | SevenOfAKind
            | EightOfAKind
            | TwoFiveOfAKinds
    )
}

/// The cards a seat's natural plays
/// (docs/rules.md, "Naturals of larger decks"):
/// the cards themselves, or with jokers their faces, each joker as the face
/// it plays.
fn played(rules: &Rules, cards: &[u8; 13]) -> [u8; 13] {
    if cards.iter().any(|&c| is_joker(c)) {
        naturals::declared_in(cards, &rules.naturals, true).map_or(*cards, |d| d.played)
    } else {
        *cards
    }
}

/// Compares two hands' rank groups (the cards as their naturals play):
/// the first differing rank decides; if one list is a prefix of the other,
/// the longer one is higher.
pub(super) fn compare_groups(rules: &Rules, a: &[u8; 13], b: &[u8; 13]) -> Ordering {
    let (ga, la) = naturals::rank_groups(&played(rules, a));
    let (gb, lb) = naturals::rank_groups(&played(rules, b));
    ga[..la].cmp(&gb[..lb])
}

/// One side of a natural pair: cards, declared natural, its tier (the
/// position of its tier's first entry in the enabled list).
pub(super) type NaturalSide<'a> = (&'a [u8; 13], Option<(Natural, i64)>, usize);

/// What i collects from j when at least one declared a natural.
pub(super) fn natural_pair(rules: &Rules, i: NaturalSide, j: NaturalSide) -> Option<i64> {
    match (i.1, j.1) {
        (Some((_, pi)), None) => Some(pi),
        (None, Some((_, pj))) => pj.checked_neg(),
        (None, None) => Some(0),
        (Some((a, pi)), Some((b, pj))) => {
            if a == b && i.2 == j.2 {
                if rules.natural_ties == NaturalTies::Compare && comparable(a) {
                    match compare_groups(rules, i.0, j.0) {
                        Ordering::Greater => Some(pi),
                        Ordering::Less => pj.checked_neg(),
                        Ordering::Equal => Some(0),
                    }
                } else {
                    Some(0)
                }
            } else if i.2 == j.2 {
                // two naturals of one tier
                Some(0)
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

/// The figures of a foul pair (at least one of `fi`, `fj`). The amount is
/// chosen by the caller; a missing `Collect` (overflow) is reported there.
#[inline(always)]
pub(super) fn foul_pair(p: &mut PairResult, fi: bool, fj: bool, collect: &[Option<Collect>]) {
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
pub(super) fn rows_pair<W: Width>(
    rules: &Rules,
    a: &Side<W>,
    b: &Side<W>,
    ties: (bool, bool),
    p: &mut PairResult,
) -> Option<i64> {
    let (mut won_i, mut won_j) = (0usize, 0usize);
    for r in 0..3 {
        // a tied row counts for the seat that wins ties (a banker's rule)
        let eq = a.keys[r] == b.keys[r];
        let gt = (a.keys[r] > b.keys[r]) | (eq & ties.0);
        let lt = (a.keys[r] < b.keys[r]) | (eq & ties.1);
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

/// Steps 2 to 6 of a pair whose base is `base`
/// (docs/rules.md, "A pair's terms"): the bonus naturals, the cap (at
/// stage `pair` or `final`), the horse card and the non-banker seat's multiplier. Fills the pair's terms
/// and returns its points (`None`: a step does not fit in `W`).
#[inline(always)]
pub(super) fn pair_terms<W: Width, const N: usize>(
    rules: &Rules,
    plan: &Plan,
    seats: &[SeatInput],
    facts: &SeatFacts<W, N>,
    base: i64,
    p: &mut PairResult,
) -> Option<i64> {
    let (i, j) = (p.i, p.j);
    p.natural_bonus = W::of(facts.bonus[i])
        .sub(W::of(facts.bonus[j]))?
        .reported()?;
    let cap = plan.caps[if p.sweep_all {
        2
    } else {
        (p.scoop != 0) as usize
    }];
    let one_horse = (facts.horse >> i ^ facts.horse >> j) & 1 != 0;
    p.horse = if one_horse && (rules.horse_naturals || p.outcome != PairOutcome::Natural) {
        rules.horse_multiplier
    } else {
        1
    };
    // one of the two is the banker, whose multiplier is 1
    p.seat_multiplier = seats[i].multiplier * seats[j].multiplier;
    let mut v = W::of(base).add(W::of(p.natural_bonus))?;
    if !plan.cap_final {
        v = clamp(v, cap, p);
    }
    let scale = W::of(p.horse).mul(W::of(p.seat_multiplier))?;
    v = match v.mul(scale) {
        Some(x) if plan.cap_final => clamp(x, cap, p),
        Some(x) => x,
        // beyond `W`, so beyond the cap: the cap's sign is the points'
        None if plan.cap_final && cap != 0 => {
            p.cap = cap;
            let below = v < W::default();
            W::of(if below { -cap } else { cap })
        }
        None => return None,
    };
    v.reported()
}

/// `v` clamped to `[-cap, cap]` (no clamp when `cap` is 0); records in `p`
/// the cap when it bound.
#[inline(always)]
fn clamp<W: Width>(v: W, cap: i64, p: &mut PairResult) -> W {
    let (hi, lo) = (W::of(cap), W::of(-cap));
    if cap == 0 || (v <= hi && v >= lo) {
        v
    } else {
        p.cap = cap;
        if v > hi {
            hi
        } else {
            lo
        }
    }
}
