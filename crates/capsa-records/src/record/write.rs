//! Writing a record: the round played again from its inputs, then its
//! members written in key order with the digest between.

use std::borrow::Cow;
use std::fmt::Write;
use std::ops::Range;

use sha2::{Digest, Sha256};

use super::format::{
    check_stakes_diagonal, rules_digest, PlayedSeat, Problem, StakeSpec, FIRST_FORMAT_VERSION,
    FORMAT, FORMAT_VERSION, MAX_META_ENTRIES, POLICY_FORMAT_VERSION, SETTLEMENT_VERSION,
    SETTLEMENT_VERSION_FORMAT, TABLE_FORMAT_VERSION,
};
use super::table::{
    check_players, check_table_id, policy_of, policy_solver, push_player, push_solver, Player,
    SolverId,
};
use crate::fair::{self, hex, ServerSeed};
use capsa_core::arrangement::{cards_text, dealt_difference, push_arrangement, push_cards};
use capsa_core::auto_arrange::AutoPolicy;
use capsa_core::canonical::{self, write_str, Json};
use capsa_core::error::{Error, Result};
use capsa_core::naturals;
use capsa_core::rules::Rules;
use capsa_core::settle::{settle, SeatInput, Settlement};
use capsa_core::settlement_text::write_settlement_json;
use capsa_core::texts;

/// The inputs of a played round, all a record is made from.
pub struct RoundInputs<'a> {
    /// The format version to write: [`FORMAT_VERSION`], or an older one
    /// for the golden records of that version (format 1 has no table id,
    /// players or solver). The caller writes `rules_text` as that version
    /// holds the rules.
    pub format_version: i128,
    pub round_id: &'a str,
    /// The table's id, or None for a server of one table.
    pub table_id: Option<&'a str>,
    /// The player at each seat (format 2 on).
    pub players: &'a [Player],
    /// The solver that arranges seats at the close under `rules`
    /// ([`installed_solver`](super::installed_solver), which a caller
    /// writing many records computes once per rules).
    pub solver: &'a SolverId,
    pub previous_digest: Option<[u8; 32]>,
    /// The server's own notes (times, table names): at most
    /// [`MAX_META_ENTRIES`] entries of text, integers, booleans or null.
    pub meta: &'a [(Cow<'a, str>, Json<'a>)],
    pub rules: &'a Rules,
    /// The rules in full, as canonical JSON (`Rules.to_dict()` of Python).
    pub rules_text: &'a str,
    pub stakes: &'a StakeSpec,
    pub server_seed: &'a ServerSeed,
    pub client_seeds: &'a [String],
    pub nonce: u64,
    pub seats: &'a [PlayedSeat],
}

/// A written record: its canonical text (one line), its digest, the
/// settlement it holds and where two members' values lie in the text.
pub struct Written {
    pub text: String,
    pub digest: [u8; 32],
    pub settlement: Settlement,
    /// The byte ranges in `text` of the values of `rules` and `settlement`,
    /// the members a caller holding them already need not read again.
    pub spans: MemberSpans,
}

/// Byte ranges of member values in a record's text (see [`Written`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSpans {
    pub rules: Range<usize>,
    pub settlement: Range<usize>,
}

impl MemberSpans {
    fn shifted(self, by: usize) -> MemberSpans {
        let shift = |r: Range<usize>| r.start + by..r.end + by;
        MemberSpans {
            rules: shift(self.rules),
            settlement: shift(self.settlement),
        }
    }
}

