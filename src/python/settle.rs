//! Binding of settlement: `settle` (one table, full detail) and
//! `settle_batch` (many tables, points and money only).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use super::errors::err;
use super::{as_index, card_array, int_in_range, read_cards, rules_arg, ReadError, Want};
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
/// `surrender`, `declare_natural`), 13 ids laid out top, middle, bottom, or
/// text: "top / middle / bottom" or 13 cards in row order.
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
    // "top / middle / bottom" text, as the stream reads it
    if let Ok(text) = arrangement.cast::<pyo3::types::PyString>() {
        let text = text.to_str().map_err(|_| {
            err(
                ErrorKind::Card,
                format!("seat {index}: the arrangement text is not valid Unicode"),
            )
        })?;
        let mut ids = Vec::with_capacity(13);
        crate::stream::read_arrangement_text(text, &mut ids)
            .map_err(|e| PyErr::from(e.context(format_args!("seat {index}")).at_seat(index)))?;
        seat.cards.copy_from_slice(&ids);
        return Ok(seat);
    }
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
    let want = Want {
        sizes: &[13],
        what: "an arrangement",
    };
    match read_cards(&ids_obj, &mut ids, want) {
        Ok(()) => {}
        Err(ReadError::Py(e)) if e.is_instance_of::<PyTypeError>(py) => {
            return Err(PyTypeError::new_err(format!(
                "seat {index}: a seat is an Arrangement, a Seat or 13 card ids, not {} ({})",
                super::type_name(obj),
                e.value(py)
            )))
        }
        Err(e) => return Err(e.in_seat(index).into()),
    }
    if ids.len() != 13 {
        return Err(Error::hand(format!(
            "seat {index}: an arrangement has 13 cards, got {}",
            ids.len()
        ))
        .at_seat(index)
        .into());
    }
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}

enum StakeArg {
    Default,
    Uniform(i64),
    Matrix(Vec<i64>),
}

/// An int64 stake (the core checks the sign and the symmetry).
fn stake_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    Ok(int_in_range(
        obj,
        what,
        i64::MIN as i128,
        i64::MAX as i128,
        ErrorKind::Table,
    )? as i64)
}

/// Reads `stakes`: None, one integer, or an n x n matrix (nested sequences
/// or a 2-d numpy integer array), reading at most n + 1 rows and entries.
fn read_stakes(stakes: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<StakeArg> {
    let Some(obj) = stakes else {
        return Ok(StakeArg::Default);
    };
    if obj.is_none() {
        return Ok(StakeArg::Default);
    }
    if as_index(obj)?.is_some() {
        return Ok(StakeArg::Uniform(stake_value(obj, "the stake")?));
    }
    let type_error = || {
        PyTypeError::new_err(format!(
            "stakes must be one integer or a {n} x {n} matrix of integers, not {}",
            super::type_name(obj)
        ))
    };
    let rows = if let Ok(arr) = obj.cast::<numpy::PyUntypedArray>() {
        let dtype = arr.dtype();
        if arr.ndim() != 2 || (dtype.kind() != b'i' && dtype.kind() != b'u') {
            return Err(PyTypeError::new_err(format!(
                "stakes must be one integer or a 2-d integer array, got a {}-d array of dtype {}",
                arr.ndim(),
                dtype.str()?
            )));
        }
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    let mut matrix = Vec::with_capacity(n * n);
    let size_error = |detail: String| {
        err(
            ErrorKind::Table,
            format!("stakes must be a {n} x {n} matrix for {n} seats; {detail}"),
        )
    };
    let row_list = sequence_items(&rows, n).ok_or_else(type_error)??;
    if row_list.len() != n {
        return Err(size_error(format!(
            "got {} rows",
            count_text(row_list.len(), n)
        )));
    }
    for (i, row) in row_list.iter().enumerate() {
        let items = sequence_items(row, n).ok_or_else(type_error)??;
        if items.len() != n {
            return Err(size_error(format!(
                "row {i} has {} entries",
                count_text(items.len(), n)
            )));
        }
        for (j, v) in items.iter().enumerate() {
            matrix.push(stake_value(v, &format!("stakes[{i}][{j}]"))?);
        }
    }
    Ok(StakeArg::Matrix(matrix))
}

/// At most `n + 1` items of `obj`; None when it is not a sequence of items
/// (not iterable, or a str, bytes or mapping).
fn sequence_items<'py>(
    obj: &Bound<'py, PyAny>,
    n: usize,
) -> Option<PyResult<Vec<Bound<'py, PyAny>>>> {
    if obj.is_instance_of::<pyo3::types::PyString>()
        || obj.is_instance_of::<pyo3::types::PyBytes>()
        || obj.is_instance_of::<pyo3::types::PyDict>()
    {
        return None;
    }
    let iter = obj.try_iter().ok()?;
    Some(iter.take(n + 1).collect())
}

