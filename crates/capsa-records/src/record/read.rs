//! Reading a record strictly: every field checked for its form, the first
//! that is not as its format version writes it named by a [`Problem`].

use std::borrow::Cow;
use std::ops::Range;

use sha2::{Digest, Sha256};

use super::deck::{check_record_seats, read_record_deck};
use super::format::{
    boolean, check_stakes_diagonal, integer, join, object, settlement_version_problem, sorted,
    Members, PlayedSeat, Problem, Read, StakeSpec, DEAL_KEYS, FIRST_FORMAT_VERSION,
    FIRST_SETTLEMENT_VERSION, FORMAT, FORMAT_VERSION, MAX_RECORD_BYTES, RECORD_KEYS_1,
    RECORD_KEYS_2, SEAT_KEYS_1, SEAT_KEYS_2, SEAT_KEYS_5, SETTLEMENT_VERSION,
    SETTLEMENT_VERSION_FIELD, SETTLEMENT_VERSION_FORMAT, TABLE_FORMAT_VERSION,
};
use super::roles::{read_banker, read_multiplier};
use super::table::{
    check_record_players, policy_of, read_player, read_solver, read_table_id, Player, SolverId,
    SEAT_FIELDS,
};
use super::write::check_read_meta;
use crate::fair::{self, parse_hex32, sha256, ServerSeed};
use capsa_core::arrangement::{arrangement_text, cards_text, read_arrangement_text};
use capsa_core::auto_arrange::AutoPolicy;
use capsa_core::canonical::{self, write_str, Json};
use capsa_core::cards::parse_text;
use capsa_core::deck::Deck;
use capsa_core::lines::strip_bom;
use capsa_core::stakes::{read_stakes, StakesFault, StakesInput, StakesValue};
use capsa_core::texts;

/// A round record as read, every field checked for its form.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1 to 5.
    pub format_version: i128,
    /// The settlement version the record was settled under
    /// (`settlement.version` from format 5 on, 1 before).
    pub settlement_version: i128,
    pub round_id: String,
    /// The table's id (format 2 on), None for a server of one table and for
    /// format 1.
    pub table_id: Option<String>,
    /// The player at each seat; a format 1 record's seat `k` is
    /// [`Player::of_seat`].
    pub players: Vec<Player>,
    /// The solver that arranged the seats left at the close (format 2 on).
    pub solver: Option<SolverId>,
    /// The auto-arrange policy `solver` names (format 4 on; the solver
    /// before).
    pub policy: AutoPolicy,
    pub capsa_version: String,
    pub previous_digest: Option<[u8; 32]>,
    pub meta: Members<'static>,
    /// The rules object in canonical form, for the caller to compile.
    pub rules_text: String,
    /// The deck the rules deal ([`super::deck`]).
    pub deck: Deck,
    pub rules_digest: [u8; 32],
    pub stakes: StakeSpec,
    pub commitment: [u8; 32],
    pub server_seed: ServerSeed,
    pub client_seeds: Vec<String>,
    pub nonce: u64,
    pub hands: Vec<[u8; 13]>,
    pub seats: Vec<PlayedSeat>,
    pub digest: [u8; 32],
    /// The SHA-256 of the canonical form of the record without `digest`.
    pub content_digest: [u8; 32],
    /// Whether the text read was the record's canonical form as it stands
    /// (false for text that may be canonical but holds escapes).
    pub canonical_as_read: bool,
    /// The recorded settlement in canonical form.
    pub settlement_text: String,
    /// Each seat's recorded `net` and `rake` (0 where the settlement has none).
    pub net_and_rake: Vec<(i128, i128)>,
}

fn member<'a, 'j>(value: &'a Json<'j>, key: &str, path: &str) -> Read<&'a Json<'j>> {
    value
        .get(key)
        .ok_or_else(|| Problem::new(join(path, key), format!("{} is missing", join(path, key))))
}

pub(super) fn text<'a>(value: &'a Json<'_>, field: &str, max_bytes: usize) -> Read<&'a str> {
    match value {
        Json::Str(s) if s.len() <= max_bytes => Ok(s),
        Json::Str(s) => Err(Problem::new(
            field,
            format!(
                "{field} is at most {max_bytes} bytes of UTF-8, got {}",
                s.len()
            ),
        )),
        other => Err(Problem::new(
            field,
            format!("{field} must be a string, not {}", other.kind()),
        )),
    }
}

