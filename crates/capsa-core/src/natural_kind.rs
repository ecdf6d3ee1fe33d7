//! The naturals and their names; `naturals` detects them.

/// The naturals, in the order of the table in
/// docs/rules.md, "The naturals"
/// (a new natural joins the end, so that the bits of
/// `naturals::qualifying` never move). The last four need a deck with
/// copies.
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
    TwoFullHouses,
    SixOfAKind,
    SevenOfAKind,
    EightOfAKind,
    TwoFiveOfAKinds,
}

pub const NATURAL_NAMES: [&str; 20] = [
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
    "two-full-houses",
    "six-of-a-kind",
    "seven-of-a-kind",
    "eight-of-a-kind",
    "two-five-of-a-kinds",
];

pub const ALL: [Natural; 20] = [
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
    Natural::TwoFullHouses,
    Natural::SixOfAKind,
    Natural::SevenOfAKind,
    Natural::EightOfAKind,
    Natural::TwoFiveOfAKinds,
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
