//! The rules the engine plays by, as plain data. Every knob is a row of the
//! knob table ([`knobs::KNOBS`]); [`Rules::set_knob`] and [`Rules::knob`]
//! are the one place a knob meets its field. The Python layer loads rules
//! files (TOML), checks them against the table and hands the engine the
//! knobs.

mod choices;
pub mod knobs;
mod natural_entry;

pub use choices::{
    CapStage, FlushCompare, FoulCheck, FoulMode, NaturalOpponents, NaturalResolve, NaturalTies,
    RaisedBy, RoyaltyMode, RuleChoice, TieBreak, Wheel,
};
pub use natural_entry::{NaturalEntry, EIGHT};

use crate::error::{Error, Result};
use crate::natural_kind::Natural;
use crate::rank::{category_index, parse_suit_order, Evaluator, Ranking, CATEGORY_NAMES};
use knobs::{KnobDefault, KnobType, KNOBS};

/// Every named-choice knob of a rules file with its valid names, in the
/// order of the knob table.
pub fn rule_choices() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    KNOBS.iter().filter_map(|k| match k.kind {
        KnobType::Choice(names) => Some((k.name, names)),
        _ => None,
    })
}

/// A royalty row's points: each >= 0, and nonzero only for the categories
/// the row may name.
fn check_royalty_row(name: &str, allowed: &[&str], row: &[i64; 10]) -> Result<()> {
    for (cat, &v) in row.iter().enumerate() {
        let category = CATEGORY_NAMES[cat];
        if v < 0 {
            return Err(Error::rules(format!(
                "{name}.{category} must be >= 0, got {v}"
            )));
        }
        if v != 0 && !allowed.contains(&category) {
            return Err(Error::rules(format!(
                "{name}: {category:?} is not a category of that row; the categories are: {}",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

/// A ranked royalty row's points: each >= 0, and only for the categories
/// the row may name.
fn check_ranked_row(name: &str, allowed: &[&str], row: &RankedRow) -> Result<()> {
    for (cat, ranks) in row.iter().enumerate() {
        let category = CATEGORY_NAMES[cat];
        for (rank, v) in ranks.iter().enumerate() {
            let Some(v) = *v else { continue };
            let letter = crate::cards::RANK_CHARS[rank] as char;
            if v < 0 {
                return Err(Error::rules(format!(
                    "{name}.{category}.{letter} must be >= 0, got {v}"
                )));
            }
            if !allowed.contains(&category) {
                return Err(Error::rules(format!(
                    "{name}: {category:?} is not a category of that row; the categories are: {}",
                    allowed.join(", ")
                )));
            }
        }
    }
    Ok(())
}

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

fn wrong_value(name: &str, value: &KnobValue) -> Error {
    Error::rules(format!("{name} cannot take {value:?}"))
}

fn text(name: &str, value: KnobValue) -> Result<String> {
    match value {
        KnobValue::Text(t) => Ok(t),
        other => Err(wrong_value(name, &other)),
    }
}

fn flag(name: &str, value: KnobValue) -> Result<bool> {
    match value {
        KnobValue::Flag(b) => Ok(b),
        other => Err(wrong_value(name, &other)),
    }
}

fn int(name: &str, value: KnobValue) -> Result<i64> {
    match value {
        KnobValue::Int(v) => Ok(v),
        other => Err(wrong_value(name, &other)),
    }
}

fn royalty_row(name: &str) -> Option<usize> {
    ["royalties.top", "royalties.middle", "royalties.bottom"]
        .iter()
        .position(|k| *k == name)
}

fn ranked_row(name: &str) -> Option<usize> {
    [
        "royalties.top_by_rank",
        "royalties.middle_by_rank",
        "royalties.bottom_by_rank",
    ]
    .iter()
    .position(|k| *k == name)
}

/// The card of a card knob's text (`"Ah"`, `"10h"`, either case, suit
/// symbols as the card reader reads them).
fn card(name: &str, value: KnobValue) -> Result<u8> {
    let t = text(name, value)?;
    crate::cards::parse_token(t.trim())
        .ok_or_else(|| Error::rules(format!("{name} must be a card such as \"Ah\", got {t:?}")))
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
        // The evaluator's tables depend on the ranking: a ranking knob
        // builds a new evaluator rather than editing the ranking in place.
        let mut ranking = self.evaluator.ranking;
        if let (Some(knob), KnobValue::Int(v)) = (knobs::knob(name), &value) {
            if let Some(fault) = knob.int_fault(*v as i128) {
                return Err(Error::rules(format!("{name} {fault}, got {v}")));
            }
        }
        match name {
            "name" | "description" => {
                crate::texts::check_rules_text(name, &text(name, value)?).map_err(Error::rules)?;
            }
            "tie_break" => ranking.tie_break_suit = text(name, value)?.parse::<TieBreak>()?.flag(),
            "suit_order" => ranking.suit_strength = parse_suit_order(&text(name, value)?)?,
            "flush_compare" => {
                ranking.flush_suit_first = text(name, value)?.parse::<FlushCompare>()?.flag()
            }
            "wheel" => ranking.wheel_second = text(name, value)?.parse::<Wheel>()?.flag(),
            "foul_check" => self.foul_strict = text(name, value)?.parse::<FoulCheck>()?.flag(),
            "row_points" => self.row_points = int(name, value)?,
            "overall_point" => self.overall_point = int(name, value)?,
            "royalty_mode" => self.royalty_mode = text(name, value)?.parse()?,
            "royalty_adds" => self.royalty_adds = flag(name, value)?,
            "scoop.multiplier" => self.scoop_multiplier = int(name, value)?,
            "scoop.bonus" => self.scoop_bonus = int(name, value)?,
            "scoop.multiply_royalties" => self.scoop_multiply_royalties = flag(name, value)?,
            "sweep_all.multiplier" => self.sweep_all_multiplier = int(name, value)?,
            "sweep_all.bonus" => self.sweep_all_bonus = int(name, value)?,
            "sweep_all.min_players" => {
                let v = int(name, value)?;
                self.sweep_all_min_players = usize::try_from(v)
                    .map_err(|_| Error::rules(format!("{name} is a number of players, got {v}")))?;
            }
            "foul.mode" => self.foul_mode = text(name, value)?.parse()?,
            "foul.points" => self.foul_points = int(name, value)?,
            "foul.pays_royalties" => self.foul_pays_royalties = flag(name, value)?,
            "surrender.enabled" => self.surrender_enabled = flag(name, value)?,
            "surrender.cost" => self.surrender_cost = int(name, value)?,
            "naturals.resolve" => self.natural_resolve = text(name, value)?.parse()?,
            "naturals.ties" => self.natural_ties = text(name, value)?.parse()?,
            "naturals.enabled" => match value {
                KnobValue::Naturals(list) => self.naturals = list,
                other => return Err(wrong_value(name, &other)),
            },
            "royalties.top" | "royalties.middle" | "royalties.bottom" => match value {
                KnobValue::Royalties(row) => {
                    self.royalties[royalty_row(name).expect("a royalty row")] = row
                }
                other => return Err(wrong_value(name, &other)),
            },
            "royalties.top_by_rank" | "royalties.middle_by_rank" | "royalties.bottom_by_rank" => {
                match value {
                    KnobValue::RoyaltiesByRank(row) => {
                        self.royalties_by_rank[ranked_row(name).expect("a ranked row")] = *row;
                        self.index_ranked_royalties();
                    }
                    other => return Err(wrong_value(name, &other)),
                }
            }
            "scoop.by_seats" => self.scoop_by_seats = flag(name, value)?,
            "sweep_all.natural_opponents" => {
                self.sweep_all_natural_opponents = text(name, value)?.parse()?
            }
            "horse.card" => self.horse_card = Some(card(name, value)?),
            "horse.multiplier" => self.horse_multiplier = int(name, value)?,
            "horse.naturals" => self.horse_naturals = flag(name, value)?,
            "cap.pair" => self.cap_pair = int(name, value)?,
            "cap.scoop" => self.cap_scoop = int(name, value)?,
            "cap.sweep_all" => self.cap_sweep_all = int(name, value)?,
            "cap.stage" => self.cap_stage = text(name, value)?.parse()?,
            "banker.enabled" => self.banker_enabled = flag(name, value)?,
            "banker.wins_ties" => self.banker_wins_ties = flag(name, value)?,
            "banker.max_multiplier" => self.banker_max_multiplier = int(name, value)?,
            "money.stake" => self.stake = int(name, value)?,
            "money.rake_basis_points" => self.rake.basis_points = int(name, value)?,
            "money.rake_minimum_pot" => self.rake.minimum_pot = int(name, value)?,
            "money.rake_cap_per_pot" => self.rake.cap_per_pot = int(name, value)?,
            "money.rake_cap_per_round" => self.rake.cap_per_round = int(name, value)?,
            _ => return Err(Error::rules(format!("unknown knob {name:?}"))),
        }
        if ranking != self.evaluator.ranking {
            self.evaluator = Evaluator::new(ranking);
        }
        Ok(())
    }

    /// The value of the knob of a dotted name, as [`set_knob`](Self::set_knob)
    /// takes it; `None` for an unknown knob and for the text knobs the
    /// engine does not keep (`name`, `description`).
    pub fn knob(&self, name: &str) -> Option<KnobValue> {
        let r = &self.evaluator.ranking;
        let text = |t: String| Some(KnobValue::Text(t));
        let int = |v: i64| Some(KnobValue::Int(v));
        let flag = |b: bool| Some(KnobValue::Flag(b));
        match name {
            "tie_break" => text(TieBreak::from_flag(r.tie_break_suit).to_string()),
            "suit_order" => {
                let mut order: Vec<(u8, char)> = r
                    .suit_strength
                    .iter()
                    .copied()
                    .zip("dchs".chars())
                    .collect();
                order.sort_unstable_by_key(|&(strength, _)| std::cmp::Reverse(strength));
                text(order.iter().map(|(_, c)| c).collect())
            }
            "flush_compare" => text(FlushCompare::from_flag(r.flush_suit_first).to_string()),
            "wheel" => text(Wheel::from_flag(r.wheel_second).to_string()),
            "foul_check" => text(FoulCheck::from_flag(self.foul_strict).to_string()),
            "row_points" => int(self.row_points),
            "overall_point" => int(self.overall_point),
            "royalty_mode" => text(self.royalty_mode.to_string()),
            "royalty_adds" => flag(self.royalty_adds),
            "scoop.multiplier" => int(self.scoop_multiplier),
            "scoop.bonus" => int(self.scoop_bonus),
            "scoop.multiply_royalties" => flag(self.scoop_multiply_royalties),
            "sweep_all.multiplier" => int(self.sweep_all_multiplier),
            "sweep_all.bonus" => int(self.sweep_all_bonus),
            "sweep_all.min_players" => {
                int(i64::try_from(self.sweep_all_min_players).unwrap_or(i64::MAX))
            }
            "foul.mode" => text(self.foul_mode.to_string()),
            "foul.points" => int(self.foul_points),
            "foul.pays_royalties" => flag(self.foul_pays_royalties),
            "surrender.enabled" => flag(self.surrender_enabled),
            "surrender.cost" => int(self.surrender_cost),
            "naturals.resolve" => text(self.natural_resolve.to_string()),
            "naturals.ties" => text(self.natural_ties.to_string()),
            "naturals.enabled" => Some(KnobValue::Naturals(self.naturals.clone())),
            "royalties.top" | "royalties.middle" | "royalties.bottom" => {
                Some(KnobValue::Royalties(self.royalties[royalty_row(name)?]))
            }
            "royalties.top_by_rank" | "royalties.middle_by_rank" | "royalties.bottom_by_rank" => {
                Some(KnobValue::RoyaltiesByRank(Box::new(
                    self.royalties_by_rank[ranked_row(name)?],
                )))
            }
            "scoop.by_seats" => flag(self.scoop_by_seats),
            "sweep_all.natural_opponents" => text(self.sweep_all_natural_opponents.to_string()),
            "horse.card" => text(crate::cards::card_text(self.horse_card?)),
            "horse.multiplier" => int(self.horse_multiplier),
            "horse.naturals" => flag(self.horse_naturals),
            "cap.pair" => int(self.cap_pair),
            "cap.scoop" => int(self.cap_scoop),
            "cap.sweep_all" => int(self.cap_sweep_all),
            "cap.stage" => text(self.cap_stage.to_string()),
            "banker.enabled" => flag(self.banker_enabled),
            "banker.wins_ties" => flag(self.banker_wins_ties),
            "banker.max_multiplier" => int(self.banker_max_multiplier),
            "money.stake" => int(self.stake),
            "money.rake_basis_points" => int(self.rake.basis_points),
            "money.rake_minimum_pot" => int(self.rake.minimum_pot),
            "money.rake_cap_per_pot" => int(self.rake.cap_per_pot),
            "money.rake_cap_per_round" => int(self.rake.cap_per_round),
            _ => None,
        }
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
                (KnobType::Royalties(allowed), Some(KnobValue::Royalties(row))) => {
                    check_royalty_row(k.name, allowed, &row)?;
                }
                (KnobType::RoyaltiesByRank(allowed), Some(KnobValue::RoyaltiesByRank(row))) => {
                    check_ranked_row(k.name, allowed, &row)?;
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
        let mut seen = 0u32;
        for (index, entry) in self.naturals.iter().enumerate() {
            let bit = 1 << entry.natural as u32;
            if seen & bit != 0 {
                return Err(Error::rules(format!(
                    "natural {} is enabled twice",
                    entry.natural.name()
                )));
            }
            seen |= bit;
            entry.check(index)?;
        }
        Ok(())
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
        self.royalties[row][cat]
    }
}

#[cfg(test)]
mod tests;
