//! The fields format 2 adds: the table's id, each seat's player and the
//! identity of the solver that arranged the seats left at the close (from
//! format 4 on, the round's auto-arrange policy), with their checks,
//! reading and writing, and the check of each seat arranged at the close.

use std::fmt::Write;

use super::format::{sorted, Problem, Read, POLICY_FORMAT_VERSION};
use crate::fair::{hex, parse_hex32, sha256};
use capsa_core::auto_arrange::{auto_arrangement, AutoPolicy, AUTO_POLICY_NAMES};
use capsa_core::canonical::{write_str, Json};
use capsa_core::error::{Error, Result};
use capsa_core::rules::Rules;
use capsa_core::solver::{Effort, Strategy, Tables};
use capsa_core::table::MAX_TABLE_SEATS;
use capsa_core::texts;

/// The longest table id, in bytes of UTF-8 (an id, [`capsa_core::texts`]).
pub const MAX_TABLE_ID_BYTES: usize = texts::MAX_ID_BYTES;

/// The longest player id or display name, in bytes of UTF-8.
pub const MAX_PLAYER_BYTES: usize = texts::MAX_ID_BYTES;
const _: () = assert!(texts::MAX_ID_BYTES == texts::MAX_NAME_BYTES);

pub(super) const PLAYER_KEYS: [&str; 2] = ["id", "name"];

pub(super) const SOLVER_KEYS: [&str; 3] = ["effort", "strategy", "tables"];

/// The player at a seat: an id and an optional display name, as
/// [`capsa_core::texts`] takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub name: Option<String>,
}

impl Player {
    /// The player of seat `k` when the server names none: id `seat-k`, no
    /// name (format 1 records are read so too).
    pub fn of_seat(k: usize) -> Player {
        Player {
            id: format!("seat-{k}"),
            name: None,
        }
    }
}

/// Checks a table id as a writer takes it ([`texts::check_id`]).
pub fn check_table_id(table_id: &str) -> std::result::Result<(), String> {
    texts::check_id(table_id, "table_id")
}

/// Checks the players of a table of `seats` as a writer takes them: one
/// per seat, ids and names as [`capsa_core::texts`] takes them, no id twice (a
/// player holds one seat). The message names the field (`players[k].id`).
pub fn check_players(players: &[Player], seats: usize) -> std::result::Result<(), Problem> {
    if players.len() != seats {
        return Err(Problem::new(
            "players",
            format!(
                "players must list one player per seat ({seats}), got {}",
                players.len()
            ),
        ));
    }
    for (k, p) in players.iter().enumerate() {
        let field = format!("players[{k}].id");
        texts::check_id(&p.id, &field).map_err(|m| Problem::new(field.as_str(), m))?;
        if let Some(name) = p.name.as_deref() {
            let field = format!("players[{k}].name");
            texts::check_name(name, &field).map_err(|m| Problem::new(field.as_str(), m))?;
        }
    }
    check_one_seat_each(players)
}

/// Checks that no player id is at two seats.
fn check_one_seat_each(players: &[Player]) -> std::result::Result<(), Problem> {
    for (k, p) in players.iter().enumerate() {
        if let Some(j) = players[..k].iter().position(|q| q.id == p.id) {
            let field = format!("players[{k}].id");
            return Err(Problem::new(
                field.as_str(),
                format!(
                    "{field}: player {:?} is also at seat {j}; a player holds one seat",
                    p.id.chars().take(40).collect::<String>()
                ),
            ));
        }
    }
    Ok(())
}

/// [`check_players`] as an engine error (`Argument`).
pub fn players_error(players: &[Player], seats: usize) -> Result<()> {
    check_players(players, seats).map_err(|p| Error::argument(p.message))
}

pub(super) fn push_player(out: &mut String, player: &Player) {
    out.push_str("{\"id\":");
    write_str(out, &player.id);
    out.push_str(",\"name\":");
    match &player.name {
        Some(name) => write_str(out, name),
        None => out.push_str("null"),
    }
    out.push('}');
}

/// What arranged the seats left at the close: the strategy, the effort and
/// the SHA-256 of the solver's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverId {
    pub strategy: String,
    pub effort: String,
    pub tables: [u8; 32],
}