/// The cards of `a` that are not in `b`, as text.
/// Checks what each seat played against its hand and the rules; the
/// problems found, by field. The checks a round makes as it is played: a
/// seat arranged at the close under `policy` never fouls, or under `foul`
/// always does.
pub(super) fn check_play(
    rules: &Rules,
    hands: &[[u8; 13]],
    seats: &[PlayedSeat],
    policy: AutoPolicy,
) -> Vec<(usize, Problem)> {
    let mut problems = Vec::new();
    for (k, (hand, seat)) in hands.iter().zip(seats).enumerate() {
        let field = |name: &str| format!("seats[{k}].{name}");
        if let Some((foreign, left_out)) = dealt_difference(&seat.arrangement, hand) {
            problems.push((
                k,
                Problem::new(
                    field("arrangement"),
                    format!(
                        "seats[{k}].arrangement: seat {k}'s arrangement holds {} that seat {k} was not dealt, \
                         and not its {}",
                        cards_text(&foreign),
                        cards_text(&left_out)
                    ),
                ),
            ));
        } else if seat.auto && capsa_core::hands::fouls(rules, &seat.arrangement) != policy.fouls()
        {
            let how = if policy.fouls() {
                "under the foul policy, whose arrangement always fouls"
            } else {
                "and such an arrangement never fouls"
            };
            problems.push((
                k,
                Problem::new(
                    field("arrangement"),
                    format!("seats[{k}].arrangement: seat {k} was arranged at the close, {how}"),
                ),
            ));
        }
        if seat.surrender && !rules.surrender_enabled {
            problems.push((
                k,
                Problem::new(
                    field("surrender"),
                    format!("seats[{k}].surrender: seat {k} surrendered, which the rules do not allow (surrender.enabled is false)"),
                ),
            ));
        }
        if !seat.declare_natural && naturals::declared(hand, rules, true).is_none() {
            problems.push((
                k,
                Problem::new(
                    field("declare_natural"),
                    format!(
                        "seats[{k}].declare_natural: seat {k} declined a natural, but its hand holds none the rules enable"
                    ),
                ),
            ));
        }
    }
    problems
}

pub fn seat_inputs(seats: &[PlayedSeat]) -> Vec<SeatInput> {
    seats.iter().map(PlayedSeat::input).collect()
}

/// The settlement's canonical JSON (keys sorted, compact, as `capsa settle`
/// writes it).
pub(super) fn settlement_text(
    s: &Settlement,
    inputs: &[SeatInput],
    settlement_version: Option<i128>,
) -> String {
    // a four-seat settlement is ~3.4 KB: room for it without growing
    let mut out = String::with_capacity(4096);
    push_settlement(&mut out, s, inputs, settlement_version);
    out
}

/// A record's settlement: its figures, then (format 5 on) the settlement
/// version it was settled under, `version` sorting after every figure.
fn push_settlement(
    out: &mut String,
    s: &Settlement,
    inputs: &[SeatInput],
    settlement_version: Option<i128>,
) {
    write_settlement_json(out, s, inputs, None);
    if let Some(v) = settlement_version {
        out.pop();
        let _ = write!(out, ",\"version\":{v}}}");
    }
}

/// The settlement version a record of `format_version` names: none before
/// format 5.
pub(super) fn named_settlement_version(format_version: i128, version: i128) -> Option<i128> {
    (format_version >= SETTLEMENT_VERSION_FORMAT).then_some(version)
}

/// Checks the server's notes as a writer takes them: at most
/// [`MAX_META_ENTRIES`] entries, keys of 1 to [`MAX_META_KEY_BYTES`]
/// bytes, each value a text of at most [`MAX_META_TEXT_BYTES`] bytes, an
/// integer, a boolean or null, no text holding U+0000 ([`capsa_core::texts`]).
pub fn check_meta(meta: &[(Cow<'_, str>, Json<'_>)]) -> Result<()> {
    meta_checked(meta, true)
}

/// Checks the server's notes as the record reader takes them: as
/// [`check_meta`], U+0000 allowed (older records may hold it).
pub(super) fn check_read_meta(meta: &[(Cow<'_, str>, Json<'_>)]) -> Result<()> {
    meta_checked(meta, false)
}

fn meta_checked(meta: &[(Cow<'_, str>, Json<'_>)], written: bool) -> Result<()> {
    if meta.len() > MAX_META_ENTRIES {
        return Err(Error::argument(format!(
            "meta has at most {MAX_META_ENTRIES} entries, got {}",
            meta.len()
        )));
    }
    for (key, value) in meta {
        if written {
            texts::check_meta_key(key)
        } else {
            texts::check_read_meta_key(key)
        }
        .map_err(Error::argument)?;
        match value {
            Json::Str(s) if written => texts::check_meta_text(key, s).map_err(Error::argument)?,
            Json::Str(s) => texts::check_meta_text_length(key, s).map_err(Error::argument)?,
            Json::Int(_) | Json::Bool(_) | Json::Null => {}
            other => {
                return Err(Error::argument(format!(
                    "meta[{key:?}] must be a text, an integer, a boolean or null, not {}",
                    other.kind()
                )))
            }
        }
    }
    Ok(())
}

fn push_hex_or_null(out: &mut String, digest: Option<[u8; 32]>) {
    match digest {
        Some(d) => {
            out.push('"');
            out.push_str(&hex(&d));
            out.push('"');
        }
        None => out.push_str("null"),
    }
}