fn digest(value: &Json, field: &str) -> Read<[u8; 32]> {
    let t = text(value, field, 64)?;
    parse_hex32(t).ok_or_else(|| {
        Problem::new(
            field,
            format!("{field} must be 64 lowercase hexadecimal digits (a SHA-256), got {t:?}"),
        )
    })
}

fn array<'a, 'j>(value: &'a Json<'j>, field: &str) -> Read<&'a [Json<'j>]> {
    match value {
        Json::Array(items) => Ok(items),
        other => Err(Problem::new(
            field,
            format!("{field} must be an array, not {}", other.kind()),
        )),
    }
}

fn read_hand(value: &Json, field: &str, deck: &Deck) -> Read<[u8; 13]> {
    let t = text(value, field, 256)?;
    let mut ids = Vec::with_capacity(13);
    let read = parse_text(t, &mut ids).and_then(|()| deck.check_hand(&ids, &[13], "a hand"));
    if let Err(e) = read {
        return Err(Problem::new(field, format!("{field}: {}", e.message())));
    }
    let mut hand = [0u8; 13];
    hand.copy_from_slice(&ids);
    if cards_text(&hand) != t || sorted(&hand) != hand {
        return Err(Problem::new(
            field,
            format!(
                "{field} must list the 13 cards sorted by id as records write them: {:?}",
                cards_text(&sorted(&hand))
            ),
        ));
    }
    Ok(hand)
}

fn read_arrangement(value: &Json, field: &str, deck: &Deck) -> Read<[u8; 13]> {
    let t = text(value, field, 256)?;
    let mut ids = Vec::with_capacity(13);
    let read = read_arrangement_text(t, &mut ids).and_then(|()| deck.check(&ids));
    if let Err(e) = read {
        return Err(Problem::new(field, format!("{field}: {}", e.message())));
    }
    let mut a = [0u8; 13];
    a.copy_from_slice(&ids);
    if arrangement_text(&a) != t {
        return Err(Problem::new(
            field,
            format!(
                "{field} must be written as records write it: {:?}",
                arrangement_text(&a)
            ),
        ));
    }
    Ok(a)
}

/// A record's `stakes` value, or a part of it, as the stakes reader reads it.
struct StakesJson<'a, 'j>(&'a Json<'j>);

impl StakesInput for StakesJson<'_, '_> {
    type Fail = Problem;

    fn look(&self, _limit: usize) -> Read<StakesValue<Self>> {
        Ok(match self.0 {
            Json::Int(v) => StakesValue::Int(Ok(*v)),
            Json::Array(items) => StakesValue::List(items.iter().map(StakesJson).collect()),
            _ => StakesValue::Other,
        })
    }

    fn describe(&self) -> String {
        self.0.kind().to_string()
    }
}

impl From<StakesFault> for Problem {
    /// The fault's message, after its field unless it names the field first
    /// (as every message of a record does).
    fn from(f: StakesFault) -> Problem {
        if f.message.starts_with(&f.field) {
            Problem::new(f.field, f.message)
        } else {
            let message = format!("{}: {}", f.field, f.message);
            Problem::new(f.field, message)
        }
    }
}

type ReadSeat = ([u8; 13], PlayedSeat, Player);
type SeatsRead = (Vec<[u8; 13]>, Vec<PlayedSeat>, Vec<Player>);

/// Seat `k` of a record (`k` < 8: a record holds 2 to 8 seats), its cards
/// of `deck`.
fn read_seat(value: &Json, k: usize, version: i128, deck: &Deck) -> Read<ReadSeat> {
    let names = &SEAT_FIELDS[k];
    let path = names.seat;
    let second = version >= TABLE_FORMAT_VERSION;
    let keys: &[&str] = match version {
        SETTLEMENT_VERSION_FORMAT.. => &SEAT_KEYS_5,
        TABLE_FORMAT_VERSION.. => &SEAT_KEYS_2,
        _ => &SEAT_KEYS_1,
    };
    object(value, path, keys)?;
    let field = |key: &str| member(value, key, path);
    let hand = read_hand(field("hand")?, names.hand, deck)?;
    let arrangement = read_arrangement(field("arrangement")?, names.arrangement, deck)?;
    let player = if second {
        read_player(field("player")?, names)?
    } else {
        Player::of_seat(k)
    };
    Ok((
        hand,
        PlayedSeat {
            arrangement,
            auto: boolean(field("auto")?, names.auto)?,
            surrender: boolean(field("surrender")?, names.surrender)?,
            declare_natural: boolean(field("declare_natural")?, names.declare_natural)?,
            banker: read_banker(value.get("banker"), names.banker)?,
            multiplier: read_multiplier(value.get("multiplier"), names.multiplier)?,
        },
        player,
    ))
}

