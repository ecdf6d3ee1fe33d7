//! Settlement of a table: docs/rules.md, "Settlement".
//!
//! One routine, `settle_into`, checks the table and applies the rules, with
//! its working figures in fixed-size arrays (at most four seats, six pairs).
//! It hands each pair's and seat's result to an output: [`settle`] keeps them
//! all, [`settle_points`] only each seat's points and money, so the batch path
//! never allocates (and, the core being inlined into each, computes nothing
//! it drops). The random parts of a round (row results, fouls) are settled
//! with selects and look-ups rather than branches, for speed.
//!
//! Every figure a settlement reports is exact, and a round is refused
//! exactly when one of them does not fit in `i64`, never because a step on
//! the way does, and never with a panic or a silent wrap. The routine is
//! generic over the integer its working figures are kept in ([`Width`]): a
//! round is first settled in `i64` with checked steps (exact whenever they
//! all succeed), and only a round where one fails is settled again in
//! `i128`, where a failed step proves that a reported figure cannot fit.
//!
//! `inputs` and `results` hold what goes in and comes out; `checks` the
//! table's checks; `bound` the largest settlement a table's rules allow; `width` the integers the figures are kept in; `facts`
//! (each seat's), `pair` (each pair's points) and `routine` the steps.

mod bound;
mod checks;
mod facts;
mod inputs;
mod pair;
mod plan;
mod rake;
mod results;
mod routine;
mod width;

pub use crate::table::{
    check_seat_count, check_table_seats, most_seats, seat_count_error, MAX_SEATS, MAX_TABLE_SEATS,
    MIN_SEATS,
};
pub use bound::{check_settlement_fits, largest_pair_points, largest_seat_points, largest_stake};
pub use checks::check_banker;
pub use inputs::{SeatInput, Stakes, MAX_PAIRS};
pub use rake::round_rake;
pub use results::{PairOutcome, PairResult, SeatOutcome, SeatResult, Settlement};
pub use routine::{settle, settle_points, settle_points_and_outcomes};

#[cfg(test)]
mod deck_tests;
#[cfg(test)]
mod rule_tests;
#[cfg(test)]
mod tests;
