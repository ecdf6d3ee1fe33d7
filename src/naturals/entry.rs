//! Stand-in for `crate::rules::NaturalEntry` (the plan's interface) until
//! the rules carry it.

use crate::natural_kind::Natural;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaisedBy {
    Quads,
    StraightFlush,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NaturalEntry {
    pub natural: Natural,
    pub points: i64,
    pub lowest: u8,
    pub highest: u8,
    pub count: u8,
    pub exactly: bool,
    pub same_tier: bool,
    pub raised: Option<(i64, RaisedBy)>,
    pub must_declare: bool,
    pub bonus: bool,
}

impl NaturalEntry {
    pub const fn new(natural: Natural, points: i64) -> Self {
        NaturalEntry {
            natural,
            points,
            lowest: 6,
            highest: 6,
            count: 12,
            exactly: false,
            same_tier: false,
            raised: None,
            must_declare: false,
            bonus: false,
        }
    }
}