fn read_version(value: &Json) -> Read<i128> {
    let format = member(value, "format", "")?;
    if !matches!(format, Json::Str(f) if f == FORMAT) {
        return Err(Problem::new(
            "format",
            format!("format must be {FORMAT:?}: this is not a capsa round record"),
        ));
    }
    match member(value, "format_version", "")? {
        Json::Int(v) if (FIRST_FORMAT_VERSION..=FORMAT_VERSION).contains(v) => Ok(*v),
        Json::Int(v) if *v > FORMAT_VERSION => Err(Problem::new(
            "format_version",
            format!(
                "format_version {v} is newer than this capsa reads ({FORMAT_VERSION}): \
                 replay it with a newer capsa"
            ),
        )),
        other => Err(Problem::new(
            "format_version",
            format!(
                "format_version must be {FIRST_FORMAT_VERSION} to {FORMAT_VERSION}, got {}",
                canonical::to_string(other)
                    .chars()
                    .take(40)
                    .collect::<String>()
            ),
        )),
    }
}

/// `rules`: an object (the rules in full), as canonical text.
/// `in_written` is the rules' text in the record as read, when that is
/// their canonical form.
fn read_rules_text(rules: &Json, in_written: Option<&str>) -> Read<String> {
    if !matches!(rules, Json::Object(_)) {
        return Err(Problem::new(
            "rules",
            format!(
                "rules must be an object (the rules in full), not {}",
                rules.kind()
            ),
        ));
    }
    Ok(in_written.map_or_else(|| canonical::to_string(rules), str::to_string))
}

/// `meta`: an object of at most [`MAX_META_ENTRIES`](super::MAX_META_ENTRIES)
/// entries (see [`check_read_meta`]).
pub(super) fn read_meta(value: &Json) -> Read<Members<'static>> {
    let meta: Members<'static> = match value {
        Json::Object(members) => members
            .iter()
            .map(|(k, v)| (Cow::Owned(k.to_string()), v.clone().into_owned()))
            .collect(),
        other => {
            return Err(Problem::new(
                "meta",
                format!("meta must be an object, not {}", other.kind()),
            ))
        }
    };
    check_read_meta(&meta).map_err(|e| Problem::new("meta", e.message()))?;
    Ok(meta)
}

/// The fields of `deal`: what the provably fair deal is computed from.
struct Deal {
    commitment: [u8; 32],
    server_seed: ServerSeed,
    client_seeds: Vec<String>,
    nonce: u64,
}

fn read_deal(deal: &Json, seat_count: usize) -> Read<Deal> {
    object(deal, "deal", &DEAL_KEYS)?;
    let deal_field = |key: &str| member(deal, key, "deal");
    let algorithm = text(deal_field("algorithm")?, "deal.algorithm", 64)?;
    if algorithm != fair::ALGORITHM {
        return Err(Problem::new(
            "deal.algorithm",
            format!(
                "deal.algorithm {algorithm:?} is not one this capsa knows ({})",
                fair::ALGORITHM
            ),
        ));
    }
    let commitment = digest(deal_field("commitment")?, "deal.commitment")?;
    let server_seed = digest(deal_field("server_seed")?, "deal.server_seed")?;
    let nonce = integer(deal_field("nonce")?, "deal.nonce", 0, i128::from(u64::MAX))? as u64;
    let mut client_seeds = Vec::new();
    for (k, seed) in array(deal_field("client_seeds")?, "deal.client_seeds")?
        .iter()
        .enumerate()
    {
        let seed = match seed {
            Json::Str(s) if s.len() <= fair::MAX_CLIENT_SEED_BYTES => s,
            // named only when it is not one
            _ => text(
                seed,
                &format!("deal.client_seeds[{k}]"),
                fair::MAX_CLIENT_SEED_BYTES,
            )?,
        };
        client_seeds.push(seed.to_string());
    }
    fair::check_client_seeds(&client_seeds, seat_count)
        .map_err(|e| Problem::new("deal.client_seeds", format!("deal.{}", e.message())))?;
    Ok(Deal {
        commitment,
        server_seed,
        client_seeds,
        nonce,
    })
}

