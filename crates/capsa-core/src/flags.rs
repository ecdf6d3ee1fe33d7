//! A seat's flags (`surrender`, `declare_natural`) as every channel reads
//! them: one message for a flag that is not a boolean.

use std::fmt::Display;

/// The message for the flag `what` given as something else, `got` naming
/// what it is as JSON does ("an integer", "a string", "null").
pub fn not_a_flag(what: impl Display, got: &str) -> String {
    format!("{what} must be true or false, not {got}")
}
