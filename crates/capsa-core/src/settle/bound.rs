//! The largest settlement a table can produce under its rules: what a round
//! checks its stakes against when it is made, so that a round that is made
//! can always be settled (docs/rules.md, "Money, rake and exactness").
//!
//! The bound follows the steps of the rule text: a pair settles for the
//! most of what a declared natural collects, a surrender costs, a foul pays
//! and a scoop of the rows pays (every row, the overall point, the largest
//! multiplier and bonus, every row's largest royalty, ranked ones included,
//! the scoop multiplier being P under `scoop.by_seats`), raised points
//! included, plus the largest bonus natural; then the terms after the base:
//! a cap where every pair has one, the horse multiplier and the largest
//! player multiplier of a banker game, in the order of the cap's stage.
//! A cap does not lower a bound beyond 64 bits: the base it caps is
//! reported too.
//! Each term is >= 0 and each multiplier >= 1 (the rules are validated). A seat settles with
//! each other seat, so its points are at most `seats - 1` times a pair's
//! and its money at most a pair's points times the sum of its stakes.
//! Every figure a settlement reports (a pair's row points, royalties,
//! points and money, a seat's points, money, rake and net) is within these.

use super::inputs::Stakes;
use crate::error::{Error, Result};
use crate::rules::{CapStage, FoulMode, NaturalEntry, RoyaltyMode, Rules};

/// The most points one pair of seats of a `seats`-seat table can settle
/// for, either way, under `rules` (in 128 bits: it may not fit in 64;
/// saturating at `i128::MAX`).
pub fn largest_pair_points(rules: &Rules, seats: usize) -> i128 {
    // every term is >= 0: a sum or product beyond 128 bits saturates, far
    // beyond the 64 bits that a settlement's figures fit in
    let i = i128::from;
    let (add, mul) = (i128::saturating_add, i128::saturating_mul);
    let rp3 = mul(3, i(rules.row_points));
    let overall = i(rules.overall_point);
    // a scoop's multiplier and bonus, a sweep-all's where a table this size
    // can sweep all
    let sweeps = seats >= rules.sweep_all_min_players;
    let (sweep_m, sweep_b) = (i(rules.sweep_all_multiplier), i(rules.sweep_all_bonus));
    let scoop_m = if rules.scoop_by_seats {
        seats as i128
    } else {
        i(rules.scoop_multiplier)
    };
    let mut m = scoop_m.max(1);
    let mut b = i(rules.scoop_bonus);
    if sweeps {
        m = m.max(sweep_m);
        b = b.max(sweep_b);
    }
    let royalties = largest_royalties(rules);
    let roy_m = |m: i128| if rules.scoop_multiply_royalties { m } else { 1 };
    let scoop = |m: i128, b: i128| add(mul(add(rp3, overall), m), b);
    let rows = add(scoop(m, b), mul(royalties, roy_m(m)));
    let foul_base = match rules.foul_mode {
        FoulMode::SweepAll => add(mul(rp3, sweep_m), sweep_b),
        FoulMode::Scoop => scoop(m, b),
        FoulMode::Fixed => i(rules.foul_points),
        FoulMode::NoFoul | FoulMode::Refuse => 0,
    };
    // a foul's royalties take the multiplier of the foul amount
    let foul_m = if rules.foul_mode == FoulMode::SweepAll {
        sweep_m
    } else {
        m
    };
    let fouls = !matches!(rules.foul_mode, FoulMode::NoFoul | FoulMode::Refuse);
    let foul_roy = if fouls && rules.foul_pays_royalties && rules.royalty_mode != RoyaltyMode::None
    {
        mul(royalties, roy_m(foul_m))
    } else {
        0
    };
    let natural = rules.naturals.iter().map(natural_points).max().unwrap_or(0);
    let surrender = if rules.surrender_enabled {
        i(rules.surrender_cost)
    } else {
        0
    };
    let base = rows
        .max(add(foul_base, foul_roy))
        .max(natural)
        .max(surrender);
    let v = add(base, bonus_natural_points(rules));
    // the base and the bonus naturals are reported before any cap: a pair
    // whose base does not fit is refused however small its cap
    let after = pair_terms_bound(rules, v);
    if v > i128::from(i64::MAX) {
        return after.max(v);
    }
    after
}

