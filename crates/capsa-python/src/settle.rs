//! Binding of settlement: `settle` (one table, full detail) and
//! `settle_batch` (many tables, points and money only).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::conversion::cards::table_cards;
use super::conversion::choices::RulesArg;
use super::conversion::flags::read_flags;
use super::conversion::numbers::table_seats_arg;
use super::conversion::roles::{batch_roles, seat_roles};
use super::conversion::seats::read_seats;
use super::conversion::stakes::stakes_arg;
use super::settlement_dict::{pairs_list, seats_list, settlement_dict};
use crate::errors::{err, py_err};
use capsa_core::batch::{self, SeatFlags};
use capsa_core::error::{Error, ErrorKind};
use capsa_core::settle::{
    self as core, check_table_seats, SeatInput, Settlement as CoreSettlement,
};
use capsa_core::settlement_text;
use capsa_core::stakes::StakeSpec;

/// A settlement drawn by `capsa.render`'s `draw` (the drawing is Python's:
/// the extension holds no markup), in `lang` ("en" when not given), with
/// the `options` given.
fn drawn<'py>(
    settlement: &Bound<'py, Settlement>,
    draw: &str,
    lang: Option<&Bound<'py, PyAny>>,
    options: &[(&str, Option<&Bound<'py, PyAny>>)],
) -> PyResult<Bound<'py, PyAny>> {
    let py = settlement.py();
    let lang = match lang {
        Some(lang) => lang.clone(),
        None => PyString::new(py, "en").into_any(),
    };
    let given = PyDict::new(py);
    for (name, value) in options {
        if let Some(value) = value {
            given.set_item(name, value)?;
        }
    }
    py.import("capsa.render")?
        .getattr(draw)?
        .call((settlement, lang), Some(&given))
}

/// The settlement of one table (what ``settle`` returns; not built directly).
///
/// Every figure is an exact integer. ``points`` are game points; ``money``,
/// ``rake`` and ``net`` are money in minor units. Points sum to zero over the
/// seats, money too, and net plus rake.
#[pyclass(frozen, module = "capsa")]
pub struct Settlement {
    inner: CoreSettlement,
    seats: Vec<SeatInput>,
}

impl Settlement {
    /// The settlement of `seats` (as settled), for the Python layer.
    pub(crate) fn new(inner: CoreSettlement, seats: Vec<SeatInput>) -> Self {
        Settlement { inner, seats }
    }
}

