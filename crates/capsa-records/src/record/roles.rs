//! A banker game's fields of a record's seat: whether it is the banker and
//! its multiplier, each written only where it is not the default.

use super::format::{boolean, integer, Problem, Read};
use capsa_core::canonical::Json;

/// A seat's `banker`: absent (not the banker) or `true`; `false` is not
/// written, so a record holding it is not as the engine writes it.
pub(super) fn read_banker(value: Option<&Json>, field: &str) -> Read<bool> {
    match value {
        None => Ok(false),
        Some(v) if boolean(v, field)? => Ok(true),
        Some(_) => Err(Problem::new(
            field,
            format!("{field} is written only on the banker seat, as true"),
        )),
    }
}

/// A seat's `multiplier`: absent (1) or a whole number other than 1 within
/// 64 bits (the rules' range is checked when the round settles).
pub(super) fn read_multiplier(value: Option<&Json>, field: &str) -> Read<i64> {
    let Some(v) = value else {
        return Ok(1);
    };
    match integer(v, field, i64::MIN.into(), i64::MAX.into())? {
        1 => Err(Problem::new(
            field,
            format!("{field} is written only when it is not 1"),
        )),
        m => Ok(m as i64),
    }
}
