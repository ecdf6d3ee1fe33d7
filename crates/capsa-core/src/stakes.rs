//! Stakes as a round gives them: one stake for every pair, or a P x P
//! symmetric matrix, every stake from 0 to 2^63 - 1 minor units per point.
//! Every channel (JSON Lines and documents, records, the Python API) reads
//! them with [`read_stakes`] through its own [`StakesInput`], so a fault has
//! one message wherever it comes from.

use std::fmt::Write;

use crate::error::{Error, Result};
use crate::settle::Stakes;

/// The stakes of a round, owned: one for every pair, or a P x P matrix
/// (row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StakeSpec {
    Uniform(i64),
    Matrix(Vec<i64>),
}

impl StakeSpec {
    pub fn stakes(&self) -> Stakes<'_> {
        match self {
            StakeSpec::Uniform(s) => Stakes::Uniform(*s),
            StakeSpec::Matrix(m) => Stakes::Matrix(m),
        }
    }

    /// Checks the stakes of a table of `seats`: every entry >= 0 (the
    /// diagonal too), a matrix `seats` x `seats` and symmetric. Records
    /// hold stakes this way; settlement itself ignores the diagonal.
    pub fn check(&self, seats: usize) -> Result<()> {
        if let StakeSpec::Matrix(m) = self {
            if let Some(k) = m.iter().position(|&v| v < 0) {
                let (i, j) = (k / seats.max(1), k % seats.max(1));
                return Err(Error::table(range_message(&entry_name(i, j), m[k])));
            }
        }
        self.stakes().check(seats)
    }

    /// Appends the stakes as JSON: an integer, or a list of rows.
    pub fn write(&self, out: &mut String, seats: usize) {
        match self {
            StakeSpec::Uniform(s) => {
                let _ = write!(out, "{s}");
            }
            StakeSpec::Matrix(m) => {
                out.push('[');
                for (i, row) in m.chunks(seats.max(1)).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('[');
                    for (j, v) in row.iter().enumerate() {
                        if j > 0 {
                            out.push(',');
                        }
                        let _ = write!(out, "{v}");
                    }
                    out.push(']');
                }
                out.push(']');
            }
        }
    }
}

/// One value of a stakes input, as its channel sees it.
pub enum StakesValue<T> {
    /// An integer: its value when it fits in `i128`, else its text.
    Int(std::result::Result<i128, String>),
    /// A list of values; a channel may stop after the `limit` it is given.
    List(Vec<T>),
    /// Anything else.
    Other,
}

/// A fault of the stakes: the field it is in (`stakes`, `stakes[i]`,
/// `stakes[i][j]`), its message, and whether a value has the wrong type
/// (the Python API raises `TypeError` for those) rather than a wrong size
/// or range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StakesFault {
    pub field: String,
    pub message: String,
    pub wrong_type: bool,
}

impl From<StakesFault> for Error {
    fn from(f: StakesFault) -> Error {
        Error::table(f.message)
    }
}

/// How a channel shows its stakes values to [`read_stakes`].
pub trait StakesInput: Sized {
    /// The channel's own failure (a fault, or e.g. a Python exception
    /// raised while reading).
    type Fail: From<StakesFault>;

    /// The value's shape; of a list, at most `limit` items need be read.
    fn look(&self, limit: usize) -> std::result::Result<StakesValue<Self>, Self::Fail>;

    /// What the value is, for a message: "a string", "float", "1.5".
    fn describe(&self) -> String;
}

fn fault(field: impl Into<String>, message: String, wrong_type: bool) -> StakesFault {
    StakesFault {
        field: field.into(),
        message,
        wrong_type,
    }
}

fn entry_name(i: usize, j: usize) -> String {
    format!("stakes[{i}][{j}]")
}

fn range_message(what: &str, got: impl std::fmt::Display) -> String {
    format!("{what} must be in 0..{}, got {got}", i64::MAX)
}

/// "k", or "more than n" when `k` is past `n` (a reader may stop there).
fn count_text(k: usize, n: usize) -> String {
    if k > n {
        format!("more than {n}")
    } else {
        k.to_string()
    }
}

/// A diagonal entry: any integer that fits 64 bits.
fn diagonal_of(
    value: std::result::Result<i128, String>,
    field: &str,
) -> std::result::Result<i64, StakesFault> {
    let message = |got: String| format!("{field} must fit in 64 bits, got {got}");
    match value {
        Ok(v) => i64::try_from(v).map_err(|_| fault(field, message(v.to_string()), false)),
        Err(text) => Err(fault(field, message(text), false)),
    }
}

/// One stake, `what` naming it in `field`.
fn stake_of(
    value: std::result::Result<i128, String>,
    what: &str,
    field: &str,
) -> std::result::Result<i64, StakesFault> {
    match value {
        Ok(v) if (0..=i128::from(i64::MAX)).contains(&v) => Ok(v as i64),
        Ok(v) => Err(fault(field, range_message(what, v), false)),
        Err(text) => Err(fault(field, range_message(what, text), false)),
    }
}

/// Reads the stakes of a table of `seats` from any channel: one integer, or
/// a `seats` x `seats` matrix of integers, non-negative and symmetric.
pub fn read_stakes<T: StakesInput>(
    value: &T,
    seats: usize,
) -> std::result::Result<StakeSpec, T::Fail> {
    let n = seats;
    let shape = format!("stakes must be a {n} x {n} matrix ({n} rows of {n})");
    let rows = match value.look(n + 1)? {
        StakesValue::Int(v) => return Ok(StakeSpec::Uniform(stake_of(v, "the stake", "stakes")?)),
        StakesValue::List(rows) => rows,
        StakesValue::Other => {
            let message = format!(
                "stakes must be an integer or a {n} x {n} matrix of integers, not {}",
                value.describe()
            );
            return Err(fault("stakes", message, true).into());
        }
    };
    if rows.len() != n {
        let message = format!("{shape}, got {} rows", count_text(rows.len(), n));
        return Err(fault("stakes", message, false).into());
    }
    let mut matrix = Vec::with_capacity(n * n);
    for (i, row) in rows.iter().enumerate() {
        let field = format!("stakes[{i}]");
        let StakesValue::List(cells) = row.look(n + 1)? else {
            let message = format!(
                "{field} must be a list of {n} integers, not {}",
                row.describe()
            );
            return Err(fault(field, message, true).into());
        };
        if cells.len() != n {
            let message = format!(
                "{shape}, row {i} has {} entries",
                count_text(cells.len(), n)
            );
            return Err(fault(field, message, false).into());
        }
        for (j, cell) in cells.iter().enumerate() {
            let field = entry_name(i, j);
            let StakesValue::Int(v) = cell.look(0)? else {
                let message = format!("{field} must be an integer, not {}", cell.describe());
                return Err(fault(field, message, true).into());
            };
            // the diagonal means nothing (a seat has no stake against
            // itself): any 64-bit integer is kept as written
            let stake = if i == j {
                diagonal_of(v, &field)?
            } else {
                stake_of(v, &field, &field)?
            };
            matrix.push(stake);
        }
    }
    let spec = StakeSpec::Matrix(matrix);
    // settlement's own check (the shape and symmetry; the diagonal means
    // nothing): a record's reader and writer add StakeSpec::check
    spec.stakes()
        .check(n)
        .map_err(|e| fault("stakes", e.message().to_string(), false))?;
    Ok(spec)
}

#[cfg(test)]
mod tests;
