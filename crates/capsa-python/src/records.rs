//! Binding of round records: written, read, replayed, their deal verified.
//! The format is `capsa_records::record`'s; `capsa.records` is the Python layer.

use std::borrow::Cow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::conversion::choices::rules_arg;
use super::conversion::meta::meta_arg;
use super::conversion::numbers::{int_in_range, nonce_arg};
use super::conversion::players::players_arg;
use super::conversion::seats::{played_seats, with_roles, SubmittedSeat};
use super::conversion::stakes::record_stakes_arg;
use super::conversion::text::{
    client_seeds_arg, digest_arg, round_id_arg, server_seed_arg, string_arg, table_id_arg,
    text_arg, type_name,
};
use super::json_tree::{json_of, Origin};
use super::json_values::{copy_value, text_to_python, text_to_python_given, Given};
use super::settle::Settlement;
use crate::errors::{err, py_err};
use capsa_core::auto_arrange::AutoPolicy;
use capsa_core::canonical::{self, Json};
use capsa_core::error::ErrorKind;
use capsa_core::rules::Rules;
use capsa_core::stakes::StakeSpec;
use capsa_records::fair::hex;
use capsa_records::record::{self, AnyRecord, Problem, Record, RoundInputs, SolverId, VoidRecord};

/// The canonical JSON text of any JSON text holding integers only
/// (``TableError`` for text that is not such JSON).
#[pyfunction]
fn canonical_json(text: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(canonical::to_string(
            &canonical::parse(b.as_bytes()).map_err(py_err)?,
        ));
    }
    let text = text_arg(text, "the JSON text")?;
    Ok(canonical::to_string(
        &canonical::parse_str(&text).map_err(py_err)?,
    ))
}

/// Rules as a record holds them: compiled, with their canonical JSON text.
#[pyclass(frozen, module = "capsa._core")]
pub struct RecordRules {
    rules: Rules,
    text: String,
    /// The solver that arranges seats at the close under these rules,
    /// computed once (records name it).
    solver: SolverId,
    /// `text` as Python data, built when first asked for: each record dict
    /// gets a copy.
    value: PyOnceLock<Py<PyAny>>,
}

impl RecordRules {
    /// What a record names as the arranger of its seats left at the close
    /// under `policy`: the solver computed once, or the policy's own.
    fn solver_of(&self, policy: AutoPolicy) -> Cow<'_, SolverId> {
        match policy {
            AutoPolicy::Solver => Cow::Borrowed(&self.solver),
            other => Cow::Owned(record::policy_solver(&self.rules, other)),
        }
    }

    /// A new copy of the rules as Python data (what `text` reads as).
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let template = self
            .value
            .get_or_try_init(py, || text_to_python(py, &self.text).map(Bound::unbind))?;
        copy_value(template.bind(py))
    }
}

#[pymethods]
impl RecordRules {
    /// `rules` (a `capsa.Rules` or its `RuleSet`) and `rules_json`, its
    /// `to_dict()` as JSON text (written canonically here).
    #[new]
    fn py_new(rules: &Bound<'_, PyAny>, rules_json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let rules = rules_arg(rules)?.get().clone();
        let text = text_arg(rules_json, "rules_json")?;
        let value = canonical::parse_str(&text).map_err(py_err)?;
        if !matches!(value, Json::Object(_)) {
            return Err(err(
                ErrorKind::Rules,
                format!("rules_json must be a JSON object, not {}", value.kind()),
            ));
        }
        let solver = record::installed_solver(&rules);
        Ok(RecordRules {
            rules,
            text: canonical::to_string(&value),
            solver,
            value: PyOnceLock::new(),
        })
    }

    /// The rules' canonical JSON text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }
}