fn push_seat(out: &mut String, hand: &[u8; 13], seat: &PlayedSeat, player: Option<&Player>) {
    out.push_str("{\"arrangement\":\"");
    push_arrangement(out, &seat.arrangement);
    let _ = write!(out, "\",\"auto\":{}", seat.auto);
    if seat.banker {
        out.push_str(",\"banker\":true");
    }
    let _ = write!(
        out,
        ",\"declare_natural\":{},\"hand\":\"",
        seat.declare_natural
    );
    push_cards(out, hand);
    out.push('"');
    if seat.multiplier != 1 {
        let _ = write!(out, ",\"multiplier\":{}", seat.multiplier);
    }
    if let Some(player) = player {
        out.push_str(",\"player\":");
        push_player(out, player);
    }
    let _ = write!(out, ",\"surrender\":{}}}", seat.surrender);
}

/// The members of a record before `"digest"`, from `{` on.
fn members_before_digest(inputs: &RoundInputs) -> String {
    let mut before = String::with_capacity(512);
    before.push_str("{\"capsa_version\":");
    write_str(&mut before, env!("CARGO_PKG_VERSION"));
    before.push_str(",\"deal\":{\"algorithm\":");
    write_str(&mut before, fair::ALGORITHM);
    before.push_str(",\"client_seeds\":[");
    for (k, seed) in inputs.client_seeds.iter().enumerate() {
        if k > 0 {
            before.push(',');
        }
        write_str(&mut before, seed);
    }
    let _ = write!(
        before,
        "],\"commitment\":\"{}\",\"nonce\":{},\"server_seed\":\"{}\"}},",
        hex(&fair::commitment(inputs.server_seed)),
        inputs.nonce,
        hex(inputs.server_seed)
    );
    before
}

/// The members of a record after `"digest"`, to the closing `}`.
fn members_after_digest(
    inputs: &RoundInputs,
    hands: &[[u8; 13]],
    settlement: &Settlement,
    seat_inputs: &[SeatInput],
) -> (String, MemberSpans) {
    let seats = inputs.seats.len();
    let mut after = String::with_capacity(6144);
    after.push_str("\"format\":");
    write_str(&mut after, FORMAT);
    let _ = write!(
        after,
        ",\"format_version\":{},\"meta\":",
        inputs.format_version
    );
    canonical::write(&mut after, &Json::Object(inputs.meta.to_vec()));
    after.push_str(",\"previous_digest\":");
    push_hex_or_null(&mut after, inputs.previous_digest);
    after.push_str(",\"round_id\":");
    write_str(&mut after, inputs.round_id);
    after.push_str(",\"rules\":");
    let rules = after.len()..after.len() + inputs.rules_text.len();
    after.push_str(inputs.rules_text);
    let _ = write!(
        after,
        ",\"rules_digest\":\"{}\",\"seats\":[",
        hex(&rules_digest(inputs.rules_text))
    );
    let second = inputs.format_version >= TABLE_FORMAT_VERSION;
    for (k, (hand, seat)) in hands.iter().zip(inputs.seats).enumerate() {
        if k > 0 {
            after.push(',');
        }
        push_seat(
            &mut after,
            hand,
            seat,
            inputs.players.get(k).filter(|_| second),
        );
    }
    after.push_str("],\"settlement\":");
    let start = after.len();
    push_settlement(
        &mut after,
        settlement,
        seat_inputs,
        named_settlement_version(inputs.format_version, SETTLEMENT_VERSION),
    );
    let spans = MemberSpans {
        rules,
        settlement: start..after.len(),
    };
    if second {
        after.push_str(",\"solver\":");
        push_solver(&mut after, inputs.solver);
    }
    after.push_str(",\"stakes\":");
    inputs.stakes.write(&mut after, seats);
    if second {
        after.push_str(",\"table_id\":");
        match inputs.table_id {
            Some(id) => write_str(&mut after, id),
            None => after.push_str("null"),
        }
    }
    after.push('}');
    (after, spans)
}

