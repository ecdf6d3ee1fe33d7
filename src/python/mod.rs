//! The Python binding: converts types, maps errors, releases the GIL around
//! batch work. No game logic lives here.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use std::sync::OnceLock;

use crate::cards::{
    card_text, check_distinct, check_hand, parse_text, rank_index, suit, SUIT_CHARS,
};
use crate::error::{Error, ErrorKind};
use crate::naturals::{self as natural_core, Natural, NATURAL_NAMES};
use crate::rank::{
    category_index, category_of, parse_suit_order, Evaluator, Ranking, CATEGORY_NAMES,
};
use crate::rules::{FoulMode, NaturalResolve, NaturalTies, RoyaltyMode, Rules};
use crate::splits as split_core;
use errors::err;

// ---------------------------------------------------------------- cards

/// A playing card. `Card("As")`, `Card(51)`.
#[pyclass(frozen, eq, ord, hash, module = "capsa")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    id: u8,
}

fn card_id_from_int(v: i64) -> PyResult<u8> {
    if (0..52).contains(&v) {
        Ok(v as u8)
    } else {
        Err(err(
            ErrorKind::Card,
            format!("card id {v} is outside 0..51"),
        ))
    }
}

#[pymethods]
impl Card {
    #[new]
    fn py_new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(c) = card.cast::<Card>() {
            return Ok(*c.get());
        }
        if let Ok(s) = card.cast::<PyString>() {
            let text = s.to_str()?;
            let mut ids = Vec::with_capacity(1);
            parse_text(text, &mut ids)?;
            if ids.len() != 1 {
                return Err(err(
                    ErrorKind::Card,
                    format!("Card() takes one card, got {} in {text:?}", ids.len()),
                ));
            }
            return Ok(Card { id: ids[0] });
        }
        if let Ok(v) = card.extract::<i64>() {
            return Ok(Card {
                id: card_id_from_int(v)?,
            });
        }
        Err(PyTypeError::new_err(format!(
            "Card() takes a card text or an id 0..51, not {}",
            card.get_type().name()?
        )))
    }

    /// The card id, `4 * (rank - 2) + suit` with d=0, c=1, h=2, s=3.
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }

    /// Rank 2..14 (ace is 14).
    #[getter]
    fn rank(&self) -> u8 {
        rank_index(self.id) + 2
    }

    /// Suit letter: "d", "c", "h" or "s".
    #[getter]
    fn suit(&self) -> &'static str {
        ["d", "c", "h", "s"][suit(self.id) as usize]
    }

    fn __str__(&self) -> String {
        card_text(self.id)
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", card_text(self.id))
    }

    fn __int__(&self) -> u8 {
        self.id
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u8,))> {
        Ok((slf.get_type().into_any(), (slf.get().id,)))
    }
}

/// Reads cards given as text, a sequence of `Card`s or ids, or a numpy array.
pub(crate) fn read_cards(obj: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> PyResult<()> {
    if let Ok(s) = obj.cast::<PyString>() {
        return parse_text(s.to_str()?, out).map_err(PyErr::from);
    }
    let push = |item: &Bound<'_, PyAny>, out: &mut Vec<u8>| -> PyResult<()> {
        if let Ok(c) = item.cast::<Card>() {
            out.push(c.get().id);
            return Ok(());
        }
        if let Ok(v) = item.extract::<i64>() {
            out.push(card_id_from_int(v)?);
            return Ok(());
        }
        if let Ok(s) = item.cast::<PyString>() {
            let before = out.len();
            parse_text(s.to_str()?, out)?;
            if out.len() != before + 1 {
                return Err(err(
                    ErrorKind::Card,
                    format!("expected one card, got {:?}", s.to_str()?),
                ));
            }
            return Ok(());
        }
        Err(PyTypeError::new_err(format!(
            "a card is a Card, an id 0..51 or a text like 'As', not {}",
            item.get_type().name()?
        )))
    };
    if let Ok(list) = obj.cast::<PyList>() {
        for item in list.iter() {
            push(&item, out)?;
        }
        return Ok(());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        for item in tuple.iter() {
            push(&item, out)?;
        }
        return Ok(());
    }
    if obj.cast::<Card>().is_ok() {
        return Err(err(
            ErrorKind::Hand,
            "expected several cards, got a single Card",
        ));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "cards must be a text, a sequence of Card or ids, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    for item in iter {
        push(&item?, out)?;
    }
    Ok(())
}

