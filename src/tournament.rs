//! Measurement: duplicate tournaments between arranging strategies, and the
//! best-response check of the solver.
//!
//! Both are reproducible by seed: deal `i` of a run with seed `s` is the
//! deck shuffled by `ChaCha20::from_seed(deal_seed(s, i))`, whatever the
//! number of threads.

use rayon::prelude::*;

use crate::deal::{shuffled_deck, ChaCha20};
use crate::error::{Error, Result};
use crate::naturals;
use crate::rules::{RoyaltyMode, Rules};
use crate::settle::{settle_points, SeatInput, Stakes};
use crate::solver::{arranger, deal_seed, Arranger, Strategy, Tables};
use crate::splits;

/// Mean and 95% confidence half-width (normal approximation).
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Result of a duplicate tournament.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    pub strategies: Vec<Strategy>,
    pub seats: usize,
    pub deals: usize,
    /// Seat assignments played per deal (strategy index per seat).
    pub patterns: Vec<Vec<usize>>,
    /// Mean points per hand played, per strategy, and its 95% CI half-width
    /// (over deals).
    pub mean: Vec<f64>,
    pub ci95: Vec<f64>,
    /// Strategy 0 minus strategy 1, per hand, with its 95% CI half-width.
    pub diff: f64,
    pub diff_ci95: f64,
}

/// The seat assignments of a duplicate deal: every rotation of the pattern
/// "seat s plays strategy s mod k", without repeats. With two strategies
/// every hand is played once by each.
pub fn patterns(seats: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for r in 0..seats {
        let p: Vec<usize> = (0..seats).map(|s| (s + r) % k).collect();
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Plays `deals` deals of `seats` hands; each deal is replayed under every
/// pattern of [`patterns`] and settled by the settlement core (stake 1).
pub fn duplicate_tournament(
    rules: &Rules,
    tables: Option<&Tables>,
    strategies: &[Strategy],
    seats: usize,
    deals: usize,
    seed: u64,
) -> Result<TournamentReport> {
    if strategies.len() < 2 {
        return Err(Error::table("a tournament needs at least two strategies"));
    }
    if !(2..=4).contains(&seats) {
        return Err(Error::table(format!(
            "a table has 2 to 4 seats, got {seats}"
        )));
    }
    let k = strategies.len();
    let arrangers: Vec<_> = strategies
        .iter()
        .map(|&s| arranger(rules, tables, seats, s))
        .collect::<Result<_>>()?;
    let pats = patterns(seats, k);
    let per_deal: Vec<Result<Vec<f64>>> = (0..deals)
        .into_par_iter()
        .map(|d| {
            let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, d as u64)));
            // choices[strategy][seat]
            let mut choices = Vec::with_capacity(k);
            for a in &arrangers {
                let mut row = Vec::with_capacity(seats);
                for s in 0..seats {
                    row.push(a.choose(&deck[13 * s..13 * s + 13])?);
                }
                choices.push(row);
            }
            let mut sum = vec![0.0f64; k];
            let mut plays = vec![0.0f64; k];
            let mut pts = vec![0i64; seats];
            let mut money = vec![0i64; seats];
            for p in &pats {
                let inputs: Vec<SeatInput> = (0..seats)
                    .map(|s| {
                        let c = choices[p[s]][s];
                        SeatInput {
                            cards: c.cards,
                            surrender: false,
                            declare_natural: c.declare_natural,
                        }
                    })
                    .collect();
                settle_points(rules, &inputs, &Stakes::Uniform(1), &mut pts, &mut money)?;
                for s in 0..seats {
                    sum[p[s]] += pts[s] as f64;
                    plays[p[s]] += 1.0;
                }
            }
            Ok((0..k).map(|i| sum[i] / plays[i].max(1.0)).collect())
        })
        .collect();
    let per_deal: Vec<Vec<f64>> = per_deal.into_iter().collect::<Result<_>>()?;
    let mut mean = Vec::new();
    let mut ci95 = Vec::new();
    for i in 0..k {
        let xs: Vec<f64> = per_deal.iter().map(|v| v[i]).collect();
        let (m, c) = mean_ci(&xs);
        mean.push(m);
        ci95.push(c);
    }
    let diffs: Vec<f64> = per_deal.iter().map(|v| v[0] - v[1]).collect();
    let (diff, diff_ci95) = mean_ci(&diffs);
    Ok(TournamentReport {
        strategies: strategies.to_vec(),
        seats,
        deals,
        patterns: pats,
        mean,
        ci95,
        diff,
        diff_ci95,
    })
}