/// The fingerprints computed so far, by the address of the shipped tables
/// (which live as long as the program).
type Fingerprints = Vec<(usize, [u8; 32])>;

/// The SHA-256 of a shipped tables file, computed once per tables.
fn tables_fingerprint(tables: &'static Tables) -> [u8; 32] {
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<Fingerprints>> = OnceLock::new();
    let key = tables as *const Tables as usize;
    let seen = SEEN.get_or_init(|| Mutex::new(Vec::new()));
    if let Ok(list) = seen.lock() {
        if let Some((_, d)) = list.iter().find(|(k, _)| *k == key) {
            return *d;
        }
    }
    let digest = sha256(&tables.to_bytes());
    if let Ok(mut list) = seen.lock() {
        list.push((key, digest));
    }
    digest
}

/// The solver a round arranges with at the close under `rules`: the
/// default strategy, the fast effort and the shipped tables nearest the
/// rules (what `Round.close` calls).
pub fn installed_solver(rules: &Rules) -> SolverId {
    SolverId {
        strategy: Strategy::Solver.name().to_string(),
        effort: Effort::Fast.name().to_string(),
        tables: tables_fingerprint(Tables::nearest(rules)),
    }
}

/// The `tables` of a policy that consults none (`greedy`, `foul`).
pub const NO_TABLES: [u8; 32] = [0; 32];

/// What a record of format 4 names as the arranger of the seats left at the
/// close under `policy` and `rules`: [`installed_solver`] for `solver`; for
/// `greedy` and `foul`, the policy's name, the fast effort and
/// [`NO_TABLES`] (they consult none, so their records replay under any
/// tables).
pub fn policy_solver(rules: &Rules, policy: AutoPolicy) -> SolverId {
    match policy {
        AutoPolicy::Solver => installed_solver(rules),
        other => SolverId {
            strategy: other.name().to_string(),
            effort: Effort::Fast.name().to_string(),
            tables: NO_TABLES,
        },
    }
}

/// The policy a record's `solver` names: from format 4 on its strategy
/// (read as one of [`AUTO_POLICY_NAMES`]); before, always the solver.
pub fn policy_of(solver: &SolverId, format_version: i128) -> Result<AutoPolicy> {
    if format_version < POLICY_FORMAT_VERSION {
        return Ok(AutoPolicy::Solver);
    }
    AutoPolicy::from_name(&solver.strategy)
}

pub(super) fn push_solver(out: &mut String, solver: &SolverId) {
    out.push_str("{\"effort\":");
    write_str(out, &solver.effort);
    out.push_str(",\"strategy\":");
    write_str(out, &solver.strategy);
    let _ = write!(out, ",\"tables\":\"{}\"}}", hex(&solver.tables));
}

/// A text at `field` that `check` takes.
fn checked_text<'a>(
    value: &'a Json<'_>,
    field: &str,
    check: impl Fn(&str, &str) -> std::result::Result<(), String>,
) -> Read<&'a str> {
    match value {
        Json::Str(s) => match check(s, field) {
            Ok(()) => Ok(s),
            Err(m) => Err(Problem::new(field, m)),
        },
        other => Err(Problem::new(
            field,
            format!("{field} must be a string, not {}", other.kind()),
        )),
    }
}

/// A text of 1 to `max_bytes` bytes at `field`.
fn short_text<'a>(value: &'a Json<'_>, field: &str, max_bytes: usize) -> Read<&'a str> {
    checked_text(value, field, |s, field| {
        if s.is_empty() || s.len() > max_bytes {
            return Err(format!(
                "{field} must be 1 to {max_bytes} bytes of UTF-8, got {}",
                s.len()
            ));
        }
        Ok(())
    })
}

/// `table_id`: an id as the record reader takes it
/// ([`texts::check_read_id`]), or null.
pub(super) fn read_table_id(value: &Json) -> Read<Option<String>> {
    match value {
        Json::Null => Ok(None),
        v => Ok(Some(
            checked_text(v, "table_id", texts::check_read_id)?.to_string(),
        )),
    }
}

/// The names of a seat's fields, written out for each of the at most 8
/// seats a record holds: reading a seat then makes no string.
pub(super) struct SeatFields {
    pub seat: &'static str,
    pub hand: &'static str,
    pub arrangement: &'static str,
    pub auto: &'static str,
    pub surrender: &'static str,
    pub declare_natural: &'static str,
    pub banker: &'static str,
    pub multiplier: &'static str,
    pub player: &'static str,
    pub player_id: &'static str,
    pub player_name: &'static str,
}

