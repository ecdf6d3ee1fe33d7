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
    CapStage, FlushCompare, FoulCheck, FoulMode, NaturalOpponents, NaturalResolve, NaturalTies,
    RoyaltyMode, RuleChoice, TieBreak, Wheel,
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
    /// A table of category = a table of rank letter = points >= 0, with the
    /// categories it may name.
    RoyaltiesByRank(&'static [&'static str]),
    /// One card, as card text (`"Ah"`).
    Card,
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
    /// A ranked royalty row with no rank listed.
    NoRankedRoyalties,
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
    /// Whether rules data in full must give it. A knob that need not is
    /// read as its default when left out and left out of rules data at its
    /// default: the knobs added after rules data was first written, whose
    /// defaults settle as before, so that data written before them reads
    /// (and is written) as it was.
    pub required: bool,
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
        required: true,
    },
    Knob {
        name: "description",
        kind: KnobType::Text,
        default: KnobDefault::Absent,
        doc: "free text about the variant",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: TieBreak::KEY,
        kind: KnobType::Choice(TieBreak::NAMES),
        default: KnobDefault::Text("suit"),
        doc: "whether suits decide hands of equal ranks (\"Hand ranking\")",
        ranking: true,
        tables: tables("tie_break", 0.5),
        required: true,
    },
    Knob {
        name: "suit_order",
        kind: KnobType::SuitOrder,
        default: KnobDefault::Text("shcd"),
        doc: "suit strength, strongest first",
        ranking: true,
        tables: None,
        required: true,
    },
    Knob {
        name: FlushCompare::KEY,
        kind: KnobType::Choice(FlushCompare::NAMES),
        default: KnobDefault::Text("ranks"),
        doc: "how flushes compare",
        ranking: true,
        tables: tables("flush_compare", 1000.0),
        required: true,
    },
    Knob {
        name: Wheel::KEY,
        kind: KnobType::Choice(Wheel::NAMES),
        default: KnobDefault::Text("low"),
        doc: "where A-2-3-4-5 ranks",
        ranking: true,
        tables: tables("wheel", 1000.0),
        required: true,
    },
    Knob {
        name: FoulCheck::KEY,
        kind: KnobType::Choice(FoulCheck::NAMES),
        default: KnobDefault::Text("allow-equal"),
        doc: "whether equal rows are a foul (\"Arrangements and fouls\")",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "row_points",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "points for winning a row",
        ranking: false,
        tables: tables("row_points", 3.0),
        required: true,
    },
    Knob {
        name: "overall_point",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "points for winning more rows than the opponent",
        ranking: false,
        tables: tables("overall_point", 1.0),
        required: true,
    },
    Knob {
        name: RoyaltyMode::KEY,
        kind: KnobType::Choice(RoyaltyMode::NAMES),
        default: KnobDefault::Text("winner"),
        doc: "who collects royalties (\"Settlement\")",
        ranking: false,
        tables: tables("royalty_mode", 5.0),
        required: true,
    },
    Knob {
        name: "royalty_adds",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "royalty added to `row_points` (true) or in place of it when larger (false)",
        ranking: false,
        tables: tables("royalty_adds", 5.0),
        required: true,
    },
    Knob {
        name: "scoop.multiplier",
        kind: int(1),
        default: KnobDefault::Int(2),
        doc: "multiplier for winning all three rows against one opponent",
        ranking: false,
        tables: tables("scoop_multiplier", 3.0),
        required: true,
    },
    Knob {
        name: "scoop.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("scoop_bonus", 1.0),
        required: true,
    },
    Knob {
        name: "scoop.multiply_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a scoop's or sweep's multiplier also multiplies royalties",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "scoop.by_seats",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a scoop's multiplier is the number of players (`scoop.multiplier` unused)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "sweep_all.multiplier",
        kind: int(1),
        default: KnobDefault::Int(4),
        doc: "multiplier for winning all three rows against every opponent",
        ranking: false,
        tables: tables("sweep_all_multiplier", 3.0),
        required: true,
    },
    Knob {
        name: "sweep_all.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("sweep_all_bonus", 1.0),
        required: true,
    },
    Knob {
        name: "sweep_all.min_players",
        // one past the most seats (5): no table is large enough, a sweep-all never counts
        kind: KnobType::Int { min: 2, max: 5 },
        default: KnobDefault::Int(4),
        doc: "fewest players at the table for a sweep-all to count (5: never)",
        ranking: false,
        tables: tables("sweep_all_min_players", 1.0),
        required: true,
    },
    Knob {
        name: NaturalOpponents::KEY,
        kind: KnobType::Choice(NaturalOpponents::NAMES),
        default: KnobDefault::Text("block"),
        doc: "whether an opponent with a declared natural prevents a sweep-all (`\"block\"`) or is left out of the test (`\"exempt\"`)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: FoulMode::KEY,
        kind: KnobType::Choice(FoulMode::NAMES),
        default: KnobDefault::Text("sweep-all"),
        doc: "what a fouled hand pays; `\"none\"`: no arrangement fouls; `\"refuse\"`: a fouled arrangement is refused (\"Fouls\")",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "foul.points",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the amount of `\"fixed\"`",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "foul.pays_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "whether a fouled hand also pays the opponent's royalties",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "surrender.enabled",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a seat may surrender",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "surrender.cost",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "what a surrender pays each opponent",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: NaturalResolve::KEY,
        kind: KnobType::Choice(NaturalResolve::NAMES),
        default: KnobDefault::Text("higher-wins"),
        doc: "natural against natural",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: NaturalTies::KEY,
        kind: KnobType::Choice(NaturalTies::NAMES),
        default: KnobDefault::Text("push"),
        doc: "the same natural on both sides",
        ranking: false,
        tables: None,
        required: true,
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
        doc: "the naturals this variant pays, strongest first (names from the \"Naturals\" table), each with its points and the optional fields of \"Naturals\"",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "royalties.top",
        kind: KnobType::Royalties(&TOP_CATEGORIES),
        default: KnobDefault::Royalties(&[("trips", 5)]),
        doc: "royalties of the top row",
        ranking: false,
        tables: tables("royalties", 0.25),
        required: true,
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
        required: true,
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
        required: true,
    },
    Knob {
        name: "royalties.top_by_rank",
        kind: KnobType::RoyaltiesByRank(&TOP_CATEGORIES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the top row by the hand's key rank, in place of `royalties.top` where listed",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "royalties.middle_by_rank",
        kind: KnobType::RoyaltiesByRank(&CATEGORY_NAMES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the middle row by the hand's key rank, in place of `royalties.middle` where listed",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "royalties.bottom_by_rank",
        kind: KnobType::RoyaltiesByRank(&CATEGORY_NAMES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the bottom row by the hand's key rank, in place of `royalties.bottom` where listed",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "horse.card",
        kind: KnobType::Card,
        default: KnobDefault::Absent,
        doc: "the horse card (马牌)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "horse.multiplier",
        kind: int(1),
        default: KnobDefault::Int(2),
        doc: "what a pair's points are multiplied by when exactly one of the two holds the horse card",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "horse.naturals",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "whether the horse card also multiplies a pair settled by naturals",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "cap.pair",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most a pair settles for, either way (0: no cap)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "cap.scoop",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the cap of a pair with a scoop (0: `cap.pair`)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "cap.sweep_all",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the cap of a pair with a sweep-all (0: `cap.scoop`)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: CapStage::KEY,
        kind: KnobType::Choice(CapStage::NAMES),
        default: KnobDefault::Text("pair"),
        doc: "whether the cap applies before the horse card and the player's multiplier (`\"pair\"`) or after both (`\"final\"`)",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "banker.enabled",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether one seat is the banker and every other seat settles against it only",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "banker.wins_ties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a tied row counts as won by the banker",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "banker.max_multiplier",
        kind: KnobType::Int { min: 1, max: 100 },
        default: KnobDefault::Int(1),
        doc: "the largest stake multiplier a player may choose",
        ranking: false,
        tables: None,
        required: false,
    },
    Knob {
        name: "money.stake",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "minor units of money per point",
        ranking: false,
        tables: None,
        required: true,
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
        required: true,
    },
    Knob {
        name: "money.rake_minimum_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "a winner whose money for the round is below this pays no rake",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "money.rake_cap_per_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most one winner pays in a round (0: no cap)",
        ranking: false,
        tables: None,
        required: true,
    },
    Knob {
        name: "money.rake_cap_per_round",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most the house takes from one round, all winners together (0: no cap)",
        ranking: false,
        tables: None,
        required: true,
    },
];

/// The rank index (0: the deuce .. 12: the ace) of a rank letter of rules
/// data: `2`..`9`, `T` (or `10`), `J`, `Q`, `K`, `A`, either case.
pub fn rank_of_letter(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [b'1', b'0'] => Some(8),
        [b] => crate::cards::RANK_CHARS
            .iter()
            .position(|c| *c == b.to_ascii_uppercase())
            .map(|r| r as u8),
        _ => None,
    }
}

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
