//! The named-choice knobs: each an enum with its rules-file key and names.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

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
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A two-name knob the engine stores as a `bool` (`true` for the second
/// name).
pub trait FlagChoice: RuleChoice {
    /// The knob whose engine flag is `on`.
    fn from_flag(on: bool) -> Self;
    /// The engine flag: whether this is the second name.
    fn flag(self) -> bool;
}

/// Declares the conversions between a two-name knob and the `bool` the
/// engine stores it as (`true` for the second name).
macro_rules! flag_choice {
    ($name:ident: $off:ident, $on:ident) => {
        impl FlagChoice for $name {
            fn from_flag(on: bool) -> Self {
                $name::from_flag(on)
            }
            fn flag(self) -> bool {
                $name::flag(self)
            }
        }

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
        /// No arrangement fouls: rows compare as they stand.
        NoFoul = "none",
        /// A fouled arrangement is refused, never settled.
        Refuse = "refuse",
    }
}

rule_choice! {
    /// `sweep_all.natural_opponents`: whether an opponent with a declared
    /// natural prevents a sweep-all or is left out of the test.
    NaturalOpponents = "sweep_all.natural_opponents" {
        Block = "block",
        Exempt = "exempt",
    }
}

rule_choice! {
    /// `cap.stage`: whether a pair's cap applies before the horse card and
    /// the player's multiplier or after both.
    CapStage = "cap.stage" {
        Pair = "pair",
        Final = "final",
    }
}

rule_choice! {
    /// `raised_by` of a natural's entry: what raises it to its
    /// `raised_points`.
    RaisedBy = "raised_by" {
        /// Four cards of a rank among the 13.
        Quads = "quads",
        /// A split of the natural's shape with a straight flush as a
        /// five-card row.
        StraightFlush = "straight-flush",
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

rule_choice! {
    /// `deck.added_suits`: the suits whose 13 cards enter the deck a second
    /// time (加一色, 加两色), named strongest first by the default order.
    AddedSuits = "deck.added_suits" {
        None = "none",
        D = "d",
        C = "c",
        H = "h",
        S = "s",
        SH = "sh",
        SC = "sc",
        SD = "sd",
        HC = "hc",
        HD = "hd",
        CD = "cd",
    }
}

impl AddedSuits {
    /// The added suits as a bit per suit id (d = 1, c = 2, h = 4, s = 8).
    pub const fn suits(self) -> u8 {
        const D: u8 = 1;
        const C: u8 = 2;
        const H: u8 = 4;
        const S: u8 = 8;
        match self {
            AddedSuits::None => 0,
            AddedSuits::D => D,
            AddedSuits::C => C,
            AddedSuits::H => H,
            AddedSuits::S => S,
            AddedSuits::SH => S | H,
            AddedSuits::SC => S | C,
            AddedSuits::SD => S | D,
            AddedSuits::HC => H | C,
            AddedSuits::HD => H | D,
            AddedSuits::CD => C | D,
        }
    }
}
