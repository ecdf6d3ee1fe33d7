//! The knob table: every knob of a rules file, once. Its dotted name, type
//! and range or choices, its default (the values of the `capsa-susun`
//! preset file, which `python -m capsa.rules.reference --write` writes from
//! this table), the sentence `docs/rules.md` gives it, and its place in the
//! solver tables' metadata. The engine's reader
//! ([`Rules::set_knob`](super::Rules::set_knob)), its range check
//! ([`Rules::validate`](super::Rules::validate)), the Python layer's checks,
//! the solver tables' metadata, the knob reference of `docs/rules.md` and the
//! protocol schema's rules all read it.

use super::choices::{
    FlushCompare, FoulCheck, FoulMode, NaturalResolve, NaturalTies, RoyaltyMode, RuleChoice,
    TieBreak, Wheel,
};
use crate::rank::CATEGORY_NAMES;

/// The largest amount of points or money: the engine's 64-bit integers.
pub const INT_MAX: i64 = i64::MAX;

/// What values a knob takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KnobType {
    /// Free text (the engine does not read it).
    Text,
    /// The four suit letters `s h c d` once each, strongest first.
    SuitOrder,
    /// One of a few names.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Flag,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A list of `{ name, points }` tables: naturals, strongest first, each
    /// once, points >= 0.
    Naturals,
    /// A table of category = points >= 0, with the categories it may name.
    Royalties(&'static [&'static str]),
}

/// A knob's value in the `capsa-susun` preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KnobDefault {
    /// The knob is optional and the preset leaves it out.
    Absent,
    Text(&'static str),
    Flag(bool),
    Int(i64),
    /// `naturals.enabled`: (natural name, points), strongest first.
    Naturals(&'static [(&'static str, i64)]),
    /// A royalty row: (category name, points); categories left out pay 0.
    Royalties(&'static [(&'static str, i64)]),
}

/// Where a knob goes in a solver tables file's metadata: the key it is
/// written under and its weight in the distance that picks the nearest
/// shipped tables for custom rules (per point of difference for numbers,
/// per royalty value for a royalty row, once when names differ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TablesKey {
    pub key: &'static str,
    pub weight: f64,
}

/// One row of the knob table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    /// The dotted name, as rules files, dicts and `rules["..."]` spell it.
    pub name: &'static str,
    pub kind: KnobType,
    pub default: KnobDefault,
    /// The sentence of the knob reference in `docs/rules.md`.
    pub doc: &'static str,
    /// Whether it changes how hands rank (and so what `compare` answers).
    pub ranking: bool,
    /// Its key and weight in the solver tables' metadata; `None` for the
    /// knobs the tables are not trained per.
    pub tables: Option<TablesKey>,
}

const fn int(min: i64) -> KnobType {
    KnobType::Int { min, max: INT_MAX }
}

const fn tables(key: &'static str, weight: f64) -> Option<TablesKey> {
    Some(TablesKey { key, weight })
}

/// The top row's three-card categories.
pub const TOP_CATEGORIES: [&str; 3] = ["high-card", "pair", "trips"];

