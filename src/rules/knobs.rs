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
    AddedSuits, CapStage, FlushCompare, FoulCheck, FoulMode, NaturalOpponents, NaturalResolve,
    NaturalTies, RoyaltyMode, RuleChoice, TieBreak, Wheel,
};
use super::fields::{
    AsAddedSuits, AsCard, AsChoice, AsCount, AsFlag, AsFlagChoice, AsInt, AsNaturals, AsRanked,
    AsRoyalties, AsSuitOrder, AsText, Codec,
};
use super::{KnobValue, Rules};
use crate::error::Result;
use crate::rank::DECK52_CATEGORIES;
use crate::rows::{BOTTOM, MIDDLE, TOP};
use crate::table::{MAX_TABLE_SEATS, MIN_SEATS};

use super::knob_row::{int, tables};
pub use super::knob_row::{Knob, KnobDefault, KnobType, TablesKey, INT_MAX};

/// Declares the knob table, [`KNOBS`], from one declaration per knob: its
/// row and its field of [`Rules`] (a codec of [`super::fields`] and the
/// place of the field in rules `r`), from which the field access of
/// [`Rules::set_knob`] and [`Rules::knob`] follows.
macro_rules! knob_table {
    (
        $(#[$meta:meta])*
        $({
            name: $name:expr,
            kind: $kind:expr,
            default: $default:expr,
            doc: $doc:expr,
            ranking: $ranking:expr,
            tables: $tables:expr,
            field: $codec:ty [$r:ident => $place:expr],
            required: $required:expr,
        },)*
    ) => {
        $(#[$meta])*
        pub const KNOBS: &[Knob] = &[$(
            Knob {
                name: $name,
                kind: $kind,
                default: $default,
                doc: $doc,
                ranking: $ranking,
                tables: $tables,
                required: $required,
            },
        )*];

        impl Rules {
            /// Sets the field of the knob `name` from `value`; `Ok(false)`
            /// for a name that is not a knob.
            #[allow(unused_variables)]
            pub(super) fn set_field(&mut self, name: &str, value: KnobValue) -> Result<bool> {
                $(if name == $name {
                    let $r = &mut *self;
                    <$codec as Codec<_>>::set(name, &mut $place, value)?;
                    return Ok(true);
                })*
                Ok(false)
            }

            /// The field of the knob `name` as a value; `None` for a name
            /// that is not a knob.
            #[allow(unused_variables)]
            pub(super) fn field(&self, name: &str) -> Option<Option<KnobValue>> {
                $(if name == $name {
                    let $r = self;
                    return Some(<$codec as Codec<_>>::get(&$place));
                })*
                None
            }
        }
    };
}

/// The top row's three-card categories.
pub const TOP_CATEGORIES: [&str; 3] = ["high-card", "pair", "trips"];

knob_table! {
    /// Every knob, in the order a rules file writes them.
    {
        name: "name",
        kind: KnobType::Text,
        default: KnobDefault::Text("capsa-susun"),
        doc: "the variant's name",
        ranking: false,
        tables: None,
        field: AsText [r => ()],
        required: true,
    },
    {
        name: "description",
        kind: KnobType::Text,
        default: KnobDefault::Absent,
        doc: "free text about the variant",
        ranking: false,
        tables: None,
        field: AsText [r => ()],
        required: false,
    },
    {
        name: TieBreak::KEY,
        kind: KnobType::Choice(TieBreak::NAMES),
        default: KnobDefault::Text("suit"),
        doc: "whether suits decide hands of equal ranks (\"Hand ranking\")",
        ranking: true,
        tables: tables("tie_break", 0.5),
        field: AsFlagChoice<TieBreak> [r => r.evaluator.ranking.tie_break_suit],
        required: true,
    },
    {
        name: "suit_order",
        kind: KnobType::SuitOrder,
        default: KnobDefault::Text("shcd"),
        doc: "suit strength, strongest first",
        ranking: true,
        tables: None,
        field: AsSuitOrder [r => r.evaluator.ranking.suit_strength],
        required: true,
    },
    {
        name: FlushCompare::KEY,
        kind: KnobType::Choice(FlushCompare::NAMES),
        default: KnobDefault::Text("ranks"),
        doc: "how flushes compare",
        ranking: true,
        tables: tables("flush_compare", 1000.0),
        field: AsFlagChoice<FlushCompare> [r => r.evaluator.ranking.flush_suit_first],
        required: true,
    },
    {
        name: Wheel::KEY,
        kind: KnobType::Choice(Wheel::NAMES),
        default: KnobDefault::Text("low"),
        doc: "where A-2-3-4-5 ranks",
        ranking: true,
        tables: tables("wheel", 1000.0),
        field: AsFlagChoice<Wheel> [r => r.evaluator.ranking.wheel_second],
        required: true,
    },
    {
        name: AddedSuits::KEY,
        kind: KnobType::Choice(AddedSuits::NAMES),
        default: KnobDefault::Text("none"),
        doc: "suits whose 13 cards enter the deck a second time (\"Decks: added suits, two decks and jokers\")",
        ranking: false,
        tables: None,
        field: AsAddedSuits [r => r.deck.added_suits],
        required: false,
    },
    {
        name: "deck.decks",
        kind: KnobType::Int { min: 1, max: 2 },
        default: KnobDefault::Int(1),
        doc: "how many 52-card decks are shuffled together",
        ranking: false,
        tables: None,
        field: AsInt [r => r.deck.decks],
        required: false,
    },
    {
        name: "deck.jokers",
        kind: KnobType::Int { min: 0, max: 2 },
        default: KnobDefault::Int(0),
        doc: "how many wild jokers the deck holds (one: the black joker)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.deck.jokers],
        required: false,
    },
    {
        name: FoulCheck::KEY,
        kind: KnobType::Choice(FoulCheck::NAMES),
        default: KnobDefault::Text("allow-equal"),
        doc: "whether equal rows are a foul (\"Arrangements and fouls\")",
        ranking: false,
        tables: None,
        field: AsFlagChoice<FoulCheck> [r => r.foul_strict],
        required: true,
    },
    {
        name: "row_points",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "points for winning a row",
        ranking: false,
        tables: tables("row_points", 3.0),
        field: AsInt [r => r.row_points],
        required: true,
    },
    {
        name: "overall_point",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "points for winning more rows than the opponent",
        ranking: false,
        tables: tables("overall_point", 1.0),
        field: AsInt [r => r.overall_point],
        required: true,
    },
    {
        name: RoyaltyMode::KEY,
        kind: KnobType::Choice(RoyaltyMode::NAMES),
        default: KnobDefault::Text("winner"),
        doc: "who collects royalties (\"Settlement\")",
        ranking: false,
        tables: tables("royalty_mode", 5.0),
        field: AsChoice [r => r.royalty_mode],
        required: true,
    },
    {
        name: "royalty_adds",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "royalty added to `row_points` (true) or in place of it when larger (false)",
        ranking: false,
        tables: tables("royalty_adds", 5.0),
        field: AsFlag [r => r.royalty_adds],
        required: true,
    },
    {
        name: "scoop.multiplier",
        kind: int(1),
        default: KnobDefault::Int(2),
        doc: "multiplier for winning all three rows against one opponent",
        ranking: false,
        tables: tables("scoop_multiplier", 3.0),
        field: AsInt [r => r.scoop_multiplier],
        required: true,
    },
    {
        name: "scoop.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("scoop_bonus", 1.0),
        field: AsInt [r => r.scoop_bonus],
        required: true,
    },
    {
        name: "scoop.multiply_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a scoop's or sweep's multiplier also multiplies royalties",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.scoop_multiply_royalties],
        required: true,
    },
    {
        name: "scoop.by_seats",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a scoop's multiplier is the number of players (`scoop.multiplier` unused)",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.scoop_by_seats],
        required: false,
    },
    {
        name: "sweep_all.multiplier",
        kind: int(1),
        default: KnobDefault::Int(4),
        doc: "multiplier for winning all three rows against every opponent",
        ranking: false,
        tables: tables("sweep_all_multiplier", 3.0),
        field: AsInt [r => r.sweep_all_multiplier],
        required: true,
    },
    {
        name: "sweep_all.bonus",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "bonus added for it",
        ranking: false,
        tables: tables("sweep_all_bonus", 1.0),
        field: AsInt [r => r.sweep_all_bonus],
        required: true,
    },
    {
        name: "sweep_all.min_players",
        // one past the most seats of any deck: no table is large enough
        kind: KnobType::Int { min: MIN_SEATS as i64, max: MAX_TABLE_SEATS as i64 + 1 },
        default: KnobDefault::Int(4),
        doc: "fewest players at the table for a sweep-all to count (more than the table seats: never; 5 with the 52-card deck)",
        ranking: false,
        tables: tables("sweep_all_min_players", 1.0),
        field: AsCount [r => r.sweep_all_min_players],
        required: true,
    },
    {
        name: NaturalOpponents::KEY,
        kind: KnobType::Choice(NaturalOpponents::NAMES),
        default: KnobDefault::Text("block"),
        doc: "whether an opponent with a declared natural prevents a sweep-all (`\"block\"`) or is left out of the test (`\"exempt\"`)",
        ranking: false,
        tables: None,
        field: AsChoice [r => r.sweep_all_natural_opponents],
        required: false,
    },
    {
        name: FoulMode::KEY,
        kind: KnobType::Choice(FoulMode::NAMES),
        default: KnobDefault::Text("sweep-all"),
        doc: "what a fouled hand pays; `\"none\"`: no arrangement fouls; `\"refuse\"`: a fouled arrangement is refused (\"Fouls\")",
        ranking: false,
        tables: None,
        field: AsChoice [r => r.foul_mode],
        required: true,
    },
    {
        name: "foul.points",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the amount of `\"fixed\"`",
        ranking: false,
        tables: None,
        field: AsInt [r => r.foul_points],
        required: true,
    },
    {
        name: "foul.pays_royalties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "whether a fouled hand also pays the opponent's royalties",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.foul_pays_royalties],
        required: true,
    },
    {
        name: "surrender.enabled",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a seat may surrender",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.surrender_enabled],
        required: true,
    },
    {
        name: "surrender.cost",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "what a surrender pays each opponent",
        ranking: false,
        tables: None,
        field: AsInt [r => r.surrender_cost],
        required: true,
    },
    {
        name: NaturalResolve::KEY,
        kind: KnobType::Choice(NaturalResolve::NAMES),
        default: KnobDefault::Text("higher-wins"),
        doc: "natural against natural",
        ranking: false,
        tables: None,
        field: AsChoice [r => r.natural_resolve],
        required: true,
    },
    {
        name: NaturalTies::KEY,
        kind: KnobType::Choice(NaturalTies::NAMES),
        default: KnobDefault::Text("push"),
        doc: "the same natural on both sides",
        ranking: false,
        tables: None,
        field: AsChoice [r => r.natural_ties],
        required: true,
    },
    {
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
        field: AsNaturals [r => r.naturals],
        required: true,
    },
    {
        name: "royalties.top",
        kind: KnobType::Royalties(&TOP_CATEGORIES),
        default: KnobDefault::Royalties(&[("trips", 5)]),
        doc: "royalties of the top row",
        ranking: false,
        tables: tables("royalties", 0.25),
        field: AsRoyalties [r => r.royalties[TOP]],
        required: true,
    },
    {
        name: "royalties.middle",
        kind: KnobType::Royalties(DECK52_CATEGORIES),
        default: KnobDefault::Royalties(&[
            ("full-house", 3),
            ("quads", 14),
            ("straight-flush", 18),
            ("royal-flush", 22),
        ]),
        doc: "royalties of the middle row",
        ranking: false,
        tables: tables("royalties", 0.25),
        field: AsRoyalties [r => r.royalties[MIDDLE]],
        required: true,
    },
    {
        name: "royalties.bottom",
        kind: KnobType::Royalties(DECK52_CATEGORIES),
        default: KnobDefault::Royalties(&[
            ("quads", 7),
            ("straight-flush", 9),
            ("royal-flush", 11),
        ]),
        doc: "royalties of the bottom row",
        ranking: false,
        tables: tables("royalties", 0.25),
        field: AsRoyalties [r => r.royalties[BOTTOM]],
        required: true,
    },
    {
        name: "royalties.top_by_rank",
        kind: KnobType::RoyaltiesByRank(&TOP_CATEGORIES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the top row by the hand's key rank, in place of `royalties.top` where listed",
        ranking: false,
        tables: None,
        field: AsRanked [r => r.royalties_by_rank[TOP]],
        required: false,
    },
    {
        name: "royalties.middle_by_rank",
        kind: KnobType::RoyaltiesByRank(DECK52_CATEGORIES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the middle row by the hand's key rank, in place of `royalties.middle` where listed",
        ranking: false,
        tables: None,
        field: AsRanked [r => r.royalties_by_rank[MIDDLE]],
        required: false,
    },
    {
        name: "royalties.bottom_by_rank",
        kind: KnobType::RoyaltiesByRank(DECK52_CATEGORIES),
        default: KnobDefault::NoRankedRoyalties,
        doc: "royalties of the bottom row by the hand's key rank, in place of `royalties.bottom` where listed",
        ranking: false,
        tables: None,
        field: AsRanked [r => r.royalties_by_rank[BOTTOM]],
        required: false,
    },
    {
        name: "horse.card",
        kind: KnobType::Card,
        default: KnobDefault::Absent,
        doc: "the horse card (马牌)",
        ranking: false,
        tables: None,
        field: AsCard [r => r.horse_card],
        required: false,
    },
    {
        name: "horse.multiplier",
        kind: int(1),
        default: KnobDefault::Int(2),
        doc: "what a pair's points are multiplied by when exactly one of the two holds the horse card",
        ranking: false,
        tables: None,
        field: AsInt [r => r.horse_multiplier],
        required: false,
    },
    {
        name: "horse.naturals",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(true),
        doc: "whether the horse card also multiplies a pair settled by naturals",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.horse_naturals],
        required: false,
    },
    {
        name: "cap.pair",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most a pair settles for, either way (0: no cap)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.cap_pair],
        required: false,
    },
    {
        name: "cap.scoop",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the cap of a pair with a scoop (0: `cap.pair`)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.cap_scoop],
        required: false,
    },
    {
        name: "cap.sweep_all",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the cap of a pair with a sweep-all (0: `cap.scoop`)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.cap_sweep_all],
        required: false,
    },
    {
        name: CapStage::KEY,
        kind: KnobType::Choice(CapStage::NAMES),
        default: KnobDefault::Text("pair"),
        doc: "whether the cap applies before the horse card and the player's multiplier (`\"pair\"`) or after both (`\"final\"`)",
        ranking: false,
        tables: None,
        field: AsChoice [r => r.cap_stage],
        required: false,
    },
    {
        name: "banker.enabled",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether one seat is the banker and every other seat settles against it only",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.banker_enabled],
        required: false,
    },
    {
        name: "banker.wins_ties",
        kind: KnobType::Flag,
        default: KnobDefault::Flag(false),
        doc: "whether a tied row counts as won by the banker",
        ranking: false,
        tables: None,
        field: AsFlag [r => r.banker_wins_ties],
        required: false,
    },
    {
        name: "banker.max_multiplier",
        kind: KnobType::Int { min: 1, max: 100 },
        default: KnobDefault::Int(1),
        doc: "the largest stake multiplier a player may choose",
        ranking: false,
        tables: None,
        field: AsInt [r => r.banker_max_multiplier],
        required: false,
    },
    {
        name: "money.stake",
        kind: int(0),
        default: KnobDefault::Int(1),
        doc: "minor units of money per point",
        ranking: false,
        tables: None,
        field: AsInt [r => r.stake],
        required: true,
    },
    {
        name: "money.rake_basis_points",
        kind: KnobType::Int {
            min: 0,
            max: 10_000,
        },
        default: KnobDefault::Int(300),
        doc: "the house's share of each winner's money, in hundredths of a percent (300: 3%)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.rake.basis_points],
        required: true,
    },
    {
        name: "money.rake_minimum_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "a winner whose money for the round is below this pays no rake",
        ranking: false,
        tables: None,
        field: AsInt [r => r.rake.minimum_pot],
        required: true,
    },
    {
        name: "money.rake_cap_per_pot",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most one winner pays in a round (0: no cap)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.rake.cap_per_pot],
        required: true,
    },
    {
        name: "money.rake_cap_per_round",
        kind: int(0),
        default: KnobDefault::Int(0),
        doc: "the most the house takes from one round, all winners together (0: no cap)",
        ranking: false,
        tables: None,
        field: AsInt [r => r.rake.cap_per_round],
        required: true,
    },
}

/// The knob of a dotted name.
pub fn knob(name: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.name == name)
}