/// A record as given: bytes (a byte-order mark left out, then checked to
/// be UTF-8) or text.
pub trait RecordText {
    /// The text, at most [`MAX_RECORD_BYTES`] bytes of it.
    fn record_text(&self) -> Read<&str>;
    /// The length in bytes of what was given (a byte-order mark included).
    fn given_len(&self) -> usize;
}

impl RecordText for [u8] {
    fn record_text(&self) -> Read<&str> {
        let bytes = strip_bom(self);
        check_size(bytes.len())?;
        canonical::utf8(bytes).map_err(|e| Problem::new("", e.message()))
    }

    fn given_len(&self) -> usize {
        self.len()
    }
}

impl RecordText for str {
    fn record_text(&self) -> Read<&str> {
        // a byte-order mark read as UTF-8 is one character
        let text = self.strip_prefix('\u{feff}').unwrap_or(self);
        check_size(text.len())?;
        Ok(text)
    }

    fn given_len(&self) -> usize {
        self.len()
    }
}

pub(super) fn check_size(bytes: usize) -> Read<()> {
    if bytes > MAX_RECORD_BYTES {
        return Err(Problem::new(
            "",
            format!("a record is at most {MAX_RECORD_BYTES} bytes, got {bytes}"),
        ));
    }
    Ok(())
}

/// Reads a record from its JSON text (at most [`MAX_RECORD_BYTES`] bytes):
/// the first field that is not as its format version writes it is a
/// [`Problem`].
/// A record of a newer format version is refused before anything else.
/// The record is given as bytes or as text already known to be UTF-8.
pub fn read<T: RecordText + ?Sized>(given: &T) -> Read<Record> {
    let written = given.record_text()?;
    let value = canonical::parse_str(written).map_err(|e| Problem::new("", e.message()))?;
    read_parsed(&value, written, given.given_len())
}

/// Reads a round record from its tree `value`, parsed from the text
/// `written` (of a text `given_len` bytes long as given: longer when a
/// byte-order mark was left out).
pub(super) fn read_parsed(value: &Json<'_>, written: &str, given_len: usize) -> Read<Record> {
    let spans = canonical_spans(value, written);
    // a byte-order mark left out makes the text given other than canonical
    let canonical_as_read = spans.is_some() && written.len() == given_len;
    read_tree(value, written, spans, canonical_as_read)
}

/// Reads a record from its JSON value (a dict given to the binding, read
/// into a tree), as [`read`] reads its text: the value's canonical text is
/// what is at most [`MAX_RECORD_BYTES`] bytes and digested.
pub fn read_value(value: &Json<'_>) -> Read<Record> {
    let (written, spans) = canonical_text(value);
    check_size(written.len())?;
    read_tree(value, &written, spans, false)
}

/// The keys of a record of format 1, and of format 2 on.
const RECORD_KEYS: [&[&str]; 2] = [&RECORD_KEYS_1, &RECORD_KEYS_2];

