//! The rules the engine plays by, as plain data. The Python layer validates
//! and loads rules files (TOML) and hands the engine this struct.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::natural_kind::Natural;
use crate::rank::{Evaluator, Ranking};
use crate::table::{MAX_SEATS, MIN_SEATS};

/// A rules knob that takes one of a few names: the rules-file key it is
/// read from, its names in order, and (through `FromStr` and `Display`) the
/// conversion between a name and a value. The tables metadata writes the
/// ranking and royalty knobs under the same key with the same names.
pub trait RuleChoice: Copy + FromStr<Err = Error> + fmt::Display + 'static {
    /// The dotted rules-file key, e.g. `foul.mode`.
    const KEY: &'static str;
    /// Every valid name, in the order the enum declares them.
    const NAMES: &'static [&'static str];
    /// Every value, in the order of [`NAMES`](Self::NAMES).
    const ALL: &'static [Self];
}

/// Declares a [`RuleChoice`] enum: each variant with its rules-file name.
macro_rules! rule_choice {
    (
        $(#[$doc:meta])*
        $name:ident = $key:literal {
            $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl RuleChoice for $name {
            const KEY: &'static str = $key;
            const NAMES: &'static [&'static str] = &[$($text),+];
            const ALL: &'static [Self] = &[$($name::$variant),+];
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self {
                    $($name::$variant => $text,)+
                })
            }
        }

        impl FromStr for $name {
            type Err = Error;

            fn from_str(s: &str) -> Result<Self> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(unknown_choice::<$name>(s)),
                }
            }
        }
    };
}

/// The error for a name that is not one of `T`'s: it names the key and
/// every valid name.
fn unknown_choice<T: RuleChoice>(got: &str) -> Error {
    Error::rules(format!(
        "{} must be one of {}, got {got:?}",
        T::KEY,
        T::NAMES.join(", ")
    ))
}

/// Declares the conversions between a two-name knob and the `bool` the
/// engine stores it as (`true` for the second name).
macro_rules! flag_choice {
    ($name:ident: $off:ident, $on:ident) => {
        impl $name {
            /// The knob whose engine flag is `on`.
            pub fn from_flag(on: bool) -> Self {
                if on {
                    $name::$on
                } else {
                    $name::$off
                }
            }

            /// The engine flag: whether this is the second name.
            pub fn flag(self) -> bool {
                self == $name::$on
            }
        }
    };
}

rule_choice! {
    /// `royalty_mode`: who is paid royalties.
    RoyaltyMode = "royalty_mode" {
        Winner = "winner",
        Always = "always",
        None = "none",
    }
}

rule_choice! {
    /// `foul.mode`: what a fouled hand pays.
    FoulMode = "foul.mode" {
        SweepAll = "sweep-all",
        Scoop = "scoop",
        Fixed = "fixed",
    }
}

rule_choice! {
    /// `naturals.resolve`: how two naturals settle.
    NaturalResolve = "naturals.resolve" {
        HigherWins = "higher-wins",
        Difference = "difference",
    }
}

rule_choice! {
    /// `naturals.ties`: what equal naturals do.
    NaturalTies = "naturals.ties" {
        Push = "push",
        Compare = "compare",
    }
}

rule_choice! {
    /// `tie_break`: whether suits break ties of equal ranks
    /// ([`Ranking::tie_break_suit`]).
    TieBreak = "tie_break" {
        None = "none",
        Suit = "suit",
    }
}
flag_choice!(TieBreak: None, Suit);

rule_choice! {
    /// `flush_compare`: how two flushes compare
    /// ([`Ranking::flush_suit_first`]).
    FlushCompare = "flush_compare" {
        Ranks = "ranks",
        SuitFirst = "suit-first",
    }
}
flag_choice!(FlushCompare: Ranks, SuitFirst);

rule_choice! {
    /// `wheel`: where A-2-3-4-5 ranks among straights
    /// ([`Ranking::wheel_second`]).
    Wheel = "wheel" {
        Low = "low",
        Second = "second",
    }
}
flag_choice!(Wheel: Low, Second);

rule_choice! {
    /// `foul_check`: whether equal rows foul ([`Rules::foul_strict`]).
    FoulCheck = "foul_check" {
        AllowEqual = "allow-equal",
        Strict = "strict",
    }
}
flag_choice!(FoulCheck: AllowEqual, Strict);

/// Every named-choice knob of a rules file with its valid names, in the
/// order the rules file documents them.
pub const RULE_CHOICES: [(&str, &[&str]); 8] = [
    (TieBreak::KEY, TieBreak::NAMES),
    (FlushCompare::KEY, FlushCompare::NAMES),
    (Wheel::KEY, Wheel::NAMES),
    (FoulCheck::KEY, FoulCheck::NAMES),
    (RoyaltyMode::KEY, RoyaltyMode::NAMES),
    (FoulMode::KEY, FoulMode::NAMES),
    (NaturalResolve::KEY, NaturalResolve::NAMES),
    (NaturalTies::KEY, NaturalTies::NAMES),
];

pub use crate::rows::{BOTTOM, MIDDLE, TOP};

