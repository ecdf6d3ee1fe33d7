//! A round given as JSON text, read and settled into its output record.

use serde_json::value::RawValue;

use super::error_record::write_error_record;
use super::json::{
    bad, elements, integer, is_integer_text, kind, kind_name, malformed, members, shown, string,
    utf8, Kind,
};
use super::plain::read_plain_round;
use super::seat::read_seat;
use crate::error::{Error, Result};
use crate::lines::{is_blank, strip_bom};
use crate::rules::Rules;
use crate::settle::{check_table_seats, settle, SeatInput, Settlement, MAX_SEATS, MIN_SEATS};
use crate::settlement_text::write_settlement_json;
use crate::stakes::{read_stakes, StakeSpec, StakesInput, StakesValue};

const ROUND_KEYS: [&str; 6] = ["id", "rules", "stakes", "seats", "banker", "multipliers"];

/// What one line of a stream came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Only whitespace: no record.
    Blank,
    /// A settlement record was written.
    Settled,
    /// An error record was written.
    Failed,
}

/// Resolves a round's `"rules"` name (`None`: the stream's default rules)
/// to the rules, or says why it cannot.
pub type RulesFor<'r> = dyn Fn(Option<&str>) -> std::result::Result<&'r Rules, String> + Sync + 'r;

impl StakesInput for &RawValue {
    type Fail = Error;

    fn look(&self, _limit: usize) -> Result<StakesValue<Self>> {
        Ok(match kind(self) {
            Kind::Number => match integer(self) {
                Some(v) => StakesValue::Int(Ok(v.into())),
                None if is_integer_text(self.get()) => StakesValue::Int(Err(shown(self))),
                None => StakesValue::Other,
            },
            Kind::Array => StakesValue::List(elements(self)?),
            _ => StakesValue::Other,
        })
    }

    /// As a record names it (see `Json::kind`).
    fn describe(&self) -> String {
        kind_name(self).to_string()
    }
}

/// A round's members, checked against the schema.
struct Round<'a> {
    rules: Option<&'a RawValue>,
    stakes: Option<&'a RawValue>,
    seats: Option<&'a RawValue>,
    banker: Option<&'a RawValue>,
    multipliers: Option<&'a RawValue>,
}

/// Reads a round's members; its id is set in `id` as soon as it is read and
/// found valid, so that an error found later can name the round.
fn read_round<'a>(text: &'a str, id: &mut Option<&'a RawValue>) -> Result<Round<'a>> {
    let raw: &RawValue = serde_json::from_str(text).map_err(malformed)?;
    if kind(raw) != Kind::Object {
        return Err(bad(format!(
            "a round is a JSON object with a \"seats\" list, not {}",
            shown(raw)
        )));
    }
    let mut round = Round {
        rules: None,
        stakes: None,
        seats: None,
        banker: None,
        multipliers: None,
    };
    let fields = members(raw)?;
    if let Some((_, v)) = fields.iter().find(|(k, _)| k == "id") {
        check_id(v)?;
        *id = Some(v);
    }
    for (key, v) in fields {
        match key.as_ref() {
            "id" => {}
            "rules" => round.rules = Some(v),
            "stakes" => round.stakes = Some(v),
            "seats" => round.seats = Some(v),
            "banker" => round.banker = Some(v),
            "multipliers" => round.multipliers = Some(v),
            _ => {
                return Err(bad(format!(
                    "unknown key {key:?} (a round has {})",
                    ROUND_KEYS.join(", ")
                )))
            }
        }
    }
    Ok(round)
}

fn check_id(id: &RawValue) -> Result<()> {
    match kind(id) {
        Kind::String | Kind::Number | Kind::Null => Ok(()),
        _ => Err(bad(format!(
            "an id is a string or a number, not {}",
            shown(id)
        ))),
    }
}

fn rules_name(v: Option<&RawValue>) -> Result<Option<String>> {
    match v {
        None => Ok(None),
        Some(v) => match kind(v) {
            Kind::Null => Ok(None),
            Kind::String => Ok(Some(string(v)?)),
            _ => Err(Error::rules(
                "\"rules\" names a preset or the --rules file; inline rules are not read in a stream",
            )),
        },
    }
}

