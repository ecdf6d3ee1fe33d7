//! The argument readers, exposed for the Python layer (`capsa.round`)
//! that takes the same inputs before it calls the engine: each returns
//! the value as the engine reads it, or raises what the engine would.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use super::conversion::choices::rules_arg;
use super::conversion::flags::bool_arg;
use super::conversion::meta::meta_arg;
use super::conversion::numbers::{nonce_arg, seat_count_arg, table_seats_arg};
use super::conversion::players::players_arg;
use super::conversion::stakes::{record_stakes_arg, table_stakes};
use super::conversion::text::{
    digest_arg, id_arg, round_id_arg, server_seed_arg, string_arg, table_id_arg, text_arg,
};
use super::errors::err;
use capsa_core::canonical::Json;
use capsa_core::error::ErrorKind;
use capsa_core::stakes::StakeSpec;
use capsa_core::texts;
use capsa_records::fair::hex;

/// The seat count of a table: an int 2..4.
#[pyfunction]
fn read_seat_count(seats: &Bound<'_, PyAny>) -> PyResult<usize> {
    seat_count_arg(seats)
}

/// The stakes of a table of ``seats``: one int for every pair, or the
/// matrix as a list of rows. ``for_record``: every entry >= 0, the diagonal
/// too, as a round record holds them.
#[pyfunction]
#[pyo3(signature = (stakes, seats, *, for_record=false))]
fn read_stakes<'py>(
    py: Python<'py>,
    stakes: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    for_record: bool,
) -> PyResult<Bound<'py, PyAny>> {
    stakes_of_table(py, stakes, seat_count_arg(seats)?, for_record)
}

/// [`read_stakes`] of a table of `seats` already read.
fn stakes_of_table<'py>(
    py: Python<'py>,
    stakes: &Bound<'py, PyAny>,
    seats: usize,
    for_record: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = if for_record {
        record_stakes_arg(stakes, seats)?
    } else {
        table_stakes(stakes, seats)?
    };
    Ok(match spec {
        StakeSpec::Uniform(s) => s.into_pyobject(py)?.into_any(),
        StakeSpec::Matrix(m) => {
            let rows = m.chunks(seats.max(1)).map(<[i64]>::to_vec);
            PyList::new(py, rows)?.into_any()
        }
    })
}

/// A round id: a str of 1 to ``MAX_ROUND_ID_BYTES`` bytes of UTF-8.
#[pyfunction]
fn read_round_id(round_id: &Bound<'_, PyAny>) -> PyResult<String> {
    round_id_arg(round_id)
}

/// A table id: None, or a str of 1 to ``MAX_TABLE_ID_BYTES`` bytes of UTF-8.
#[pyfunction]
#[pyo3(signature = (table_id=None))]
fn read_table_id(table_id: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    table_id_arg(table_id)
}

/// The players of a table of ``seats``, as a new list of dicts ``{"id": str,
/// "name": str | None}``: None gives seat k the player ``seat-k``.
#[pyfunction]
#[pyo3(signature = (players, seats))]
fn read_players<'py>(
    py: Python<'py>,
    players: Option<&Bound<'py, PyAny>>,
    seats: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    players_of_table(py, players, seat_count_arg(seats)?)
}

/// [`read_players`] of a table of `seats` already read.
fn players_of_table<'py>(
    py: Python<'py>,
    players: Option<&Bound<'py, PyAny>>,
    seats: usize,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for p in players_arg(players, seats)? {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "id"), p.id)?;
        d.set_item(intern!(py, "name"), p.name)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The nonce of a fair deal: an int 0..2**64-1.
#[pyfunction]
fn read_nonce(nonce: &Bound<'_, PyAny>) -> PyResult<u64> {
    nonce_arg(nonce)
}

/// A SHA-256 as 64 lowercase hexadecimal digits, or None; ``what`` names it.
#[pyfunction]
fn read_digest(
    value: Option<&Bound<'_, PyAny>>,
    what: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    let what = text_arg(what, "what")?;
    Ok(digest_arg(value, &what)?.map(|d| hex(&d)))
}

/// A server seed: 32 bytes.
#[pyfunction]
fn read_server_seed<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &server_seed_arg(seed)?))
}

/// The server's notes for a record, as a new dict: None is empty.
#[pyfunction]
fn read_meta<'py>(
    py: Python<'py>,
    meta: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (key, value) in meta_arg(meta)? {
        match value {
            Json::Null => out.set_item(key.as_ref(), py.None())?,
            Json::Bool(b) => out.set_item(key.as_ref(), b)?,
            Json::Int(i) => out.set_item(key.as_ref(), i)?,
            Json::Str(s) => out.set_item(key.as_ref(), s.as_ref())?,
            // record::check_meta lets no other kind through
            other => {
                return Err(err(
                    ErrorKind::Argument,
                    format!("meta[{key:?}] holds {}", other.kind()),
                ))
            }
        }
    }
    Ok(out)
}

// `texts::check_id`, or `texts::check_read_id` when `recorded`
/// An id (of a table, a round or a player) at ``field``, as a writer
/// takes it: 1 to ``MAX_ID_BYTES`` bytes of UTF-8, no control character
/// (U+0000 to U+001F, U+007F); ``recorded``: as the record reader takes an
/// id read from a record (U+0000 refused, other controls read).
/// ``TypeError`` for a value that is not a str, ``ArgumentError`` naming
/// the field otherwise.
#[pyfunction]
#[pyo3(signature = (value, field, *, recorded=false))]
fn check_id(
    value: &Bound<'_, PyAny>,
    field: &Bound<'_, PyAny>,
    recorded: bool,
) -> PyResult<String> {
    let field = text_arg(field, "field")?;
    if !recorded {
        return id_arg(value, &field);
    }
    let id = string_arg(value, &field)?;
    texts::check_read_id(&id, &field).map_err(|m| err(ErrorKind::Argument, m))?;
    Ok(id)
}

