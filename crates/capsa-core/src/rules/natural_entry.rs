//! One entry of `naturals.enabled`: a natural the variant pays, its points
//! and the parameters of its definition (docs/rules.md, "Naturals").

use super::choices::RaisedBy;
use crate::error::{Error, Result};
use crate::natural_kind::Natural;

/// The rank index of the 8 (0 is the deuce): `all-high`'s lowest rank and
/// `all-low`'s highest by default.
pub const EIGHT: u8 = 6;

/// A natural of `naturals.enabled` with its points and parameters. A field
/// only its natural takes (`lowest`, `highest`, `count`, `exactly`) stays
/// at its default for every other natural.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NaturalEntry {
    pub natural: Natural,
    pub points: i64,
    /// `all-high`: every card is of this rank index or higher.
    pub lowest: u8,
    /// `all-low`: every card is of this rank index or lower.
    pub highest: u8,
    /// `twelve-royals`: at least this many cards of rank J, Q, K or A.
    pub count: u8,
    /// `twelve-same-color`: exactly 12 of one colour, not at least 12.
    pub exactly: bool,
    /// As strong as the entry before it.
    pub same_tier: bool,
    /// The points it is worth instead of `points` when raised, and what
    /// raises it.
    pub raised: Option<(i64, RaisedBy)>,
    /// Declared even when the seat asks not to.
    pub must_declare: bool,
    /// Collected on top of the pair's settlement instead of settling it.
    pub bonus: bool,
}

impl NaturalEntry {
    /// The entry of `natural` worth `points`, every parameter at its
    /// default.
    pub const fn new(natural: Natural, points: i64) -> Self {
        NaturalEntry {
            natural,
            points,
            lowest: EIGHT,
            highest: EIGHT,
            count: 12,
            exactly: false,
            same_tier: false,
            raised: None,
            must_declare: false,
            bonus: false,
        }
    }

    /// The optional fields of an entry, in the order rules data writes
    /// them.
    pub const FIELDS: [&'static str; 9] = [
        "lowest",
        "highest",
        "count",
        "exactly",
        "same_tier",
        "raised_points",
        "raised_by",
        "must_declare",
        "bonus",
    ];

    /// The natural a field belongs to, for the fields only one natural
    /// takes.
    pub fn field_natural(field: &str) -> Option<Natural> {
        Some(match field {
            "lowest" => Natural::AllHigh,
            "highest" => Natural::AllLow,
            "count" => Natural::TwelveRoyals,
            "exactly" => Natural::TwelveSameColor,
            _ => return None,
        })
    }

    /// The fault of `field` given for the entry at `index` of `natural`:
    /// a field only another natural takes, whatever its value.
    pub fn given_fault(index: usize, natural: Natural, field: &str) -> Option<Error> {
        let owner = Self::field_natural(field)?;
        (owner != natural).then(|| {
            Error::rules(format!(
                "naturals.enabled[{index}].{field}: only {} takes {field}, not {}",
                owner.name(),
                natural.name()
            ))
        })
    }

    /// The fault of a `count` of the entry at `index`: 12 or 13.
    pub fn count_fault(index: usize, count: i64) -> Option<Error> {
        (!(12..=13).contains(&count)).then(|| {
            Error::rules(format!(
                "naturals.enabled[{index}].count must be in 12..13, got {count}"
            ))
        })
    }

    /// Checks the entry at `index` of `naturals.enabled`.
    ///
    /// Errors (each naming the entry and the field): negative points, a
    /// field of another natural away from its default (rules data is
    /// refused one it gives at all: [`Self::given_fault`]), a rank or
    /// count out of range, `same_tier` on the first entry, `raised_by =
    /// "straight-flush"` for a natural other than `three-straights` and
    /// `three-flushes`.
    pub fn check(&self, index: usize) -> Result<()> {
        let at = |field: &str, why: String| {
            Error::rules(format!("naturals.enabled[{index}].{field}{why}"))
        };
        if self.points < 0 {
            return Err(at("points", format!(" must be >= 0, got {}", self.points)));
        }
        let defaults = NaturalEntry::new(self.natural, self.points);
        let given = [
            ("lowest", self.lowest != defaults.lowest),
            ("highest", self.highest != defaults.highest),
            ("count", self.count != defaults.count),
            ("exactly", self.exactly != defaults.exactly),
        ];
        for (field, differs) in given {
            if let Some(fault) = differs
                .then(|| Self::given_fault(index, self.natural, field))
                .flatten()
            {
                return Err(fault);
            }
        }
        for (field, rank) in [("lowest", self.lowest), ("highest", self.highest)] {
            if rank > 12 {
                return Err(at(
                    field,
                    format!(" must be a rank index 0..12, got {rank}"),
                ));
            }
        }
        if let Some(fault) = Self::count_fault(index, self.count.into()) {
            return Err(fault);
        }
        if self.same_tier && index == 0 {
            return Err(at(
                "same_tier",
                ": the first entry has no entry before it to share a tier with".into(),
            ));
        }
        if let Some((points, by)) = self.raised {
            if points < 0 {
                return Err(at("raised_points", format!(" must be >= 0, got {points}")));
            }
            if by == RaisedBy::StraightFlush
                && !matches!(
                    self.natural,
                    Natural::ThreeStraights | Natural::ThreeFlushes
                )
            {
                return Err(at(
                    "raised_by",
                    format!(
                        ": \"straight-flush\" raises only three-straights and three-flushes, not {}",
                        self.natural.name()
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Checks `naturals.enabled`: each entry ([`NaturalEntry::check`]) and no
/// natural listed twice.
pub fn check_naturals(entries: &[NaturalEntry]) -> Result<()> {
    let mut seen = 0u32;
    for (index, entry) in entries.iter().enumerate() {
        let bit = 1 << entry.natural as u32;
        if seen & bit != 0 {
            return Err(Error::rules(format!(
                "naturals.enabled[{index}]: natural '{}' is listed twice",
                entry.natural.name()
            )));
        }
        seen |= bit;
        entry.check(index)?;
    }
    Ok(())
}