/// "k", or "more than n" when `k` is past `n` (only `n + 1` were read).
fn count_text(k: usize, n: usize) -> String {
    if k > n {
        format!("more than {n}")
    } else {
        k.to_string()
    }
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
    let inputs = read_seats(seats)?;
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

/// The most seats at a table; one more is read to tell a table is too big.
const MAX_SEATS: usize = 4;

/// Reads the seats of one table (at most one more than a table can have).
fn read_seats(seats: &Bound<'_, PyAny>) -> PyResult<Vec<SeatInput>> {
    let not_seats = seats.is_instance_of::<pyo3::types::PyString>()
        || seats.is_instance_of::<pyo3::types::PyBytes>()
        || seats.is_instance_of::<pyo3::types::PyDict>()
        || seats.is_instance(seat_class(seats.py())?)?
        || seats.is_instance(arrangement_class(seats.py())?)?;
    let iter = if not_seats {
        None
    } else {
        seats.try_iter().ok()
    };
    let Some(iter) = iter else {
        return Err(PyTypeError::new_err(format!(
            "seats must be a list of 2 to 4 seats (Arrangement, Seat or 13 card ids), not {}",
            super::type_name(seats)
        )));
    };
    let mut inputs: Vec<SeatInput> = Vec::with_capacity(MAX_SEATS);
    for (k, item) in iter.enumerate() {
        if k == MAX_SEATS {
            return Err(err(
                ErrorKind::Table,
                format!("a table has 2 to {MAX_SEATS} seats, got more than {MAX_SEATS}"),
            ));
        }
        inputs.push(read_seat(&item?, k)?);
    }
    Ok(inputs)
}

/// `capsa.arrangement.Arrangement`, looked up once.
fn arrangement_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static ARRANGEMENT: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    ARRANGEMENT
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(
                py.import("capsa.arrangement")?
                    .getattr("Arrangement")?
                    .unbind(),
            )
        })
        .map(|c| c.bind(py))
}

/// Reads a surrender or declare_natural flag array: numpy bool of shape
/// (n, p), any strides (copied row-major).
fn read_flags(
    obj: Option<&Bound<'_, PyAny>>,
    n: usize,
    p: usize,
    what: &str,
) -> PyResult<Option<Vec<bool>>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    let Ok(arr) = obj.cast::<numpy::PyArrayDyn<bool>>() else {
        let got = match obj.cast::<numpy::PyUntypedArray>() {
            Ok(a) => format!("dtype {}", a.dtype().str()?),
            Err(_) => super::type_name(obj),
        };
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy bool array of shape ({n}, {p}), got {got}"
        )));
    };
    let ro = arr.readonly();
    if ro.shape() != [n, p] {
        return Err(err(
            ErrorKind::Table,
            format!("{what} must have shape ({n}, {p}), got {:?}", ro.shape()),
        ));
    }
    Ok(Some(ro.as_array().iter().copied().collect()))
}

/// Checks the stakes argument of a batch once, before any row.
fn check_batch_stakes(p: usize, stakes: &Stakes) -> PyResult<()> {
    stakes
        .check(p)
        .map_err(|e| PyErr::from(e.context("stakes")))
}

/// Settles N tables of P seats: cards (N, P, 13) of any integer dtype.
/// Returns points and money as int64 (N, P) and the list of (row, message)
/// of rows that could not be settled (their points and money are zero). A
/// bad argument (the array, stakes, flags) raises before any row is settled.
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
    let arr = card_array(cards, "cards", "(N, P, 13) with P from 2 to 4", |shape| {
        shape.len() == 3 && shape[2] == 13 && (2..=MAX_SEATS).contains(&shape[1])
    })?;
    let (n, p) = (arr.shape[0], arr.shape[1]);
    let data = arr.ids()?;
    let stake_arg = read_stakes(stakes, p)?;
    let stakes = match &stake_arg {
        StakeArg::Default => Stakes::Uniform(r.stake),
        StakeArg::Uniform(v) => Stakes::Uniform(*v),
        StakeArg::Matrix(m) => Stakes::Matrix(m),
    };
    check_batch_stakes(p, &stakes)?;
    let sur = read_flags(surrender, n, p, "surrender")?;
    let dec = read_flags(declare_natural, n, p, "declare_natural")?;
    let (sur, dec) = (sur.as_deref(), dec.as_deref());
    let mut points = vec![0i64; n * p];
    let mut money = vec![0i64; n * p];
    let errors: Vec<(usize, String)> = py.detach(|| {
        let chunk = (n / (rayon::current_num_threads() * 8)).clamp(64, 8192);
        points
            .par_chunks_mut(chunk * p)
            .zip(money.par_chunks_mut(chunk * p))
            .zip(data.par_chunks(chunk * p * 13))
            .enumerate()
            .flat_map_iter(|(c, ((pts, mon), tables))| {
                let mut errs = Vec::new();
                let mut seats = [SeatInput {
                    cards: [0; 13],
                    surrender: false,
                    declare_natural: true,
                }; MAX_SEATS];
                let rows = pts
                    .chunks_mut(p)
                    .zip(mon.chunks_mut(p))
                    .zip(tables.chunks_exact(p * 13));
                for (k, ((pt, mo), table)) in rows.enumerate() {
                    let row = c * chunk + k;
                    for (s, (seat, ids)) in seats.iter_mut().zip(table.chunks_exact(13)).enumerate()
                    {
                        seat.cards.copy_from_slice(ids);
                        let flag = row * p + s;
                        seat.surrender = sur.is_some_and(|f| f.get(flag) == Some(&true));
                        seat.declare_natural = dec.is_none_or(|f| f.get(flag) != Some(&false));
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
    let as_array = |v: Vec<i64>| {
        Array2::from_shape_vec((n, p), v)
            .map_err(|e| err(ErrorKind::Table, format!("cannot shape the result: {e}")))
    };
    let (points, money) = (as_array(points)?, as_array(money)?);
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
