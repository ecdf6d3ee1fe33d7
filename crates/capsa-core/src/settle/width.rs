//! The integers a settlement's working figures are kept in: `i64` with
//! checked steps, and `i128` for a round one of whose steps overflowed.

use crate::error::Error;

pub(super) fn overflow() -> Error {
    Error::table("the settlement does not fit in 64-bit integers (rules or stakes too large)")
}

/// Why a settlement pass stopped.
pub(super) enum Stop {
    /// The table is wrong, or the round cannot be settled.
    Error(Error),
    /// A step does not fit in the pass's working integer.
    TooWide,
}

impl From<Error> for Stop {
    #[inline(always)]
    fn from(e: Error) -> Stop {
        Stop::Error(e)
    }
}

/// A step of a pass that does not fit in its working integer.
#[inline(always)]
pub(super) fn too_wide() -> Stop {
    Stop::TooWide
}

/// The integer a settlement pass keeps its working figures in: checked
/// steps, and the figure as reported (`None`: it does not fit in `i64`).
///
/// In `i64` every step that succeeds is exact. In `i128` no step fails
/// unless a reported figure cannot fit: the inputs are `i64` rule values
/// (>= 0, multipliers >= 1, by `Rules::validate`) and stakes (>= 0), so a
/// working figure is a sum of at most three of them (below 2^65), a product
/// of two, or a pair's amount, `(rows + overall) * m + bonus + roy * roy_m`,
/// whose products exceed 2^127 only when `rows` or `roy`, both reported,
/// exceed 2^64, and whose sum leaves `i128` only far outside `i64`.
pub(super) trait Width: Copy + Default + PartialOrd {
    fn of(x: i64) -> Self;
    fn add(self, o: Self) -> Option<Self>;
    fn sub(self, o: Self) -> Option<Self>;
    fn mul(self, o: Self) -> Option<Self>;
    fn reported(self) -> Option<i64>;
}

impl Width for i64 {
    #[inline(always)]
    fn of(x: i64) -> Self {
        x
    }
    #[inline(always)]
    fn add(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Option<Self> {
        self.checked_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Option<Self> {
        self.checked_mul(o)
    }
    #[inline(always)]
    fn reported(self) -> Option<i64> {
        Some(self)
    }
}

impl Width for i128 {
    #[inline(always)]
    fn of(x: i64) -> Self {
        x as i128
    }
    #[inline(always)]
    fn add(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Option<Self> {
        self.checked_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Option<Self> {
        self.checked_mul(o)
    }
    #[inline(always)]
    fn reported(self) -> Option<i64> {
        i64::try_from(self).ok()
    }
}
