//! Binding of rounds: the provably fair deal, submissions checked against a
//! hand, round records (written, read, replayed, their deal verified) and
//! the raw generator output for statistical batteries. The game logic is in
//! `crate::fair` and `crate::record`; `capsa.round` is the Python layer.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use super::args::{as_index, int_in_range, seats_arg, seed_arg, type_name};
use super::cards::{read_cards, Card, ReadError, Want};
use super::errors::err;
use super::rules::rules_arg;
use crate::arrangement::cards_text;
use crate::canonical::{self, Json};
use crate::deal::{shuffled_deck, ChaCha20, Words};
use crate::error::{Error, ErrorKind};
use crate::fair::{self, hex, parse_hex32, FairWords, ServerSeed};
use crate::record::{self, Members, PlayedSeat, Problem, Record, RoundInputs, StakeSpec};
use crate::rules::Rules;

/// The most words or shuffles one generator call returns (the command line
/// asks in chunks, so memory stays flat).
const MAX_CHUNK: usize = 1 << 22;

fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    obj.cast::<PyBytes>()
        .map(|b| b.as_bytes())
        .map_err(|_| PyTypeError::new_err(format!("{what} must be bytes, not {}", type_name(obj))))
}

fn server_seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<ServerSeed> {
    let bytes = bytes_arg(obj, "server_seed")?;
    bytes.try_into().map_err(|_| {
        err(
            ErrorKind::Argument,
            format!(
                "server_seed must be {} bytes, got {}",
                fair::SERVER_SEED_BYTES,
                bytes.len()
            ),
        )
    })
}

fn text_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a str, not {}", type_name(obj)))
    })?;
    s.to_str().map(str::to_owned).map_err(|_| {
        err(
            ErrorKind::Argument,
            format!("{what} holds a lone surrogate, which is not a character of UTF-8 text"),
        )
    })
}

/// Client seeds: None (none), or a list or tuple of str, one per seat.
fn client_seeds_arg(obj: Option<&Bound<'_, PyAny>>, seats: usize) -> PyResult<Vec<String>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let items: Vec<Bound<'_, PyAny>> = if let Ok(list) = obj.cast::<PyList>() {
        list.iter().take(seats + 1).collect()
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().take(seats + 1).collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "client_seeds must be a list of str (one per seat) or None, not {}",
            type_name(obj)
        )));
    };
    let seeds = items
        .iter()
        .enumerate()
        .map(|(k, s)| text_arg(s, &format!("client_seeds[{k}]")))
        .collect::<PyResult<Vec<String>>>()?;
    fair::check_client_seeds(&seeds, seats)?;
    Ok(seeds)
}

fn nonce_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in_range(obj, "nonce", 0, u64::MAX as i128, ErrorKind::Argument)? as u64)
}

/// The commitment to a 32-byte server seed: its SHA-256, lowercase hex.
#[pyfunction]
fn fair_commitment(server_seed: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(hex(&fair::commitment(&server_seed_arg(server_seed)?)))
}

type Hands = (Vec<Vec<u32>>, Vec<Vec<Card>>);

/// The provably fair deal: each seat's 13 ids sorted, and the same as Cards.
#[pyfunction]
#[pyo3(signature = (server_seed, client_seeds, nonce, seats))]
fn fair_deal(
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
) -> PyResult<Hands> {
    let seats = seats_arg(seats)?;
    let seed = server_seed_arg(server_seed)?;
    let client_seeds = client_seeds_arg(client_seeds, seats)?;
    let hands = fair::deal(&seed, &client_seeds, nonce_arg(nonce)?, seats)?;
    let cards = hands
        .iter()
        .map(|h| h.iter().map(|&id| Card { id }).collect())
        .collect();
    let ids = hands
        .iter()
        .map(|h| h.iter().map(|&id| u32::from(id)).collect())
        .collect();
    Ok((ids, cards))
}

