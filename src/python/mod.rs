//! The Python binding: converts types, maps errors, releases the GIL around
//! batch work. No game logic lives here.

use numpy::ndarray::Array2;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
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
use crate::rules::{FlushCompare, FoulCheck, RuleChoice, Rules, TieBreak, Wheel, RULE_CHOICES};
use crate::splits as split_core;
use errors::err;

// ---------------------------------------------------------------- cards

/// A playing card. `Card("As")`, `Card(51)`.
#[pyclass(frozen, eq, ord, hash, module = "capsa")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    id: u8,
}

/// The name of `obj`'s type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `obj` as a Python int when it is an integer: an `int` or anything with
/// `__index__` (numpy integers), but not a bool (a bool is a flag, never a
/// number here; numpy bools have no `__index__`).
pub(crate) fn as_index<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyInt>>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Ok(Some(i.clone()));
    }
    if obj.is_instance_of::<PyString>() || !obj.hasattr(pyo3::intern!(obj.py(), "__index__"))? {
        return Ok(None);
    }
    // a numpy array has `__index__` but only a 0-d integer one answers it
    match obj.call_method0(pyo3::intern!(obj.py(), "__index__")) {
        Ok(index) => Ok(index.cast_into::<PyInt>().ok()),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The value of a Python int of any size, saturated to the i128 range (a
/// saturated value is outside every range the binding checks).
fn saturating_value(i: &Bound<'_, PyInt>) -> PyResult<i128> {
    match i.extract::<i128>() {
        Ok(v) => Ok(v),
        Err(_) if i.lt(0)? => Ok(i128::MIN),
        Err(_) => Ok(i128::MAX),
    }
}

/// An int for a message: its digits, or its size when it has very many
/// (Python refuses to print ints of more than 4300 digits).
fn int_text(i: &Bound<'_, PyInt>) -> String {
    match i.extract::<i128>() {
        Ok(v) => v.to_string(),
        Err(_) => {
            let bits = i
                .call_method0("bit_length")
                .and_then(|b| b.extract::<u64>())
                .unwrap_or(0);
            let sign = if i.lt(0).unwrap_or(false) { "-" } else { "" };
            format!("{sign}(an integer of {bits} bits)")
        }
    }
}

/// Reads an integer argument in `lo..=hi` (`hi` = `i128::MAX`: no upper
/// bound, and any larger Python int is read as `i128::MAX`). Bools, floats
/// and other types are a TypeError; a value outside the range an error of
/// `kind` naming the argument and the range.
pub(crate) fn int_in_range(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i128,
    hi: i128,
    kind: ErrorKind,
) -> PyResult<i128> {
    let Some(i) = as_index(obj)? else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an integer, not {}",
            type_name(obj)
        )));
    };
    let v = saturating_value(&i)?;
    if (lo..=hi).contains(&v) {
        return Ok(v);
    }
    let range = if hi == i128::MAX {
        format!(">= {lo}")
    } else {
        format!("in {lo}..{hi}")
    };
    Err(err(
        kind,
        format!("{what} must be {range}, got {}", int_text(&i)),
    ))
}

/// The seat count argument: 2 to 4 (TableError), an int (TypeError).
pub(crate) fn seats_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(int_in_range(
        obj,
        "seats (a table has 2 to 4 seats)",
        2,
        4,
        ErrorKind::Table,
    )? as usize)
}

/// A count argument that must be at least 1 (ArgumentError), read as usize
/// (larger values are refused: nothing can be that many).
pub(crate) fn count_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    Ok(int_in_range(obj, what, 1, usize::MAX as i128, ErrorKind::Argument)? as usize)
}

/// A seed argument: 0 <= seed < 2**64 (ArgumentError).
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in_range(obj, "seed", 0, u64::MAX as i128, ErrorKind::Argument)? as u64)
}

/// A card id given as an integer (already known not to be a bool).
fn card_id_from_int(i: &Bound<'_, PyInt>) -> Result<u8, Error> {
    match i.extract::<i64>() {
        Ok(v) if (0..52).contains(&v) => Ok(v as u8),
        _ => Err(Error::card(format!(
            "card id {} is outside 0..51",
            int_text(i)
        ))),
    }
}

