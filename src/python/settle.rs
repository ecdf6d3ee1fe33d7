//! Binding of settlement: `settle` (one table, full detail) and
//! `settle_batch` (many tables, points and money only).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;

use super::{py_err, rules_arg, TableError};
use crate::cards::card_text;
use crate::error::Error;
use crate::rank::{category_of, CATEGORY_NAMES};
use crate::settle::{self as core, PairOutcome, SeatInput, Settlement as CoreSettlement, Stakes};

const ROWS: [&str; 3] = ["top", "middle", "bottom"];

fn outcome_name(o: PairOutcome) -> &'static str {
    match o {
        PairOutcome::Natural => "natural",
        PairOutcome::Surrender => "surrender",
        PairOutcome::Foul => "foul",
        PairOutcome::Rows => "rows",
    }
}

/// Reads one seat: an `Arrangement` (its `ids`), a `Seat` (its `arrangement`,
/// `surrender`, `declare_natural`), or 13 ids laid out top, middle, bottom.
fn read_seat(obj: &Bound<'_, PyAny>, index: usize) -> PyResult<SeatInput> {
    let py = obj.py();
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
    };
    let arrangement = if let Ok(a) = obj.getattr(pyo3::intern!(py, "arrangement")) {
        seat.surrender = obj.getattr(pyo3::intern!(py, "surrender"))?.extract()?;
        seat.declare_natural = obj.getattr(pyo3::intern!(py, "declare_natural"))?.extract()?;
        a
    } else {
        obj.clone()
    };
    let ids_obj = match arrangement.getattr(pyo3::intern!(py, "ids")) {
        Ok(ids) => ids,
        Err(_) => arrangement,
    };
    let mut ids = Vec::with_capacity(13);
    super::read_cards(&ids_obj, &mut ids).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(py) {
            PyTypeError::new_err(format!(
                "seat {index}: a seat is an Arrangement, a Seat or 13 card ids"
            ))
        } else {
            e
        }
    })?;
    if ids.len() != 13 {
        return Err(super::HandError::new_err(format!(
            "seat {index}: an arrangement has 13 cards, got {}",
            ids.len()
        )));
    }
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}

enum StakeArg {
    Default,
    Uniform(i64),
    Matrix(Vec<i64>),
}

fn read_stakes(stakes: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<StakeArg> {
    let Some(obj) = stakes else {
        return Ok(StakeArg::Default);
    };
    if obj.is_none() {
        return Ok(StakeArg::Default);
    }
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("stakes must be an integer or a matrix, not a bool"));
    }
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(StakeArg::Uniform(v));
    }
    let rows: Vec<Vec<i64>> = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "stakes must be one integer or a {n} x {n} matrix of integers"
        ))
    })?;
    if rows.len() != n || rows.iter().any(|r| r.len() != n) {
        return Err(TableError::new_err(format!(
            "stakes must be a {n} x {n} matrix for {n} seats"
        )));
    }
    Ok(StakeArg::Matrix(rows.into_iter().flatten().collect()))
}

/// The settlement of one table.
#[pyclass(frozen, module = "capsa")]
pub struct Settlement {
    inner: CoreSettlement,
    seats: Vec<SeatInput>,
}

fn cards_text(ids: &[u8]) -> String {
    ids.iter().map(|&c| card_text(c)).collect::<Vec<_>>().join(" ")
}