#[pymethods]
impl Settlement {
    /// Each seat's points for the round, in seat order (they sum to zero).
    #[getter]
    fn points(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.points).collect()
    }

    /// Each seat's money in minor units: its points against each opponent times
    /// that pair's stake (they sum to zero).
    #[getter]
    fn money(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.money).collect()
    }

    /// The house's rake from each seat in minor units: a share of a winner's
    /// money, 0 for the others (docs/rules.md, "Money, rake and exactness").
    #[getter]
    fn rake(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.rake).collect()
    }

    /// Each seat's money after rake, in minor units (``money - rake``).
    #[getter]
    fn net(&self) -> Vec<i64> {
        self.inner.seats.iter().map(|s| s.net).collect()
    }

    /// The number of seats, 2 to 8.
    #[getter]
    fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// Per seat, a dict: ``seat``; ``rows`` (``top``, ``middle``, ``bottom``:
    /// each row's ``cards`` text, ``category``, ``strength`` and ``royalty``);
    /// ``foul``, ``surrender``, ``natural`` (its name or None),
    /// ``natural_points``, ``swept_all``; ``points``, ``money``, ``rake`` and
    /// ``net``.
    #[getter]
    fn seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(seats_list(py, &self.inner, &self.seats)?.into_any())
    }

    /// Per pair of seats i < j, a dict from seat i's view: ``seats`` (``[i,
    /// j]``); ``outcome`` (``"natural"``, ``"surrender"``, ``"foul"`` or
    /// ``"rows"``); ``rows`` (each row won 1, lost -1 or tied 0);
    /// ``row_points``, ``overall``, ``royalties``; ``scoop`` (1 i scooped, -1 j
    /// did, else 0), ``sweep_all``, ``multiplier``, ``bonus``; ``points``,
    /// ``stake`` and ``money`` (what i collects from j).
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pairs_list(py, &self.inner)?.into_any())
    }

    /// Everything as JSON-ready dicts and lists: ``points``, ``money``,
    /// ``rake``, ``net``, ``seats`` and ``pairs`` (as the properties give
    /// them), the record ``capsa settle`` writes.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(settlement_dict(py, &self.inner, &self.seats)?.into_any())
    }

    /// A text table a player or a support agent can read: each seat's rows and
    /// figures, then one line per pair saying how it was settled.
    fn explain(&self) -> String {
        settlement_text::explain(&self.inner, &self.seats)
    }

    /// The showdown as a self-contained HTML page (``capsa.render.settlement_html``).
    ///
    /// ``lang`` is ``"en"`` or ``"id"`` (Indonesian, with the game's own
    /// terms); ``rules`` (the rules it was settled under) lets each payment
    /// name the rule's figures where the settlement gives only a total;
    /// ``round_id``, ``seat_names`` (one str per seat) and ``title`` are
    /// shown as text, escaped.
    ///
    /// Raises ``ArgumentError`` for an unknown ``lang`` or a ``round_id``
    /// integer too long to write, ``TypeError`` for arguments of the wrong
    /// type, ``TableError`` for ``seat_names`` of the wrong length.
    #[pyo3(
        signature = (lang=None, *, rules=None, round_id=None, seat_names=None, title=None),
        text_signature = "($self, lang='en', *, rules=None, round_id=None, seat_names=None, title=None)"
    )]
    fn to_html<'py>(
        slf: &Bound<'py, Self>,
        lang: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        round_id: Option<&Bound<'py, PyAny>>,
        seat_names: Option<&Bound<'py, PyAny>>,
        title: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = [
            ("rules", rules),
            ("round_id", round_id),
            ("seat_names", seat_names),
            ("title", title),
        ];
        drawn(slf, "settlement_html", lang, &options)
    }

    /// The showdown as a standalone SVG picture (``capsa.render.settlement_svg``).
    ///
    /// ``lang``, ``rules``, ``round_id``, ``seat_names`` and ``title`` as
    /// :meth:`to_html`; ``width`` the picture's width in CSS px, 360 to 2000
    /// (980 by default: two columns of seats; ``capsa.render.NARROW``, 380,
    /// draws a phone's picture).
    ///
    /// Raises as :meth:`to_html`, and ``ArgumentError`` for a ``width``
    /// outside its range.
    #[pyo3(
        signature = (lang=None, *, rules=None, round_id=None, seat_names=None, title=None, width=None),
        text_signature = "($self, lang='en', *, rules=None, round_id=None, seat_names=None, title=None, width=980)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn to_svg<'py>(
        slf: &Bound<'py, Self>,
        lang: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        round_id: Option<&Bound<'py, PyAny>>,
        seat_names: Option<&Bound<'py, PyAny>>,
        title: Option<&Bound<'py, PyAny>>,
        width: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = [
            ("rules", rules),
            ("round_id", round_id),
            ("seat_names", seat_names),
            ("title", title),
            ("width", width),
        ];
        drawn(slf, "settlement_svg", lang, &options)
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