/// Reads and settles a round in any form the stream reads; the id, when one
/// was read, names the round in an error.
fn read_and_settle<'t>(
    text: &'t str,
    rules_for: &RulesFor,
    id: &mut Option<&'t str>,
) -> Result<(Settlement, Vec<SeatInput>)> {
    if let Some(plain) = read_plain_round(text) {
        *id = plain.id;
        let rules = rules_for(plain.rules).map_err(Error::rules)?;
        let spec = StakeSpec::Uniform(rules.stake);
        return Ok((settle(rules, &plain.seats, &spec.stakes())?, plain.seats));
    }
    let mut raw_id = None;
    let result = read_round_and_settle(text, rules_for, &mut raw_id);
    *id = raw_id.map(RawValue::get);
    result
}

/// [`read_and_settle`] by the general reader alone.
pub(super) fn read_round_and_settle<'t>(
    text: &'t str,
    rules_for: &RulesFor,
    id: &mut Option<&'t RawValue>,
) -> Result<(Settlement, Vec<SeatInput>)> {
    let round = read_round(text, id)?;
    let name = rules_name(round.rules)?;
    let rules = rules_for(name.as_deref()).map_err(Error::rules)?;
    let seat_values = match round.seats {
        Some(v) if kind(v) == Kind::Array => elements(v)?,
        _ => {
            return Err(bad(format!(
                "a round needs a \"seats\" list of {MIN_SEATS} to {MAX_SEATS} seats"
            )))
        }
    };
    check_table_seats(&rules.deck, seat_values.len())?;
    let mut seats = seat_values
        .iter()
        .enumerate()
        .map(|(k, v)| read_seat(v, k))
        .collect::<Result<Vec<_>>>()?;
    read_roles(&round, &mut seats)?;
    let spec = match round.stakes {
        None => StakeSpec::Uniform(rules.stake),
        Some(v) if kind(v) == Kind::Null => StakeSpec::Uniform(rules.stake),
        Some(v) => read_stakes(&v, seats.len())?,
    };
    Ok((settle(rules, &seats, &spec.stakes())?, seats))
}

/// A value given and not null.
fn given(v: Option<&RawValue>) -> Option<&RawValue> {
    v.filter(|v| kind(v) != Kind::Null)
}

/// Sets a banker game's banker seat (`"banker"`: a seat number) and each
/// seat's multiplier (`"multipliers"`: one integer per seat); whether the
/// rules allow them is settlement's check.
fn read_roles(round: &Round<'_>, seats: &mut [SeatInput]) -> Result<()> {
    let n = seats.len();
    if let Some(v) = given(round.banker) {
        match integer(v) {
            Some(b) if (0..n as i64).contains(&b) => seats[b as usize].banker = true,
            _ => {
                return Err(bad(format!(
                    "\"banker\" is a seat number, 0 to {}, not {}",
                    n - 1,
                    shown(v)
                )))
            }
        }
    }
    let Some(v) = given(round.multipliers) else {
        return Ok(());
    };
    let items = match kind(v) {
        Kind::Array => elements(v)?,
        _ => return Err(bad(format!("\"multipliers\" is a list, not {}", shown(v)))),
    };
    if items.len() != n {
        return Err(bad(format!(
            "\"multipliers\" needs one integer per seat ({n}), got {}",
            items.len()
        )));
    }
    for (k, (item, seat)) in items.iter().zip(seats.iter_mut()).enumerate() {
        seat.multiplier = integer(item).ok_or_else(|| {
            bad(format!(
                "multipliers[{k}] must be an integer within 64 bits, not {}",
                shown(item)
            ))
        })?;
    }
    Ok(())
}

/// Settles one round given as JSON text and appends its record to `out`.
pub(super) fn settle_text(
    text: &str,
    line: usize,
    rules_for: &RulesFor,
    out: &mut String,
) -> LineOutcome {
    let mut id = None;
    match read_and_settle(text, rules_for, &mut id) {
        Ok((s, seats)) => {
            write_settlement_json(out, &s, &seats, id);
            LineOutcome::Settled
        }
        Err(e) => {
            write_error_record(out, line, id, &e);
            LineOutcome::Failed
        }
    }
}

/// Settles one line of a JSON Lines stream (without its line feed) and
/// appends its record to `out`; a blank line appends nothing.
pub fn settle_line(
    bytes: &[u8],
    line: usize,
    rules_for: &RulesFor,
    out: &mut String,
) -> LineOutcome {
    let bytes = strip_bom(bytes);
    if is_blank(bytes) {
        return LineOutcome::Blank;
    }
    match utf8(bytes) {
        Ok(text) => settle_text(text, line, rules_for, out),
        Err(e) => {
            write_error_record(out, line, None, &e);
            LineOutcome::Failed
        }
    }
}