#[pymethods]
impl Settlement {
    /// Each seat's points for the round (they sum to zero).
    #[getter]
    fn points(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.points).collect()
    }

    /// Each seat's money in minor units (points times the pair stakes).
    #[getter]
    fn money(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.money).collect()
    }

    /// The house's rake from each seat (only winners pay it).
    #[getter]
    fn rake(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.rake).collect()
    }

    /// Each seat's money after rake.
    #[getter]
    fn net(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.net).collect()
    }

    #[getter]
    fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// Per seat: rows, categories, royalties, foul, surrender, natural, sweep.
    #[getter]
    fn seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (s, (r, input)) in self.inner.seats.iter().zip(&self.seats).enumerate() {
            let d = PyDict::new(py);
            d.set_item("seat", s)?;
            let rows = PyDict::new(py);
            for (k, name) in ROWS.iter().enumerate() {
                let cards = match k {
                    0 => &input.cards[..3],
                    1 => &input.cards[3..8],
                    _ => &input.cards[8..],
                };
                let row = PyDict::new(py);
                row.set_item("cards", cards_text(cards))?;
                row.set_item("category", CATEGORY_NAMES[category_of(r.strengths[k]) as usize])?;
                row.set_item("strength", r.strengths[k])?;
                row.set_item("royalty", r.royalties[k])?;
                rows.set_item(*name, row)?;
            }
            d.set_item("rows", rows)?;
            d.set_item("foul", r.foul)?;
            d.set_item("surrender", r.surrender)?;
            d.set_item("natural", r.natural.map(|(n, _)| n.name()))?;
            d.set_item("natural_points", r.natural.map_or(0, |(_, p)| p))?;
            d.set_item("swept_all", r.swept_all)?;
            d.set_item("points", r.points)?;
            d.set_item("money", r.money)?;
            d.set_item("rake", r.rake)?;
            d.set_item("net", r.net)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Per pair (i < j), from seat i's view: how it was settled and why.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for p in &self.inner.pairs {
            let d = PyDict::new(py);
            d.set_item("seats", (p.i, p.j))?;
            d.set_item("outcome", outcome_name(p.outcome))?;
            let rows = PyDict::new(py);
            for (k, name) in ROWS.iter().enumerate() {
                rows.set_item(*name, p.rows[k])?;
            }
            d.set_item("rows", rows)?;
            d.set_item("row_points", p.row_points)?;
            d.set_item("overall", p.overall)?;
            d.set_item("royalties", p.royalties)?;
            d.set_item("scoop", p.scoop)?;
            d.set_item("sweep_all", p.sweep_all)?;
            d.set_item("multiplier", p.multiplier)?;
            d.set_item("bonus", p.bonus)?;
            d.set_item("points", p.points)?;
            d.set_item("stake", p.stake)?;
            d.set_item("money", p.money)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Everything, as JSON-ready dicts and lists.
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let this = slf.get();
        let d = PyDict::new(py);
        d.set_item("points", this.points())?;
        d.set_item("money", this.money())?;
        d.set_item("rake", this.rake())?;
        d.set_item("net", this.net())?;
        d.set_item("seats", this.seats(py)?)?;
        d.set_item("pairs", this.pairs(py)?)?;
        Ok(d)
    }

    /// A table a player or a support agent can read.
    fn explain(&self) -> String {
        explain(&self.inner, &self.seats)
    }

    fn __repr__(&self) -> String {
        format!(
            "Settlement(points={:?}, money={:?}, rake={:?})",
            self.points(),
            self.money(),
            self.rake()
        )
    }
}