/// The text of a str; one with lone surrogates (not encodable) is read with
/// them written as `\udXXX`, so that the card holding one is named.
fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    if let Ok(text) = s.to_str() {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let escaped = s.call_method1("encode", ("utf-8", "backslashreplace"))?;
    let bytes = escaped.cast::<pyo3::types::PyBytes>()?.as_bytes();
    Ok(std::borrow::Cow::Owned(
        String::from_utf8_lossy(bytes).into_owned(),
    ))
}
#[pymethods]
impl Card {
    #[new]
    fn py_new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(c) = card.cast::<Card>() {
            return Ok(*c.get());
        }
        if let Ok(s) = card.cast::<PyString>() {
            let text = text_of(s)?;
            let mut ids = Vec::with_capacity(1);
            parse_text(&text, &mut ids)?;
            if ids.len() != 1 {
                return Err(err(
                    ErrorKind::Card,
                    format!("Card() takes one card, got {} in {text:?}", ids.len()),
                ));
            }
            return Ok(Card { id: ids[0] });
        }
        if let Some(i) = as_index(card)? {
            return Ok(Card {
                id: card_id_from_int(&i)?,
            });
        }
        Err(PyTypeError::new_err(format!(
            "Card() takes a card text or an integer id 0..51, not {}",
            type_name(card)
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

/// An error met while reading cards: a core error (a bad card, too many
/// cards), which callers can place in a seat, or a Python error (a wrong type,
/// an iterator that raised).
pub(crate) enum ReadError {
    Core(Error),
    Py(PyErr),
}

impl From<Error> for ReadError {
    fn from(e: Error) -> Self {
        ReadError::Core(e)
    }
}

impl From<PyErr> for ReadError {
    fn from(e: PyErr) -> Self {
        ReadError::Py(e)
    }
}

impl From<ReadError> for PyErr {
    fn from(e: ReadError) -> PyErr {
        match e {
            ReadError::Core(e) => e.into(),
            ReadError::Py(e) => e,
        }
    }
}

impl ReadError {
    /// The same error, found in seat `seat` (core errors only).
    pub(crate) fn in_seat(self, seat: usize) -> Self {
        match self {
            ReadError::Core(e) => {
                ReadError::Core(e.context(format_args!("seat {seat}")).at_seat(seat))
            }
            other => other,
        }
    }
}

/// How many cards a reader expects: one of `sizes` (any number up to 52
/// distinct cards when empty), named `what` in messages.
#[derive(Clone, Copy)]
pub(crate) struct Want<'a> {
    pub(crate) sizes: &'a [usize],
    pub(crate) what: &'a str,
}

impl Want<'_> {
    fn limit(&self) -> usize {
        self.sizes.iter().copied().max().unwrap_or(52)
    }

    /// The error for more cards than the limit (`got` when the count is known).
    fn too_many(&self, got: Option<usize>) -> Error {
        let want = if self.sizes.is_empty() {
            "at most 52".to_string()
        } else {
            self.sizes
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let got = match got {
            Some(n) => n.to_string(),
            None => format!("more than {}", self.limit()),
        };
        Error::hand(format!("{} needs {want} cards, got {got}", self.what))
    }
}

/// `collections.abc.Mapping` and `collections.abc.Set`, looked up once.
fn mapping_and_set(py: Python<'_>) -> PyResult<&Bound<'_, PyTuple>> {
    static TYPES: pyo3::sync::PyOnceLock<Py<PyTuple>> = pyo3::sync::PyOnceLock::new();
    TYPES
        .get_or_try_init(py, || {
            let abc = py.import("collections.abc")?;
            Ok::<_, PyErr>(
                PyTuple::new(py, [abc.getattr("Mapping")?, abc.getattr("Set")?])?.unbind(),
            )
        })
        .map(|t| t.bind(py))
}

/// A TypeError when `obj` is a kind of collection that is never a list of
/// cards: a mapping (it iterates its keys), bytes-like (it iterates ints) or
/// a set (no order, so no rows).
fn refuse_non_sequence(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    let bytes_like = obj.is_instance_of::<pyo3::types::PyBytes>()
        || obj.is_instance_of::<pyo3::types::PyByteArray>()
        || obj.is_instance_of::<pyo3::types::PyMemoryView>();
    if bytes_like || obj.is_instance(mapping_and_set(obj.py())?)? {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a text or a sequence of cards, not {}",
            type_name(obj)
        )));
    }
    Ok(())
}

/// Reads one card: a `Card`, an integer id (not a bool) or a one-card text.
fn push_card(item: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> Result<(), ReadError> {
    if let Ok(c) = item.cast::<Card>() {
        out.push(c.get().id);
        return Ok(());
    }
    // the common case first: a plain int (exactly int, so never a bool)
    if let Ok(i) = item.cast_exact::<PyInt>() {
        out.push(card_id_from_int(i)?);
        return Ok(());
    }
    if let Some(i) = as_index(item)? {
        out.push(card_id_from_int(&i)?);
        return Ok(());
    }
    if let Ok(s) = item.cast::<PyString>() {
        let text = text_of(s)?;
        let before = out.len();
        parse_text(&text, out)?;
        if out.len() != before + 1 {
            return Err(Error::card(format!("expected one card, got {text:?}")).into());
        }
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "a card is a Card, an integer id 0..51 or a text like 'As', not {}",
        type_name(item)
    ))
    .into())
}

