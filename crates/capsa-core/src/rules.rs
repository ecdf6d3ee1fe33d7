//! The rules the engine plays by, as plain data. Every knob is a row of the
//! knob table ([`knobs::KNOBS`]); [`Rules::set_knob`] and [`Rules::knob`]
//! are the one place a knob meets its field. The Python layer loads rules
//! files (TOML), checks them against the table and hands the engine the
//! knobs.

mod choices;
mod fields;
mod knob_row;
pub mod knobs;
mod natural_entry;
mod tree;

pub use choices::{
    AddedSuits, CapStage, FlagChoice, FlushCompare, FoulCheck, FoulMode, NaturalOpponents,
    NaturalResolve, NaturalTies, RaisedBy, RoyaltyMode, RuleChoice, TieBreak, Wheel,
};
pub use natural_entry::{check_naturals, NaturalEntry, EIGHT};
pub use tree::rules_from_tree;

use crate::deck::Deck;
use crate::error::{Error, Result};
use crate::natural_kind::Natural;
use crate::rank::{category_index, Evaluator, Ranking, CATEGORY_NAMES};
use knobs::{Knob, KnobDefault, KnobType, KNOBS};

/// Every named-choice knob of a rules file with its valid names, in the
/// order of the knob table.
pub fn rule_choices() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    KNOBS.iter().filter_map(|k| match k.kind {
        KnobType::Choice(names) => Some((k.name, names)),
        _ => None,
    })
}

/// A royalty row's points: each >= 0, and nonzero only for the categories
/// the row may name (the knob's own checks).
fn check_royalty_row(knob: &Knob, row: &[i64; 10]) -> Result<()> {
    for (cat, &v) in row.iter().enumerate() {
        let category = CATEGORY_NAMES[cat];
        check_points(knob, category, None, v)?;
        if v != 0 {
            check_category(knob, category)?;
        }
    }
    Ok(())
}

/// A ranked royalty row's points: each >= 0, and only for the categories
/// the row may name.
fn check_ranked_row(knob: &Knob, row: &RankedRow) -> Result<()> {
    for (cat, ranks) in row.iter().enumerate() {
        let category = CATEGORY_NAMES[cat];
        for (rank, v) in ranks.iter().enumerate() {
            let Some(v) = *v else { continue };
            let letter = crate::cards::RANK_CHARS[rank] as char;
            check_points(knob, category, Some(letter), v)?;
            check_category(knob, category)?;
        }
    }
    Ok(())
}

fn check_points(knob: &Knob, category: &str, rank: Option<char>, v: i64) -> Result<()> {
    let Some(fault) = knob.int_fault(v.into()) else {
        return Ok(());
    };
    let rank = rank.map(|r| format!(".{r}")).unwrap_or_default();
    Err(Error::rules(format!(
        "{}.{category}{rank} {fault}, got {v}",
        knob.name
    )))
}

fn check_category(knob: &Knob, category: &str) -> Result<()> {
    match knob.category_fault(category) {
        Some(fault) => Err(Error::rules(format!("{}: '{category}' {fault}", knob.name))),
        None => Ok(()),
    }
}

pub use crate::rows::{BOTTOM, MIDDLE, TOP};

#[derive(Clone, Debug)]
pub struct Rules {
    pub evaluator: Evaluator,
    /// The deck the rules deal: its cards are the ones hands may hold.
    pub deck: Deck,
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
    /// `scoop.by_seats`: a scoop's multiplier is the number of players.
    pub scoop_by_seats: bool,
    pub sweep_all_natural_opponents: NaturalOpponents,
    /// The horse card's id, if the variant has one.
    pub horse_card: Option<u8>,
    pub horse_multiplier: i64,
    pub horse_naturals: bool,
    pub cap_pair: i64,
    pub cap_scoop: i64,
    pub cap_sweep_all: i64,
    pub cap_stage: CapStage,
    pub banker_enabled: bool,
    pub banker_wins_ties: bool,
    pub banker_max_multiplier: i64,
    /// Enabled naturals, strongest first, with their points and parameters.
    pub naturals: Vec<NaturalEntry>,
    pub natural_resolve: NaturalResolve,
    pub natural_ties: NaturalTies,
    /// Royalty points per row (top, middle, bottom) and category index.
    pub royalties: [[i64; 10]; 3],
    /// Royalty points of five of a kind in the middle and the bottom row
    /// (docs/rules.md, "Tables of larger decks").
    pub five_of_a_kind_royalties: [i64; 2],
    /// The royalty of a top row holding both jokers, which wins its row
    /// against every top without them (对鬼冲前; 0: no such rule, the top is
    /// ranked as its hand; docs/rules.md, "Tables of larger decks").
    pub top_two_jokers: i64,
    /// Royalty points per row, category index and key rank index (0: the
    /// deuce), where listed; in place of `royalties` there.
    pub royalties_by_rank: [[[Option<i64>; 13]; 10]; 3],
    /// Per row, a bit per category index with a rank listed in
    /// `royalties_by_rank`: what [`Rules::royalty`] reads to skip the key
    /// rank of every other hand. `set_knob` keeps it; after changing
    /// `royalties_by_rank` in place, call [`Rules::index_ranked_royalties`].
    pub ranked_categories: [u16; 3],
    pub stake: i64,
    /// The rake (docs/rules.md, "Money, rake and exactness").
    pub rake: Rake,
}

