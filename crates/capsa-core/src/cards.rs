//! Card ids: `id = 4 * (rank - 2) + suit` with suits d=0, c=1, h=2, s=3,
//! plus 52 for a card's second copy; the jokers are 104 and 105 (see
//! [`crate::deck`]).

use crate::error::{Error, Result};

pub const DECK: usize = 52;

/// Ids below this are card ids of some deck: 104 copies and two jokers.
pub const CARD_IDS: usize = 106;
/// The black (small) joker, the only one of a deck with one joker.
pub const BLACK_JOKER: u8 = 104;
/// The red (big) joker.
pub const RED_JOKER: u8 = 105;

/// Whether `id` is a joker's.
#[inline(always)]
pub const fn is_joker(id: u8) -> bool {
    id >= BLACK_JOKER
}

/// The face (its first copy's id, 0..51) of a card that is not a joker.
#[inline(always)]
pub const fn face(id: u8) -> u8 {
    if id >= DECK as u8 {
        id - DECK as u8
    } else {
        id
    }
}

/// Which copy of its face a card is: 0 or 1 (0 for a joker).
#[inline(always)]
pub const fn copy_of(id: u8) -> u8 {
    (id >= DECK as u8 && id < BLACK_JOKER) as u8
}

pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
pub const SUIT_CHARS: &[u8; 4] = b"dchs";

/// Rank index 0..=12 (2 is 0, ace is 12).
#[inline(always)]
pub const fn rank_index(id: u8) -> u8 {
    id >> 2
}

/// Suit 0..=3 (d, c, h, s).
#[inline(always)]
pub const fn suit(id: u8) -> u8 {
    id & 3
}

/// A card's text: `As`, a second copy `As'`, the jokers `BJ` and `RJ`.
pub fn card_text(id: u8) -> String {
    match id {
        BLACK_JOKER => return "BJ".to_string(),
        RED_JOKER => return "RJ".to_string(),
        _ => {}
    }
    let f = face(id);
    let mut s = String::with_capacity(3);
    s.push(RANK_CHARS[rank_index(f) as usize % 13] as char);
    s.push(SUIT_CHARS[suit(f) as usize] as char);
    if copy_of(id) == 1 {
        s.push('\'');
    }
    s
}

/// Checks ids are in range and pairwise distinct; returns their 52-bit mask.
pub fn check_distinct(ids: &[u8]) -> Result<u64> {
    let mut mask = 0u64;
    for (pos, &id) in ids.iter().enumerate() {
        if id as usize >= DECK {
            return Err(not_in_deck(id, pos, "the 52-card deck"));
        }
        let bit = 1u64 << id;
        if mask & bit != 0 {
            // as settlement names a card a seat holds twice
            let first = ids.iter().position(|&c| c == id).unwrap_or(pos);
            return Err(Error::hand(format!(
                "card {} (id {id}) appears twice, at positions {first} and {pos}",
                card_text(id)
            )));
        }
        mask |= bit;
    }
    Ok(mask)
}

/// The error for the card `id` at position `pos` of a hand, which the deck
/// `deck` (described as [`crate::deck::Deck::describe`] does) does not hold.
pub fn not_in_deck(id: u8, pos: usize, deck: &str) -> Error {
    if id as usize >= CARD_IDS {
        return Error::card(format!(
            "card id {id} at position {pos} is outside 0..{}",
            CARD_IDS - 1
        ));
    }
    Error::card(format!(
        "card {} (id {id}) at position {pos} is not in {deck}",
        card_text(id)
    ))
}

/// The error for an item of a list of cards that is not a card: neither a
/// card's text nor an integer id; `shown` is the item as written.
pub fn not_a_card(shown: impl std::fmt::Display) -> Error {
    Error::card(format!(
        "a card is a text like \"As\" or an id 0..51, not {shown}"
    ))
}

/// Same as [`check_distinct`] but also requires exactly `n` cards.
pub fn check_hand(ids: &[u8], sizes: &[usize], what: &str) -> Result<u64> {
    if !sizes.contains(&ids.len()) {
        let want = sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(Error::hand(format!(
            "{what} needs {want} cards, got {}",
            ids.len()
        )));
    }
    check_distinct(ids)
}