macro_rules! seat_fields {
    ($k:literal) => {
        SeatFields {
            seat: concat!("seats[", $k, "]"),
            hand: concat!("seats[", $k, "].hand"),
            arrangement: concat!("seats[", $k, "].arrangement"),
            auto: concat!("seats[", $k, "].auto"),
            surrender: concat!("seats[", $k, "].surrender"),
            declare_natural: concat!("seats[", $k, "].declare_natural"),
            banker: concat!("seats[", $k, "].banker"),
            multiplier: concat!("seats[", $k, "].multiplier"),
            player: concat!("seats[", $k, "].player"),
            player_id: concat!("seats[", $k, "].player.id"),
            player_name: concat!("seats[", $k, "].player.name"),
        }
    };
}

pub(super) const SEAT_FIELDS: [SeatFields; MAX_TABLE_SEATS] = [
    seat_fields!(0),
    seat_fields!(1),
    seat_fields!(2),
    seat_fields!(3),
    seat_fields!(4),
    seat_fields!(5),
    seat_fields!(6),
    seat_fields!(7),
];

/// `seats[k].player`: `{"id": text, "name": text or null}`; `names` are
/// seat `k`'s fields.
pub(super) fn read_player(value: &Json, names: &SeatFields) -> Read<Player> {
    let path = names.player;
    let members = super::format::object(value, path, &PLAYER_KEYS)?;
    let get = |key: &str| {
        members
            .iter()
            .find(|(m, _)| m == key)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                Problem::new(format!("{path}.{key}"), format!("{path}.{key} is missing"))
            })
    };
    let id = checked_text(get("id")?, names.player_id, texts::check_read_id)?.to_string();
    let name = match get("name")? {
        Json::Null => None,
        v => Some(checked_text(v, names.player_name, texts::check_read_name)?.to_string()),
    };
    Ok(Player { id, name })
}

/// Checks the players read from a record: no id at two seats.
pub(super) fn check_record_players(players: &[Player]) -> Read<()> {
    check_one_seat_each(players).map_err(|p| {
        let field = p
            .field
            .replacen("players[", "seats[", 1)
            .replacen("].id", "].player.id", 1);
        let message = p.message.replacen(&p.field, &field, 1);
        Problem::new(field, message)
    })
}

/// `solver`: `{"effort": text, "strategy": text, "tables": 64 hex digits}`;
/// from format 4 on the strategy is a policy, and `greedy` and `foul` are
/// written with the fast effort and [`NO_TABLES`].
pub(super) fn read_solver(value: &Json, format_version: i128) -> Read<SolverId> {
    let members = super::format::object(value, "solver", &SOLVER_KEYS)?;
    let get = |key: &str| {
        members
            .iter()
            .find(|(m, _)| m == key)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                Problem::new(format!("solver.{key}"), format!("solver.{key} is missing"))
            })
    };
    let strategy = short_text(get("strategy")?, "solver.strategy", 64)?.to_string();
    let effort = short_text(get("effort")?, "solver.effort", 64)?.to_string();
    let tables_text = short_text(get("tables")?, "solver.tables", 64)?;
    let tables = parse_hex32(tables_text).ok_or_else(|| {
        Problem::new(
            "solver.tables",
            format!("solver.tables must be 64 lowercase hexadecimal digits (a SHA-256), got {tables_text:?}"),
        )
    })?;
    let solver = SolverId {
        strategy,
        effort,
        tables,
    };
    if format_version >= POLICY_FORMAT_VERSION {
        check_policy_solver(&solver)?;
    }
    Ok(solver)
}