// the record is `capsa_records::record::write`'s
/// The record of a played round, the hands dealt again from the seeds and the
/// table settled: its canonical JSON text (one line) and digest (hex), and
/// with ``with_settlement`` the :class:`Settlement` (a round settles once, as
/// its record) and the byte ranges of the ``rules`` and ``settlement`` values
/// in the text (start, end, start, end; for :func:`record_value`) too. Each
/// seat is (13 ids, auto, surrender, declare_natural); ``meta`` is a mapping
/// or a JSON object's text; ``format_version`` is 5 (the default), 4, 3, 2,
/// or 1 (no table id or players), and ``rules`` must hold the rules as that
/// version writes them (``capsa.records.rules_for_record``); ``auto_arrange``
/// is the policy that arranged the seats marked auto (``"solver"``,
/// ``"greedy"`` or ``"foul"``; the last two from format 4); ``banker`` and
/// ``multipliers`` a banker game's roles, as :func:`settle` takes them
/// (format 5).
#[pyfunction]
#[pyo3(signature = (rules, round_id, stakes, server_seed, client_seeds, nonce, seats, previous_digest=None, meta=None, *, table_id=None, players=None, format_version=None, with_settlement=false, auto_arrange="solver", banker=None, multipliers=None))]
#[allow(clippy::too_many_arguments)]
fn write_round_record(
    py: Python<'_>,
    rules: &Bound<'_, RecordRules>,
    round_id: &Bound<'_, PyAny>,
    stakes: &Bound<'_, PyAny>,
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: Vec<SubmittedSeat>,
    previous_digest: Option<&Bound<'_, PyAny>>,
    meta: Option<&Bound<'_, PyAny>>,
    table_id: Option<&Bound<'_, PyAny>>,
    players: Option<&Bound<'_, PyAny>>,
    format_version: Option<&Bound<'_, PyAny>>,
    with_settlement: bool,
    auto_arrange: &str,
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyTuple>> {
    let n = seats.len();
    let format_version = format_version_arg(format_version)?;
    let rules = rules.get();
    capsa_core::table::check_table_seats(&rules.rules.deck, n).map_err(py_err)?;
    let played = with_roles(played_seats(seats)?, banker, multipliers)?;
    let solver = rules.solver_of(AutoPolicy::from_name(auto_arrange).map_err(py_err)?);
    let round_id = round_id_arg(round_id)?;
    let stakes = record_stakes_arg(stakes, n)?;
    let server_seed = server_seed_arg(server_seed)?;
    let client_seeds = client_seeds_arg(client_seeds, n)?;
    let nonce = nonce_arg(nonce)?;
    let previous_digest = digest_arg(previous_digest, "previous_digest")?;
    let meta = meta_arg(meta)?;
    let table_id = table_id_arg(table_id)?;
    let players = if format_version == record::FIRST_FORMAT_VERSION && players.is_none() {
        Vec::new()
    } else {
        players_arg(players, n)?
    };
    let written = py
        .detach(|| {
            record::write(&RoundInputs {
                format_version,
                round_id: &round_id,
                table_id: table_id.as_deref(),
                players: &players,
                solver: &solver,
                previous_digest,
                meta: &meta,
                rules: &rules.rules,
                rules_text: &rules.text,
                stakes: &stakes,
                server_seed: &server_seed,
                client_seeds: &client_seeds,
                nonce,
                seats: &played,
            })
        })
        .map_err(py_err)?;
    let digest = hex(&written.digest);
    if with_settlement {
        let settlement = Settlement::new(written.settlement, record::seat_inputs(&played));
        let spans = &written.spans;
        let spans = (
            spans.rules.start,
            spans.rules.end,
            spans.settlement.start,
            spans.settlement.end,
        );
        Ok((written.text, digest, settlement, spans)
            .into_pyobject(py)?
            .unbind())
    } else {
        Ok((written.text, digest).into_pyobject(py)?.unbind())
    }
}

/// The format version a record is written in (`None`: the newest).
fn format_version_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<i128> {
    value.map_or(Ok(record::FORMAT_VERSION), |v| {
        int_in_range(
            v,
            "format_version",
            record::FIRST_FORMAT_VERSION,
            record::FORMAT_VERSION,
            ErrorKind::Argument,
        )
    })
}

/// The dict of a round record's text, with its ``rules`` a copy of the
/// dict of ``rules`` (the text at the first span must be ``rules.text``)
/// and its ``settlement`` the dict given: the settlement's own
/// ``to_dict()``, made from the very settlement the text was written from.
/// ``spans`` are the byte ranges of those two members' values, as
/// :func:`write_round_record` gives them; only the rest of the text is
/// read. ``ValueError`` when the spans are not those members'.
#[pyfunction]
fn record_value<'py>(
    py: Python<'py>,
    text: &str,
    settlement: Bound<'py, PyDict>,
    rules: &Bound<'py, RecordRules>,
    spans: (usize, usize, usize, usize),
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules.get();
    let (rules_start, rules_end, settlement_start, settlement_end) = spans;
    let bad = || PyValueError::new_err("record_value: the spans are not the members' values");
    let head = text.get(..rules_start).ok_or_else(bad)?;
    let between = text.get(rules_end..settlement_start).ok_or_else(bad)?;
    let tail = text.get(settlement_end..).ok_or_else(bad)?;
    if text.get(rules_start..rules_end) != Some(rules.text.as_str()) {
        return Err(bad());
    }
    let mut read = String::with_capacity(text.len());
    for part in [head, "null", between, "null", tail] {
        read.push_str(part);
    }
    let mut given: Given<'py> = vec![
        ("rules", rules.value(py)?),
        ("settlement", settlement.into_any()),
    ];
    let value = text_to_python_given(py, &read, &mut given)?;
    if !given.is_empty() {
        return Err(bad());
    }
    Ok(value)
}