// `texts::check_name`, or `texts::check_read_name` when `recorded`
/// A player's display name at ``field``, or None, as a writer takes it:
/// 1 to ``MAX_NAME_BYTES`` bytes of UTF-8, no U+0000; ``recorded``: as the
/// record reader takes one (U+0000 read). ``TypeError`` for a value that
/// is neither a str nor None, ``ArgumentError`` naming the field
/// otherwise.
#[pyfunction]
#[pyo3(signature = (value, field, *, recorded=false))]
fn check_name(
    value: &Bound<'_, PyAny>,
    field: &Bound<'_, PyAny>,
    recorded: bool,
) -> PyResult<Option<String>> {
    let field = text_arg(field, "field")?;
    if value.is_none() {
        return Ok(None);
    }
    let name = string_arg(value, &field)?;
    let checked = if recorded {
        texts::check_read_name(&name, &field)
    } else {
        texts::check_name(&name, &field)
    };
    checked.map_err(|m| err(ErrorKind::Argument, m))?;
    Ok(Some(name))
}

// the check is `texts::check_rules_text`
/// What is wrong with ``value`` as the rules' text knob ``knob``
/// (``name``: at most ``MAX_RULES_NAME_BYTES`` bytes of UTF-8,
/// ``description``: at most ``MAX_RULES_DESCRIPTION_BYTES``), or None.
/// ``TypeError`` for a value that is not a str, ``ArgumentError`` for one
/// holding a lone surrogate.
#[pyfunction]
fn rules_text_fault(knob: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let knob = text_arg(knob, "knob")?;
    Ok(texts::check_rules_text(&knob, &text_arg(value, &knob)?).err())
}

/// A flag: a bool (an int or a str is not one); ``what`` names it.
/// ``TypeError`` for anything else.
#[pyfunction]
fn read_flag(value: &Bound<'_, PyAny>, what: &Bound<'_, PyAny>) -> PyResult<bool> {
    bool_arg(value, &text_arg(what, "what")?)
}

/// The arguments of a ``capsa.Round`` under ``rules`` as read, in one call
/// and in the order the other readers read them: the seat count (as the
/// rules' deck seats), the stakes as a record holds them (None when not
/// given), the round id, the nonce, the previous digest, the meta, the table
/// id, the players and the server seed (None when not given).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
fn read_round_args<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    stakes: Option<&Bound<'py, PyAny>>,
    round_id: &Bound<'py, PyAny>,
    nonce: &Bound<'py, PyAny>,
    previous_digest: Option<&Bound<'py, PyAny>>,
    meta: Option<&Bound<'py, PyAny>>,
    table_id: Option<&Bound<'py, PyAny>>,
    players: Option<&Bound<'py, PyAny>>,
    server_seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    usize,
    Option<Bound<'py, PyAny>>,
    String,
    u64,
    Option<String>,
    Bound<'py, PyDict>,
    Option<String>,
    Bound<'py, PyList>,
    Option<Bound<'py, PyBytes>>,
)> {
    let count = table_seats_arg(seats, &rules_arg(rules)?.get().deck)?;
    let stakes = match stakes.filter(|s| !s.is_none()) {
        Some(s) => Some(stakes_of_table(py, s, count, true)?),
        None => None,
    };
    let round_id = read_round_id(round_id)?;
    let nonce = read_nonce(nonce)?;
    let previous_digest = digest_arg(previous_digest, "previous_digest")?.map(|d| hex(&d));
    let meta = read_meta(py, meta)?;
    let table_id = read_table_id(table_id)?;
    let players = players_of_table(py, players, count)?;
    let server_seed = match server_seed.filter(|s| !s.is_none()) {
        Some(s) => Some(read_server_seed(py, s)?),
        None => None,
    };
    Ok((
        count,
        stakes,
        round_id,
        nonce,
        previous_digest,
        meta,
        table_id,
        players,
        server_seed,
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_round_args, m)?)?;
    m.add_function(wrap_pyfunction!(read_seat_count, m)?)?;
    m.add_function(wrap_pyfunction!(read_stakes, m)?)?;
    m.add_function(wrap_pyfunction!(read_round_id, m)?)?;
    m.add_function(wrap_pyfunction!(read_table_id, m)?)?;
    m.add_function(wrap_pyfunction!(read_players, m)?)?;
    m.add_function(wrap_pyfunction!(read_nonce, m)?)?;
    m.add_function(wrap_pyfunction!(read_digest, m)?)?;
    m.add_function(wrap_pyfunction!(read_server_seed, m)?)?;
    m.add_function(wrap_pyfunction!(read_meta, m)?)?;
    m.add_function(wrap_pyfunction!(read_flag, m)?)?;
    m.add_function(wrap_pyfunction!(check_id, m)?)?;
    m.add_function(wrap_pyfunction!(check_name, m)?)?;
    m.add_function(wrap_pyfunction!(rules_text_fault, m)?)?;
    m.add("MAX_ID_BYTES", texts::MAX_ID_BYTES)?;
    m.add("MAX_NAME_BYTES", texts::MAX_NAME_BYTES)?;
    m.add("MAX_RULES_NAME_BYTES", texts::MAX_RULES_NAME_BYTES)?;
    m.add(
        "MAX_RULES_DESCRIPTION_BYTES",
        texts::MAX_RULES_DESCRIPTION_BYTES,
    )?;
    Ok(())
}