/// Settles one table of 2 to 4 seats (to 8 under a larger deck): who pays
/// whom, and why.
///
/// ``seats`` is a list, tuple or other iterable of seats (reading stops one
/// past the most the rules' deck seats).
/// A seat is read by its public attributes, never by its class: an object with
/// ``arrangement`` (a seat, as ``capsa.Seat``: that arrangement, read as the
/// others, and its bool ``surrender`` and ``declare_natural``, both required);
/// an object with ``ids`` (an arrangement, as ``capsa.Arrangement``); text,
/// ``"top / middle / bottom"`` (rows separated by ``/`` or ``|``) or the 13
/// cards in row order; or 13 cards laid out top 0-2, middle 3-7, bottom 8-12,
/// as a list, tuple, numpy array or other iterable of ``Card`` objects, integer
/// ids of the rules' deck or one-card texts (a row of ``splits()`` is one). Only a seat with
/// ``arrangement`` surrenders or declines its natural. ``rules`` is a
/// ``capsa.Rules`` or None (the capsa-susun preset). ``stakes``, in minor units
/// per point, is None (the rules' ``money.stake`` for every pair), one integer
/// for every pair, or a seats x seats symmetric matrix of non-negative integers
/// (nested sequences or a 2-d numpy integer array; the diagonal is ignored).
/// ``banker`` names the banker seat of a banker game (required when the
/// rules' ``banker.enabled``, refused otherwise) and ``multipliers`` gives
/// each seat's stake multiplier (1 each when None; the banker's 1, the
/// others' in ``1..=banker.max_multiplier``; all 1 outside a banker game).
///
/// Returns a ``Settlement``: points, money (minor units), rake and net per
/// seat, per-seat and per-pair detail, ``explain()`` and ``to_dict()``.
///
/// Raises ``TableError`` for a number of seats the rules' deck does not seat
/// (2 to 4 with the 52-card deck), stakes that are negative, not symmetric
/// or of the wrong shape, a surrender the rules do not enable, a banker or
/// multipliers the rules do not allow (naming the seat and value), a fouled
/// arrangement under ``foul.mode = "refuse"``, or figures that do not fit in
/// 64 bits; ``ArgumentError`` for a banker that is not a seat or multipliers
/// that are not one integer per seat; ``CardError`` and ``HandError`` for a
/// bad card (one the rules' deck does not hold), a seat without 13 cards or
/// a card held twice (the error's ``seat`` names the seat); ``TypeError``
/// for seats that are not an iterable of seats (a str, a single
/// ``Arrangement`` or ``Seat``, a mapping), a seat of another type, a seat
/// whose ``surrender`` or ``declare_natural`` is missing or not a bool,
/// stakes given as a float, bool, str or non-integer array, or ``rules``
/// that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (seats, rules=None, stakes=None, *, banker=None, multipliers=None))]
fn settle(
    seats: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    stakes: Option<&Bound<'_, PyAny>>,
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let mut inputs = read_seats(seats, &r.deck)?;
    if banker.is_some() || multipliers.is_some() {
        check_table_seats(&r.deck, inputs.len()).map_err(py_err)?;
        seat_roles(banker, multipliers, &mut inputs)?;
    }
    let spec = stakes_arg(stakes, inputs.len())?.unwrap_or(StakeSpec::Uniform(r.stake));
    let inner = core::settle(r, &inputs, &spec.stakes()).map_err(py_err)?;
    Ok(Settlement {
        inner,
        seats: inputs,
    })
}

/// Settles N tables of P seats at once, without the GIL, on every core.
///
/// ``cards`` is a numpy array of card ids of shape (N, P, 13), P from 2 to 4
/// (to as many as a larger deck deals 13 cards to, at most 8), each seat's
/// ids laid out top 0-2, middle 3-7, bottom 8-12; any integer
/// dtype, byte order and strides; N may be 0. ``rules`` is a ``capsa.Rules``
/// or None (the capsa-susun preset). ``stakes`` is None (the rules'
/// ``money.stake``), one integer or a P x P symmetric matrix of non-negative
/// integers (nested sequences or a 2-d numpy integer array; the diagonal is
/// ignored).
/// ``surrender`` and ``declare_natural`` are None (no seat surrenders, every
/// seat declares) or numpy bool arrays of shape (N, P). ``banker`` is None,
/// one seat for every table or an int array of shape (N,) (-1: that table
/// has no banker), ``multipliers`` None or an int array of shape (N, P),
/// as :func:`settle` takes them; a table whose roles the rules do not
/// allow is an error row.
///
/// Returns (points, money, errors): int64 arrays of shape (N, P), points and
/// money in minor units (before rake), zero on the rows that could not be
/// settled, and errors, a list of (row index, ``"Kind: message"``) for
/// those rows (a repeated card, a card the rules' deck does not hold, a
/// surrender the rules do not enable, figures past 64 bits).
///
/// Raises, before any row is settled: ``TableError`` for another shape,
/// stakes that are negative, not symmetric or of the wrong shape, or flag
/// arrays of the wrong shape; ``CardError`` for an id outside 0..105 in an
/// array that is not uint8 (naming its row, seat and column); ``TypeError``
/// for a non-array or non-integer ``cards``, stakes given as a float, bool,
/// str or non-integer array, flags that are not numpy bool arrays, or
/// ``rules`` that is not a ``capsa.Rules`` or None.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, stakes=None, surrender=None, declare_natural=None, *, banker=None, multipliers=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn settle_batch<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
    stakes: Option<&Bound<'py, PyAny>>,
    surrender: Option<&Bound<'py, PyAny>>,
    declare_natural: Option<&Bound<'py, PyAny>>,
    banker: Option<&Bound<'py, PyAny>>,
    multipliers: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<i64>>,
    Vec<(usize, String)>,
)> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let arr = table_cards(cards, &r.deck)?;
    let (n, p) = (arr.shape[0], arr.shape[1]);
    let data = arr.ids()?;
    let spec = stakes_arg(stakes, p)?.unwrap_or(StakeSpec::Uniform(r.stake));
    let stakes = spec.stakes();
    let surrender = read_flags(surrender, n, p, "surrender")?;
    let declare_natural = read_flags(declare_natural, n, p, "declare_natural")?;
    let (banker, multipliers) = batch_roles(banker, multipliers, n, p)?;
    let flags = SeatFlags {
        surrender: surrender.as_deref(),
        declare_natural: declare_natural.as_deref(),
        banker: Some(&banker),
        multipliers: multipliers.as_deref(),
    };
    let result = py
        .detach(|| batch::settle_tables(r, data, p, &stakes, flags))
        .map_err(py_err)?;
    let as_array = |v: Vec<i64>| {
        Array2::from_shape_vec((n, p), v)
            .map_err(|e| err(ErrorKind::Table, format!("cannot shape the result: {e}")))
    };
    let errors = result
        .errors
        .into_iter()
        .map(|(row, e)| (row, describe(e)))
        .collect();
    let (points, money) = (as_array(result.points)?, as_array(result.money)?);
    Ok((points.into_pyarray(py), money.into_pyarray(py), errors))
}