/// Reads cards given as text, a sequence of `Card`s, ids or card texts, or
/// any iterable of them (a numpy array too), reading at most one card more
/// than `want` allows: an endless iterator is an error, not a hang.
pub(crate) fn read_cards(
    obj: &Bound<'_, PyAny>,
    out: &mut Vec<u8>,
    want: Want<'_>,
) -> Result<(), ReadError> {
    let limit = want.limit();
    if let Ok(s) = obj.cast::<PyString>() {
        parse_text(&text_of(s)?, out)?;
        if out.len() > limit {
            return Err(want.too_many(Some(out.len())).into());
        }
        return Ok(());
    }
    if let Ok(list) = obj.cast::<PyList>() {
        if list.len() > limit {
            return Err(want.too_many(Some(list.len())).into());
        }
        for item in list.iter() {
            push_card(&item, out)?;
        }
        return Ok(());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        if tuple.len() > limit {
            return Err(want.too_many(Some(tuple.len())).into());
        }
        for item in tuple.iter() {
            push_card(&item, out)?;
        }
        return Ok(());
    }
    if obj.cast::<Card>().is_ok() {
        return Err(Error::hand(format!(
            "{} needs several cards, got a single Card",
            want.what
        ))
        .into());
    }
    refuse_non_sequence(obj, "cards")?;
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "cards must be a text or a sequence of Card, ids or card texts, not {}",
            type_name(obj)
        ))
    })?;
    for (count, item) in iter.enumerate() {
        if count == limit {
            return Err(want.too_many(None).into());
        }
        push_card(&item?, out)?;
    }
    Ok(())
}

pub(crate) fn read_hand(obj: &Bound<'_, PyAny>, sizes: &[usize], what: &str) -> PyResult<Vec<u8>> {
    let mut ids = Vec::with_capacity(13);
    read_cards(obj, &mut ids, Want { sizes, what })?;
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
    parse_text(&text_of(s)?, &mut ids)?;
    check_distinct(&ids)?;
    Ok(ids.into_iter().map(|id| Card { id }).collect())
}

/// Checks and converts any accepted card input to ids (distinct, in range).
#[pyfunction]
#[pyo3(signature = (cards, count=None))]
fn card_ids(cards: &Bound<'_, PyAny>, count: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    let count = match count {
        Some(c) if !c.is_none() => {
            Some(int_in_range(c, "count", 0, 52, ErrorKind::Argument)? as usize)
        }
        _ => None,
    };
    let sizes: &[usize] = match &count {
        Some(n) => std::slice::from_ref(n),
        None => &[],
    };
    let mut ids = Vec::with_capacity(13);
    read_cards(
        cards,
        &mut ids,
        Want {
            sizes,
            what: "the cards",
        },
    )?;
    match count {
        Some(n) => check_hand(&ids, &[n], "the cards")?,
        None => check_distinct(&ids)?,
    };
    // a list of ints, as documented (a Vec<u8> would become bytes)
    Ok(ids.into_iter().map(u32::from).collect())
}

