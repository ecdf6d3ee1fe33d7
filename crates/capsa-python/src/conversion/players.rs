//! Readers of a table's players: None (each seat's default player), or a
//! list with one player per seat, each a str (its id) or a mapping with
//! `"id"` and an optional `"name"` (a str or None), checked by
//! `record::check_players`. A fault a record can hold too is worded as a
//! record's reader words it, the record's `seats[k].player` named
//! `players[k]`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyMapping, PyString};

use super::super::errors::err;
use super::text::{kind_name, per_seat_items, string_arg};
use capsa_core::error::ErrorKind;
use capsa_core::texts;
use capsa_records::record::{check_players, Player};

/// The keys of a player given as a mapping, in the record's order.
const PLAYER_KEYS: [&str; 2] = ["id", "name"];

/// A player's id (`name` false) or display name at `field`, as
/// [`capsa_core::texts`] takes it, so that the fault is named here with the
/// message `check_players` gives.
fn player_text(obj: &Bound<'_, PyAny>, field: &str, name: bool) -> PyResult<String> {
    let text = string_arg(obj, field)?;
    let checked = if name {
        texts::check_name(&text, field)
    } else {
        texts::check_id(&text, field)
    };
    checked.map_err(|m| err(ErrorKind::Argument, m))?;
    Ok(text)
}

/// The first key of `mapping` that is not a player's, named by its first
/// 40 characters (another type than str by its repr).
fn unknown_key(mapping: &Bound<'_, PyMapping>) -> PyResult<Option<String>> {
    for key in mapping.keys()?.iter() {
        match key.extract::<String>() {
            Ok(k) if PLAYER_KEYS.contains(&k.as_str()) => {}
            Ok(k) => return Ok(Some(k.chars().take(40).collect())),
            Err(_) => return Ok(Some(key.repr()?.to_string())),
        }
    }
    Ok(None)
}

/// One player, at `players[k]`.
fn player_arg(item: &Bound<'_, PyAny>, k: usize) -> PyResult<Player> {
    let at = format!("players[{k}]");
    if item.is_instance_of::<PyString>() {
        return Ok(Player {
            id: player_text(item, &format!("{at}.id"), false)?,
            name: None,
        });
    }
    let Ok(mapping) = item.cast::<PyMapping>() else {
        return Err(PyTypeError::new_err(format!(
            "{at} must be a string (the player's id) or an object of id and name, not {}",
            kind_name(item)
        )));
    };
    if let Some(key) = unknown_key(mapping)? {
        return Err(err(
            ErrorKind::Argument,
            format!(
                "{at}.{key}: unknown key in {at}; the format has {}",
                PLAYER_KEYS.join(", ")
            ),
        ));
    }
    let Some(id) = item.get_item("id").ok() else {
        return Err(err(ErrorKind::Argument, format!("{at}.id is missing")));
    };
    let id = player_text(&id, &format!("{at}.id"), false)?;
    let name = match item.get_item("name").ok().filter(|n| !n.is_none()) {
        Some(n) => Some(player_text(&n, &format!("{at}.name"), true)?),
        None => None,
    };
    Ok(Player { id, name })
}

/// The players of a table of `seats`: None gives seat `k` the player
/// `seat-k` with no name.
pub(crate) fn players_arg(obj: Option<&Bound<'_, PyAny>>, seats: usize) -> PyResult<Vec<Player>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok((0..seats).map(Player::of_seat).collect());
    };
    let items = per_seat_items(obj, seats, "players", "a list of players")?;
    let players = items
        .iter()
        .enumerate()
        .map(|(k, item)| player_arg(item, k))
        .collect::<PyResult<Vec<Player>>>()?;
    check_players(&players, seats).map_err(|p| err(ErrorKind::Argument, p.message))?;
    Ok(players)
}