pub(crate) fn read_hand(obj: &Bound<'_, PyAny>, sizes: &[usize], what: &str) -> PyResult<Vec<u8>> {
    let mut ids = Vec::with_capacity(13);
    read_cards(obj, &mut ids)?;
    check_hand(&ids, sizes, what)?;
    Ok(ids)
}

/// Parses cards written as text ("As Kd 10h", commas allowed, suit symbols too).
#[pyfunction]
fn parse_cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let s = text
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("parse_cards() takes a str"))?;
    let mut ids = Vec::new();
    parse_text(s.to_str()?, &mut ids)?;
    check_distinct(&ids)?;
    Ok(ids.into_iter().map(|id| Card { id }).collect())
}

/// Checks and converts any accepted card input to ids (distinct, in range).
#[pyfunction]
#[pyo3(signature = (cards, count=None))]
fn card_ids(cards: &Bound<'_, PyAny>, count: Option<usize>) -> PyResult<Vec<u8>> {
    let mut ids = Vec::with_capacity(13);
    read_cards(cards, &mut ids)?;
    match count {
        Some(n) => check_hand(&ids, &[n], "the cards")?,
        None => check_distinct(&ids)?,
    };
    Ok(ids)
}

#[pyfunction]
#[pyo3(signature = (seats=4, seed=None))]
fn deal(seats: i64, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<Card>>> {
    let seed = match seed {
        None => None,
        Some(s) if s.is_none() => None,
        Some(s) => Some(s.extract::<u64>().map_err(|_| {
            err(
                ErrorKind::Table,
                "seed must be an integer 0 <= seed < 2**64, or None",
            )
        })?),
    };
    if !(2..=4).contains(&seats) {
        return Err(err(
            ErrorKind::Table,
            format!("a table has 2 to 4 seats, got {seats}"),
        ));
    }
    let hands = crate::deal::deal(seats as usize, seed)?;
    Ok(hands
        .iter()
        .map(|h| h.iter().map(|&id| Card { id }).collect())
        .collect())
}

// ---------------------------------------------------------------- rules

/// The engine's compiled form of a `capsa.Rules` value.
#[pyclass(frozen, module = "capsa._core")]
pub struct RuleSet {
    pub(crate) rules: Rules,
}

fn key<'py>(cfg: &Bound<'py, PyDict>, path: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut cur: Bound<'py, PyAny> = cfg.clone().into_any();
    for part in path.split('.') {
        let d = cur.cast::<PyDict>().map_err(|_| {
            err(
                ErrorKind::Rules,
                format!("rules: {path} is not inside a table"),
            )
        })?;
        cur = d
            .get_item(part)?
            .ok_or_else(|| err(ErrorKind::Rules, format!("rules: missing key {path}")))?;
    }
    Ok(cur)
}

fn key_str(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<String> {
    key(cfg, path)?
        .extract::<String>()
        .map_err(|_| err(ErrorKind::Rules, format!("rules: {path} must be a string")))
}

fn key_int(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<i64> {
    let v = key(cfg, path)?;
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(err(
            ErrorKind::Rules,
            format!("rules: {path} must be an integer"),
        ));
    }
    v.extract::<i64>().map_err(|_| {
        err(
            ErrorKind::Rules,
            format!("rules: {path} must be an integer"),
        )
    })
}

fn key_bool(cfg: &Bound<'_, PyDict>, path: &str) -> PyResult<bool> {
    let v = key(cfg, path)?;
    if !v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(err(
            ErrorKind::Rules,
            format!("rules: {path} must be true or false"),
        ));
    }
    v.extract::<bool>()
}

fn choice<T: Copy>(cfg: &Bound<'_, PyDict>, path: &str, options: &[(&str, T)]) -> PyResult<T> {
    let v = key_str(cfg, path)?;
    options
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            err(
                ErrorKind::Rules,
                format!(
                    "rules: {path} must be one of {}, got {v:?}",
                    names.join(", ")
                ),
            )
        })
}