/// Every knob, in the order a rules file writes them.
pub const KNOBS: &[Knob] = &[
    Knob {
        name: "name",
        kind: KnobType::Text,
        default: KnobDefault::Text("capsa-susun"),
        doc: "the variant's name",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "description",
        kind: KnobType::Text,
        default: KnobDefault::Absent,
        doc: "free text about the variant",
        ranking: false,
        tables: None,
    },
    Knob {
        name: TieBreak::KEY,
        kind: KnobType::Choice(TieBreak::NAMES),
        default: KnobDefault::Text("suit"),
        doc: "whether suits decide hands of equal ranks (\"Hand ranking\")",
        ranking: true,
        tables: tables("tie_break", 0.5),
    },
    Knob {
        name: "suit_order",
        kind: KnobType::SuitOrder,
        default: KnobDefault::Text("shcd"),
        doc: "suit strength, strongest first",
        ranking: true,
        tables: None,
    },
    Knob {
        name: FlushCompare::KEY,
        kind: KnobType::Choice(FlushCompare::NAMES),
        default: KnobDefault::Text("ranks"),
        doc: "how flushes compare",
        ranking: true,
        tables: tables("flush_compare", 1000.0),
    },
    Knob {
        name: Wheel::KEY,
        kind: KnobType::Choice(Wheel::NAMES),
        default: KnobDefault::Text("low"),
        doc: "where A-2-3-4-5 ranks",
        ranking: true,
        tables: tables("wheel", 1000.0),
    },
    Knob {
        name: FoulCheck::KEY,
        kind: KnobType::Choice(FoulCheck::NAMES),
        default: KnobDefault::Text("allow-equal"),
        doc: "whether equal rows are a foul (\"Arrangements and fouls\")",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "row_points",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "points for winning a row",
        ranking: false,
        tables: tables("row_points", 3.0),
    },
    Knob {
        name: "overall_point",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "points for winning more rows than the opponent",
        ranking: false,
        tables: tables("overall_point", 1.0),
    },
    Knob {
        name: RoyaltyMode::KEY,
        kind: KnobType::Choice(RoyaltyMode::NAMES),
        default: KnobDefault::Text("winner"),
        doc: "who collects royalties (\"Settlement\")",
        ranking: false,
        tables: tables("royalty_mode", 5.0),
    },
    Knob {
        name: "royalty_adds",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "royalty added to `row_points` (true) or in place of it when larger (false)",
        ranking: false,
        tables: tables("royalty_adds", 5.0),
    },
    Knob {
        name: "scoop.multiplier",
        kind: int(1),
        default: KnobDefault::Int(2),
        doc: "multiplier for winning all three rows against one opponent",
        ranking: false,
        tables: tables("scoop_multiplier", 3.0),
    },
    Knob {
        name: "scoop.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("scoop_bonus", 1.0),
    },
    Knob {
        name: "scoop.multiply_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a scoop's or sweep's multiplier also multiplies royalties",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "sweep_all.multiplier",
        kind: int(1),
        default: KnobDefault::Int(4),
        doc: "multiplier for winning all three rows against every opponent",
        ranking: false,
        tables: tables("sweep_all_multiplier", 3.0),
    },
    Knob {
        name: "sweep_all.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("sweep_all_bonus", 1.0),
    },
    Knob {
        name: "sweep_all.min_players",
        // one past the most seats (5): no table is large enough, a sweep-all never counts
        kind: KnobType::Int { min: 2, max: 5 },
        default: KnobDefault::Int(4),
        doc: "fewest players at the table for a sweep-all to count (5: never)",
        ranking: false,
        tables: tables("sweep_all_min_players", 1.0),
    },
    Knob {
        name: FoulMode::KEY,
        kind: KnobType::Choice(FoulMode::NAMES),
        default: KnobDefault::Text("sweep-all"),
        doc: "what a fouled hand pays",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "foul.points",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the amount of `\"fixed\"`",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "foul.pays_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "whether a fouled hand also pays the opponent's royalties",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "surrender.enabled",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a seat may surrender",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "surrender.cost",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "what a surrender pays each opponent",
        ranking: false,
        tables: None,
    },
    Knob {
        name: NaturalResolve::KEY,
        kind: KnobType::Choice(NaturalResolve::NAMES),
        default: KnobDefault::Text("higher-wins"),
        doc: "natural against natural",
        ranking: false,
        tables: None,
    },
    Knob {
        name: NaturalTies::KEY,
        kind: KnobType::Choice(NaturalTies::NAMES),
        default: KnobDefault::Text("push"),
        doc: "the same natural on both sides",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "naturals.enabled",
        kind: KnobType::Naturals,
        default: KnobDefault::Naturals(&[
            ("dragon", 208),
            ("three-flushes", 3),
            ("three-straights", 3),
            ("six-pairs", 3),
        ]),
        doc: "the naturals this variant pays, strongest first (names from the \"Naturals\" table)",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "royalties.top",
        kind: KnobType::Royalties(&TOP_CATEGORIES),
        default: KnobDefault::Royalties(&[("trips", 5)]),
        doc: "royalties of the top row",
        ranking: false,
        tables: tables("royalties", 0.25),
    },
    Knob {
        name: "royalties.middle",
        kind: KnobType::Royalties(&CATEGORY_NAMES),
        default: KnobDefault::Royalties(&[
            ("full-house", 3),
            ("quads", 14),
            ("straight-flush", 18),
            ("royal-flush", 22),
        ]),
        doc: "royalties of the middle row",
        ranking: false,
        tables: tables("royalties", 0.25),
    },
    Knob {
        name: "royalties.bottom",
        kind: KnobType::Royalties(&CATEGORY_NAMES),
        default: KnobDefault::Royalties(&[
            ("quads", 7),
            ("straight-flush", 9),
            ("royal-flush", 11),
        ]),
        doc: "royalties of the bottom row",
        ranking: false,
        tables: tables("royalties", 0.25),
    },
    Knob {
        name: "money.stake",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "minor units of money per point",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "money.rake_basis_points",
        kind: KnobType::Int {
            min: 0,
            max: 10_000,
        },
        default: KnobDefault::Int(300),
        doc: "the house's share of each winner's money, in hundredths of a percent (300: 3%)",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "money.rake_minimum_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "a winner whose money for the round is below this pays no rake",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "money.rake_cap_per_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most one winner pays in a round (0: no cap)",
        ranking: false,
        tables: None,
    },
    Knob {
        name: "money.rake_cap_per_round",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most the house takes from one round, all winners together (0: no cap)",
        ranking: false,
        tables: None,
    },
];

/// The knob of a dotted name.
pub fn knob(name: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.name == name)
}

impl Knob {
    /// Why `value` is out of this integer knob's range ("must be >= 0",
    /// "must be in 2..5"), or `None` when it is in range or the knob is not
    /// an integer.
    pub fn int_fault(&self, value: i128) -> Option<String> {
        let KnobType::Int { min, max } = self.kind else {
            return None;
        };
        let (min, max) = (min as i128, max as i128);
        if (min..=max).contains(&value) {
            return None;
        }
        Some(if value < min && max == INT_MAX as i128 {
            format!("must be >= {min}")
        } else {
            format!("must be in {min}..{max}")
        })
    }
}