/// Deals 13 cards to each seat: reproducible with a seed, else from OS entropy.
#[pyfunction]
#[pyo3(signature = (seats=None, seed=None), text_signature = "(seats=4, seed=None)")]
fn deal(
    seats: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<Card>>> {
    let seats = match seats {
        Some(s) => seats_arg(s)?,
        None => 4,
    };
    let seed = match seed {
        Some(s) if !s.is_none() => Some(seed_arg(s)?),
        _ => None,
    };
    let hands = crate::deal::deal(seats, seed)?;
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

/// The value of a named-choice knob, read from its rules-file key.
fn choice<T: RuleChoice>(cfg: &Bound<'_, PyDict>) -> PyResult<T> {
    Ok(key_str(cfg, T::KEY)?
        .parse::<T>()
        .map_err(|e| e.context("rules"))?)
}

#[pymethods]
impl RuleSet {
    /// Compiles a full rules dict (as `capsa.Rules.to_dict()` gives).
    #[new]
    fn py_new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        let ranking = Ranking {
            suit_strength: parse_suit_order(&key_str(config, "suit_order")?)?,
            tie_break_suit: choice::<TieBreak>(config)?.flag(),
            flush_suit_first: choice::<FlushCompare>(config)?.flag(),
            wheel_second: choice::<Wheel>(config)?.flag(),
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
            foul_strict: choice::<FoulCheck>(config)?.flag(),
            row_points: key_int(config, "row_points")?,
            overall_point: key_int(config, "overall_point")?,
            royalty_mode: choice(config)?,
            royalty_adds: key_bool(config, "royalty_adds")?,
            scoop_multiplier: key_int(config, "scoop.multiplier")?,
            scoop_bonus: key_int(config, "scoop.bonus")?,
            scoop_multiply_royalties: key_bool(config, "scoop.multiply_royalties")?,
            sweep_all_multiplier: key_int(config, "sweep_all.multiplier")?,
            sweep_all_bonus: key_int(config, "sweep_all.bonus")?,
            // out of range is refused by `validate`, never clamped
            sweep_all_min_players: usize::try_from(key_int(config, "sweep_all.min_players")?)
                .unwrap_or(usize::MAX),
            foul_mode: choice(config)?,
            foul_points: key_int(config, "foul.points")?,
            foul_pays_royalties: key_bool(config, "foul.pays_royalties")?,
            surrender_enabled: key_bool(config, "surrender.enabled")?,
            surrender_cost: key_int(config, "surrender.cost")?,
            naturals: natural_list,
            natural_resolve: choice(config)?,
            natural_ties: choice(config)?,
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

/// Card ids of an (N, ...) numpy array: borrowed when it is uint8 and
/// C-contiguous (the fast path), else a checked uint8 copy.
pub(crate) struct CardArray<'py> {
    borrowed: Option<numpy::PyReadonlyArrayDyn<'py, u8>>,
    owned: Vec<u8>,
    pub(crate) shape: Vec<usize>,
}

impl CardArray<'_> {
    /// The ids, row-major.
    pub(crate) fn ids(&self) -> PyResult<&[u8]> {
        match &self.borrowed {
            Some(a) => Ok(a.as_slice()?),
            None => Ok(&self.owned),
        }
    }
}

/// Where flat index `index` of an array of `shape` is, for messages:
/// "row r, column c" (with "seat s" between for (N, P, 13) tables).
fn position(shape: &[usize], index: usize) -> (String, Option<usize>) {
    let width = shape.last().copied().unwrap_or(1).max(1);
    let (rest, column) = (index / width, index % width);
    if shape.len() == 3 {
        let seats = shape[1].max(1);
        let (row, seat) = (rest / seats, rest % seats);
        (
            format!("row {row}, seat {seat}, column {column}"),
            Some(seat),
        )
    } else {
        (format!("row {rest}, column {column}"), None)
    }
}

/// Narrows checked integer ids to u8, naming the first one outside 0..51.
fn narrow_ids<T: Copy + Into<i128>>(values: &[T], shape: &[usize]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(values.len());
    for (index, &v) in values.iter().enumerate() {
        let v: i128 = v.into();
        if !(0..52).contains(&v) {
            let (place, seat) = position(shape, index);
            let e = Error::card(format!("{place}: card id {v} is outside 0..51"));
            return Err(match seat {
                Some(s) => e.at_seat(s),
                None => e,
            });
        }
        out.push(v as u8);
    }
    Ok(out)
}

/// `np.ascontiguousarray(arr, dtype)` as an array of `T`.
fn contiguous_as<'py, T: numpy::Element>(
    arr: &Bound<'py, PyAny>,
    dtype: &str,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, T>> {
    let np = arr.py().import(pyo3::intern!(arr.py(), "numpy"))?;
    let copy = np.call_method1(
        pyo3::intern!(arr.py(), "ascontiguousarray"),
        (arr, np.getattr(dtype)?),
    )?;
    Ok(copy.cast_into::<numpy::PyArrayDyn<T>>()?.readonly())
}

/// The one reader of card-id arrays for every batch entry point. Accepts a
/// numpy array of any integer dtype (any byte order, any strides, read-only
/// too) whose shape `shape_ok` accepts (`want` describes it, e.g.
/// "(N, 13)"). Refuses other dtypes and non-arrays (TypeError naming the
/// dtype or type) and other shapes (TableError naming the shape). A uint8
/// C-contiguous array is borrowed as is (its ids are checked by the row
/// code, as before); any other is copied, each id checked to be in 0..51
/// (CardError naming the row and column).
pub(crate) fn card_array<'py>(
    arr: &Bound<'py, PyAny>,
    what: &str,
    want: &str,
    shape_ok: impl Fn(&[usize]) -> bool,
) -> PyResult<CardArray<'py>> {
    let Ok(untyped) = arr.cast::<numpy::PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape {want}, not {}",
            type_name(arr)
        )));
    };
    let dtype = untyped.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array (uint8 is fastest), got dtype {}",
            dtype.str().map(|d| d.to_string()).unwrap_or_default()
        )));
    }
    let shape = untyped.shape().to_vec();
    if !shape_ok(&shape) {
        let got = shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let got = if shape.len() == 1 {
            format!("({got},)")
        } else {
            format!("({got})")
        };
        return Err(err(
            ErrorKind::Table,
            format!("{what} must have shape {want}, got shape {got}"),
        ));
    }
    if let Ok(typed) = arr.cast::<numpy::PyArrayDyn<u8>>() {
        let ro = typed.readonly();
        if ro.is_c_contiguous() {
            return Ok(CardArray {
                borrowed: Some(ro),
                owned: Vec::new(),
                shape,
            });
        }
        let owned = ro.as_array().iter().copied().collect();
        return Ok(CardArray {
            borrowed: None,
            owned,
            shape,
        });
    }
    let owned = if kind == b'u' {
        narrow_ids(contiguous_as::<u64>(arr, "uint64")?.as_slice()?, &shape)?
    } else {
        narrow_ids(contiguous_as::<i64>(arr, "int64")?.as_slice()?, &shape)?
    };
    Ok(CardArray {
        borrowed: None,
        owned,
        shape,
    })
}