#[derive(Clone, Debug)]
pub struct Rules {
    pub evaluator: Evaluator,
    /// `foul_check = "strict"`: rows must strictly increase.
    pub foul_strict: bool,
    pub row_points: i64,
    pub overall_point: i64,
    pub royalty_mode: RoyaltyMode,
    pub royalty_adds: bool,
    pub scoop_multiplier: i64,
    pub scoop_bonus: i64,
    pub scoop_multiply_royalties: bool,
    pub sweep_all_multiplier: i64,
    pub sweep_all_bonus: i64,
    pub sweep_all_min_players: usize,
    pub foul_mode: FoulMode,
    pub foul_points: i64,
    pub foul_pays_royalties: bool,
    pub surrender_enabled: bool,
    pub surrender_cost: i64,
    /// Enabled naturals, strongest first, with their points.
    pub naturals: Vec<(Natural, i64)>,
    pub natural_resolve: NaturalResolve,
    pub natural_ties: NaturalTies,
    /// Royalty points per row (top, middle, bottom) and category index.
    pub royalties: [[i64; 10]; 3],
    pub stake: i64,
    pub rake_percent: i64,
}

impl Default for Rules {
    /// The `capsa-susun` preset.
    fn default() -> Self {
        let mut royalties = [[0i64; 10]; 3];
        royalties[TOP][3] = 5;
        royalties[MIDDLE][6] = 3;
        royalties[MIDDLE][7] = 14;
        royalties[MIDDLE][8] = 18;
        royalties[MIDDLE][9] = 22;
        royalties[BOTTOM][7] = 7;
        royalties[BOTTOM][8] = 9;
        royalties[BOTTOM][9] = 11;
        Rules {
            evaluator: Evaluator::new(Ranking::default()),
            foul_strict: false,
            row_points: 1,
            overall_point: 0,
            royalty_mode: RoyaltyMode::Winner,
            royalty_adds: true,
            scoop_multiplier: 2,
            scoop_bonus: 0,
            scoop_multiply_royalties: false,
            sweep_all_multiplier: 4,
            sweep_all_bonus: 0,
            sweep_all_min_players: 4,
            foul_mode: FoulMode::SweepAll,
            foul_points: 0,
            foul_pays_royalties: true,
            surrender_enabled: false,
            surrender_cost: 0,
            naturals: vec![
                (Natural::Dragon, 208),
                (Natural::ThreeFlushes, 3),
                (Natural::ThreeStraights, 3),
                (Natural::SixPairs, 3),
            ],
            natural_resolve: NaturalResolve::HigherWins,
            natural_ties: NaturalTies::Push,
            royalties,
            stake: 1,
            rake_percent: 3,
        }
    }
}

impl Rules {
    /// Checks the ranges the engine relies on (the Python layer reports
    /// friendlier errors first; this guards direct users of the core).
    pub fn validate(&self) -> Result<()> {
        // the suit key packs each suit's strength in two bits
        let mut strengths = self.evaluator.ranking.suit_strength;
        strengths.sort_unstable();
        if strengths != [0, 1, 2, 3] {
            return Err(Error::rules(format!(
                "suit strengths must be 0, 1, 2 and 3 once each, got {:?}",
                self.evaluator.ranking.suit_strength
            )));
        }
        let nonneg = [
            ("row_points", self.row_points),
            ("overall_point", self.overall_point),
            ("scoop.bonus", self.scoop_bonus),
            ("sweep_all.bonus", self.sweep_all_bonus),
            ("foul.points", self.foul_points),
            ("surrender.cost", self.surrender_cost),
            ("money.stake", self.stake),
        ];
        for (key, v) in nonneg {
            if v < 0 {
                return Err(Error::rules(format!("{key} must be >= 0, got {v}")));
            }
        }
        if self.scoop_multiplier < 1 || self.sweep_all_multiplier < 1 {
            return Err(Error::rules(
                "scoop.multiplier and sweep_all.multiplier must be >= 1",
            ));
        }
        // one past the most seats: no table is large enough, a sweep-all never counts
        let never = MAX_SEATS + 1;
        if !(MIN_SEATS..=never).contains(&self.sweep_all_min_players) {
            return Err(Error::rules(format!(
                "sweep_all.min_players must be {MIN_SEATS}..{never}, got {}",
                self.sweep_all_min_players
            )));
        }
        if !(0..=100).contains(&self.rake_percent) {
            return Err(Error::rules(format!(
                "money.rake_percent must be 0..100, got {}",
                self.rake_percent
            )));
        }
        let mut seen = 0u32;
        for (n, p) in &self.naturals {
            if seen & (1 << *n as u32) != 0 {
                return Err(Error::rules(format!(
                    "natural {} is enabled twice",
                    n.name()
                )));
            }
            seen |= 1 << *n as u32;
            if *p < 0 {
                return Err(Error::rules(format!(
                    "natural {} has negative points {p}",
                    n.name()
                )));
            }
        }
        for (row, table) in self.royalties.iter().enumerate() {
            for (cat, &v) in table.iter().enumerate() {
                if v < 0 {
                    return Err(Error::rules(format!("royalty {row}/{cat} is negative")));
                }
                if row == TOP && v != 0 && ![0usize, 1, 3].contains(&cat) {
                    return Err(Error::rules(
                        "top-row royalties can only name high-card, pair or trips",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Royalty of a hand of the given strength in a row.
    #[inline(always)]
    pub fn royalty(&self, row: usize, strength: u32) -> i64 {
        self.royalties[row][crate::rank::category_of(strength) as usize]
    }
}

#[cfg(test)]
mod tests;