/// A round record as read (every field checked for its form).
#[pyclass(frozen, module = "capsa._core")]
pub struct RecordView {
    pub(super) record: Record,
}

fn problems_list(problems: Vec<Problem>) -> Vec<(String, String)> {
    problems.into_iter().map(|p| (p.field, p.message)).collect()
}

#[pymethods]
impl RecordView {
    /// ``"round"`` (a void record's view says ``"void"``).
    #[getter]
    fn kind(&self) -> &'static str {
        "round"
    }

    /// The auto-arrange policy that arranged the seats marked auto
    /// (``"solver"`` for every record before format 4).
    #[getter]
    fn auto_arrange(&self) -> &'static str {
        self.record.policy.name()
    }

    /// The round's id, as written.
    #[getter]
    fn round_id(&self) -> &str {
        &self.record.round_id
    }

    /// The format version the record is written in.
    #[getter]
    fn format_version(&self) -> i128 {
        self.record.format_version
    }

    /// The settlement version the record was settled under
    /// (``settlement.version`` from format 5 on, 1 before).
    #[getter]
    fn settlement_version(&self) -> i128 {
        self.record.settlement_version
    }

    /// The table's id; None for format 1 and a server of one table.
    #[getter]
    fn table_id(&self) -> Option<&str> {
        self.record.table_id.as_deref()
    }

    /// Each seat's player as (id, name); format 1's seat k is ("seat-k", None).
    #[getter]
    fn players(&self) -> Vec<(String, Option<String>)> {
        self.record
            .players
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect()
    }

    /// The nonce of the provably fair deal.
    #[getter]
    fn nonce(&self) -> u64 {
        self.record.nonce
    }

    /// The record's ``digest`` as written.
    #[getter]
    fn digest(&self) -> String {
        hex(&self.record.digest)
    }

    /// The SHA-256 of the record's contents: its canonical form without
    /// ``digest`` (what ``digest`` must be).
    #[getter]
    fn content_digest(&self) -> String {
        hex(&self.record.content_digest)
    }

    /// Whether the text read is the record's canonical form as it stands
    /// (false for any other text, for some canonical text holding escapes,
    /// and for a record given as a dict).
    #[getter]
    fn canonical_as_read(&self) -> bool {
        self.record.canonical_as_read
    }

    /// The ``digest`` of the table's previous record (a chain), or None for
    /// the first.
    #[getter]
    fn previous_digest(&self) -> Option<String> {
        self.record.previous_digest.map(|d| hex(&d))
    }

    /// The SHA-256 of the server seed (hex), published before the deal.
    #[getter]
    fn commitment(&self) -> String {
        hex(&self.record.commitment)
    }

    /// The record's rules object as canonical JSON text.
    #[getter]
    fn rules_json(&self) -> &str {
        &self.record.rules_text
    }

    /// The banker seat of a banker game (``None``: no banker).
    #[getter]
    fn banker(&self) -> Option<usize> {
        self.record.seats.iter().position(|s| s.banker)
    }

    /// Each seat's multiplier (1 outside a banker game).
    #[getter]
    fn multipliers(&self) -> Vec<i64> {
        self.record.seats.iter().map(|s| s.multiplier).collect()
    }

    /// The number of seats.
    #[getter]
    fn seat_count(&self) -> usize {
        self.record.seats.len()
    }

    /// Each seat's (net, rake) from the recorded settlement.
    fn net_and_rake(&self) -> Vec<(i128, i128)> {
        self.record.net_and_rake.clone()
    }

    /// The stakes as recorded: one int for every pair, or the matrix as a
    /// list of rows.
    #[getter]
    fn stakes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match &self.record.stakes {
            StakeSpec::Uniform(s) => s.into_pyobject(py)?.into_any(),
            StakeSpec::Matrix(m) => {
                let seats = self.record.seats.len().max(1);
                PyList::new(py, m.chunks(seats).map(<[i64]>::to_vec))?.into_any()
            }
        })
    }

    /// ``meta.played_at`` as written: its text, or its integer; None when the
    /// record has none, or another JSON value.
    #[getter]
    fn played_at<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let value = self
            .record
            .meta
            .iter()
            .find(|(key, _)| key == "played_at")
            .map(|(_, value)| value);
        Ok(match value {
            Some(Json::Str(text)) => Some(PyString::new(py, text).into_any()),
            Some(Json::Int(n)) => Some(n.into_pyobject(py)?.into_any()),
            _ => None,
        })
    }

    /// Recomputes everything from the record's inputs under ``rules`` (the
    /// record's own rules, compiled); (field, message) of every difference.
    /// ``check_previous`` says whether to check the chain link against
    /// ``previous_digest`` (None: the record must be the first of a chain).
    #[pyo3(signature = (rules, check_previous=false, previous_digest=None))]
    fn replay(
        &self,
        py: Python<'_>,
        rules: &Bound<'_, RecordRules>,
        check_previous: bool,
        previous_digest: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(String, String)>> {
        let previous = if check_previous {
            Some(digest_arg(previous_digest, "previous_digest")?)
        } else {
            None
        };
        let rules = rules.get();
        if rules.text != self.record.rules_text {
            return Err(err(
                ErrorKind::Rules,
                "replay: the rules given are not the record's own rules",
            ));
        }
        let problems = py.detach(|| self.record.replay(&rules.rules, previous));
        Ok(problems_list(problems))
    }

    /// Checks the provably fair deal from the record alone (and that its
    /// commitment is ``commitment``, when given); (field, message) of every
    /// problem.
    #[pyo3(signature = (commitment=None))]
    fn verify_deal(
        &self,
        commitment: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(String, String)>> {
        let published = digest_arg(commitment, "commitment")?;
        Ok(problems_list(self.record.verify_deal(published)))
    }
}

/// A void record as read (every field checked for its form): the pending
/// round it closes, and why.
#[pyclass(frozen, module = "capsa._core")]
pub struct VoidView {
    record: VoidRecord,
}

#[pymethods]
impl VoidView {
    /// ``"void"`` (a round record's view says ``"round"``).
    #[getter]
    fn kind(&self) -> &'static str {
        "void"
    }

    /// The format version the record is written in.
    #[getter]
    fn format_version(&self) -> i128 {
        self.record.format_version
    }

    /// The version of capsa that wrote the record.
    #[getter]
    fn capsa_version(&self) -> &str {
        &self.record.capsa_version
    }

    /// The round's id, as written.
    #[getter]
    fn round_id(&self) -> &str {
        &self.record.round_id
    }

    /// The table's id; None for a server of one table.
    #[getter]
    fn table_id(&self) -> Option<&str> {
        self.record.table_id.as_deref()
    }

    /// The nonce of the provably fair deal.
    #[getter]
    fn nonce(&self) -> u64 {
        self.record.nonce
    }

    /// The SHA-256 of the server seed (hex), published before the deal.
    #[getter]
    fn commitment(&self) -> String {
        hex(&self.record.commitment)
    }

    /// Why the round is void.
    #[getter]
    fn reason(&self) -> &str {
        &self.record.reason
    }

    /// The record's ``meta`` as canonical JSON text.
    #[getter]
    fn meta_json(&self) -> String {
        canonical::to_string(&Json::Object(self.record.meta.clone()))
    }

    /// The record's ``digest`` as written.
    #[getter]
    fn digest(&self) -> String {
        hex(&self.record.digest)
    }

    /// The SHA-256 of the record's contents: its canonical form without
    /// ``digest`` (what ``digest`` must be).
    #[getter]
    fn content_digest(&self) -> String {
        hex(&self.record.content_digest)
    }

    /// Whether the text read is the record's canonical form as it stands.
    #[getter]
    fn canonical_as_read(&self) -> bool {
        self.record.canonical_as_read
    }

    /// The ``digest`` of the table's previous record (a chain), or None for
    /// the first.
    #[getter]
    fn previous_digest(&self) -> Option<String> {
        self.record.previous_digest.map(|d| hex(&d))
    }

    /// 0: a void round has no seats.
    #[getter]
    fn seat_count(&self) -> usize {
        0
    }

    /// Checks the digest and, with ``check_previous``, the chain link against
    /// ``previous_digest`` (None: the record must be the first of a chain);
    /// (field, message) of every difference.
    #[pyo3(signature = (check_previous=false, previous_digest=None))]
    fn replay(
        &self,
        check_previous: bool,
        previous_digest: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(String, String)>> {
        let previous = if check_previous {
            Some(digest_arg(previous_digest, "previous_digest")?)
        } else {
            None
        };
        Ok(problems_list(self.record.replay(previous)))
    }

    /// Checks the commitment against ``commitment``, the one published before the
    /// deal, when given; (field, message) of every problem.
    #[pyo3(signature = (commitment=None))]
    fn verify_deal(
        &self,
        commitment: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(String, String)>> {
        let published = digest_arg(commitment, "commitment")?;
        Ok(problems_list(self.record.verify_deal(published)))
    }
}

// the record is `capsa_records::record::write_void`'s
/// The void record of a pending round: its canonical JSON text (one line) and
/// digest (hex). See ``capsa.records.void_record``.
#[pyfunction]
#[pyo3(signature = (round_id, commitment, nonce, reason, previous_digest=None, meta=None, *, table_id=None))]
fn write_void_record(
    round_id: &Bound<'_, PyAny>,
    commitment: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    reason: &Bound<'_, PyAny>,
    previous_digest: Option<&Bound<'_, PyAny>>,
    meta: Option<&Bound<'_, PyAny>>,
    table_id: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let round_id = round_id_arg(round_id)?;
    let commitment = digest_arg(Some(commitment), "commitment")?.ok_or_else(|| {
        PyTypeError::new_err("commitment must be a str of 64 hexadecimal digits, not None")
    })?;
    let nonce = nonce_arg(nonce)?;
    let reason = string_arg(reason, "reason")?;
    let previous_digest = digest_arg(previous_digest, "previous_digest")?;
    let meta = meta_arg(meta)?;
    let table_id = table_id_arg(table_id)?;
    let (text, digest) = record::write_void(&record::VoidInputs {
        table_id: table_id.as_deref(),
        round_id: &round_id,
        previous_digest,
        commitment,
        nonce,
        reason: &reason,
        meta: &meta,
    })
    .map_err(py_err)?;
    Ok((text, hex(&digest)))
}

/// Reads a record from its JSON text (bytes or str): the record (a round or a
/// void record, by its format), or (None, field, message) naming the first
/// field that is not as its format version writes it (a newer format version
/// is refused first).
#[pyfunction]
fn read_record(text: &Bound<'_, PyAny>) -> PyResult<ReadOutcome> {
    let read = if let Ok(b) = text.cast::<PyBytes>() {
        record::read_any(b.as_bytes())
    } else if let Ok(s) = text.cast::<PyString>() {
        match s.to_str() {
            Ok(t) => record::read_any(t),
            Err(_) => return Ok((None, String::new(), NOT_UTF8.into())),
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "a record is JSON text (bytes or str) or a dict, not {}",
            type_name(text)
        )));
    };
    outcome(text.py(), read)
}