/// One sampled hand of the best-response check.
#[derive(Clone, Debug)]
pub struct HandRegret {
    pub cards: [u8; 13],
    /// Valid arrangements scored (plus one if a natural can be declared).
    pub arrangements: usize,
    /// Mean heads-up points of the solver's pick against all opponents.
    pub solver_points: f64,
    /// The best mean over every arrangement.
    pub best_points: f64,
    /// `best_points - solver_points` (>= 0; biased up by the max of noise).
    pub regret: f64,
    /// Best arrangement chosen on half of the opponents, compared with the
    /// solver's pick on the other half (unbiased; may be negative).
    pub holdout_regret: f64,
}

#[derive(Clone, Debug)]
pub struct RegretReport {
    pub hands: Vec<HandRegret>,
    pub opponents: usize,
    pub mean_regret: f64,
    pub regret_ci95: f64,
    pub mean_holdout_regret: f64,
    pub holdout_ci95: f64,
}

#[derive(Clone, Copy)]
struct Opp {
    s: [u32; 3],
    r: [i64; 3],
    natural: bool,
    cards: [u8; 13],
    declare: bool,
}

fn strengths_of(rules: &Rules, a: &[u8; 13]) -> [u32; 3] {
    let e = &rules.evaluator;
    [
        e.eval3([a[0], a[1], a[2]]),
        e.eval5(a[3..8].try_into().expect("5")),
        e.eval5(a[8..].try_into().expect("5")),
    ]
}

fn royalties_of(rules: &Rules, s: &[u32; 3]) -> [i64; 3] {
    if rules.royalty_mode == RoyaltyMode::None {
        return [0; 3];
    }
    [
        rules.royalty(0, s[0]),
        rules.royalty(1, s[1]),
        rules.royalty(2, s[2]),
    ]
}

/// Heads-up points of seat i against seat j when both set valid rows and
/// neither declares a natural nor surrenders (docs/rules.md, "Step 4: rows").
/// With two seats, sweeping all is winning all three rows when
/// `sweep_all.min_players <= 2`.
#[inline(always)]
pub fn pair_row_points(
    rules: &Rules,
    a: &[u32; 3],
    ra: &[i64; 3],
    b: &[u32; 3],
    rb: &[i64; 3],
) -> i64 {
    let rp = rules.row_points;
    let mut wins = 0;
    let mut losses = 0;
    let mut rows = 0i64;
    let mut roy = 0i64;
    for r in 0..3 {
        let (won, lost) = (a[r] > b[r], a[r] < b[r]);
        wins += won as i32;
        losses += lost as i32;
        match rules.royalty_mode {
            RoyaltyMode::Winner => {
                if won {
                    if !rules.royalty_adds && ra[r] > rp {
                        roy += ra[r];
                    } else {
                        rows += rp;
                        if rules.royalty_adds {
                            roy += ra[r];
                        }
                    }
                } else if lost {
                    if !rules.royalty_adds && rb[r] > rp {
                        roy -= rb[r];
                    } else {
                        rows -= rp;
                        if rules.royalty_adds {
                            roy -= rb[r];
                        }
                    }
                }
            }
            RoyaltyMode::Always | RoyaltyMode::None => {
                rows += rp * (won as i64 - lost as i64);
                roy += ra[r] - rb[r];
            }
        }
    }
    let overall = rules.overall_point * (wins - losses).signum() as i64;
    let sweep = rules.sweep_all_min_players <= 2;
    let (m, bonus) = if sweep {
        (rules.sweep_all_multiplier, rules.sweep_all_bonus)
    } else {
        (rules.scoop_multiplier, rules.scoop_bonus)
    };
    let rm = if rules.scoop_multiply_royalties { m } else { 1 };
    if wins == 3 {
        (rows + overall) * m + bonus + roy * rm
    } else if losses == 3 {
        (rows + overall) * m - bonus + roy * rm
    } else {
        rows + overall + roy
    }
}

