//! Readers of a table's players: None (each seat's default player), or a
//! list with one player per seat, each a str (its id) or a mapping with
//! `"id"` and an optional `"name"` (a str or None), checked by
//! `record::check_players`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyMapping, PyString, PyTuple};

use super::super::errors::err;
use super::text::{text_arg, type_name};
use crate::error::ErrorKind;
use crate::record::{check_players, Player};

/// One player, at `players[k]`.
fn player_arg(item: &Bound<'_, PyAny>, k: usize) -> PyResult<Player> {
    let at = format!("players[{k}]");
    if item.is_instance_of::<PyString>() {
        return Ok(Player {
            id: text_arg(item, &at)?,
            name: None,
        });
    }
    let Ok(mapping) = item.cast::<PyMapping>() else {
        return Err(PyTypeError::new_err(format!(
            "{at} must be a str (the player's id) or a mapping with \"id\" and \"name\", not {}",
            type_name(item)
        )));
    };
    for key in mapping.keys()?.iter() {
        let known = key
            .extract::<String>()
            .is_ok_and(|k| k == "id" || k == "name");
        if !known {
            return Err(err(
                ErrorKind::Argument,
                format!(
                    "{at}: unknown key {}; a player has \"id\" and \"name\"",
                    key.repr()?
                ),
            ));
        }
    }
    let Some(id) = item.get_item("id").ok() else {
        return Err(err(ErrorKind::Argument, format!("{at}.id is missing")));
    };
    let name = match item.get_item("name").ok().filter(|n| !n.is_none()) {
        Some(n) => Some(text_arg(&n, &format!("{at}.name"))?),
        None => None,
    };
    Ok(Player {
        id: text_arg(&id, &format!("{at}.id"))?,
        name,
    })
}

/// The players of a table of `seats`: None gives seat `k` the player
/// `seat-k` with no name.
pub(crate) fn players_arg(obj: Option<&Bound<'_, PyAny>>, seats: usize) -> PyResult<Vec<Player>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok((0..seats).map(Player::of_seat).collect());
    };
    let items: Vec<Bound<'_, PyAny>> = if let Ok(list) = obj.cast::<PyList>() {
        list.iter().take(seats + 1).collect()
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().take(seats + 1).collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "players must be a list of players (one per seat) or None, not {}",
            type_name(obj)
        )));
    };
    let players = items
        .iter()
        .enumerate()
        .map(|(k, item)| player_arg(item, k))
        .collect::<PyResult<Vec<Player>>>()?;
    check_players(&players, seats).map_err(|p| err(ErrorKind::Argument, p.message))?;
    Ok(players)
}