/// The rank index (0: the deuce .. 12: the ace) of a rank letter of rules
/// data: `2`..`9`, `T` (or `10`), `J`, `Q`, `K`, `A`, either case.
pub fn rank_of_letter(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [b'1', b'0'] => Some(8),
        [b] => RANK_CHARS
            .iter()
            .position(|c| *c == b.to_ascii_uppercase())
            .map(|r| r as u8),
        _ => None,
    }
}

/// Reads one card token; `None` when it is not a card.
pub fn parse_token(tok: &str) -> Option<u8> {
    match tok {
        "BJ" | "bj" | "Bj" | "bJ" | "\u{1F0CF}" => return Some(BLACK_JOKER),
        "RJ" | "rj" | "Rj" | "rJ" | "\u{1F0BF}" => return Some(RED_JOKER),
        _ => {}
    }
    if let Some(first) = tok.strip_suffix(['\'', '\u{2032}']) {
        return parse_face(first).map(|f| f + DECK as u8);
    }
    parse_face(tok)
}

/// Reads a face's token (rank then suit, no copy mark).
fn parse_face(tok: &str) -> Option<u8> {
    let (rank, rest) = if let Some(rest) = tok.strip_prefix("10") {
        (8u8, rest)
    } else {
        let mut chars = tok.chars();
        let r = chars.next()?.to_ascii_uppercase();
        let rank = b"23456789TJQKA".iter().position(|&c| c as char == r)? as u8;
        (rank, chars.as_str())
    };
    let mut chars = rest.chars();
    let s = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    let suit = match s {
        'd' | 'D' | '♦' | '♢' => 0,
        'c' | 'C' | '♣' | '♧' => 1,
        'h' | 'H' | '♥' | '♡' => 2,
        's' | 'S' | '♠' | '♤' => 3,
        _ => return None,
    };
    Some(4 * rank + suit)
}

/// A rank's index from its ASCII letter or digit (either case).
fn ascii_rank(b: u8) -> Option<u8> {
    RANK_CHARS
        .iter()
        .position(|&c| c == b.to_ascii_uppercase())
        .map(|r| r as u8)
}

/// A suit from its ASCII letter (either case).
fn ascii_suit(b: u8) -> Option<u8> {
    SUIT_CHARS
        .iter()
        .position(|&c| c == b.to_ascii_lowercase())
        .map(|s| s as u8)
}

/// Reads ASCII card text as [`parse_text`] does, byte by byte; false at the
/// first token it does not read (the caller reads the text again for the
/// error, or for a form only [`parse_token`] knows).
fn parse_ascii(text: &[u8], out: &mut Vec<u8>) -> bool {
    // char::is_whitespace in ASCII: space, \t, \n, \x0b, \x0c, \r
    let is_separator = |b: &u8| matches!(b, b' ' | b'\t'..=b'\r' | b',');
    for tok in text.split(is_separator).filter(|t| !t.is_empty()) {
        let (tok, copy) = match tok.split_last() {
            Some((b'\'', first)) => (first, DECK as u8),
            _ => (tok, 0),
        };
        let card = match *tok {
            [r, s] => ascii_rank(r).zip(ascii_suit(s)),
            [b'1', b'0', s] => Some(8).zip(ascii_suit(s)),
            _ => None,
        };
        match card {
            Some((rank, suit)) => out.push(4 * rank + suit + copy),
            None => return false,
        }
    }
    true
}

/// Reads cards written as text (spaces or commas between them) into ids.
pub fn parse_text(text: &str, out: &mut Vec<u8>) -> Result<()> {
    let given = out.len();
    if text.is_ascii() && parse_ascii(text.as_bytes(), out) {
        return Ok(());
    }
    out.truncate(given);
    parse_chars(text, out)
}

/// Reads cards written as text, char by char: any text, and the error.
fn parse_chars(text: &str, out: &mut Vec<u8>) -> Result<()> {
    let is_separator = |c: char| c.is_whitespace() || c == ',';
    let mut number = 0;
    let mut start: Option<usize> = None;
    // char_indices gives char boundaries, so slicing at them cannot panic
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if !is_separator(c) {
            start.get_or_insert(i);
            continue;
        }
        let Some(s) = start.take() else { continue };
        let tok = &text[s..i];
        number += 1;
        match parse_token(tok) {
            Some(id) => out.push(id),
            None => {
                return Err(Error::card(format!(
                    "cannot read card {tok:?} (card {number} at character {}); \
                     write rank then suit, e.g. As, Td, 10h, 7\u{2663}",
                    text[..s].chars().count()
                )))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
