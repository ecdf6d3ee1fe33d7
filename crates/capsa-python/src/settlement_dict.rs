//! `Settlement.to_dict()`: the record `capsa settle` writes (see
//! `capsa_core::settlement_text`), built straight as Python dicts and lists, equal to
//! `json.loads` of that record, keys in the same order.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};

use capsa_core::arrangement::cards_text;
use capsa_core::natural_kind::NATURAL_NAMES;
use capsa_core::rank::{category_of, CATEGORY_NAMES};
use capsa_core::settle::{PairResult, SeatInput, SeatResult, Settlement};
use capsa_core::settlement_text::{row_cards, OUTCOME_NAMES, ROWS_SORTED};

/// Names as Python strs made once: they repeat in every record.
struct KeptNames {
    names: &'static [&'static str],
    kept: PyOnceLock<Vec<Py<PyString>>>,
}

impl KeptNames {
    const fn new(names: &'static [&'static str]) -> Self {
        KeptNames {
            names,
            kept: PyOnceLock::new(),
        }
    }

    fn get<'py>(&self, py: Python<'py>, k: usize) -> Bound<'py, PyString> {
        let kept = self.kept.get_or_init(py, || {
            let str_of = |n: &&str| PyString::intern(py, n).unbind();
            self.names.iter().map(str_of).collect()
        });
        kept[k].bind(py).clone()
    }
}

static CATEGORIES: KeptNames = KeptNames::new(&CATEGORY_NAMES);
static NATURALS: KeptNames = KeptNames::new(&NATURAL_NAMES);
static OUTCOMES: KeptNames = KeptNames::new(&OUTCOME_NAMES);

/// The value a key of a [`Shape`] holds in its template: the one most
/// records have, so that filling a copy sets only the keys that differ.
#[derive(Clone, Copy)]
enum Usual {
    None,
    Int(i64),
    Bool(bool),
}

/// A record of one shape: its keys, in order, each holding its usual value.
/// Copying it and setting the values that differ skips growing a new dict
/// key by key and most of the setting.
struct Shape {
    keys: &'static [(&'static str, Usual)],
    template: PyOnceLock<Py<PyDict>>,
}

impl Shape {
    const fn new(keys: &'static [(&'static str, Usual)]) -> Self {
        Shape {
            keys,
            template: PyOnceLock::new(),
        }
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let template = self.template.get_or_try_init(py, || -> PyResult<_> {
            let d = PyDict::new(py);
            for &(key, usual) in self.keys {
                let key = PyString::intern(py, key);
                match usual {
                    Usual::None => d.set_item(key, py.None())?,
                    Usual::Int(v) => d.set_item(key, v)?,
                    Usual::Bool(v) => d.set_item(key, v)?,
                }
            }
            Ok(d.unbind())
        })?;
        template.bind(py).copy()
    }
}

/// Sets `key` to `value` unless the template already holds it (`usual`).
fn set_unless<'py, T: PartialEq + IntoPyObject<'py>>(
    d: &Bound<'py, PyDict>,
    key: &Bound<'py, PyString>,
    value: T,
    usual: T,
) -> PyResult<()> {
    if value != usual {
        d.set_item(key, value)?;
    }
    Ok(())
}