/// :func:`read_record` of a record given as a dict (its canonical text, at
/// most ``MAX_RECORD_BYTES`` bytes, is what is digested); ``ValueError`` for
/// a dict that is not plain JSON data (dicts with str keys, lists, tuples,
/// str, int of at most 64 bits, bool, None), naming its fault.
#[pyfunction]
fn read_record_value(record: &Bound<'_, PyDict>) -> PyResult<ReadOutcome> {
    let from = Origin {
        field: "the record",
        data: "JSON data",
    };
    // SAFETY: the record is read from the tree, which is then dropped,
    // without running Python code
    let tree = unsafe { json_of(record.as_any(), from)? };
    outcome(record.py(), record::read_any_value(&tree))
}

/// One text of a batch, borrowed from its Python object while the batch is
/// read without the GIL.
enum BatchText<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
    /// A `str` that is not UTF-8 (a lone surrogate).
    NotUtf8,
}

fn batch_text<'a>(text: &'a Bound<'_, PyAny>, k: usize) -> PyResult<BatchText<'a>> {
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(BatchText::Bytes(b.as_bytes()));
    }
    if let Ok(s) = text.cast::<PyString>() {
        return Ok(s.to_str().map_or(BatchText::NotUtf8, BatchText::Text));
    }
    Err(PyTypeError::new_err(format!(
        "texts[{k}]: a record is JSON text (bytes or str), not {}",
        type_name(text)
    )))
}