fn explain(s: &CoreSettlement, inputs: &[SeatInput]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
        "seat", "top", "middle", "bottom", "points", "money", "rake", "net"
    );
    for (k, (r, input)) in s.seats.iter().zip(inputs).enumerate() {
        let row = |cards: &[u8], st: u32, roy: i64| {
            let mut t = format!("{} {}", cards_text(cards), CATEGORY_NAMES[category_of(st) as usize]);
            if roy > 0 {
                let _ = write!(t, " +{roy}");
            }
            t
        };
        let _ = writeln!(
            out,
            "{:<5} {:<26} {:<33} {:<33} {:>7} {:>9} {:>7} {:>9}",
            k,
            row(&input.cards[..3], r.strengths[0], r.royalties[0]),
            row(&input.cards[3..8], r.strengths[1], r.royalties[1]),
            row(&input.cards[8..], r.strengths[2], r.royalties[2]),
            r.points,
            r.money,
            r.rake,
            r.net
        );
        let mut notes = Vec::new();
        if let Some((n, p)) = r.natural {
            notes.push(format!("declares {} ({p} points)", n.name()));
        }
        if r.foul {
            notes.push("fouled: rows out of order".to_string());
        }
        if r.surrender {
            notes.push("surrendered".to_string());
        }
        if r.swept_all {
            notes.push("swept all".to_string());
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "      {}", notes.join("; "));
        }
    }
    let _ = writeln!(out);
    for p in &s.pairs {
        let mark = |v: i8| match v {
            1 => "won",
            -1 => "lost",
            _ => "tied",
        };
        let what = match p.outcome {
            PairOutcome::Rows => {
                let mut t = format!(
                    "top {}, middle {}, bottom {}",
                    mark(p.rows[0]),
                    mark(p.rows[1]),
                    mark(p.rows[2])
                );
                if p.royalties != 0 {
                    let _ = write!(t, "; royalties {:+}", p.royalties);
                }
                if p.overall != 0 {
                    let _ = write!(t, "; overall {:+}", p.overall);
                }
                if p.scoop != 0 {
                    let who = if p.scoop > 0 { p.i } else { p.j };
                    let kind = if p.sweep_all { "sweep-all" } else { "scoop" };
                    let _ = write!(t, "; {kind} by seat {who} x{}", p.multiplier);
                    if p.bonus != 0 {
                        let _ = write!(t, " {:+}", p.bonus);
                    }
                }
                t
            }
            PairOutcome::Foul => {
                let mut t = String::from("foul");
                if p.sweep_all {
                    t.push_str(" at the sweep-all rate");
                }
                if p.royalties != 0 {
                    let _ = write!(t, "; royalties {:+}", p.royalties);
                }
                t
            }
            PairOutcome::Surrender => "surrender".to_string(),
            PairOutcome::Natural => "natural".to_string(),
        };
        let _ = writeln!(
            out,
            "seat {} vs seat {}: {what} => seat {} {:+} points ({:+} money at stake {})",
            p.i, p.j, p.i, p.points, p.money, p.stake
        );
    }
    out
}

/// Settles one table: 2 to 4 seats, each an Arrangement, a Seat or 13 ids.
#[pyfunction]
#[pyo3(signature = (seats, rules=None, stakes=None))]
fn settle(
    seats: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    stakes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_arg(rules)?;
    let r = rules.get();
    let mut inputs: Vec<SeatInput> = Vec::with_capacity(4);
    for (k, item) in seats.try_iter()?.enumerate() {
        inputs.push(read_seat(&item?, k)?);
    }
    let inner = match read_stakes(stakes, inputs.len())? {
        StakeArg::Default => core::settle(r, &inputs, &Stakes::Uniform(r.stake)),
        StakeArg::Uniform(v) => core::settle(r, &inputs, &Stakes::Uniform(v)),
        StakeArg::Matrix(m) => core::settle(r, &inputs, &Stakes::Matrix(&m)),
    }
    .map_err(py_err)?;
    Ok(Settlement {
        inner,
        seats: inputs,
    })
}

fn read_flags<'py>(
    obj: Option<&Bound<'py, PyAny>>,
    n: usize,
    p: usize,
    what: &str,
) -> PyResult<Option<numpy::PyReadonlyArray2<'py, bool>>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    let arr = obj.cast::<PyArray2<bool>>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a numpy bool array of shape ({n}, {p})"))
    })?;
    let ro = arr.readonly();
    if ro.shape() != [n, p] {
        return Err(TableError::new_err(format!(
            "{what} must have shape ({n}, {p}), got {:?}",
            ro.shape()
        )));
    }
    if !ro.is_c_contiguous() {
        return Err(TableError::new_err(format!("{what} must be C-contiguous")));
    }
    Ok(Some(ro))
}

