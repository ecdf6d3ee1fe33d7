//! What a table is settled from: each seat's arrangement and decisions,
//! and the stakes.

use crate::error::{Error, Result};

/// Most pairs at one table: `MAX_TABLE_SEATS * (MAX_TABLE_SEATS - 1) / 2`.
pub const MAX_PAIRS: usize = 28;

/// One seat's submitted arrangement: ids, top = `[0..3]`, middle = `[3..8]`,
/// bottom = `[8..13]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInput {
    pub cards: [u8; 13],
    /// Asks to surrender (only allowed when the rules enable surrender).
    pub surrender: bool,
    /// Declares its natural if its 13 cards qualify for an enabled one.
    pub declare_natural: bool,
    /// The seat is the banker of a banker game (docs/rules.md, "Banker games").
    pub banker: bool,
    /// The stake multiplier the seat chose in a banker game (1 otherwise).
    pub multiplier: i64,
}

impl SeatInput {
    /// A seat that plays `cards` as arranged, declaring a natural or not.
    pub fn playing(cards: [u8; 13], declare_natural: bool) -> SeatInput {
        SeatInput {
            cards,
            surrender: false,
            declare_natural,
            banker: false,
            multiplier: 1,
        }
    }
}

/// The stake per point of every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stakes<'a> {
    /// One stake for every pair.
    Uniform(i64),
    /// `P * P` row-major, symmetric, non-negative; the diagonal is ignored.
    Matrix(&'a [i64]),
}

impl Stakes<'_> {
    /// Checks the stakes of an `n`-seat table: non-negative, and a matrix
    /// of the right size and symmetric.
    pub fn check(&self, n: usize) -> Result<()> {
        match *self {
            Stakes::Uniform(s) if s < 0 => Err(Error::table(format!(
                "the stake must be in 0..{}, got {s}",
                i64::MAX
            ))),
            Stakes::Uniform(_) => Ok(()),
            Stakes::Matrix(m) => {
                if m.len() != n * n {
                    return Err(Error::table(format!(
                        "the stakes matrix of a {n}-seat table needs {} entries ({n} x {n}), got {}",
                        n * n,
                        m.len()
                    )));
                }
                for i in 0..n {
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        let v = m[i * n + j];
                        if v < 0 {
                            return Err(Error::table(format!(
                                "stakes[{i}][{j}] must be in 0..{}, got {v}",
                                i64::MAX
                            )));
                        }
                        let w = m[j * n + i];
                        if v != w {
                            return Err(Error::table(format!(
                                "the stakes matrix is not symmetric: [{i}][{j}] = {v} but [{j}][{i}] = {w}"
                            )));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Stake of the pair (i, j); the stakes must have passed `check(n)`.
    #[inline(always)]
    pub(super) fn get(&self, n: usize, i: usize, j: usize) -> i64 {
        match *self {
            Stakes::Uniform(s) => s,
            Stakes::Matrix(m) => m[i * n + j],
        }
    }
}