/// A record read: its view (a `RecordView` or a `VoidView`), or None, the
/// field and the message of the problem.
type ReadOutcome = (Option<Py<PyAny>>, String, String);

fn outcome(py: Python<'_>, read: Result<AnyRecord, Problem>) -> PyResult<ReadOutcome> {
    Ok(match read {
        Ok(AnyRecord::Round(record)) => (
            Some(RecordView { record: *record }.into_py_any(py)?),
            String::new(),
            String::new(),
        ),
        Ok(AnyRecord::Void(record)) => (
            Some(VoidView { record: *record }.into_py_any(py)?),
            String::new(),
            String::new(),
        ),
        Err(p) => (None, p.field, p.message),
    })
}

/// Many records read as :func:`read_record` reads each, on every core without
/// the GIL: a list of (record or None, field, message) in the order given.
#[pyfunction]
fn read_records(py: Python<'_>, texts: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<ReadOutcome>> {
    use rayon::prelude::*;
    let borrowed = texts
        .iter()
        .enumerate()
        .map(|(k, text)| batch_text(text, k))
        .collect::<PyResult<Vec<_>>>()?;
    let read: Vec<Option<Result<AnyRecord, Problem>>> = py.detach(|| {
        borrowed
            .par_iter()
            .map(|text| match text {
                BatchText::Bytes(b) => Some(record::read_any(*b)),
                BatchText::Text(t) => Some(record::read_any(*t)),
                BatchText::NotUtf8 => None,
            })
            .collect()
    });
    read.into_iter()
        .map(|r| match r {
            Some(read) => outcome(py, read),
            None => Ok((None, String::new(), NOT_UTF8.into())),
        })
        .collect()
}