fn settle2(rules: &Rules, a: &[u8; 13], da: bool, b: &[u8; 13], db: bool) -> Result<i64> {
    let seats = [
        SeatInput {
            cards: *a,
            surrender: false,
            declare_natural: da,
        },
        SeatInput {
            cards: *b,
            surrender: false,
            declare_natural: db,
        },
    ];
    let mut pts = [0i64; 2];
    let mut money = [0i64; 2];
    settle_points(rules, &seats, &Stakes::Uniform(1), &mut pts, &mut money)?;
    Ok(pts[0])
}

fn check_hand_regret(
    rules: &Rules,
    solver: &Arranger,
    opponents: usize,
    seed: u64,
    index: u64,
) -> Result<HandRegret> {
    let mut rng = ChaCha20::from_seed(deal_seed(seed, index));
    let deck = shuffled_deck(&mut rng);
    let mut mine: [u8; 13] = deck[..13].try_into().expect("13");
    mine.sort_unstable();
    let mut rest: Vec<u8> = deck[13..].to_vec();
    // candidates: every valid split, then the natural if any
    let ss = splits::subset_strengths(&rules.evaluator, &mine);
    let mut cands: Vec<([u32; 3], [i64; 3], usize)> = Vec::new();
    for k in 0..splits::SPLITS {
        let (t, m, b) = ss.split(k);
        if splits::is_valid(t, m, b, rules.foul_strict) {
            let s = [t, m, b];
            cands.push((s, royalties_of(rules, &s), k));
        }
    }
    let natural = naturals::strongest(&mine, &rules.naturals).is_some();
    let pick = solver.choose(&mine)?;
    let pick_s = strengths_of(rules, &pick.cards);
    let pick_index = if pick.declare_natural {
        cands.len()
    } else {
        cands
            .iter()
            .position(|c| c.0 == pick_s)
            .ok_or_else(|| Error::table("the solver's pick is not a valid split"))?
    };
    let nc = cands.len() + natural as usize;
    let mut sums = [vec![0i64; nc], vec![0i64; nc]];
    for j in 0..opponents {
        for i in 0..13 {
            let x = i + rng.below((rest.len() - i) as u32) as usize;
            rest.swap(i, x);
        }
        let hand: [u8; 13] = rest[..13].try_into().expect("13");
        let ch = solver.choose(&hand)?;
        let s = strengths_of(rules, &ch.cards);
        let opp = Opp {
            s,
            r: royalties_of(rules, &s),
            natural: ch.declare_natural,
            cards: ch.cards,
            declare: ch.declare_natural,
        };
        let half = &mut sums[j % 2];
        if opp.natural {
            // independent of my arrangement when I do not declare
            let v = settle2(rules, &pick.cards, false, &opp.cards, opp.declare)?;
            for x in half.iter_mut().take(cands.len()) {
                *x += v;
            }
        } else {
            for (x, c) in half.iter_mut().zip(cands.iter()) {
                *x += pair_row_points(rules, &c.0, &c.1, &opp.s, &opp.r);
            }
        }
        if natural {
            half[cands.len()] += settle2(rules, &pick.cards, true, &opp.cards, opp.declare)?;
        }
    }
    let n = opponents as f64;
    let (na, nb) = (opponents.div_ceil(2) as f64, (opponents / 2).max(1) as f64);
    let total: Vec<f64> = (0..nc)
        .map(|c| (sums[0][c] + sums[1][c]) as f64 / n)
        .collect();
    let best = total.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best_a = (0..nc)
        .max_by(|&x, &y| (sums[0][x] as f64 / na).total_cmp(&(sums[0][y] as f64 / na)))
        .unwrap_or(0);
    let holdout = (sums[1][best_a] - sums[1][pick_index]) as f64 / nb;
    Ok(HandRegret {
        cards: mine,
        arrangements: nc,
        solver_points: total[pick_index],
        best_points: best,
        regret: best - total[pick_index],
        holdout_regret: holdout,
    })
}