/// Settles N tables of P seats: cards uint8 (N, P, 13). Returns points and
/// money as int64 (N, P) and the list of (row, message) of rows that could
/// not be settled (their points and money are zero).
#[pyfunction]
#[pyo3(signature = (cards, rules=None, stakes=None, surrender=None, declare_natural=None))]
#[allow(clippy::type_complexity)]
fn settle_batch<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    stakes: Option<&Bound<'py, PyAny>>,
    surrender: Option<&Bound<'py, PyAny>>,
    declare_natural: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<i64>>,
    Vec<(usize, String)>,
)> {
    let rules = rules_arg(rules)?;
    let r = rules.get();
    let arr = cards.cast::<PyArray3<u8>>().map_err(|_| {
        PyTypeError::new_err("cards must be a numpy uint8 array of shape (N, P, 13)")
    })?;
    let ro = arr.readonly();
    let shape = ro.shape().to_vec();
    let (n, p) = (shape[0], shape[1]);
    if shape[2] != 13 || !(2..=4).contains(&p) {
        return Err(TableError::new_err(format!(
            "cards must have shape (N, P, 13) with P from 2 to 4, got {shape:?}"
        )));
    }
    if !ro.is_c_contiguous() {
        return Err(TableError::new_err(
            "cards must be C-contiguous; pass numpy.ascontiguousarray(cards)",
        ));
    }
    let data = ro.as_slice()?;
    let stake_arg = match stakes {
        Some(s) if !s.is_none() => {
            if let Ok(a) = s.cast::<PyArray2<i64>>() {
                let a = a.readonly();
                if a.shape() != [p, p] {
                    return Err(TableError::new_err(format!("stakes must be a ({p}, {p}) matrix")));
                }
                StakeArg::Matrix(a.as_array().iter().copied().collect())
            } else {
                read_stakes(Some(s), p)?
            }
        }
        _ => StakeArg::Default,
    };
    let sur = read_flags(surrender, n, p, "surrender")?;
    let dec = read_flags(declare_natural, n, p, "declare_natural")?;
    let sur = sur.as_ref().map(|a| a.as_slice()).transpose()?;
    let dec = dec.as_ref().map(|a| a.as_slice()).transpose()?;
    let matrix;
    let stakes = match &stake_arg {
        StakeArg::Default => Stakes::Uniform(r.stake),
        StakeArg::Uniform(v) => Stakes::Uniform(*v),
        StakeArg::Matrix(m) => {
            matrix = m.clone();
            Stakes::Matrix(&matrix)
        }
    };
    let mut points = vec![0i64; n * p];
    let mut money = vec![0i64; n * p];
    let errors: Vec<(usize, String)> = py.detach(|| {
        let chunk = (n / (rayon::current_num_threads() * 8)).clamp(64, 8192);
        points
            .par_chunks_mut(chunk * p)
            .zip(money.par_chunks_mut(chunk * p))
            .enumerate()
            .flat_map_iter(|(c, (pts, mon))| {
                let mut errs = Vec::new();
                let mut seats = [SeatInput {
                    cards: [0; 13],
                    surrender: false,
                    declare_natural: true,
                }; 4];
                for (k, (pt, mo)) in pts.chunks_mut(p).zip(mon.chunks_mut(p)).enumerate() {
                    let row = c * chunk + k;
                    for (s, seat) in seats[..p].iter_mut().enumerate() {
                        let base = (row * p + s) * 13;
                        seat.cards.copy_from_slice(&data[base..base + 13]);
                        seat.surrender = sur.is_some_and(|f| f[row * p + s]);
                        seat.declare_natural = dec.is_none_or(|f| f[row * p + s]);
                    }
                    if let Err(e) = core::settle_points(r, &seats[..p], &stakes, pt, mo) {
                        pt.fill(0);
                        mo.fill(0);
                        errs.push((row, describe(e)));
                    }
                }
                errs
            })
            .collect()
    });
    let points = Array2::from_shape_vec((n, p), points).expect("shape");
    let money = Array2::from_shape_vec((n, p), money).expect("shape");
    Ok((points.into_pyarray(py), money.into_pyarray(py), errors))
}

fn describe(e: Error) -> String {
    let kind = match e {
        Error::Card(_) => "CardError",
        Error::Hand(_) => "HandError",
        Error::Rules(_) => "RulesError",
        Error::Table(_) => "TableError",
    };
    format!("{kind}: {}", e.message())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Settlement>()?;
    m.add_function(wrap_pyfunction!(settle, m)?)?;
    m.add_function(wrap_pyfunction!(settle_batch, m)?)?;
    Ok(())
}