/// Reads a submission (an `Arrangement`, "top / middle / bottom" text, or
/// 13 cards in row order) and checks it holds exactly `hand`; returns its
/// 13 ids. An error names the seat and the cards.
#[pyfunction]
fn submission(arrangement: &Bound<'_, PyAny>, hand: Vec<u8>, seat: usize) -> PyResult<Vec<u32>> {
    let at_seat = |e: Error| PyErr::from(e.context(format_args!("seat {seat}")).at_seat(seat));
    let mut ids = Vec::with_capacity(13);
    if let Ok(text) = arrangement.cast::<PyString>() {
        let text = text
            .to_str()
            .map_err(|_| at_seat(Error::card("the arrangement text holds a lone surrogate")))?;
        crate::arrangement::read_arrangement_text(text, &mut ids).map_err(at_seat)?;
    } else {
        let py = arrangement.py();
        let source = match arrangement.getattr(pyo3::intern!(py, "ids")) {
            Ok(ids) if !arrangement.is_instance_of::<PyList>() => ids,
            _ => arrangement.clone(),
        };
        let want = Want {
            sizes: &[13],
            what: "an arrangement",
        };
        match read_cards(&source, &mut ids, want) {
            Ok(()) => {}
            Err(ReadError::Core(e)) => return Err(at_seat(e)),
            Err(ReadError::Py(e)) if e.is_instance_of::<PyTypeError>(py) => {
                return Err(PyTypeError::new_err(format!(
                    "seat {seat}: an arrangement is an Arrangement, \"top / middle / bottom\" \
                     text or 13 cards in row order, not {}",
                    type_name(arrangement)
                )))
            }
            Err(ReadError::Py(e)) => return Err(e),
        }
    }
    crate::cards::check_hand(&ids, &[13], "an arrangement").map_err(at_seat)?;
    let foreign: Vec<u8> = ids.iter().copied().filter(|c| !hand.contains(c)).collect();
    if !foreign.is_empty() {
        let kept: Vec<u8> = hand.iter().copied().filter(|c| !ids.contains(c)).collect();
        return Err(at_seat(Error::hand(format!(
            "the arrangement holds {} that the seat was not dealt (and not its {}); \
             its hand is {}",
            cards_text(&foreign),
            cards_text(&kept),
            cards_text(&hand)
        ))));
    }
    Ok(ids.into_iter().map(u32::from).collect())
}

/// Canonical JSON text of any JSON text (see `docs/records.md`).
#[pyfunction]
fn canonical_json(text: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(canonical::to_string(&canonical::parse(b.as_bytes())?));
    }
    let text = text_arg(text, "the JSON text")?;
    Ok(canonical::to_string(&canonical::parse_str(&text)?))
}

/// Rules as a record holds them: compiled, with their canonical JSON text.
#[pyclass(frozen, module = "capsa._core")]
pub struct RecordRules {
    rules: Rules,
    text: String,
}

#[pymethods]
impl RecordRules {
    /// `rules` (a `capsa.Rules` or its `RuleSet`) and `rules_json`, its
    /// `to_dict()` as JSON text (written canonically here).
    #[new]
    fn py_new(rules: &Bound<'_, PyAny>, rules_json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let rules = rules_arg(Some(rules))?.get().clone();
        let text = text_arg(rules_json, "rules_json")?;
        let value = canonical::parse_str(&text)?;
        if !matches!(value, Json::Object(_)) {
            return Err(err(
                ErrorKind::Rules,
                format!("rules_json must be a JSON object, not {}", value.kind()),
            ));
        }
        Ok(RecordRules {
            rules,
            text: canonical::to_string(&value),
        })
    }

    /// The rules' canonical JSON text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }
}

