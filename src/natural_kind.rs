//! The fifteen naturals and their names; `naturals` detects them.

/// The fifteen naturals, in the order of the table in
/// docs/rules.md, "The fifteen naturals".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Natural {
    CleanDragon = 0,
    Dragon,
    TwelveRoyals,
    ThreeStraightFlushes,
    ThreeQuads,
    AllHigh,
    AllLow,
    FullColored,
    TwelveSameColor,
    FourTriples,
    FivePairsTrips,
    SixPairs,
    ThreeStraights,
    ThreeFlushes,
    NoPictureCards,
}

pub const NATURAL_NAMES: [&str; 15] = [
    "clean-dragon",
    "dragon",
    "twelve-royals",
    "three-straight-flushes",
    "three-quads",
    "all-high",
    "all-low",
    "full-colored",
    "twelve-same-color",
    "four-triples",
    "five-pairs-trips",
    "six-pairs",
    "three-straights",
    "three-flushes",
    "no-picture-cards",
];

pub const ALL: [Natural; 15] = [
    Natural::CleanDragon,
    Natural::Dragon,
    Natural::TwelveRoyals,
    Natural::ThreeStraightFlushes,
    Natural::ThreeQuads,
    Natural::AllHigh,
    Natural::AllLow,
    Natural::FullColored,
    Natural::TwelveSameColor,
    Natural::FourTriples,
    Natural::FivePairsTrips,
    Natural::SixPairs,
    Natural::ThreeStraights,
    Natural::ThreeFlushes,
    Natural::NoPictureCards,
];

impl Natural {
    pub fn name(self) -> &'static str {
        NATURAL_NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<Natural> {
        NATURAL_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| ALL[i])
    }
}
