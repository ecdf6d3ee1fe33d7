//! A seat of a round: "top / middle / bottom" text, 13 cards in row order,
//! or an object with the rows and the seat's flags.

use serde_json::value::RawValue;

use super::json::{
    bad, elements, flag, integer, is_integer_text, kind, members, shown, string, Kind,
};
use crate::arrangement::{arrangement_size_error, fill_row, read_arrangement_text};
use crate::cards::{not_a_card, parse_text};
use crate::error::{Error, Result};
use crate::rows::{ROW_NAMES, ROW_SIZES};
use crate::settle::SeatInput;

const SEAT_KEYS: [&str; 5] = ["top", "middle", "bottom", "surrender", "declare_natural"];

/// Appends the cards of one JSON value: a card text, or a list of ids and
/// card texts.
fn read_cards(v: &RawValue, out: &mut Vec<u8>, limit: usize) -> Result<()> {
    match kind(v) {
        Kind::String => parse_text(&string(v)?, out),
        Kind::Array => {
            for item in elements(v)? {
                if out.len() > limit {
                    break;
                }
                match kind(item) {
                    Kind::String => parse_text(&string(item)?, out)?,
                    Kind::Number if is_integer_text(item.get()) => match integer(item) {
                        // the rules' deck is checked where the table is
                        Some(id @ 0..=105) => out.push(id as u8),
                        // as the Python API names an id outside every deck
                        _ => {
                            return Err(Error::card(format!(
                                "card id {} is outside 0..105",
                                shown(item)
                            )))
                        }
                    },
                    _ => return Err(not_a_card(shown(item))),
                }
            }
            Ok(())
        }
        _ => Err(bad(format!(
            "cards are a text or a list of cards, not {}",
            shown(v)
        ))),
    }
}

fn read_row(v: &RawValue, row: usize, ids: &mut Vec<u8>) -> Result<()> {
    let limit = ids.len() + ROW_SIZES[row];
    fill_row(row, ids, |ids| read_cards(v, ids, limit))
}

fn seat_from_object(v: &RawValue, seat: &mut SeatInput, ids: &mut Vec<u8>) -> Result<()> {
    let fields = members(v)?;
    for (key, _) in &fields {
        if !SEAT_KEYS.contains(&key.as_ref()) {
            return Err(bad(format!(
                "unknown key {key:?} (a seat has top, middle, bottom, surrender, declare_natural)"
            )));
        }
    }
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    for (row, name) in ROW_NAMES.iter().enumerate() {
        let value =
            get(name).ok_or_else(|| Error::hand(format!("missing row {name:?}")).at_row(row))?;
        read_row(value, row, ids)?;
    }
    if let Some(v) = get("surrender") {
        seat.surrender = flag(v, "surrender")?;
    }
    if let Some(v) = get("declare_natural") {
        seat.declare_natural = flag(v, "declare_natural")?;
    }
    Ok(())
}

/// Reads seat `k`: "top / middle / bottom" text, 13 cards in row order (text
/// or a list), or an object with the rows and the seat's flags.
pub(super) fn read_seat(v: &RawValue, k: usize) -> Result<SeatInput> {
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
        banker: false,
        multiplier: 1,
    };
    let mut ids = Vec::with_capacity(13);
    match kind(v) {
        Kind::String => read_arrangement_text(&string(v)?, &mut ids),
        Kind::Object => seat_from_object(v, &mut seat, &mut ids),
        Kind::Array => read_cards(v, &mut ids, 13).and_then(|()| match ids.len() {
            13 => Ok(()),
            n if n > 13 => Err(arrangement_size_error("more than 13")),
            n => Err(arrangement_size_error(n)),
        }),
        _ => Err(bad(format!(
            "a seat is \"top / middle / bottom\" text, 13 cards or an object, not {}",
            shown(v)
        ))),
    }
    .map_err(|e| e.context(format_args!("seat {k}")).at_seat(k))?;
    seat.cards.copy_from_slice(&ids);
    Ok(seat)
}