fn describe(e: Error) -> String {
    format!("{}: {}", e.kind().name(), e.message())
}

// the core's `settle::largest_seat_points`
/// The most points a seat of a ``seats``-seat table can settle for,
/// either way, under ``rules``: ``seats - 1`` times the most a pair settles
/// for (the largest of a declared natural, a surrender, a foul and a scoop
/// of every row with its royalties, by the rules' values), saturating at
/// 2**127-1. ``TableError`` for a seat count the rules' deck does not deal
/// (outside 2..4 for the 52-card deck), ``TypeError`` for rules that are
/// not a ``capsa.Rules`` or None.
#[pyfunction]
fn largest_seat_points(rules: Option<RulesArg<'_>>, seats: &Bound<'_, PyAny>) -> PyResult<i128> {
    let rules = rules.unwrap_or_default();
    let seats = table_seats_arg(seats, &rules.get().deck)?;
    Ok(core::largest_seat_points(rules.get(), seats))
}

// the core's `settle::check_settlement_fits`
/// Checks that every round of a ``seats``-seat table under ``rules`` and
/// ``stakes`` (None: the rules' stake) settles with every figure in 64
/// bits: ``ArgumentError`` naming the stake (or a seat's row of stakes, or
/// the rules) and the bound otherwise; what ``settle`` raises for stakes
/// that are not stakes.
#[pyfunction]
fn check_settlement_fits(
    rules: Option<RulesArg<'_>>,
    seats: &Bound<'_, PyAny>,
    stakes: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let rules = rules.unwrap_or_default();
    let r = rules.get();
    let seats = table_seats_arg(seats, &r.deck)?;
    let spec = stakes_arg(stakes, seats)?.unwrap_or(StakeSpec::Uniform(r.stake));
    core::check_settlement_fits(r, seats, &spec.stakes()).map_err(py_err)
}

/// The banker seat and each seat's multiplier of a ``seats``-seat table under
/// ``rules``, read and checked as :func:`settle` reads and checks them
/// (``None``: no banker, every multiplier 1): ``(banker or None,
/// multipliers)``. ``ArgumentError``/``TableError`` naming what is wrong (a
/// banker the rules do not play, none in a banker game, a multiplier out of
/// range), ``TypeError`` for a value that is not an int.
#[pyfunction]
#[pyo3(signature = (rules, seats, banker=None, multipliers=None))]
fn read_seat_roles(
    rules: Option<RulesArg<'_>>,
    seats: &Bound<'_, PyAny>,
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<usize>, Vec<i64>)> {
    let rules = rules.unwrap_or_default();
    let n = table_seats_arg(seats, &rules.get().deck)?;
    let mut inputs = vec![SeatInput::playing([0; 13], true); n];
    seat_roles(banker, multipliers, &mut inputs)?;
    core::check_banker(rules.get(), &inputs).map_err(py_err)?;
    Ok((
        inputs.iter().position(|s| s.banker),
        inputs.iter().map(|s| s.multiplier).collect(),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Settlement>()?;
    m.add_function(wrap_pyfunction!(read_seat_roles, m)?)?;
    m.add_function(wrap_pyfunction!(largest_seat_points, m)?)?;
    m.add_function(wrap_pyfunction!(check_settlement_fits, m)?)?;
    m.add_function(wrap_pyfunction!(settle, m)?)?;
    m.add_function(wrap_pyfunction!(settle_batch, m)?)?;
    Ok(())
}