static RECORD: Shape = Shape::new(&[
    ("money", Usual::None),
    ("net", Usual::None),
    ("pairs", Usual::None),
    ("points", Usual::None),
    ("rake", Usual::None),
    ("seats", Usual::None),
]);
static PAIR: Shape = Shape::new(&[
    ("bonus", Usual::Int(0)),
    ("money", Usual::None),
    ("multiplier", Usual::Int(1)),
    ("outcome", Usual::None),
    ("overall", Usual::Int(0)),
    ("points", Usual::None),
    ("row_points", Usual::None),
    ("rows", Usual::None),
    ("royalties", Usual::Int(0)),
    ("scoop", Usual::Int(0)),
    ("seats", Usual::None),
    ("stake", Usual::None),
    ("sweep_all", Usual::Bool(false)),
]);
/// A pair with a term after its base that is not neutral: its terms too.
static PAIR_TERMS: Shape = Shape::new(&[
    ("base", Usual::None),
    ("bonus", Usual::Int(0)),
    ("cap", Usual::Int(0)),
    ("horse", Usual::Int(1)),
    ("money", Usual::None),
    ("multiplier", Usual::Int(1)),
    ("natural_bonus", Usual::Int(0)),
    ("outcome", Usual::None),
    ("overall", Usual::Int(0)),
    ("points", Usual::None),
    ("row_points", Usual::None),
    ("rows", Usual::None),
    ("royalties", Usual::Int(0)),
    ("scoop", Usual::Int(0)),
    ("seat_multiplier", Usual::Int(1)),
    ("seats", Usual::None),
    ("stake", Usual::None),
    ("sweep_all", Usual::Bool(false)),
]);
static SEAT: Shape = Shape::new(&[
    ("foul", Usual::Bool(false)),
    ("money", Usual::None),
    ("natural", Usual::None),
    ("natural_points", Usual::Int(0)),
    ("net", Usual::None),
    ("points", Usual::None),
    ("rake", Usual::Int(0)),
    ("rows", Usual::None),
    ("seat", Usual::None),
    ("surrender", Usual::Bool(false)),
    ("swept_all", Usual::Bool(false)),
]);
static ROWS: Shape = Shape::new(&[
    ("bottom", Usual::None),
    ("middle", Usual::None),
    ("top", Usual::None),
]);
static ROW: Shape = Shape::new(&[
    ("cards", Usual::None),
    ("category", Usual::None),
    ("royalty", Usual::Int(0)),
    ("strength", Usual::None),
]);

/// The key of a row.
fn row_key<'py>(py: Python<'py>, row: usize) -> &'py Bound<'py, PyString> {
    match row {
        0 => intern!(py, "top"),
        1 => intern!(py, "middle"),
        _ => intern!(py, "bottom"),
    }
}

fn figures<'py>(
    py: Python<'py>,
    s: &Settlement,
    f: fn(&SeatResult) -> i64,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, s.seats.iter().map(f))
}

/// A pair's rows (or a seat's row records) keyed bottom, middle, top.
fn rows_dict<'py, T: IntoPyObject<'py>>(
    py: Python<'py>,
    row: impl Fn(usize) -> PyResult<T>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = ROWS.dict(py)?;
    for (_, k) in ROWS_SORTED {
        d.set_item(row_key(py, k), row(k)?)?;
    }
    Ok(d)
}

fn pair_dict<'py>(py: Python<'py>, p: &PairResult) -> PyResult<Bound<'py, PyDict>> {
    // the terms only where one is not neutral: as `settlement_text::push_pair`
    let d = if p.has_terms() {
        let d = PAIR_TERMS.dict(py)?;
        d.set_item(intern!(py, "base"), p.base)?;
        set_unless(&d, intern!(py, "cap"), p.cap, 0)?;
        set_unless(&d, intern!(py, "horse"), p.horse, 1)?;
        set_unless(&d, intern!(py, "natural_bonus"), p.natural_bonus, 0)?;
        set_unless(&d, intern!(py, "seat_multiplier"), p.seat_multiplier, 1)?;
        d
    } else {
        PAIR.dict(py)?
    };
    set_unless(&d, intern!(py, "bonus"), p.bonus, 0)?;
    d.set_item(intern!(py, "money"), p.money)?;
    set_unless(&d, intern!(py, "multiplier"), p.multiplier, 1)?;
    d.set_item(intern!(py, "outcome"), OUTCOMES.get(py, p.outcome as usize))?;
    set_unless(&d, intern!(py, "overall"), p.overall, 0)?;
    d.set_item(intern!(py, "points"), p.points)?;
    d.set_item(intern!(py, "row_points"), p.row_points)?;
    d.set_item(intern!(py, "rows"), rows_dict(py, |k| Ok(p.rows[k]))?)?;
    set_unless(&d, intern!(py, "royalties"), p.royalties, 0)?;
    set_unless(&d, intern!(py, "scoop"), p.scoop, 0)?;
    d.set_item(intern!(py, "seats"), PyList::new(py, [p.i, p.j])?)?;
    d.set_item(intern!(py, "stake"), p.stake)?;
    set_unless(&d, intern!(py, "sweep_all"), p.sweep_all, false)?;
    Ok(d)
}