/// [`card_array`] for (N, width) hands, one of `widths` cards a row.
pub(crate) fn card_rows<'py>(
    arr: &Bound<'py, PyAny>,
    widths: &[usize],
    what: &str,
) -> PyResult<CardArray<'py>> {
    let want = widths
        .iter()
        .map(|w| format!("(N, {w})"))
        .collect::<Vec<_>>()
        .join(" or ");
    card_array(arr, what, &want, |shape| {
        shape.len() == 2 && widths.contains(&shape[1])
    })
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
    let arr = card_rows(ids, &[5, 3], "ids")?;
    let width = arr.shape[1];
    let data = arr.ids()?;
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

/// True when 13 cards laid out top 0-2, middle 3-7, bottom 8-12 foul: their
/// rows are out of order under the rules (the check settlement makes).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn is_foul(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let rules = rules_arg(rules)?;
    let ids = read13(cards)?;
    let r = rules.get();
    let e = &r.evaluator;
    let (top, middle, bottom) = (
        e.eval_unchecked(&ids[..3]),
        e.eval_unchecked(&ids[3..8]),
        e.eval_unchecked(&ids[8..]),
    );
    Ok(!split_core::is_valid(top, middle, bottom, r.foul_strict))
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
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
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
    let arr = card_rows(ids, &[13], "ids")?;
    let data = arr.ids()?;
    let out = py.detach(|| {
        map_rows(data, 13, |row| {
            check_distinct(row)?;
            Ok(natural_core::qualifying(&hand13(row)))
        })
    })?;
    Ok(out.into_pyarray(py))
}

// ---------------------------------------------------------------- module

mod bulk;
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
    let rule_choices = PyDict::new(py);
    for (knob, names) in RULE_CHOICES {
        rule_choices.set_item(knob, PyTuple::new(py, names)?)?;
    }
    m.add("RULE_CHOICES", rule_choices)?;
    m.add("SUITS", std::str::from_utf8(SUIT_CHARS).unwrap_or("dchs"))?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(category_of_strength, m)?)?;
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(count_splits_batch, m)?)?;
    m.add_function(wrap_pyfunction!(naturals, m)?)?;
    m.add_function(wrap_pyfunction!(natural, m)?)?;
    m.add_function(wrap_pyfunction!(naturals_batch, m)?)?;
    settle::register(m)?;
    solver::register(m)?;
    stream::register(m)?;
    bulk::register(m)?;
    Ok(())
}