/// Checks the `solver` of a format 4 record: a policy's name, and for
/// `greedy` and `foul` the fast effort and no tables.
fn check_policy_solver(solver: &SolverId) -> Read<()> {
    let policy = AutoPolicy::from_name(&solver.strategy).map_err(|_| {
        Problem::new(
            "solver.strategy",
            format!(
                "solver.strategy must be an auto-arrange policy ({}), got {:?}",
                AUTO_POLICY_NAMES.join(", "),
                solver.strategy
            ),
        )
    })?;
    if policy == AutoPolicy::Solver {
        return Ok(());
    }
    let name = policy.name();
    if solver.effort != Effort::Fast.name() {
        return Err(Problem::new(
            "solver.effort",
            format!(
                "solver.effort of the {name} policy is \"fast\", got {:?}",
                solver.effort
            ),
        ));
    }
    if solver.tables != NO_TABLES {
        return Err(Problem::new(
            "solver.tables",
            format!("solver.tables of the {name} policy is 64 zeros: it consults no tables"),
        ));
    }
    Ok(())
}

/// The rows of an arrangement as sets (each row sorted), so that two
/// arrangements of the same rows compare equal.
fn row_sets(a: &[u8; 13]) -> [u8; 13] {
    let mut rows = *a;
    rows[..3].sort_unstable();
    rows[3..8].sort_unstable();
    rows[8..].sort_unstable();
    rows
}

/// Checks every seat marked `auto` against what the record's `policy`
/// arranges its hand. Under `solver` (every record before format 4) the
/// recorded solver must be the one installed (same strategy, effort and
/// tables) for the check to be made: when it is not and a seat is `auto`,
/// the one problem is `solver`, those arrangements cannot be checked here.
/// `greedy` and `foul` consult no tables, so any capsa that knows them
/// checks them. A seat whose arrangement is not the policy's names both
/// `seats[k].auto` and `seats[k].arrangement`; a seat holding cards it was
/// not dealt is left to the check of its cards.
pub(super) fn auto_problems(
    rules: &Rules,
    recorded: &SolverId,
    policy: AutoPolicy,
    hands: &[[u8; 13]],
    seats: &[super::PlayedSeat],
) -> Vec<Problem> {
    let auto: Vec<usize> = (0..seats.len()).filter(|&k| seats[k].auto).collect();
    if auto.is_empty() {
        return Vec::new();
    }
    if policy == AutoPolicy::Solver {
        let installed = installed_solver(rules);
        if *recorded != installed {
            return vec![solver_mismatch(recorded, &installed, &auto)];
        }
    }
    let by = match policy {
        AutoPolicy::Solver => "the solver",
        AutoPolicy::Greedy => "the greedy policy",
        AutoPolicy::Foul => "the foul policy",
    };
    let mut problems = Vec::new();
    for k in auto {
        if sorted(&seats[k].arrangement) != sorted(&hands[k]) {
            // cards the seat was not dealt are their own problem (`check_play`):
            // what a policy arranges says nothing more of them
            continue;
        }
        let chosen = match auto_arrangement(rules, &hands[k], seats.len(), policy) {
            Ok(c) => c.cards,
            Err(e) => {
                problems.push(Problem::new(
                    format!("seats[{k}].auto"),
                    format!(
                        "seats[{k}].auto: {by} cannot arrange the hand: {}",
                        e.message()
                    ),
                ));
                continue;
            }
        };
        if row_sets(&chosen) != row_sets(&seats[k].arrangement) {
            let chosen_text = super::arrangement_text(&chosen);
            problems.push(Problem::new(
                format!("seats[{k}].auto"),
                format!(
                    "seats[{k}].auto: seat {k} is marked as arranged at the close, \
                     but {by} arranges its hand {chosen_text:?}"
                ),
            ));
            problems.push(Problem::new(
                format!("seats[{k}].arrangement"),
                format!(
                    "seats[{k}].arrangement: recorded {:?}, {by} arranges {chosen_text:?}",
                    super::arrangement_text(&seats[k].arrangement)
                ),
            ));
        }
    }
    problems
}

/// The problem `solver` of a record whose seats `auto` were arranged by a
/// solver other than the one installed.
fn solver_mismatch(recorded: &SolverId, installed: &SolverId, auto: &[usize]) -> Problem {
    let seats_text = auto
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    Problem::new(
        "solver",
        format!(
            "solver: seat(s) {seats_text} were arranged at the close by solver {} ({}) \
             with tables {}, but this capsa arranges with {} ({}) and tables {}: those \
             arrangements cannot be checked here; replay with the capsa that wrote the record",
            recorded.strategy,
            recorded.effort,
            hex(&recorded.tables),
            installed.strategy,
            installed.effort,
            hex(&installed.tables)
        ),
    )
}