#[pymethods]
impl RuleSet {
    /// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives).
    #[new]
    fn py_new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        let ranking = Ranking {
            suit_strength: parse_suit_order(&key_str(config, "suit_order")?)?,
            tie_break_suit: choice(config, "tie_break", &[("none", false), ("suit", true)])?,
            flush_suit_first: choice(
                config,
                "flush_compare",
                &[("ranks", false), ("suit-first", true)],
            )?,
            wheel_second: choice(config, "wheel", &[("low", false), ("second", true)])?,
        };
        let mut royalties = [[0i64; 10]; 3];
        for (row, name) in ["top", "middle", "bottom"].iter().enumerate() {
            let table = key(config, &format!("royalties.{name}"))?;
            let table = table.cast::<PyDict>().map_err(|_| {
                err(
                    ErrorKind::Rules,
                    format!("rules: royalties.{name} must be a table"),
                )
            })?;
            for (k, v) in table.iter() {
                let cat: String = k.extract()?;
                let idx = category_index(&cat).ok_or_else(|| {
                    err(
                        ErrorKind::Rules,
                        format!("rules: royalties.{name}.{cat} is not a category"),
                    )
                })?;
                royalties[row][idx as usize] = v.extract::<i64>().map_err(|_| {
                    err(
                        ErrorKind::Rules,
                        format!("rules: royalties.{name}.{cat} must be an integer"),
                    )
                })?;
            }
        }
        let mut natural_list = Vec::new();
        let enabled = key(config, "naturals.enabled")?;
        for item in enabled.try_iter()? {
            let item = item?;
            let d = item.cast::<PyDict>().map_err(|_| {
                err(
                    ErrorKind::Rules,
                    "rules: naturals.enabled holds {name, points} tables",
                )
            })?;
            let name = key_str(d, "name")?;
            let n = Natural::from_name(&name).ok_or_else(|| {
                err(
                    ErrorKind::Rules,
                    format!("rules: naturals.enabled names unknown natural {name:?}"),
                )
            })?;
            natural_list.push((n, key_int(d, "points")?));
        }
        let rules = Rules {
            evaluator: Evaluator::new(ranking),
            foul_strict: choice(
                config,
                "foul_check",
                &[("allow-equal", false), ("strict", true)],
            )?,
            row_points: key_int(config, "row_points")?,
            overall_point: key_int(config, "overall_point")?,
            royalty_mode: choice(
                config,
                "royalty_mode",
                &[
                    ("winner", RoyaltyMode::Winner),
                    ("always", RoyaltyMode::Always),
                    ("none", RoyaltyMode::None),
                ],
            )?,
            royalty_adds: key_bool(config, "royalty_adds")?,
            scoop_multiplier: key_int(config, "scoop.multiplier")?,
            scoop_bonus: key_int(config, "scoop.bonus")?,
            scoop_multiply_royalties: key_bool(config, "scoop.multiply_royalties")?,
            sweep_all_multiplier: key_int(config, "sweep_all.multiplier")?,
            sweep_all_bonus: key_int(config, "sweep_all.bonus")?,
            sweep_all_min_players: key_int(config, "sweep_all.min_players")?.clamp(0, 99) as usize,
            foul_mode: choice(
                config,
                "foul.mode",
                &[
                    ("sweep-all", FoulMode::SweepAll),
                    ("scoop", FoulMode::Scoop),
                    ("fixed", FoulMode::Fixed),
                ],
            )?,
            foul_points: key_int(config, "foul.points")?,
            foul_pays_royalties: key_bool(config, "foul.pays_royalties")?,
            surrender_enabled: key_bool(config, "surrender.enabled")?,
            surrender_cost: key_int(config, "surrender.cost")?,
            naturals: natural_list,
            natural_resolve: choice(
                config,
                "naturals.resolve",
                &[
                    ("higher-wins", NaturalResolve::HigherWins),
                    ("difference", NaturalResolve::Difference),
                ],
            )?,
            natural_ties: choice(
                config,
                "naturals.ties",
                &[
                    ("push", NaturalTies::Push),
                    ("compare", NaturalTies::Compare),
                ],
            )?,
            royalties,
            stake: key_int(config, "money.stake")?,
            rake_percent: key_int(config, "money.rake_percent")?,
        };
        rules.validate()?;
        Ok(RuleSet { rules })
    }
}

pub(crate) fn default_rules() -> &'static Rules {
    static DEFAULT: OnceLock<Rules> = OnceLock::new();
    DEFAULT.get_or_init(Rules::default)
}