fn stakes_arg(obj: &Bound<'_, PyAny>, seats: usize) -> PyResult<StakeSpec> {
    let entry = |v: &Bound<'_, PyAny>, what: &str| -> PyResult<i64> {
        Ok(int_in_range(v, what, 0, i64::MAX as i128, ErrorKind::Table)? as i64)
    };
    if as_index(obj)?.is_some() {
        return Ok(StakeSpec::Uniform(entry(obj, "the stake")?));
    }
    let not_matrix = || {
        PyTypeError::new_err(format!(
            "stakes must be an int or a {seats} x {seats} list of lists of int, not {}",
            type_name(obj)
        ))
    };
    let rows = obj.cast::<PyList>().map_err(|_| not_matrix())?;
    if rows.len() != seats {
        return Err(err(
            ErrorKind::Table,
            format!(
                "stakes must be {seats} rows of {seats}, got {} rows",
                rows.len()
            ),
        ));
    }
    let mut m = Vec::with_capacity(seats * seats);
    for (i, row) in rows.iter().enumerate() {
        let row = row.cast_into::<PyList>().map_err(|_| not_matrix())?;
        if row.len() != seats {
            return Err(err(
                ErrorKind::Table,
                format!("stakes[{i}] must have {seats} entries, got {}", row.len()),
            ));
        }
        for (j, v) in row.iter().enumerate() {
            m.push(entry(&v, &format!("stakes[{i}][{j}]"))?);
        }
    }
    let spec = StakeSpec::Matrix(m);
    spec.check(seats)?;
    Ok(spec)
}

fn digest_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<[u8; 32]>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let text = text_arg(obj, what)?;
    parse_hex32(&text).map(Some).ok_or_else(|| {
        err(
            ErrorKind::Argument,
            format!(
                "{what} must be 64 lowercase hexadecimal digits (a SHA-256), got {:?}",
                text.chars().take(80).collect::<String>()
            ),
        )
    })
}

fn meta_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Members<'static>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let text = text_arg(obj, "meta")?;
    match canonical::parse_str(&text)?.into_owned() {
        Json::Object(members) => {
            record::check_meta(&members)?;
            Ok(members)
        }
        other => Err(err(
            ErrorKind::Argument,
            format!("meta must be an object, not {}", other.kind()),
        )),
    }
}

/// One seat as the Python layer passes it: (13 ids, auto, surrender,
/// declare_natural).
type SeatArg = (Vec<u8>, bool, bool, bool);