/// Reads a record from its tree `value`, read from (or written as) the
/// text `written`; `spans`, where its members are in `written` when that is
/// its canonical form.
fn read_tree(
    value: &Json<'_>,
    written: &str,
    spans: Option<Spans>,
    canonical_as_read: bool,
) -> Read<Record> {
    if !matches!(value, Json::Object(_)) {
        let why = format!("a record is a JSON object, not {}", value.kind());
        return Err(Problem::new("", why));
    }
    let version = read_version(value)?;
    let second = version >= TABLE_FORMAT_VERSION;
    object(value, "", RECORD_KEYS[usize::from(second)])?;
    let get = |key: &str| member(value, key, "");
    let capsa_version = text(get("capsa_version")?, "capsa_version", 64)?.to_string();
    let round_id = text(get("round_id")?, "round_id", usize::MAX)?.to_string();
    texts::check_read_id(&round_id, "round_id").map_err(|m| Problem::new("round_id", m))?;
    let previous_digest = match get("previous_digest")? {
        Json::Null => None,
        v => Some(digest(v, "previous_digest")?),
    };
    let meta = read_meta(get("meta")?)?;
    let rules_in_written = spans.as_ref().map(|s| &written[s.rules.clone()]);
    let rules_text = read_rules_text(get("rules")?, rules_in_written)?;
    let deck = read_record_deck(get("rules")?)?;
    let rules_digest = digest(get("rules_digest")?, "rules_digest")?;
    let seat_values = array(get("seats")?, "seats")?;
    let seat_count = seat_values.len();
    check_record_seats(&deck, seat_count)?;
    let stakes = read_record_stakes(get("stakes")?, seat_count, second)?;
    let deal = read_deal(get("deal")?, seat_count)?;
    let (hands, seats, players) = read_seats(seat_values, version, &deck)?;
    let (table_id, solver, policy) = read_table_fields(value, version)?;
    let settlement = get("settlement")?;
    if !matches!(settlement, Json::Object(_)) {
        let why = format!("settlement must be an object, not {}", settlement.kind());
        return Err(Problem::new("settlement", why));
    }
    let settlement_version = read_settlement_version(settlement, version)?;
    let digest = digest(get("digest")?, "digest")?;
    let net_and_rake = net_and_rake(settlement, seat_count);
    let (content_digest, settlement_text) = content_digest(value, written, spans);
    Ok(Record {
        format_version: version,
        settlement_version,
        round_id,
        table_id,
        players,
        solver,
        policy,
        capsa_version,
        previous_digest,
        meta,
        rules_text,
        deck,
        rules_digest,
        stakes,
        commitment: deal.commitment,
        server_seed: deal.server_seed,
        client_seeds: deal.client_seeds,
        nonce: deal.nonce,
        hands,
        seats,
        digest,
        content_digest,
        canonical_as_read,
        settlement_text,
        net_and_rake,
    })
}

/// The settlement version of a record of format `version`: its
/// `settlement.version` from format 5 on (one this engine settles), 1
/// before.
fn read_settlement_version(settlement: &Json<'_>, version: i128) -> Read<i128> {
    if version < SETTLEMENT_VERSION_FORMAT {
        return Ok(FIRST_SETTLEMENT_VERSION);
    }
    match settlement.get("version") {
        None => Err(Problem::new(
            SETTLEMENT_VERSION_FIELD,
            format!("settlement.version is missing: a format {version} record names its settlement version"),
        )),
        Some(Json::Int(v)) if (FIRST_SETTLEMENT_VERSION..=SETTLEMENT_VERSION).contains(v) => Ok(*v),
        Some(Json::Int(v)) if *v >= 1 => Err(settlement_version_problem(*v)),
        Some(v) => Err(Problem::new(
            SETTLEMENT_VERSION_FIELD,
            format!("settlement.version must be a whole number of at least 1, not {}", v.kind()),
        )),
    }
}

/// `table_id` and `solver` (format 2 on), and the auto-arrange policy the
/// solver names.
fn read_table_fields(
    value: &Json<'_>,
    version: i128,
) -> Read<(Option<String>, Option<SolverId>, AutoPolicy)> {
    if version < TABLE_FORMAT_VERSION {
        return Ok((None, None, AutoPolicy::Solver));
    }
    let table_id = read_table_id(member(value, "table_id", "")?)?;
    let solver = read_solver(member(value, "solver", "")?, version)?;
    // read_solver has checked that a format 4 strategy names a policy
    let policy = policy_of(&solver, version).unwrap_or(AutoPolicy::Solver);
    Ok((table_id, Some(solver), policy))
}

/// A record's stakes: none negative, the diagonal included, and from
/// format 2 on a diagonal of 0.
fn read_record_stakes(value: &Json<'_>, seat_count: usize, second: bool) -> Read<StakeSpec> {
    let stakes = read_stakes(&StakesJson(value), seat_count)?;
    stakes
        .check(seat_count)
        .map_err(|e| Problem::new("stakes", format!("stakes: {}", e.message())))?;
    if second {
        check_stakes_diagonal(&stakes, seat_count)?;
    }
    Ok(stakes)
}