/// The largest points a bonus natural adds to a pair's base.
fn bonus_natural_points(rules: &Rules) -> i128 {
    rules
        .naturals
        .iter()
        .filter(|e| e.bonus)
        .map(natural_points)
        .max()
        .unwrap_or(0)
}

/// The most an entry is worth, raised or not.
fn natural_points(e: &NaturalEntry) -> i128 {
    let raised = e.raised.map_or(0, |(p, _)| p);
    i128::from(e.points.max(raised))
}

/// The most a pair whose base and bonus naturals come to at most `v`
/// settles for after its cap, the horse card and the largest seat
/// multiplier (docs/rules.md, "A pair's terms"). A cap lowers the bound
/// only when every pair has one (`cap.pair` > 0: the other caps fall back
/// to it).
fn pair_terms_bound(rules: &Rules, v: i128) -> i128 {
    let cap = if rules.cap_pair > 0 {
        let scoop = if rules.cap_scoop > 0 {
            rules.cap_scoop
        } else {
            rules.cap_pair
        };
        let sweep = if rules.cap_sweep_all > 0 {
            rules.cap_sweep_all
        } else {
            scoop
        };
        i128::from(rules.cap_pair.max(scoop).max(sweep))
    } else {
        i128::MAX
    };
    let horse = if rules.horse_card.is_some() {
        i128::from(rules.horse_multiplier).max(1)
    } else {
        1
    };
    let seat = if rules.banker_enabled {
        i128::from(rules.banker_max_multiplier).max(1)
    } else {
        1
    };
    let scaled = |v: i128| v.saturating_mul(horse).saturating_mul(seat);
    match rules.cap_stage {
        CapStage::Pair => scaled(v.min(cap)),
        CapStage::Final => scaled(v).min(cap),
    }
}

/// The most points a seat of a `seats`-seat table can settle for, either
/// way, under `rules`: its pairs' together (saturating at `i128::MAX`).
pub fn largest_seat_points(rules: &Rules, seats: usize) -> i128 {
    largest_pair_points(rules, seats).saturating_mul(seats.saturating_sub(1) as i128)
}

/// The largest stake of every pair with which any round of a `seats`-seat
/// table under `rules` settles in 64-bit money (`i64::MAX` when no round
/// pays a point); `None` when the points alone do not fit.
pub fn largest_stake(rules: &Rules, seats: usize) -> Option<i64> {
    let points = largest_seat_points(rules, seats);
    if points > i128::from(i64::MAX) {
        return None;
    }
    Some(if points == 0 {
        i64::MAX
    } else {
        (i128::from(i64::MAX) / points) as i64
    })
}

