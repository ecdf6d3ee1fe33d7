//! Joint row outcomes: how an opponent's three rows move together.
//!
//! The row tables give each row's distribution alone. The scoop, the
//! overall point and the sweep-all depend on the three rows at once, and an
//! opponent's rows are far from independent: one who keeps a pair for the
//! top has less for the middle, one with a strong bottom tends to have a
//! strong middle. The tables therefore also hold the copula of the
//! opponent's rows: each self-play hand's row is placed by its percentile
//! `u` in that row's distribution (the mass below its class plus half its
//! own), and the hands are counted in a grid of [`JOINT_BINS`]^3 cells of
//! (top, middle, bottom) percentiles, the density taken as uniform within
//! a cell.
//!
//! A split's row outcomes are percentile intervals: it wins a row against
//! the opponents below its win probability, ties up to its win-or-tie
//! probability and loses above. The copula gives each of the 27 patterns
//! its joint probability. Only the nonlinear part of the value changes:
//! the per-opponent sums get `sums(joint) - sums(product of the joint's
//! marginals)` added, which is zero when the rows are independent and
//! leaves the linear terms (row points, royalties) with the card-removal
//! marginals.

use super::model::{RowOutcome, PATTERNS};
use super::varint::{get_varint, put_varint};

/// Percentile bins per row of the copula's grid.
pub const JOINT_BINS: usize = 16;
/// Bounds a tables file's joint section must keep.
const MAX_BINS: u64 = 32;
const MAX_CELL: u64 = 1 << 40;

/// Counts of self-play hands per cell of (top, middle, bottom) percentile
/// bins.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub bins: usize,
    /// Index `(top * bins + middle) * bins + bottom`.
    pub cells: Vec<u64>,
}

/// A varint of at most `max` at `*pos`, named `what` in the error.
fn get_bounded(
    data: &[u8],
    pos: &mut usize,
    max: u64,
    what: &str,
) -> std::result::Result<u64, String> {
    let v = get_varint(data, pos).map_err(|m| format!("{what}: {m}"))?;
    if v > max {
        return Err(format!("{what} is {v}, more than {max}"));
    }
    Ok(v)
}

impl Joint {
    /// Appends the section: varint bins, then every cell.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        put_varint(out, self.bins as u64);
        for &c in &self.cells {
            put_varint(out, c);
        }
    }

    /// Reads the section [`Joint::write`] writes.
    pub(super) fn read(data: &[u8], pos: &mut usize) -> std::result::Result<Joint, String> {
        let bins = get_bounded(data, pos, MAX_BINS, "bins")? as usize;
        let mut cells = Vec::with_capacity(bins.pow(3));
        for i in 0..bins.pow(3) {
            cells.push(get_bounded(data, pos, MAX_CELL, &format!("cell {i}"))?);
        }
        let j = Joint { bins, cells };
        j.validate()?;
        Ok(j)
    }

    /// 1 to 32 bins, the cells all there and some hands in them.
    pub(super) fn validate(&self) -> std::result::Result<(), String> {
        if !(1..=MAX_BINS as usize).contains(&self.bins) {
            return Err(format!("{} bins, not 1 to {MAX_BINS}", self.bins));
        }
        if self.cells.len() != self.bins.pow(3) {
            return Err(format!("{} cells, not bins^3", self.cells.len()));
        }
        if self.cells.iter().any(|&c| c > MAX_CELL) {
            return Err(format!("a cell counts more than {MAX_CELL} hands"));
        }
        if self.cells.iter().all(|&c| c == 0) {
            return Err("no hands in any cell".into());
        }
        Ok(())
    }
}

/// Percentile of a class in a row's distribution: the mass below it plus
/// half its own.
pub(super) struct Percentiles {
    classes: Vec<u32>,
    below: Vec<f64>,
    mass: Vec<f64>,
}

impl Percentiles {
    pub(super) fn new(row: &[(u32, f64)]) -> Percentiles {
        let total: f64 = row.iter().map(|x| x.1).sum::<f64>().max(1e-300);
        let mut below = Vec::with_capacity(row.len());
        let mut acc = 0.0;
        for &(_, w) in row {
            below.push(acc / total);
            acc += w;
        }
        Percentiles {
            classes: row.iter().map(|x| x.0).collect(),
            below,
            mass: row.iter().map(|x| x.1 / total).collect(),
        }
    }

    pub(super) fn of(&self, class: u32) -> f64 {
        let i = self.classes.partition_point(|&c| c < class);
        match self.classes.get(i) {
            Some(&c) if c == class => self.below[i] + 0.5 * self.mass[i],
            Some(_) => self.below[i],
            None => 1.0,
        }
    }
}

pub(super) fn bin_of(u: f64, n: usize) -> usize {
    ((u * n as f64) as usize).min(n - 1)
}