/// For `hands` sampled hands: sample `opponents` heads-up opponent hands
/// from the other 39 cards, arranged by the solver (2 seats); score every
/// valid arrangement (and declaring a natural) of the hand against all of
/// them, and report the regret of the solver's pick.
pub fn best_response_check(
    rules: &Rules,
    tables: Option<&Tables>,
    hands: usize,
    opponents: usize,
    seed: u64,
) -> Result<RegretReport> {
    if opponents < 2 {
        return Err(Error::table("the check needs at least two opponents"));
    }
    let solver = arranger(rules, tables, 2, Strategy::Solver)?;
    let per: Vec<Result<HandRegret>> = (0..hands)
        .into_par_iter()
        .map(|i| check_hand_regret(rules, &solver, opponents, seed, i as u64))
        .collect();
    let hands: Vec<HandRegret> = per.into_iter().collect::<Result<_>>()?;
    let (mean_regret, regret_ci95) = mean_ci(&hands.iter().map(|h| h.regret).collect::<Vec<_>>());
    let (mean_holdout_regret, holdout_ci95) =
        mean_ci(&hands.iter().map(|h| h.holdout_regret).collect::<Vec<_>>());
    Ok(RegretReport {
        hands,
        opponents,
        mean_regret,
        regret_ci95,
        mean_holdout_regret,
        holdout_ci95,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_points_match_settlement() {
        let mut variants = vec![Rules::default()];
        let mut r = Rules {
            overall_point: 1,
            scoop_bonus: 3,
            scoop_multiply_royalties: true,
            ..Rules::default()
        };
        variants.push(r.clone());
        r.royalty_adds = false;
        variants.push(r.clone());
        r.royalty_mode = RoyaltyMode::Always;
        r.sweep_all_min_players = 2;
        variants.push(r);
        let solver_rules = Rules::default();
        let g = arranger(&solver_rules, None, 2, Strategy::Random).unwrap();
        for rules in &variants {
            for i in 0..300u64 {
                let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(99, i)));
                let a = g.choose(&deck[..13]).unwrap().cards;
                let b = g.choose(&deck[13..26]).unwrap().cards;
                let (sa, sb) = (strengths_of(rules, &a), strengths_of(rules, &b));
                if !splits::is_valid(sa[0], sa[1], sa[2], false)
                    || !splits::is_valid(sb[0], sb[1], sb[2], false)
                {
                    continue;
                }
                let want = settle2(rules, &a, false, &b, false).unwrap();
                let got = pair_row_points(
                    rules,
                    &sa,
                    &royalties_of(rules, &sa),
                    &sb,
                    &royalties_of(rules, &sb),
                );
                assert_eq!(got, want, "{rules:?}");
            }
        }
    }

    #[test]
    fn tournament_is_zero_sum_and_reproducible() {
        let rules = Rules::default();
        let s = [Strategy::Solver, Strategy::Greedy];
        let a = duplicate_tournament(&rules, None, &s, 4, 40, 3).unwrap();
        let b = duplicate_tournament(&rules, None, &s, 4, 40, 3).unwrap();
        assert_eq!(a.mean, b.mean);
        assert!((a.mean[0] + a.mean[1]).abs() < 1e-9);
        assert_eq!(a.patterns.len(), 2);
    }

    #[test]
    fn regret_check_runs() {
        let rules = Rules::default();
        let r = best_response_check(&rules, None, 2, 20, 1).unwrap();
        assert_eq!(r.hands.len(), 2);
        assert!(r.hands.iter().all(|h| h.regret >= 0.0));
    }
}