/// Checks, before any round is played, that every round of a `seats`-seat
/// table under `rules` and `stakes` (checked already) settles with every
/// figure in 64 bits: `Argument`, naming the stake (or the rules) and the
/// bound, otherwise.
pub fn check_settlement_fits(rules: &Rules, seats: usize, stakes: &Stakes) -> Result<()> {
    let pair = largest_pair_points(rules, seats);
    let seat = largest_seat_points(rules, seats);
    let max = i128::from(i64::MAX);
    if seat > max {
        return Err(Error::argument(format!(
            "rules: a seat of a {seats}-seat table can settle for up to {seat} points under \
             these rules, beyond the engine's 64-bit integers (at most {max})"
        )));
    }
    let why = |total: i128| {
        format!(
            "a seat of a {seats}-seat table can settle for up to {pair} points with each \
             other seat under its rules, so a seat's money could reach {} minor units, \
             beyond the engine's 64-bit money (at most {max})",
            pair.saturating_mul(total)
        )
    };
    match *stakes {
        Stakes::Uniform(stake) => {
            let largest = largest_stake(rules, seats).unwrap_or(0);
            if stake > largest {
                return Err(Error::argument(format!(
                    "stakes: {stake} is more than {largest}, the largest stake this table \
                     settles: {}",
                    why(i128::from(stake) * (seats as i128 - 1))
                )));
            }
        }
        Stakes::Matrix(m) => {
            let most = if pair == 0 { max } else { max / pair };
            for s in 0..seats {
                let total: i128 = (0..seats)
                    .filter(|&j| j != s)
                    .map(|j| i128::from(m.get(s * seats + j).copied().unwrap_or(0)))
                    .sum();
                if total > most {
                    return Err(Error::argument(format!(
                        "stakes[{s}]: seat {s}'s stakes sum to {total}, more than {most}, the \
                         most a seat's stakes sum to at this table: {}",
                        why(total)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The sum over the rows of each row's largest royalty: its categories',
/// its ranked ones and, in a five-card row, five of a kind's, on the top a
/// top of both jokers' (0 under `royalty_mode = "none"`).
fn largest_royalties(rules: &Rules) -> i128 {
    if rules.royalty_mode == RoyaltyMode::None {
        0
    } else {
        // five of a kind's royalty counts in the five-card rows, two
        // jokers' on the top
        let five = [
            rules.top_two_jokers,
            rules.five_of_a_kind_royalties[0],
            rules.five_of_a_kind_royalties[1],
        ];
        rules
            .royalties
            .iter()
            .zip(&rules.royalties_by_rank)
            .zip(five)
            .map(|((row, ranked), five)| {
                let ranked = ranked.iter().flatten().flatten().copied();
                row.iter()
                    .copied()
                    .chain(ranked)
                    .chain([five])
                    .max()
                    .map_or(0, i128::from)
            })
            .fold(0, i128::saturating_add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::knobs::INT_MAX;
    use crate::rules::KnobValue;

    fn rules(knobs: &[(&str, KnobValue)]) -> Rules {
        let mut rules = Rules::default();
        for (name, value) in knobs {
            rules.set_knob(name, value.clone()).unwrap();
        }
        rules
    }

    #[test]
    fn a_plain_scoop_is_the_largest_pair_of_rules_without_royalties() {
        // 3 rows and the overall point, doubled, plus the bonus
        let r = rules(&[
            ("row_points", KnobValue::Int(1)),
            ("overall_point", KnobValue::Int(1)),
            ("royalty_mode", KnobValue::Text("none".into())),
            ("scoop.multiplier", KnobValue::Int(2)),
            ("scoop.bonus", KnobValue::Int(3)),
            ("sweep_all.multiplier", KnobValue::Int(5)),
            ("sweep_all.bonus", KnobValue::Int(0)),
            ("sweep_all.min_players", KnobValue::Int(4)),
            ("foul.mode", KnobValue::Text("fixed".into())),
            ("foul.points", KnobValue::Int(6)),
            ("naturals.enabled", KnobValue::Naturals(vec![])),
        ]);
        assert_eq!(largest_pair_points(&r, 3), 4 * 2 + 3);
        // four seats can sweep all: 4 * 5 + 3
        assert_eq!(largest_pair_points(&r, 4), 23);
        assert_eq!(largest_seat_points(&r, 4), 69);
        assert_eq!(largest_stake(&r, 4), Some(i64::MAX / 69));
    }

    #[test]
    fn the_stakes_are_checked_against_the_bound_at_both_ends() {
        let r = Rules::default();
        let largest = largest_stake(&r, 4).unwrap();
        assert!(check_settlement_fits(&r, 4, &Stakes::Uniform(largest)).is_ok());
        let refused = check_settlement_fits(&r, 4, &Stakes::Uniform(largest + 1)).unwrap_err();
        assert!(refused.message().starts_with(&format!(
            "stakes: {} is more than {largest}, the largest stake",
            largest + 1
        )));
        // the largest stake of every pair, as a matrix; then seat 2's sum
        // beyond the most (at most 2 more than 3 times the largest)
        let mut m = vec![largest; 16];
        assert!(check_settlement_fits(&r, 4, &Stakes::Matrix(&m)).is_ok());
        m[2 * 4 + 3] += 3;
        m[3 * 4 + 2] += 3;
        let refused = check_settlement_fits(&r, 4, &Stakes::Matrix(&m)).unwrap_err();
        assert!(refused
            .message()
            .starts_with("stakes[2]: seat 2's stakes sum to"));
    }

    #[test]
    fn the_bound_saturates_rather_than_wraps() {
        let r = rules(&[
            ("row_points", KnobValue::Int(INT_MAX)),
            ("overall_point", KnobValue::Int(INT_MAX)),
            ("scoop.multiplier", KnobValue::Int(INT_MAX)),
            ("sweep_all.multiplier", KnobValue::Int(INT_MAX)),
            ("scoop.multiply_royalties", KnobValue::Flag(true)),
        ]);
        assert_eq!(largest_pair_points(&r, 4), i128::MAX);
        assert_eq!(largest_seat_points(&r, 4), i128::MAX);
        assert!(check_settlement_fits(&r, 4, &Stakes::Uniform(0)).is_err());
    }

    #[test]
    fn rules_whose_points_alone_do_not_fit_are_refused() {
        let r = rules(&[("row_points", KnobValue::Int(INT_MAX / 4))]);
        assert_eq!(largest_stake(&r, 2), None);
        let refused = check_settlement_fits(&r, 2, &Stakes::Uniform(0)).unwrap_err();
        assert!(refused
            .message()
            .starts_with("rules: a seat of a 2-seat table"));
    }

    #[test]
    fn the_bound_covers_the_terms_of_every_new_knob() {
        use crate::natural_kind::Natural;
        use crate::rules::{CapStage, NaturalEntry};
        // without royalties or naturals, a plain scoop of 3 rows: x 2, or
        // x 4 (the sweep-all) at four seats
        let base = rules(&[
            ("royalty_mode", KnobValue::Text("none".into())),
            ("naturals.enabled", KnobValue::Naturals(vec![])),
            ("foul.mode", KnobValue::Text("fixed".into())),
        ]);
        assert_eq!(largest_pair_points(&base, 3), 6);
        // scoop by seats: the multiplier is the table's size
        let by_seats = Rules {
            scoop_by_seats: true,
            sweep_all_min_players: 5,
            ..base.clone()
        };
        assert_eq!(largest_pair_points(&by_seats, 3), 9);
        assert_eq!(largest_pair_points(&by_seats, 4), 12);
        // the horse card and the largest player multiplier multiply it
        let terms = Rules {
            horse_card: Some(0),
            horse_multiplier: 3,
            banker_enabled: true,
            banker_max_multiplier: 5,
            ..base.clone()
        };
        assert_eq!(largest_pair_points(&terms, 3), 6 * 3 * 5);
        // a cap bounds it before them at stage pair, after them at final
        let capped = Rules {
            cap_pair: 4,
            ..terms.clone()
        };
        assert_eq!(largest_pair_points(&capped, 3), 4 * 15);
        let last = Rules {
            cap_stage: CapStage::Final,
            ..capped.clone()
        };
        assert_eq!(largest_pair_points(&last, 3), 4);
        // a base beyond 64 bits is reported before its cap: not bounded by it
        let huge = Rules {
            row_points: i64::MAX / 2,
            ..capped.clone()
        };
        assert!(largest_pair_points(&huge, 3) > i128::from(i64::MAX));
        assert_eq!(largest_stake(&huge, 3), None);
        // a scoop cap alone does not bound a pair without a scoop
        let scoop_only = Rules {
            cap_scoop: 4,
            ..terms
        };
        assert_eq!(largest_pair_points(&scoop_only, 3), 90);
        // a raised natural, and a bonus natural on top of the rows
        let raised = Rules {
            naturals: vec![NaturalEntry {
                raised: Some((40, crate::rules::RaisedBy::Quads)),
                ..NaturalEntry::new(Natural::SixPairs, 3)
            }],
            ..base.clone()
        };
        assert_eq!(largest_pair_points(&raised, 3), 40);
        let bonus = Rules {
            naturals: vec![NaturalEntry {
                bonus: true,
                ..NaturalEntry::new(Natural::SixPairs, 5)
            }],
            ..base.clone()
        };
        assert_eq!(largest_pair_points(&bonus, 3), 6 + 5);
        // a ranked royalty above the category's
        let mut ranked = Rules {
            royalty_mode: RoyaltyMode::Winner,
            royalties: [[0; 10]; 3],
            ..base
        };
        ranked.royalties_by_rank[0][1][12] = Some(20);
        ranked.index_ranked_royalties();
        assert_eq!(largest_pair_points(&ranked, 3), 6 + 20);
        // five of a kind's royalty above every category's in its row
        let mut fives = ranked.clone();
        fives.five_of_a_kind_royalties = [30, 0];
        assert_eq!(largest_pair_points(&fives, 3), 6 + 20 + 30);
    }
}