/// The copula compiled for the solver: its CDF at the grid's corners,
/// `P(U_top < i/B, U_middle < j/B, U_bottom < k/B)`.
pub(super) struct JointModel {
    bins: usize,
    cdf: Vec<f64>,
}

/// A point on one axis of the grid: the cell below it and how far into it.
#[derive(Clone, Copy)]
struct Axis {
    cell: usize,
    frac: f64,
}

impl JointModel {
    pub(super) fn new(j: &Joint) -> JointModel {
        let b = j.bins;
        let n = b + 1;
        let total = j.cells.iter().sum::<u64>().max(1) as f64;
        let mut cdf = vec![0.0; n * n * n];
        let at = |i: usize, k: usize, l: usize| (i * n + k) * n + l;
        for i in 1..n {
            for k in 1..n {
                for l in 1..n {
                    let cell = j.cells[((i - 1) * b + (k - 1)) * b + (l - 1)] as f64 / total;
                    cdf[at(i, k, l)] =
                        cell + cdf[at(i - 1, k, l)] + cdf[at(i, k - 1, l)] + cdf[at(i, k, l - 1)]
                            - cdf[at(i - 1, k - 1, l)]
                            - cdf[at(i - 1, k, l - 1)]
                            - cdf[at(i, k - 1, l - 1)]
                            + cdf[at(i - 1, k - 1, l - 1)];
                }
            }
        }
        JointModel { bins: b, cdf }
    }

    fn axis(&self, u: f64) -> Axis {
        let x = u.clamp(0.0, 1.0) * self.bins as f64;
        let cell = (x as usize).min(self.bins - 1);
        Axis {
            cell,
            frac: x - cell as f64,
        }
    }

    /// The CDF at a point, trilinear between the grid's corners (exact for
    /// a density uniform within each cell).
    fn cdf_at(&self, p: [Axis; 3]) -> f64 {
        let n = self.bins + 1;
        let mut v = 0.0;
        for corner in 0..8 {
            let mut w = 1.0;
            let mut idx = 0;
            for (r, a) in p.iter().enumerate() {
                let up = (corner >> (2 - r)) & 1;
                w *= if up == 1 { a.frac } else { 1.0 - a.frac };
                idx = idx * n + a.cell + up;
            }
            if w != 0.0 {
                v += w * self.cdf[idx];
            }
        }
        v
    }

    /// The joint probabilities of the 27 patterns of rows with these
    /// outcome probabilities (index `9 * top + 3 * middle + bottom`).
    pub(super) fn patterns(&self, rows: &[RowOutcome; 3]) -> [f64; 27] {
        // per row the edges 0, P(win), P(win or tie), 1 of its outcomes
        let edges: [[Axis; 4]; 3] = std::array::from_fn(|r| {
            let w = rows[r].prob[0];
            let wt = (w + rows[r].prob[1]).max(w);
            [self.axis(0.0), self.axis(w), self.axis(wt), self.axis(1.0)]
        });
        // a row without ties (the suit tie-break) has its tie edge on its
        // win edge: those corners are copies of the same values
        let tied: [bool; 3] = std::array::from_fn(|r| rows[r].prob[1] > 0.0);
        let edge_of = |r: usize, i: usize| if i == 2 && !tied[r] { 1 } else { i };
        let mut f = [0.0f64; 64];
        for i in [1, 2, 3] {
            for k in [1, 2, 3] {
                for l in [1, 2, 3] {
                    let e = [edge_of(0, i), edge_of(1, k), edge_of(2, l)];
                    let at = (i * 4 + k) * 4 + l;
                    f[at] = if e == [i, k, l] {
                        self.cdf_at([edges[0][i], edges[1][k], edges[2][l]])
                    } else {
                        f[(e[0] * 4 + e[1]) * 4 + e[2]]
                    };
                }
            }
        }
        let mut out = [0.0; 27];
        for (p, o) in out.iter_mut().zip(PATTERNS) {
            // inclusion-exclusion over the box's corners: + where an odd
            // number of its ends are upper ones
            let mut v = 0.0;
            for corner in 0..8 {
                let c: [usize; 3] = std::array::from_fn(|r| o[r] + ((corner >> (2 - r)) & 1));
                let sign = if (corner as u32).count_ones() % 2 == 1 {
                    1.0
                } else {
                    -1.0
                };
                v += sign * f[(c[0] * 4 + c[1]) * 4 + c[2]];
            }
            *p = v.max(0.0);
        }
        out
    }
}

/// The product of a pattern distribution's three marginals.
pub(super) fn independent_of(joint: &[f64; 27]) -> [f64; 27] {
    let mut m = [[0.0f64; 3]; 3];
    for (idx, &p) in joint.iter().enumerate() {
        m[0][idx / 9] += p;
        m[1][(idx / 3) % 3] += p;
        m[2][idx % 3] += p;
    }
    std::array::from_fn(|idx| m[0][idx / 9] * m[1][(idx / 3) % 3] * m[2][idx % 3])
}

#[cfg(test)]
mod tests;
