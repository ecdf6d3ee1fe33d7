//! Shared pieces of the fuzz targets: turning fuzz bytes into plausible
//! engine inputs (decks, rules, stakes) so that the fuzzer reaches deep into
//! settlement and the solver, not only the first validity check.

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use capsa_core::deck::Deck;
use capsa_core::naturals::ALL as ALL_NATURALS;
use capsa_core::presets;
use capsa_core::rank::{Evaluator, Ranking};
use capsa_core::rules::{FoulMode, NaturalResolve, NaturalTies, Rake, RoyaltyMode, Rules, TOP};

/// Values at the edges of `i64` arithmetic, where overflow checks matter.
const EDGES: [i64; 12] = [
    i64::MIN,
    i64::MIN + 1,
    -(1 << 32),
    -1,
    1 << 31,
    1 << 32,
    1 << 40,
    (1 << 53) + 1,
    i64::MAX / 208,
    i64::MAX / 2,
    i64::MAX - 1,
    i64::MAX,
];

/// An `i64` that is usually small and non-negative (a plausible stake),
/// sometimes negative, sometimes at the edge of the range.
pub fn figure(u: &mut Unstructured) -> Result<i64> {
    Ok(match u.int_in_range(0u8..=15)? {
        0..=9 => u.int_in_range(0..=20)?,
        10 => u.int_in_range(-5..=-1)?,
        11 => u.int_in_range(21..=10_000)?,
        12 | 13 => EDGES[u.choose_index(EDGES.len())?],
        _ => u.arbitrary()?,
    })
}

/// A rules figure: like [`figure`] but negative only now and then, so that
/// rules with dozens of figures still pass `Rules::validate` often.
pub fn rules_figure(u: &mut Unstructured) -> Result<i64> {
    if u.ratio(1u8, 64)? {
        return figure(u);
    }
    Ok(figure(u)?.checked_abs().unwrap_or(i64::MAX))
}

/// The 52 card ids in an order drawn from the bytes (Fisher-Yates).
pub fn shuffled_deck(u: &mut Unstructured) -> Result<[u8; 52]> {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    for i in (1..52).rev() {
        let j = u.int_in_range(0..=i)?;
        deck.swap(i, j);
    }
    Ok(deck)
}

/// Suit strengths: a permutation of 0..=3 (what rules files give), or, now
/// and then, any four bytes (the struct's fields are public).
pub fn suit_strength(u: &mut Unstructured) -> Result<[u8; 4]> {
    if u.ratio(1u8, 16)? {
        return u.arbitrary();
    }
    let mut s = [0u8, 1, 2, 3];
    for i in (1..4).rev() {
        let j = u.int_in_range(0..=i)?;
        s.swap(i, j);
    }
    Ok(s)
}

/// A ranking with every knob drawn from the bytes.
pub fn ranking(u: &mut Unstructured) -> Result<Ranking> {
    Ok(Ranking {
        suit_strength: suit_strength(u)?,
        tie_break_suit: u.arbitrary()?,
        flush_suit_first: u.arbitrary()?,
        wheel_second: u.arbitrary()?,
    })
}

/// The shipped presets the targets' tables can play, read once: those of the
/// one 52-card deck the targets deal, and no banker game (whose seats name a
/// banker the targets do not draw).
fn presets_of_52_cards() -> &'static [Rules] {
    static READ: OnceLock<Vec<Rules>> = OnceLock::new();
    READ.get_or_init(|| {
        presets::names()
            .map(|name| presets::rules(name).expect("the shipped presets read"))
            .filter(|rules| rules.deck == Deck::default() && !rules.banker_enabled)
            .collect()
    })
}