/// How the house rakes a round: a rate in basis points of each winner's
/// money, a minimum pot below which a winner pays nothing, and caps per
/// pot (one winner) and per round (0: no cap).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rake {
    pub basis_points: i64,
    pub minimum_pot: i64,
    pub cap_per_pot: i64,
    pub cap_per_round: i64,
}

/// The value of one knob, as [`Rules::set_knob`] takes it and
/// [`Rules::knob`] gives it. A named choice and the suit order are text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnobValue {
    Text(String),
    Flag(bool),
    Int(i64),
    /// `naturals.enabled`: strongest first, with their points and
    /// parameters.
    Naturals(Vec<NaturalEntry>),
    /// A royalty row: points by category index.
    Royalties([i64; 10]),
    /// A ranked royalty row: points by category index and rank index,
    /// where listed.
    RoyaltiesByRank(Box<RankedRow>),
}

/// A ranked royalty row: points by category index and key rank index.
pub type RankedRow = [[Option<i64>; 13]; 10];

impl KnobDefault {
    /// The default as a value; `None` for an optional knob left out.
    pub fn value(&self) -> Option<KnobValue> {
        Some(match *self {
            KnobDefault::Absent => return None,
            KnobDefault::Text(t) => KnobValue::Text(t.to_string()),
            KnobDefault::Flag(b) => KnobValue::Flag(b),
            KnobDefault::Int(v) => KnobValue::Int(v),
            KnobDefault::Naturals(list) => KnobValue::Naturals(
                list.iter()
                    .map(|&(n, p)| {
                        NaturalEntry::new(Natural::from_name(n).expect("a natural's name"), p)
                    })
                    .collect(),
            ),
            KnobDefault::Royalties(row) => {
                let mut points = [0i64; 10];
                for &(cat, p) in row {
                    points[category_index(cat).expect("a category's name") as usize] = p;
                }
                KnobValue::Royalties(points)
            }
            KnobDefault::NoRankedRoyalties => {
                KnobValue::RoyaltiesByRank(Box::new([[None; 13]; 10]))
            }
        })
    }
}

impl Default for Rules {
    /// The `capsa-susun` preset: every knob at the table's default.
    fn default() -> Self {
        // placeholders only: the loop below sets every field from the table
        let mut rules = Rules {
            evaluator: Evaluator::new(Ranking::default()),
            deck: Deck::default(),
            foul_strict: false,
            row_points: 0,
            overall_point: 0,
            royalty_mode: RoyaltyMode::Winner,
            royalty_adds: false,
            scoop_multiplier: 0,
            scoop_bonus: 0,
            scoop_multiply_royalties: false,
            sweep_all_multiplier: 0,
            sweep_all_bonus: 0,
            sweep_all_min_players: 0,
            scoop_by_seats: false,
            sweep_all_natural_opponents: NaturalOpponents::Block,
            horse_card: None,
            horse_multiplier: 0,
            horse_naturals: false,
            cap_pair: 0,
            cap_scoop: 0,
            cap_sweep_all: 0,
            cap_stage: CapStage::Pair,
            banker_enabled: false,
            banker_wins_ties: false,
            banker_max_multiplier: 0,
            foul_mode: FoulMode::SweepAll,
            foul_points: 0,
            foul_pays_royalties: false,
            surrender_enabled: false,
            surrender_cost: 0,
            naturals: Vec::new(),
            natural_resolve: NaturalResolve::HigherWins,
            natural_ties: NaturalTies::Push,
            royalties: [[0; 10]; 3],
            five_of_a_kind_royalties: [0; 2],
            top_two_jokers: 0,
            royalties_by_rank: [[[None; 13]; 10]; 3],
            ranked_categories: [0; 3],
            stake: 0,
            rake: Rake::default(),
        };
        for k in KNOBS {
            if let Some(value) = k.default.value() {
                rules
                    .set_knob(k.name, value)
                    .expect("the knob table's defaults are valid");
            }
        }
        rules
    }
}