const NOT_UTF8: &str = "the record text holds a lone surrogate, which is not UTF-8";

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RECORD_FORMAT", record::FORMAT)?;
    m.add("RECORD_FORMAT_VERSION", record::FORMAT_VERSION as u32)?;
    m.add("SETTLEMENT_VERSION", record::SETTLEMENT_VERSION as u32)?;
    m.add("MAX_RECORD_BYTES", record::MAX_RECORD_BYTES)?;
    m.add("MAX_ROUND_ID_BYTES", record::MAX_ROUND_ID_BYTES)?;
    m.add("MAX_TABLE_ID_BYTES", record::MAX_TABLE_ID_BYTES)?;
    m.add("MAX_PLAYER_BYTES", record::MAX_PLAYER_BYTES)?;
    m.add_class::<RecordRules>()?;
    m.add_class::<RecordView>()?;
    m.add_class::<VoidView>()?;
    m.add("VOID_FORMAT", record::VOID_FORMAT)?;
    m.add("VOID_FORMAT_VERSION", record::VOID_FORMAT_VERSION as u32)?;
    m.add("MAX_REASON_BYTES", record::MAX_REASON_BYTES)?;
    m.add(
        "AUTO_ARRANGE_POLICIES",
        capsa_core::auto_arrange::AUTO_POLICY_NAMES.to_vec(),
    )?;
    m.add_function(wrap_pyfunction!(write_void_record, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_json, m)?)?;
    m.add_function(wrap_pyfunction!(write_round_record, m)?)?;
    m.add_function(wrap_pyfunction!(record_value, m)?)?;
    m.add_function(wrap_pyfunction!(read_record, m)?)?;
    m.add_function(wrap_pyfunction!(read_record_value, m)?)?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    Ok(())
}
