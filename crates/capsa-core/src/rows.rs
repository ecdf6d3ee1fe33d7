//! The three rows of an arrangement: their indices, names and sizes.

/// Row indices used throughout: top 0, middle 1, bottom 2.
pub const TOP: usize = 0;
pub const MIDDLE: usize = 1;
pub const BOTTOM: usize = 2;

/// The rows of an arrangement, by index: 0 top, 1 middle, 2 bottom.
pub const ROW_NAMES: [&str; 3] = ["top", "middle", "bottom"];

/// The cards in each row, by index.
pub const ROW_SIZES: [usize; 3] = [3, 5, 5];
