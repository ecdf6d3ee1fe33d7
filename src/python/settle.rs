//! Binding of settlement: `settle` (one table, full detail) and
//! `settle_batch` (many tables, points and money only).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use super::errors::err;
use super::rules_arg;
use crate::error::{Error, ErrorKind};
use crate::report;
use crate::settle::{self as core, SeatInput, Settlement as CoreSettlement, Stakes};

/// `capsa.settlement.Seat`, looked up once.
fn seat_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static SEAT: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    SEAT.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("capsa.settlement")?.getattr("Seat")?.unbind())
    })
    .map(|c| c.bind(py))
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
    let arrangement = if obj.is_instance(seat_class(py)?)? {
        seat.surrender = obj.getattr(pyo3::intern!(py, "surrender"))?.extract()?;
        seat.declare_natural = obj
            .getattr(pyo3::intern!(py, "declare_natural"))?
            .extract()?;
        obj.getattr(pyo3::intern!(py, "arrangement"))?
    } else {
        obj.clone()
    };
    // an Arrangement keeps its ids in a tuple; anything else is read as cards
    let ids_obj = if arrangement.is_instance_of::<pyo3::types::PyTuple>()
        || arrangement.is_instance_of::<pyo3::types::PyList>()
        || arrangement.is_instance_of::<pyo3::types::PyString>()
    {
        arrangement
    } else {
        arrangement
            .getattr(pyo3::intern!(py, "ids"))
            .unwrap_or(arrangement)
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
        return Err(super::err(
            ErrorKind::Hand,
            format!(
                "seat {index}: an arrangement has 13 cards, got {}",
                ids.len()
            ),
        ));
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
        return Err(PyTypeError::new_err(
            "stakes must be an integer or a matrix, not a bool",
        ));
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
        return Err(err(
            ErrorKind::Table,
            format!("stakes must be a {n} x {n} matrix for {n} seats"),
        ));
    }
    Ok(StakeArg::Matrix(rows.into_iter().flatten().collect()))
}

/// The settlement of one table.
#[pyclass(frozen, module = "capsa")]
pub struct Settlement {
    inner: CoreSettlement,
    seats: Vec<SeatInput>,
}

impl Settlement {
    fn json_part<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item(key)
    }
}

fn to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import(pyo3::intern!(py, "json"))?
        .call_method1(pyo3::intern!(py, "loads"), (text,))
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
    fn seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json_part(py, "seats")
    }

    /// Per pair (i < j), from seat i's view: how it was settled and why.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json_part(py, "pairs")
    }

    /// Everything, as JSON-ready dicts and lists.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &report::settlement_json(&self.inner, &self.seats))
    }

    /// A table a player or a support agent can read.
    fn explain(&self) -> String {
        report::explain(&self.inner, &self.seats)
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
    }?;
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
        PyTypeError::new_err(format!(
            "{what} must be a numpy bool array of shape ({n}, {p})"
        ))
    })?;
    let ro = arr.readonly();
    if ro.shape() != [n, p] {
        return Err(err(
            ErrorKind::Table,
            format!("{what} must have shape ({n}, {p}), got {:?}", ro.shape()),
        ));
    }
    if !ro.is_c_contiguous() {
        return Err(err(
            ErrorKind::Table,
            format!("{what} must be C-contiguous"),
        ));
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
        return Err(err(
            ErrorKind::Table,
            format!("cards must have shape (N, P, 13) with P from 2 to 4, got {shape:?}"),
        ));
    }
    if !ro.is_c_contiguous() {
        return Err(err(
            ErrorKind::Table,
            "cards must be C-contiguous; pass numpy.ascontiguousarray(cards)",
        ));
    }
    let data = ro.as_slice()?;
    let stake_arg = match stakes {
        Some(s) if !s.is_none() => {
            if let Ok(a) = s.cast::<PyArray2<i64>>() {
                let a = a.readonly();
                if a.shape() != [p, p] {
                    return Err(err(
                        ErrorKind::Table,
                        format!("stakes must be a ({p}, {p}) matrix"),
                    ));
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
    format!("{}: {}", e.kind().name(), e.message())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Settlement>()?;
    m.add_function(wrap_pyfunction!(settle, m)?)?;
    m.add_function(wrap_pyfunction!(settle_batch, m)?)?;
    Ok(())
}