/// Resolves the `rules` argument: None (the default preset), a `RuleSet`,
/// or anything with a `RuleSet` in its `_engine` attribute (`capsa.Rules`).
pub(crate) enum RulesArg<'py> {
    Default,
    Set(Bound<'py, RuleSet>),
}

impl RulesArg<'_> {
    fn get(&self) -> &Rules {
        match self {
            RulesArg::Default => default_rules(),
            RulesArg::Set(s) => &s.get().rules,
        }
    }
}

pub(crate) fn rules_arg<'py>(rules: Option<&Bound<'py, PyAny>>) -> PyResult<RulesArg<'py>> {
    let Some(obj) = rules else {
        return Ok(RulesArg::Default);
    };
    if obj.is_none() {
        return Ok(RulesArg::Default);
    }
    if let Ok(s) = obj.cast::<RuleSet>() {
        return Ok(RulesArg::Set(s.clone()));
    }
    if let Ok(engine) = obj.getattr(pyo3::intern!(obj.py(), "_engine")) {
        if let Ok(s) = engine.cast_into::<RuleSet>() {
            return Ok(RulesArg::Set(s));
        }
    }
    Err(PyTypeError::new_err(format!(
        "rules must be a capsa.Rules or None, not {}",
        obj.get_type().name()?
    )))
}

// ---------------------------------------------------------------- ranking

/// The value of a three- or five-card hand under some rules.
#[pyclass(frozen, module = "capsa")]
pub struct HandValue {
    strength: u32,
    cards: [u8; 5],
    size: u8,
}

#[pymethods]
impl HandValue {
    /// Comparable integer: a higher strength is a stronger hand (under the
    /// same rules), across three- and five-card hands.
    #[getter]
    fn strength(&self) -> u32 {
        self.strength
    }

    #[getter]
    fn category(&self) -> &'static str {
        CATEGORY_NAMES[category_of(self.strength) as usize]
    }

    #[getter]
    fn size(&self) -> u8 {
        self.size
    }

    #[getter]
    fn cards(&self) -> Vec<Card> {
        self.cards[..self.size as usize]
            .iter()
            .map(|&id| Card { id })
            .collect()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<HandValue>() else {
            return Ok(py.NotImplemented());
        };
        let b = other.get().strength;
        Ok(
            pyo3::types::PyBool::new(py, op.matches(self.strength.cmp(&b)))
                .to_owned()
                .into_any()
                .unbind(),
        )
    }

    fn __hash__(&self) -> u64 {
        self.strength as u64
    }

    fn __repr__(&self) -> String {
        let cards: Vec<String> = self.cards[..self.size as usize]
            .iter()
            .map(|&c| card_text(c))
            .collect();
        format!(
            "HandValue(category='{}', cards='{}', strength={})",
            CATEGORY_NAMES[category_of(self.strength) as usize],
            cards.join(" "),
            self.strength
        )
    }
}

fn hand_value(rules: &Rules, ids: &[u8]) -> HandValue {
    let mut cards = [0u8; 5];
    cards[..ids.len()].copy_from_slice(ids);
    HandValue {
        strength: rules.evaluator.eval_unchecked(ids),
        cards,
        size: ids.len() as u8,
    }
}

/// Reads a 3- or 5-card hand into a fixed buffer without allocating.
fn read_small_hand(obj: &Bound<'_, PyAny>, buf: &mut [u8; 5]) -> PyResult<usize> {
    if let Ok(list) = obj.cast::<PyList>() {
        let n = list.len();
        if n == 3 || n == 5 {
            for (k, item) in list.iter().enumerate() {
                buf[k] = match item.cast::<Card>() {
                    Ok(c) => c.get().id,
                    Err(_) => return read_small_hand_slow(obj, buf),
                };
            }
            check_distinct(&buf[..n])?;
            return Ok(n);
        }
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        let n = tuple.len();
        if n == 3 || n == 5 {
            for (k, item) in tuple.iter().enumerate() {
                buf[k] = match item.cast::<Card>() {
                    Ok(c) => c.get().id,
                    Err(_) => return read_small_hand_slow(obj, buf),
                };
            }
            check_distinct(&buf[..n])?;
            return Ok(n);
        }
    }
    read_small_hand_slow(obj, buf)
}

fn read_small_hand_slow(obj: &Bound<'_, PyAny>, buf: &mut [u8; 5]) -> PyResult<usize> {
    let ids = read_hand(obj, &[3, 5], "a hand")?;
    buf[..ids.len()].copy_from_slice(&ids);
    Ok(ids.len())
}

