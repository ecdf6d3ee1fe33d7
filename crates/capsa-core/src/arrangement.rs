//! An arrangement as text: "top / middle / bottom" (rows separated by '/'
//! or '|') or 13 cards in row order, read with each row's size checked and
//! written as records show it.

use crate::cards::{card_text, parse_text, rank_index, suit, RANK_CHARS, SUIT_CHARS};
use crate::error::{Error, Result};
use crate::rows::{ROW_NAMES, ROW_SIZES};

/// Appends cards as card texts separated by spaces.
pub fn push_cards(out: &mut String, ids: &[u8]) {
    for (k, &id) in ids.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        if id < 52 {
            out.push(RANK_CHARS[usize::from(rank_index(id))] as char);
            out.push(SUIT_CHARS[usize::from(suit(id))] as char);
        } else {
            // a second copy or a joker
            out.push_str(&card_text(id));
        }
    }
}

/// Cards as card texts separated by spaces.
pub fn cards_text(ids: &[u8]) -> String {
    let mut out = String::with_capacity(3 * ids.len());
    push_cards(&mut out, ids);
    out
}

/// How an arrangement differs from the hand dealt: the cards it holds that
/// were not dealt, and the dealt cards it leaves out, each in the order
/// given; `None` when it holds exactly the hand. Both are sets of distinct
/// cards (the readers refuse a card twice).
pub fn dealt_difference(arrangement: &[u8], hand: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let foreign: Vec<u8> = arrangement
        .iter()
        .copied()
        .filter(|c| !hand.contains(c))
        .collect();
    let left_out: Vec<u8> = hand
        .iter()
        .copied()
        .filter(|c| !arrangement.contains(c))
        .collect();
    if foreign.is_empty() && left_out.is_empty() && arrangement.len() == hand.len() {
        None
    } else {
        Some((foreign, left_out))
    }
}

/// Appends an arrangement as "top / middle / bottom".
pub fn push_arrangement(out: &mut String, ids: &[u8; 13]) {
    push_cards(out, &ids[..3]);
    out.push_str(" / ");
    push_cards(out, &ids[3..8]);
    out.push_str(" / ");
    push_cards(out, &ids[8..]);
}

/// An arrangement as records write it: "top / middle / bottom".
pub fn arrangement_text(ids: &[u8; 13]) -> String {
    let mut out = String::with_capacity(44);
    push_arrangement(&mut out, ids);
    out
}

/// Reads one row's cards with `read` and checks the row's size; an error
/// names the row.
pub(crate) fn fill_row(
    row: usize,
    ids: &mut Vec<u8>,
    read: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let before = ids.len();
    read(ids).map_err(|e| {
        e.context(format_args!("the {} row", ROW_NAMES[row]))
            .at_row(row)
    })?;
    let got = ids.len() - before;
    if got != ROW_SIZES[row] {
        return Err(Error::hand(format!(
            "the {} row needs {} cards, got {got}",
            ROW_NAMES[row], ROW_SIZES[row]
        ))
        .at_row(row));
    }
    Ok(())
}

/// The error for an arrangement of `got` cards, not 13.
pub fn arrangement_size_error(got: impl std::fmt::Display) -> Error {
    Error::hand(format!("an arrangement has 13 cards, got {got}"))
}

/// Reads an arrangement written as text: "top / middle / bottom" (rows
/// separated by '/' or '|') or 13 cards in row order; an error names the row.
pub fn read_arrangement_text(text: &str, ids: &mut Vec<u8>) -> Result<()> {
    let rows: Vec<&str> = text.split(['/', '|']).collect();
    if rows.len() == 3 {
        for (row, part) in rows.iter().enumerate() {
            fill_row(row, ids, |ids| parse_text(part, ids))?;
        }
        return Ok(());
    }
    if rows.len() == 1 {
        // 13 cards in row order, as the Python API's 13 ids
        parse_text(text, ids)?;
        if ids.len() == 13 {
            return Ok(());
        }
    }
    Err(Error::hand(
        "an arrangement is \"top / middle / bottom\" (three rows separated by '/') \
         or 13 cards in row order",
    ))
}

#[cfg(test)]
mod tests {
    use super::dealt_difference;

    #[test]
    fn an_arrangement_differs_from_its_hand_by_the_cards_on_each_side() {
        let hand: Vec<u8> = (0..13).collect();
        let mut arrangement: Vec<u8> = (0..13).rev().collect();
        assert_eq!(dealt_difference(&arrangement, &hand), None);
        arrangement[0] = 40;
        arrangement[1] = 41;
        // 11 and 12 were dealt and left out (in the hand's order); 40 and 41
        // were never dealt
        assert_eq!(
            dealt_difference(&arrangement, &hand),
            Some((vec![40, 41], vec![11, 12]))
        );
        // a card twice leaves another out
        arrangement[0] = 0;
        arrangement[1] = 11;
        assert_eq!(
            dealt_difference(&arrangement, &hand),
            Some((vec![], vec![12]))
        );
        assert!(dealt_difference(&hand[..12], &hand).is_some());
    }
}
