//! What arranges a seat that did not submit by a round's close: the round's
//! auto-arrange policy, which its record names (`solver.strategy`, see
//! docs/records.md, "The auto-arrange policies") and replay checks.
//!
//! * `solver`: the solver's own choice at the fast effort, with the shipped
//!   tables nearest the rules; it never fouls and declares a natural when
//!   the solver would;
//! * `greedy`: capsa's greedy strategy ([`greedy_arrangement`]): the
//!   strongest bottom, then the strongest middle of the rest; it never
//!   fouls, consults no tables and declares any natural the rules pay;
//! * `foul`: the first split of the hand in split order that fouls
//!   ([`splits::first_foul`]), so that the rules' foul penalty applies; it
//!   declines its natural.

use crate::error::{Error, Result};
use crate::naturals;
use crate::rank::wide::WideEvaluator;
use crate::rules::Rules;
use crate::solver::{self, greedy_arrangement, Effort, Strategy};
use crate::splits;

/// What arranges the seats left at the close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoPolicy {
    Solver,
    Greedy,
    Foul,
}

/// The policies' names, as [`AutoPolicy::from_name`] reads them.
pub const AUTO_POLICY_NAMES: [&str; 3] = ["solver", "greedy", "foul"];

impl AutoPolicy {
    /// The policy of a name in [`AUTO_POLICY_NAMES`] (an `ArgumentError`
    /// naming them otherwise).
    pub fn from_name(name: &str) -> Result<AutoPolicy> {
        match name {
            "solver" => Ok(AutoPolicy::Solver),
            "greedy" => Ok(AutoPolicy::Greedy),
            "foul" => Ok(AutoPolicy::Foul),
            _ => Err(Error::argument(format!(
                "auto_arrange must be one of {}, got {:?}",
                AUTO_POLICY_NAMES.join(", "),
                name.chars().take(40).collect::<String>()
            ))),
        }
    }

    /// The policy's name in [`AUTO_POLICY_NAMES`].
    pub fn name(self) -> &'static str {
        match self {
            AutoPolicy::Solver => "solver",
            AutoPolicy::Greedy => "greedy",
            AutoPolicy::Foul => "foul",
        }
    }

    /// Whether the policy's arrangements foul (else they never do).
    pub fn fouls(self) -> bool {
        self == AutoPolicy::Foul
    }
}

/// A seat arranged at the close: its cards laid out top 0-2, middle 3-7,
/// bottom 8-12, and whether it declares a natural its hand holds (it says
/// nothing when the hand holds none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoChoice {
    pub cards: [u8; 13],
    pub declare_natural: bool,
}

/// How `policy` arranges a hand of 13 cards at a table of `seats` under
/// `rules` (see the module documentation). Errors: a hand that is not 13
/// distinct cards of the rules' deck (`Card`/`Hand`), seats the deck does
/// not deal (`Table`), the solver's own errors.
pub fn auto_arrangement(
    rules: &Rules,
    hand: &[u8],
    seats: usize,
    policy: AutoPolicy,
) -> Result<AutoChoice> {
    crate::table::check_table_seats(&rules.deck, seats)?;
    crate::hands::check(rules, hand, &[13], "a hand to arrange")?;
    let mut sorted: [u8; 13] = hand.try_into().expect("length checked");
    sorted.sort_unstable();
    match policy {
        AutoPolicy::Solver => {
            let choice = solver::arranger(rules, None, seats, Strategy::Solver)?
                .choose_with(&sorted, Effort::Fast)?;
            Ok(AutoChoice {
                cards: choice.cards,
                declare_natural: choice.declare_natural,
            })
        }
        AutoPolicy::Greedy => Ok(AutoChoice {
            cards: greedy_arrangement(rules, &sorted)?,
            declare_natural: naturals::declared(&sorted, rules, true).is_some(),
        }),
        AutoPolicy::Foul => Ok(AutoChoice {
            cards: first_foul(rules, &sorted)?,
            declare_natural: false,
        }),
    }
}

/// The `foul` policy's arrangement: the first split that fouls, ranked as
/// the rules' deck ranks.
fn first_foul(rules: &Rules, sorted: &[u8; 13]) -> Result<[u8; 13]> {
    let strict = rules.foul_strict;
    let found = if rules.deck.is_standard() {
        splits::first_foul(&rules.evaluator, strict, sorted)
    } else {
        splits::first_foul(&WideEvaluator::new(rules.evaluator), strict, sorted)
    };
    found.ok_or_else(|| Error::hand("no split of these 13 cards fouls under the rules"))
}

#[cfg(test)]
mod tests;