/// Ranks a three- or five-card hand.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn evaluate(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<HandValue> {
    let rules = rules_arg(rules)?;
    let mut buf = [0u8; 5];
    let n = read_small_hand(cards, &mut buf)?;
    Ok(hand_value(rules.get(), &buf[..n]))
}

/// -1, 0 or 1 as hand `a` is weaker than, equal to or stronger than `b`.
#[pyfunction]
#[pyo3(signature = (a, b, rules=None))]
fn compare(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<i8> {
    let rules = rules_arg(rules)?;
    let (mut x, mut y) = ([0u8; 5], [0u8; 5]);
    let n = read_small_hand(a, &mut x)?;
    let m = read_small_hand(b, &mut y)?;
    let e = &rules.get().evaluator;
    Ok(e.eval_unchecked(&x[..n]).cmp(&e.eval_unchecked(&y[..m])) as i8)
}

/// Borrows a C-contiguous uint8 (N, width) array, with clear errors.
pub(crate) fn uint8_rows<'py>(
    arr: &Bound<'py, PyAny>,
    widths: &[usize],
    what: &str,
) -> PyResult<numpy::PyReadonlyArray2<'py, u8>> {
    let describe = |a: &Bound<'py, PyAny>| -> String {
        let dtype = a
            .getattr("dtype")
            .map(|d| d.to_string())
            .unwrap_or_else(|_| "?".into());
        let shape = a
            .getattr("shape")
            .map(|d| d.to_string())
            .unwrap_or_else(|_| "?".into());
        format!("dtype {dtype}, shape {shape}")
    };
    let want = widths
        .iter()
        .map(|w| format!("(N, {w})"))
        .collect::<Vec<_>>()
        .join(" or ");
    let Ok(typed) = arr.cast::<PyArray2<u8>>() else {
        let got = if arr.hasattr("dtype")? {
            describe(arr)
        } else {
            arr.get_type().name()?.to_string()
        };
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy uint8 array of shape {want}, got {got}"
        )));
    };
    let ro = typed.readonly();
    let shape = ro.shape();
    if !widths.contains(&shape[1]) {
        return Err(err(
            ErrorKind::Table,
            format!(
                "{what} must have shape {want}, got ({}, {})",
                shape[0], shape[1]
            ),
        ));
    }
    if !ro.is_c_contiguous() {
        return Err(err(
            ErrorKind::Table,
            format!("{what} must be C-contiguous; pass numpy.ascontiguousarray({what})"),
        ));
    }
    Ok(ro)
}

/// Runs `f` over rows in parallel (serially for small inputs), stopping at
/// the first bad row and naming it.
pub(crate) fn map_rows<T: Send + Copy + Default>(
    data: &[u8],
    width: usize,
    f: impl Fn(&[u8]) -> Result<T, Error> + Sync,
) -> Result<Vec<T>, Error> {
    let n = data.len() / width;
    let mut out = vec![T::default(); n];
    // small chunks for expensive rows would be wasteful for cheap ones and
    // vice versa; a few chunks per thread balance both
    let chunk = (n / (rayon::current_num_threads() * 8)).clamp(16, 4096);
    let run = |(chunk_index, (rows, outs)): (usize, (&[u8], &mut [T]))| -> Result<(), Error> {
        for (k, (row, o)) in rows.chunks_exact(width).zip(outs.iter_mut()).enumerate() {
            *o = f(row).map_err(|e| {
                let row_index = chunk_index * chunk + k;
                if e.kind() == ErrorKind::Rules {
                    e
                } else {
                    e.context(format_args!("row {row_index}"))
                }
            })?;
        }
        Ok(())
    };
    if n <= 64 {
        data.chunks(chunk * width)
            .zip(out.chunks_mut(chunk))
            .enumerate()
            .try_for_each(run)?;
    } else {
        data.par_chunks(chunk * width)
            .zip(out.par_chunks_mut(chunk))
            .enumerate()
            .try_for_each(run)?;
    }
    Ok(out)
}