fn row_dict<'py>(
    py: Python<'py>,
    r: &SeatResult,
    input: &SeatInput,
    row: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = ROW.dict(py)?;
    let strength = r.strengths[row];
    d.set_item(
        intern!(py, "cards"),
        cards_text(row_cards(&input.cards, row)),
    )?;
    d.set_item(
        intern!(py, "category"),
        CATEGORIES.get(py, category_of(strength) as usize),
    )?;
    set_unless(&d, intern!(py, "royalty"), r.royalties[row], 0)?;
    d.set_item(intern!(py, "strength"), strength)?;
    Ok(d)
}

fn seat_dict<'py>(
    py: Python<'py>,
    k: usize,
    r: &SeatResult,
    input: &SeatInput,
) -> PyResult<Bound<'py, PyDict>> {
    let d = SEAT.dict(py)?;
    set_unless(&d, intern!(py, "foul"), r.foul, false)?;
    d.set_item(intern!(py, "money"), r.money)?;
    if let Some((natural, points)) = r.natural {
        d.set_item(intern!(py, "natural"), NATURALS.get(py, natural as usize))?;
        set_unless(&d, intern!(py, "natural_points"), points, 0)?;
    }
    d.set_item(intern!(py, "net"), r.net)?;
    d.set_item(intern!(py, "points"), r.points)?;
    set_unless(&d, intern!(py, "rake"), r.rake, 0)?;
    d.set_item(
        intern!(py, "rows"),
        rows_dict(py, |row| row_dict(py, r, input, row))?,
    )?;
    d.set_item(intern!(py, "seat"), k)?;
    set_unless(&d, intern!(py, "surrender"), r.surrender, false)?;
    set_unless(&d, intern!(py, "swept_all"), r.swept_all, false)?;
    Ok(d)
}

/// The pairs of a settlement as `to_dict()` gives them.
pub(crate) fn pairs_list<'py>(py: Python<'py>, s: &Settlement) -> PyResult<Bound<'py, PyList>> {
    let pairs = s
        .pairs
        .iter()
        .map(|p| pair_dict(py, p))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, pairs)
}

/// The seats of a settlement as `to_dict()` gives them.
pub(crate) fn seats_list<'py>(
    py: Python<'py>,
    s: &Settlement,
    inputs: &[SeatInput],
) -> PyResult<Bound<'py, PyList>> {
    let seats = s
        .seats
        .iter()
        .zip(inputs)
        .enumerate()
        .map(|(k, (r, input))| seat_dict(py, k, r, input))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, seats)
}

/// A settlement's record as Python data (`json.loads` of
/// `settlement_text::settlement_json`).
pub(crate) fn settlement_dict<'py>(
    py: Python<'py>,
    s: &Settlement,
    inputs: &[SeatInput],
) -> PyResult<Bound<'py, PyDict>> {
    let d = RECORD.dict(py)?;
    d.set_item(intern!(py, "money"), figures(py, s, |r| r.money)?)?;
    d.set_item(intern!(py, "net"), figures(py, s, |r| r.net)?)?;
    d.set_item(intern!(py, "pairs"), pairs_list(py, s)?)?;
    d.set_item(intern!(py, "points"), figures(py, s, |r| r.points)?)?;
    d.set_item(intern!(py, "rake"), figures(py, s, |r| r.rake)?)?;
    d.set_item(intern!(py, "seats"), seats_list(py, s, inputs)?)?;
    Ok(d)
}