/// Writes the record of a played round: its canonical JSON text (one line)
/// and its digest (hex). The hands are dealt again from the seeds and the
/// table settled (see `crate::record::write`).
#[pyfunction]
#[pyo3(signature = (rules, round_id, stakes, server_seed, client_seeds, nonce, seats, previous_digest=None, meta=None))]
#[allow(clippy::too_many_arguments)]
fn write_round_record(
    py: Python<'_>,
    rules: &Bound<'_, RecordRules>,
    round_id: &Bound<'_, PyAny>,
    stakes: &Bound<'_, PyAny>,
    server_seed: &Bound<'_, PyAny>,
    client_seeds: Option<&Bound<'_, PyAny>>,
    nonce: &Bound<'_, PyAny>,
    seats: Vec<SeatArg>,
    previous_digest: Option<&Bound<'_, PyAny>>,
    meta: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let n = seats.len();
    crate::settle::check_seat_count(n)?;
    let mut played = Vec::with_capacity(n);
    for (k, (ids, auto, surrender, declare_natural)) in seats.into_iter().enumerate() {
        let arrangement: [u8; 13] = ids.as_slice().try_into().map_err(|_| {
            PyErr::from(
                Error::hand(format!(
                    "seat {k}: an arrangement has 13 cards, got {}",
                    ids.len()
                ))
                .at_seat(k),
            )
        })?;
        played.push(PlayedSeat {
            arrangement,
            auto,
            surrender,
            declare_natural,
        });
    }
    let rules = rules.get();
    let round_id = text_arg(round_id, "round_id")?;
    let stakes = stakes_arg(stakes, n)?;
    let server_seed = server_seed_arg(server_seed)?;
    let client_seeds = client_seeds_arg(client_seeds, n)?;
    let nonce = nonce_arg(nonce)?;
    let previous_digest = digest_arg(previous_digest, "previous_digest")?;
    let meta = meta_arg(meta)?;
    let written = py.detach(|| {
        record::write(&RoundInputs {
            round_id: &round_id,
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
    })?;
    Ok((written.text, hex(&written.digest)))
}

/// A round record as read (every field checked for its form).
#[pyclass(frozen, module = "capsa._core")]
pub struct RecordView {
    record: Record,
}

fn problems_list(problems: Vec<Problem>) -> Vec<(String, String)> {
    problems.into_iter().map(|p| (p.field, p.message)).collect()
}

#[pymethods]
impl RecordView {
    #[getter]
    fn round_id(&self) -> &str {
        &self.record.round_id
    }

    /// The record's `digest` as written.
    #[getter]
    fn digest(&self) -> String {
        hex(&self.record.digest)
    }

    #[getter]
    fn previous_digest(&self) -> Option<String> {
        self.record.previous_digest.map(|d| hex(&d))
    }

    #[getter]
    fn commitment(&self) -> String {
        hex(&self.record.commitment)
    }

    /// The record's rules object as canonical JSON text.
    #[getter]
    fn rules_json(&self) -> &str {
        &self.record.rules_text
    }

    #[getter]
    fn seat_count(&self) -> usize {
        self.record.seats.len()
    }

    /// Each seat's (net, rake) from the recorded settlement.
    fn net_and_rake(&self) -> Vec<(i128, i128)> {
        self.record.net_and_rake.clone()
    }

    /// Recomputes everything from the record's inputs under `rules` (the
    /// record's own rules, compiled); (field, message) of every difference.
    /// `check_previous` says whether to check the chain link against
    /// `previous_digest` (None: the record must be the first of a chain).
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
    /// commitment is `commitment`, when given); (field, message) of every
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

/// Reads a round record from JSON text (bytes or str): the record, or
/// (None, field, message) naming the first field that is not as format 1
/// writes it (a newer format version is refused first).
#[pyfunction]
fn read_record(text: &Bound<'_, PyAny>) -> PyResult<(Option<RecordView>, String, String)> {
    let bytes: &[u8] = if let Ok(b) = text.cast::<PyBytes>() {
        b.as_bytes()
    } else if let Ok(s) = text.cast::<PyString>() {
        match s.to_str() {
            Ok(t) => t.as_bytes(),
            Err(_) => {
                return Ok((
                    None,
                    String::new(),
                    "the record text holds a lone surrogate, which is not UTF-8".into(),
                ))
            }
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "a record is JSON text (bytes or str) or a dict, not {}",
            type_name(text)
        )));
    };
    Ok(match record::read(bytes) {
        Ok(record) => (Some(RecordView { record }), String::new(), String::new()),
        Err(p) => (None, p.field, p.message),
    })
}

fn count_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    Ok(int_in_range(obj, what, 0, MAX_CHUNK as i128, ErrorKind::Argument)? as usize)
}

fn key32_arg(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 32]> {
    let bytes = bytes_arg(obj, "key")?;
    bytes.try_into().map_err(|_| {
        err(
            ErrorKind::Argument,
            format!("key must be 32 bytes, got {}", bytes.len()),
        )
    })
}

