//! The deck a record's rules deal, read from `rules.deck` before the seats,
//! so that the seat count and every card are read against it: a record's
//! hands may hold second copies and jokers only where its rules deal them
//! (docs/rules.md, "Decks: added suits, two decks and jokers").

use super::format::{Problem, Read};
use capsa_core::canonical::Json;
use capsa_core::deck::Deck;
use capsa_core::rules::{KnobValue, Rules};
use capsa_core::table::table_seats_error;

/// The knobs of `rules.deck`, by key, as the rules name them.
const DECK_KNOBS: [(&str, &str); 3] = [
    ("added_suits", "deck.added_suits"),
    ("decks", "deck.decks"),
    ("jokers", "deck.jokers"),
];

/// The deck of a record's `rules` object: the 52-card deck when it has no
/// `deck` table. Only the deck's own knobs are read here; the rest of the
/// rules are the caller's to compile.
pub(super) fn read_record_deck(rules: &Json) -> Read<Deck> {
    let Some(deck) = rules.get("deck") else {
        return Ok(Deck::default());
    };
    if !matches!(deck, Json::Object(_)) {
        let why = format!("rules.deck must be an object, not {}", deck.kind());
        return Err(Problem::new("rules.deck", why));
    }
    let mut read = Rules::default();
    for (key, knob) in DECK_KNOBS {
        let field = format!("rules.{knob}");
        let value = match deck.get(key) {
            None => continue,
            Some(Json::Str(text)) => KnobValue::Text(text.to_string()),
            Some(Json::Int(n)) => match i64::try_from(*n) {
                Ok(n) => KnobValue::Int(n),
                Err(_) => {
                    return Err(Problem::new(
                        field.clone(),
                        format!("{field}: {n} is out of range"),
                    ))
                }
            },
            Some(other) => {
                let why = format!("{field} must be a text or an integer, not {}", other.kind());
                return Err(Problem::new(field, why));
            }
        };
        read.set_knob(knob, value)
            .map_err(|e| Problem::new(field.clone(), format!("{field}: {}", e.message())))?;
    }
    Ok(read.deck)
}

/// Checks that the deck seats `n` (the field `seats`).
pub(super) fn check_record_seats(deck: &Deck, n: usize) -> Read<()> {
    if (2..=capsa_core::table::most_seats(deck)).contains(&n) {
        return Ok(());
    }
    let why = format!("seats: {}", table_seats_error(deck, n).message());
    Err(Problem::new("seats", why))
}