/// Checks what the format version asks of the inputs: from format 2 on, the
/// table id, players (one per seat) and stakes diagonal of 0; from format 4
/// on a solver naming an auto-arrange policy, before it the solver's (the
/// policy returned); format 1 has no table id or players.
fn check_format_fields(inputs: &RoundInputs) -> Result<AutoPolicy> {
    let seats = inputs.seats.len();
    match inputs.format_version {
        TABLE_FORMAT_VERSION..=FORMAT_VERSION => {
            if let Some(id) = inputs.table_id {
                check_table_id(id).map_err(Error::argument)?;
            }
            check_players(inputs.players, seats).map_err(|p| Error::argument(p.message))?;
            check_stakes_diagonal(inputs.stakes, seats).map_err(|p| Error::table(p.message))?;
            let policy = policy_of(inputs.solver, inputs.format_version)?;
            if inputs.format_version < POLICY_FORMAT_VERSION
                && inputs.solver.strategy != AutoPolicy::Solver.name()
            {
                return Err(Error::argument(format!(
                    "format {} records arrange seats at the close with the solver only, \
                     not {:?}",
                    inputs.format_version, inputs.solver.strategy
                )));
            }
            if policy != AutoPolicy::Solver && *inputs.solver != policy_solver(inputs.rules, policy)
            {
                return Err(Error::argument(format!(
                    "the {} policy is written with the fast effort and no tables",
                    policy.name()
                )));
            }
            Ok(policy)
        }
        FIRST_FORMAT_VERSION if inputs.table_id.is_none() && inputs.players.is_empty() => {
            Ok(AutoPolicy::Solver)
        }
        FIRST_FORMAT_VERSION => Err(Error::argument(
            "format 1 records hold no table_id or players",
        )),
        v => Err(Error::argument(format!(
            "format_version must be {FIRST_FORMAT_VERSION} to {FORMAT_VERSION}, got {v}"
        ))),
    }
}

/// Checks that a record of a format before 5 names no banker and no
/// multiplier: those formats have no place for them.
fn check_roles_format(inputs: &RoundInputs) -> Result<()> {
    let roles = inputs.seats.iter().any(|s| s.banker || s.multiplier != 1);
    if roles && inputs.format_version < SETTLEMENT_VERSION_FORMAT {
        return Err(Error::argument(format!(
            "format {} records hold no banker or multipliers (format \
             {SETTLEMENT_VERSION_FORMAT} on)",
            inputs.format_version
        )));
    }
    Ok(())
}

/// Writes the record of a played round (see the module documentation).
///
/// Errors: a round id, notes, client seeds or stakes out of range
/// (`Argument`/`Table`), an arrangement that does not hold the seat's
/// dealt cards (`Hand`, at the seat), a decision the rules do not allow
/// (`Table`, at the seat), a table that cannot be settled.
pub fn write(inputs: &RoundInputs) -> Result<Written> {
    let seats = inputs.seats.len();
    capsa_core::table::check_table_seats(&inputs.rules.deck, seats)?;
    texts::check_id(inputs.round_id, "round_id").map_err(Error::argument)?;
    check_meta(inputs.meta)?;
    inputs
        .stakes
        .check(seats)
        .map_err(|e| e.context("stakes"))?;
    let policy = check_format_fields(inputs)?;
    check_roles_format(inputs)?;
    let hands = fair::deal_deck(
        &inputs.rules.deck,
        inputs.server_seed,
        inputs.client_seeds,
        inputs.nonce,
        seats,
    )?;
    if let Some((seat, p)) = check_play(inputs.rules, &hands, inputs.seats, policy)
        .into_iter()
        .next()
    {
        let e = if p.field.ends_with("arrangement") && !inputs.seats[seat].auto {
            Error::hand(p.message)
        } else {
            Error::table(p.message)
        };
        return Err(e.at_seat(seat));
    }
    let seat_inputs = seat_inputs(inputs.seats);
    let settlement = settle(inputs.rules, &seat_inputs, &inputs.stakes.stakes())?;
    // The members in key order, written straight into text: the members
    // before "digest", then those after it. The digest is the SHA-256 of
    // the two joined (the record without its digest), then set between.
    let before = members_before_digest(inputs);
    let (after, spans) = members_after_digest(inputs, &hands, &settlement, &seat_inputs);
    let digest: [u8; 32] = Sha256::new()
        .chain_update(before.as_bytes())
        .chain_update(after.as_bytes())
        .finalize()
        .into();
    let mut text = before;
    text.reserve(after.len() + 80);
    let _ = write!(text, "\"digest\":\"{}\",", hex(&digest));
    let offset = text.len();
    text.push_str(&after);
    Ok(Written {
        text,
        digest,
        settlement,
        spans: spans.shifted(offset),
    })
}