/// Each seat's hand, play and player, the players checked together.
fn read_seats(values: &[Json<'_>], version: i128, deck: &Deck) -> Read<SeatsRead> {
    let mut read = (Vec::new(), Vec::new(), Vec::new());
    for (k, v) in values.iter().enumerate() {
        let (hand, seat, player) = read_seat(v, k, version, deck)?;
        read.0.push(hand);
        read.1.push(seat);
        read.2.push(player);
    }
    check_record_players(&read.2)?;
    Ok(read)
}

fn net_and_rake(settlement: &Json<'_>, seats: usize) -> Vec<(i128, i128)> {
    let figure = |seat: Option<&Json<'_>>, key: &str| match seat.and_then(|s| s.get(key)) {
        Some(Json::Int(v)) => *v,
        _ => 0,
    };
    let list = match settlement.get("seats") {
        Some(Json::Array(items)) => items.as_slice(),
        _ => &[],
    };
    (0..seats)
        .map(|k| (figure(list.get(k), "net"), figure(list.get(k), "rake")))
        .collect()
}

/// The SHA-256 of the canonical form of a record without its `digest`,
/// and the canonical form of its settlement: taken from `written`, the text
/// the record was read from, when that is the canonical form (`spans`, as
/// records are written), written again otherwise.
fn content_digest(value: &Json<'_>, written: &str, spans: Option<Spans>) -> ([u8; 32], String) {
    let Json::Object(members) = value else {
        return ([0; 32], String::new());
    };
    if let Some(Spans {
        digest, settlement, ..
    }) = spans
    {
        // the member with one comma next to it, as if never written
        let cut = if digest.start > 1 {
            digest.start - 1..digest.end
        } else if digest.end + 1 < written.len() {
            digest.start..digest.end + 1
        } else {
            digest
        };
        let contents: [u8; 32] = Sha256::new()
            .chain_update(&written.as_bytes()[..cut.start])
            .chain_update(&written.as_bytes()[cut.end..])
            .finalize()
            .into();
        return (contents, written[settlement].to_string());
    }
    let mut text = String::with_capacity(8192);
    let mut span = 0..0;
    canonical::write_members_noting(&mut text, members, Some("digest"), "settlement", &mut span);
    (sha256(text.as_bytes()), text[span].to_string())
}

/// Where members of a record are in the text it was read from, when that
/// is its canonical form.
struct Spans {
    /// The member `digest`, key and value.
    digest: Range<usize>,
    /// The value of `settlement`.
    settlement: Range<usize>,
    /// The value of `rules`.
    rules: Range<usize>,
}

/// The canonical text of the record `value` (an object; any other value's
/// own), and where its members are in it.
fn canonical_text(value: &Json<'_>) -> (String, Option<Spans>) {
    let mut out = String::with_capacity(8192);
    let Json::Object(members) = value else {
        canonical::write(&mut out, value);
        return (out, None);
    };
    let mut sorted: Vec<&(Cow<'_, str>, Json<'_>)> = members.iter().collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let (mut digest, mut settlement, mut rules) = (None, None, None);
    out.push('{');
    for (k, (key, item)) in sorted.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let at = out.len();
        write_str(&mut out, key);
        out.push(':');
        let value_at = out.len();
        canonical::write(&mut out, item);
        match key.as_ref() {
            "digest" => digest = Some(at..out.len()),
            "settlement" => settlement = Some(value_at..out.len()),
            "rules" => rules = Some(value_at..out.len()),
            _ => {}
        }
    }
    out.push('}');
    let spans = match (digest, settlement, rules) {
        (Some(digest), Some(settlement), Some(rules)) => Some(Spans {
            digest,
            settlement,
            rules,
        }),
        _ => None,
    };
    (out, spans)
}

/// The [`Spans`] of the record `value` in `written`, the text it was read
/// from, when that is its canonical form; None when it is not, or when a
/// member is missing.
fn canonical_spans(value: &Json<'_>, written: &str) -> Option<Spans> {
    let Json::Object(members) = value else {
        return None;
    };
    let (mut digest, mut settlement, mut rules) = (None, None, None);
    let mut at = 1; // after '{'
    for (k, (key, value)) in members.iter().enumerate() {
        if !matches!(key, Cow::Borrowed(_)) || (k > 0 && members[k - 1].0 >= *key) {
            return None;
        }
        // "key": then the value, then ',' or '}'
        let value_at = at + key.len() + 3;
        let end = value_at + canonical::read_canonical_len(value)?;
        match key.as_ref() {
            "digest" => digest = Some(at..end),
            "settlement" => settlement = Some(value_at..end),
            "rules" => rules = Some(value_at..end),
            _ => {}
        }
        at = end + 1;
    }
    (at == written.len()).then_some(())?;
    Some(Spans {
        digest: digest?,
        settlement: settlement?,
        rules: rules?,
    })
}