/// Strengths of N hands given as a uint8 (N, 5) or (N, 3) array of ids.
#[pyfunction]
#[pyo3(signature = (ids, rules=None))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rules = rules_arg(rules)?;
    let arr = uint8_rows(ids, &[5, 3], "ids")?;
    let width = arr.shape()[1];
    let data = arr.as_slice()?;
    let e = rules.get().evaluator;
    let out = py.detach(|| {
        map_rows(data, width, |row| {
            check_distinct(row)?;
            Ok(e.eval_unchecked(row))
        })
    })?;
    Ok(out.into_pyarray(py))
}

/// The category name of a strength.
#[pyfunction]
fn category_of_strength(strength: u32) -> PyResult<&'static str> {
    CATEGORY_NAMES
        .get(category_of(strength) as usize)
        .copied()
        .ok_or_else(|| PyValueError::new_err(format!("{strength} is not a hand strength")))
}

// ---------------------------------------------------------------- splits

pub(crate) fn read13(cards: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    read_hand(cards, &[13], "a 13-card hand")
}

/// Every split of 13 cards (or only the valid ones) as a uint8 (K, 13) array.
#[pyfunction]
#[pyo3(signature = (cards, rules=None, valid_only=true))]
fn splits<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    valid_only: bool,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let (e, strict) = (r.evaluator, r.foul_strict);
    let rows = py.detach(|| split_core::splits(&e, strict, &ids, valid_only))?;
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    let arr = Array2::from_shape_vec((rows.len(), 13), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// The number of valid splits of 13 cards (out of 72,072).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn count_splits(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let (e, strict) = (r.evaluator, r.foul_strict);
    py.detach(|| split_core::count_splits(&e, strict, &ids))
        .map_err(PyErr::from)
}

/// Valid-split counts of N hands given as a uint8 (N, 13) array.
#[pyfunction]
#[pyo3(signature = (ids, rules=None))]
fn count_splits_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rules = rules_arg(rules)?;
    let arr = uint8_rows(ids, &[13], "ids")?;
    let data = arr.as_slice()?;
    let r = rules.get();
    let (e, strict) = (r.evaluator, r.foul_strict);
    let out = py.detach(|| {
        map_rows(data, 13, |row| {
            Ok(split_core::count_splits(&e, strict, row)? as u32)
        })
    })?;
    Ok(out.into_pyarray(py))
}

// ---------------------------------------------------------------- naturals

pub(crate) fn hand13(ids: &[u8]) -> [u8; 13] {
    ids.try_into().expect("13 cards checked")
}

/// Every natural the 13 cards qualify for, whatever the rules.
#[pyfunction]
fn naturals(cards: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    let ids = read13(cards)?;
    let bits = natural_core::qualifying(&hand13(&ids));
    Ok((0..15)
        .filter(|b| bits & (1 << b) != 0)
        .map(|b| NATURAL_NAMES[b])
        .collect())
}

/// The strongest natural the rules enable that the 13 cards qualify for.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn natural(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<&'static str>> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    Ok(natural_core::strongest(&hand13(&ids), &rules.get().naturals).map(|(n, _)| n.name()))
}

/// Bit sets of the naturals (bit i is NATURAL_NAMES[i]) of N hands given as
/// a uint8 (N, 13) array.
#[pyfunction]
fn naturals_batch<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let arr = uint8_rows(ids, &[13], "ids")?;
    let data = arr.as_slice()?;
    let out = py.detach(|| {
        map_rows(data, 13, |row| {
            check_distinct(row)?;
            Ok(natural_core::qualifying(&hand13(row)))
        })
    })?;
    Ok(out.into_pyarray(py))
}

// ---------------------------------------------------------------- module

mod errors;
mod settle;
mod solver;
mod stream;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    errors::register(m)?;
    m.add_class::<Card>()?;
    m.add_class::<HandValue>()?;
    m.add_class::<RuleSet>()?;
    m.add("CATEGORIES", PyTuple::new(py, CATEGORY_NAMES)?)?;
    m.add("NATURAL_NAMES", PyTuple::new(py, NATURAL_NAMES)?)?;
    m.add("SUITS", std::str::from_utf8(SUIT_CHARS).unwrap_or("dchs"))?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(category_of_strength, m)?)?;
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits_batch, m)?)?;
    m.add_function(wrap_pyfunction!(naturals, m)?)?;
    m.add_function(wrap_pyfunction!(natural, m)?)?;
    m.add_function(wrap_pyfunction!(naturals_batch, m)?)?;
    settle::register(m)?;
    solver::register(m)?;
    stream::register(m)?;
    Ok(())
}