/// `count` words of the fair deal's HMAC-SHA256 stream from word `start`,
/// as the stream's bytes (each word big-endian).
#[pyfunction]
fn rng_words_fair(
    py: Python<'_>,
    server_seed: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let seed = server_seed_arg(server_seed)?;
    let nonce = nonce_arg(nonce)?;
    let start = int_in_range(start, "start", 0, u64::MAX as i128, ErrorKind::Argument)? as u64;
    let count = count_arg(count, "count")?;
    let no_seeds: [&str; 0] = [];
    let out = py.detach(|| {
        let mut words = FairWords::new(&seed, &no_seeds, nonce);
        words.seek(start);
        let mut out = Vec::with_capacity(4 * count);
        for _ in 0..count {
            out.extend_from_slice(&words.next_word().to_be_bytes());
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// `count` words of the ChaCha20 stream of a 32-byte key from word
/// `start`, as the key stream's bytes (each word little-endian).
#[pyfunction]
fn rng_words_chacha20(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let key = key32_arg(key)?;
    let start = int_in_range(start, "start", 0, (1i128 << 68) - 1, ErrorKind::Argument)? as u128;
    let count = count_arg(count, "count")?;
    let out = py.detach(|| {
        let mut rng = ChaCha20::from_key(key);
        rng.seek(start);
        let mut out = Vec::with_capacity(4 * count);
        for _ in 0..count {
            out.extend_from_slice(&rng.next_word().to_le_bytes());
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// The decks (52 ids each, in deck order) of the fair deals of a server
/// seed with no client seeds and nonces `first_nonce`, `first_nonce + 1`, ...
#[pyfunction]
fn rng_shuffles_fair(
    py: Python<'_>,
    server_seed: &Bound<'_, PyAny>,
    first_nonce: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let seed = server_seed_arg(server_seed)?;
    let first = nonce_arg(first_nonce)?;
    let count = count_arg(count, "count")?;
    if first.checked_add(count as u64).is_none() {
        return Err(err(
            ErrorKind::Argument,
            "first_nonce + count must stay below 2**64",
        ));
    }
    let no_seeds: [&str; 0] = [];
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(52 * count);
        for k in 0..count as u64 {
            out.extend_from_slice(&fair::deck(&seed, &no_seeds, first + k));
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// The decks (52 ids each, in deck order) of the seeded deals of seeds
/// `first_seed`, `first_seed + 1`, ... (`capsa.deal(seats, seed)`).
#[pyfunction]
fn rng_shuffles_seeded(
    py: Python<'_>,
    first_seed: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let first = seed_arg(first_seed)?;
    let count = count_arg(count, "count")?;
    if first.checked_add(count as u64).is_none() {
        return Err(err(
            ErrorKind::Argument,
            "first_seed + count must stay below 2**64",
        ));
    }
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(52 * count);
        for k in 0..count as u64 {
            out.extend_from_slice(&shuffled_deck(&mut ChaCha20::from_seed(first + k)));
        }
        out
    });
    Ok(PyBytes::new(py, &out).unbind())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FAIR_ALGORITHM", fair::ALGORITHM)?;
    m.add("MAX_CLIENT_SEED_BYTES", fair::MAX_CLIENT_SEED_BYTES)?;
    m.add("RECORD_FORMAT", record::FORMAT)?;
    m.add("RECORD_FORMAT_VERSION", record::FORMAT_VERSION as u32)?;
    m.add("MAX_RECORD_BYTES", record::MAX_RECORD_BYTES)?;
    m.add("MAX_ROUND_ID_BYTES", record::MAX_ROUND_ID_BYTES)?;
    m.add("MAX_RNG_CHUNK", MAX_CHUNK)?;
    m.add_class::<RecordRules>()?;
    m.add_class::<RecordView>()?;
    m.add_function(wrap_pyfunction!(fair_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(fair_deal, m)?)?;
    m.add_function(wrap_pyfunction!(submission, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_json, m)?)?;
    m.add_function(wrap_pyfunction!(write_round_record, m)?)?;
    m.add_function(wrap_pyfunction!(read_record, m)?)?;
    m.add_function(wrap_pyfunction!(rng_words_fair, m)?)?;
    m.add_function(wrap_pyfunction!(rng_words_chacha20, m)?)?;
    m.add_function(wrap_pyfunction!(rng_shuffles_fair, m)?)?;
    m.add_function(wrap_pyfunction!(rng_shuffles_seeded, m)?)?;
    Ok(())
}