/// Rules with every field drawn from the bytes, including values that
/// `Rules::validate` rejects (callers filter) and extreme ones it accepts.
pub fn rules(u: &mut Unstructured) -> Result<Rules> {
    let mut r = Rules::default();
    if u.ratio(1u8, 8)? {
        // a shipped preset, with a few figures changed
        r = u.choose(presets_of_52_cards())?.clone();
        r.stake = rules_figure(u)?;
        r.rake.basis_points = u.int_in_range(0..=10_000)?;
        r.surrender_enabled = u.arbitrary()?;
        return Ok(r);
    }
    r.evaluator = Evaluator::new(ranking(u)?);
    r.foul_strict = u.arbitrary()?;
    r.row_points = rules_figure(u)?;
    r.overall_point = rules_figure(u)?;
    r.royalty_mode = *u.choose(&[RoyaltyMode::Winner, RoyaltyMode::Always, RoyaltyMode::None])?;
    r.royalty_adds = u.arbitrary()?;
    r.scoop_multiplier = rules_figure(u)?.max(u.ratio(31u8, 32)? as i64);
    r.scoop_bonus = rules_figure(u)?;
    r.scoop_multiply_royalties = u.arbitrary()?;
    r.sweep_all_multiplier = rules_figure(u)?.max(u.ratio(31u8, 32)? as i64);
    r.sweep_all_bonus = rules_figure(u)?;
    r.sweep_all_min_players = if u.ratio(1u8, 16)? {
        u.arbitrary()?
    } else {
        u.int_in_range(2..=5)?
    };
    r.foul_mode = *u.choose(&[FoulMode::SweepAll, FoulMode::Scoop, FoulMode::Fixed])?;
    r.foul_points = rules_figure(u)?;
    r.foul_pays_royalties = u.arbitrary()?;
    r.surrender_enabled = u.arbitrary()?;
    r.surrender_cost = rules_figure(u)?;
    // distinct naturals in any order, or now and then any list of them
    let mut order = ALL_NATURALS;
    for i in (1..order.len()).rev() {
        order.swap(i, u.int_in_range(0..=i)?);
    }
    let count = u.int_in_range(0..=order.len())?;
    let repeats = u.ratio(1u8, 32)?;
    r.naturals = (0..count)
        .map(|k| {
            let n = if repeats {
                *u.choose(&ALL_NATURALS)?
            } else {
                order[k]
            };
            Ok(capsa_core::rules::NaturalEntry::new(n, rules_figure(u)?))
        })
        .collect::<Result<_>>()?;
    r.natural_resolve = *u.choose(&[NaturalResolve::HigherWins, NaturalResolve::Difference])?;
    r.natural_ties = *u.choose(&[NaturalTies::Push, NaturalTies::Compare])?;
    // mostly zero, as in the presets; the top row pays only high card, pair
    // and trips, but now and then any category
    let any_top = u.ratio(1u8, 32)?;
    for (row, table) in r.royalties.iter_mut().enumerate() {
        for (category, v) in table.iter_mut().enumerate() {
            let payable = row != TOP || any_top || [0, 1, 3].contains(&category);
            *v = if payable && u.ratio(1u8, 3)? {
                rules_figure(u)?
            } else {
                0
            };
        }
    }
    r.stake = rules_figure(u)?;
    r.rake = rake(u)?;
    Ok(r)
}

/// A rake with each knob now and then out of range or extreme, the minimum
/// pot and the caps mostly small enough to bind.
fn rake(u: &mut Unstructured) -> Result<Rake> {
    let small_or_figure = |u: &mut Unstructured| -> Result<i64> {
        Ok(if u.ratio(1u8, 16)? {
            figure(u)?
        } else {
            u.int_in_range(0..=200)?
        })
    };
    Ok(Rake {
        basis_points: if u.ratio(1u8, 16)? {
            figure(u)?
        } else {
            u.int_in_range(0..=10_000)?
        },
        minimum_pot: small_or_figure(u)?,
        cap_per_pot: small_or_figure(u)?,
        cap_per_round: small_or_figure(u)?,
    })
}

/// A rules value whose magnitude is at least this can make a settlement
/// overflow; below it (with stakes below it too), no figure of a round comes
/// near `i64::MAX`.
pub const OVERFLOW_FLOOR: i64 = 1 << 16;

/// The largest magnitude among the rules' figures.
pub fn largest_figure(r: &Rules) -> i64 {
    let mut figures = vec![
        r.row_points,
        r.overall_point,
        r.scoop_multiplier,
        r.scoop_bonus,
        r.sweep_all_multiplier,
        r.sweep_all_bonus,
        r.foul_points,
        r.surrender_cost,
        r.stake,
        r.rake.basis_points,
        r.rake.minimum_pot,
        r.rake.cap_per_pot,
        r.rake.cap_per_round,
    ];
    figures.extend(r.naturals.iter().map(|e| e.points));
    figures.extend(r.royalties.iter().flatten().copied());
    figures
        .into_iter()
        .map(i64::unsigned_abs)
        .max()
        .map_or(0, |m| m.min(i64::MAX as u64) as i64)
}