impl Rules {
    /// Sets the knob of a dotted name (a row of [`KNOBS`]) to `value`:
    /// the one place a knob's name meets its field. Text knobs the engine
    /// does not play by (`name`, `description`) are checked
    /// ([`crate::texts::check_rules_text`]) and dropped.
    ///
    /// Errors: an unknown knob, a value of the wrong kind, an integer out of
    /// the table's range, a name that is not one of a choice's.
    pub fn set_knob(&mut self, name: &str, value: KnobValue) -> Result<()> {
        let Some(knob) = knobs::knob(name) else {
            return Err(Error::rules(format!("unknown knob {name:?}")));
        };
        if let KnobValue::Int(v) = &value {
            if let Some(fault) = knob.int_fault(*v as i128) {
                return Err(Error::rules(format!("{name} {fault}, got {v}")));
            }
        }
        let ranking = self.evaluator.ranking;
        self.set_field(name, value)?;
        // The evaluator's tables depend on the ranking: a ranking knob
        // builds a new evaluator rather than keep tables of the old one.
        if self.evaluator.ranking != ranking {
            self.evaluator = Evaluator::new(self.evaluator.ranking);
        }
        if matches!(knob.kind, KnobType::RoyaltiesByRank(_)) {
            self.index_ranked_royalties();
        }
        Ok(())
    }

    /// The value of the knob of a dotted name, as [`set_knob`](Self::set_knob)
    /// takes it; `None` for an unknown knob, for the text knobs the engine
    /// does not keep (`name`, `description`) and for an optional knob left
    /// out (`horse.card`).
    pub fn knob(&self, name: &str) -> Option<KnobValue> {
        self.field(name).flatten()
    }

    /// Checks every knob against the knob table's ranges (the Python layer
    /// checks its input against the same table first, naming the value it
    /// was given; this guards direct users of the core).
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
        for k in KNOBS {
            match (k.kind, self.knob(k.name)) {
                (KnobType::Int { .. }, Some(KnobValue::Int(v))) => {
                    if let Some(fault) = k.int_fault(v as i128) {
                        return Err(Error::rules(format!("{} {fault}, got {v}", k.name)));
                    }
                }
                (KnobType::Royalties(_), Some(KnobValue::Royalties(row))) => {
                    check_royalty_row(k, &row)?;
                }
                (KnobType::RoyaltiesByRank(_), Some(KnobValue::RoyaltiesByRank(row))) => {
                    check_ranked_row(k, &row)?;
                }
                _ => {}
            }
        }
        if self.horse_card.is_some_and(|c| c >= 52) {
            return Err(Error::rules(format!(
                "horse.card must be a card id 0..51, got {:?}",
                self.horse_card
            )));
        }
        natural_entry::check_naturals(&self.naturals)?;
        self.deck.validate()
    }

    /// Rebuilds [`ranked_categories`](Self::ranked_categories) from
    /// `royalties_by_rank`.
    pub fn index_ranked_royalties(&mut self) {
        for (row, ranked) in self.royalties_by_rank.iter().enumerate() {
            self.ranked_categories[row] = ranked
                .iter()
                .enumerate()
                .filter(|(_, ranks)| ranks.iter().any(Option::is_some))
                .fold(0, |bits, (cat, _)| bits | 1 << cat);
        }
    }

    /// Whether an arrangement of rows of these strengths fouls: rows out of
    /// order under `foul_check`, except under `foul.mode = "none"`, where no
    /// arrangement fouls.
    #[inline(always)]
    pub fn fouls(&self, top: u32, middle: u32, bottom: u32) -> bool {
        self.foul_mode != FoulMode::NoFoul
            && !crate::splits::is_valid(top, middle, bottom, self.foul_strict)
    }

    /// Whether a top row of these three cards holds both jokers under a
    /// rule that lets such a top win its row (`top_two_jokers` above 0).
    #[inline(always)]
    pub fn two_jokers_on_top(&self, top: &[u8]) -> bool {
        self.top_two_jokers > 0
            && top.contains(&crate::cards::BLACK_JOKER)
            && top.contains(&crate::cards::RED_JOKER)
    }

    /// Royalty of a hand of the given strength in a row: the ranked value
    /// when its category and key rank are listed, else the category's.
    #[inline(always)]
    pub fn royalty(&self, row: usize, strength: u32) -> i64 {
        let cat = crate::rank::category_of(strength) as usize;
        if self.ranked_categories[row] >> cat & 1 != 0 {
            let rank = crate::rank::key_rank(strength, self.evaluator.ranking.wheel_second);
            if let Some(points) = self.royalties_by_rank[row][cat][rank as usize] {
                return points;
            }
        }
        match self.royalties[row].get(cat) {
            Some(&points) => points,
            // five of a kind, in a five-card row only
            None => row
                .checked_sub(1)
                .map_or(0, |five| self.five_of_a_kind_royalties[five]),
        }
    }
}

#[cfg(test)]
mod tests;
