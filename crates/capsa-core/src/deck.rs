//! The deck of the rules: the 52 cards, the suits that enter a second time,
//! a second deck, and the jokers
//! (docs/rules.md, "Decks: added suits, two decks and jokers"). A card's id
//! names its face and its copy, so one id space holds every deck: the 52
//! first copies keep ids 0..51, a second copy is its face plus 52, and the
//! jokers are 104 and 105.

use crate::cards::{card_text, not_in_deck, suit, DECK, SUIT_CHARS};
pub use crate::cards::{copy_of, face, is_joker, BLACK_JOKER, CARD_IDS, RED_JOKER};
use crate::error::{Error, Result};

/// The deck a table is dealt from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    /// Suits whose 13 cards enter a second time, a bit per suit id (d = 1,
    /// c = 2, h = 4, s = 8).
    pub added_suits: u8,
    /// 1, or 2 for every card twice.
    pub decks: i64,
    /// 0, 1 (the black joker) or 2.
    pub jokers: i64,
}

/// The deck that holds every card id: two decks and both jokers. What
/// reads cards without rules checks them against it.
pub const EVERY_CARD: Deck = Deck {
    added_suits: 0,
    decks: 2,
    jokers: 2,
};

impl Default for Deck {
    fn default() -> Self {
        Deck {
            added_suits: 0,
            decks: 1,
            jokers: 0,
        }
    }
}

impl Deck {
    /// Whether this is the one 52-card deck.
    #[inline(always)]
    pub fn is_standard(&self) -> bool {
        *self == Deck::default()
    }

    /// Whether the deck holds the card `id` (any `u8`).
    pub fn holds(&self, id: u8) -> bool {
        match id {
            0..=51 => true,
            52..=103 => self.decks == 2 || self.added_suits >> suit(id - 52) & 1 != 0,
            BLACK_JOKER => self.jokers >= 1,
            RED_JOKER => self.jokers >= 2,
            _ => false,
        }
    }

    /// Every card of the deck, by id.
    pub fn ids(&self) -> Vec<u8> {
        (0..CARD_IDS as u8).filter(|&id| self.holds(id)).collect()
    }

    /// How many cards the deck holds.
    pub fn size(&self) -> usize {
        52 * self.decks.clamp(1, 2) as usize
            + 13 * self.added_suits.count_ones() as usize
            + self.jokers.clamp(0, 2) as usize
    }

    /// The deck in words, for messages: "the 52-card deck", "the 65-card
    /// deck (added suits: s)".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.decks == 2 {
            parts.push("two decks".to_string());
        }
        if self.added_suits != 0 {
            parts.push(format!("added suits: {}", self.added_letters()));
        }
        match self.jokers {
            0 => {}
            1 => parts.push("one joker".to_string()),
            n => parts.push(format!("{n} jokers")),
        }
        if parts.is_empty() {
            format!("the {}-card deck", self.size())
        } else {
            format!("the {}-card deck ({})", self.size(), parts.join(", "))
        }
    }

    /// Checks that the knobs make a deck: a second deck already holds
    /// every suit twice, so it takes no added suit.
    pub fn validate(&self) -> Result<()> {
        if self.decks == 2 && self.added_suits != 0 {
            return Err(Error::rules(format!(
                "deck.added_suits must be \"none\" with deck.decks = 2 (two decks hold every suit twice), got {:?}",
                self.added_letters()
            )));
        }
        Ok(())
    }

    /// The added suits' letters, strongest first by the default order
    /// (`"sh"`), as the rules name them.
    fn added_letters(&self) -> String {
        (0..4u8)
            .rev()
            .filter(|&s| self.added_suits >> s & 1 != 0)
            .map(|s| SUIT_CHARS[s as usize] as char)
            .collect()
    }

    /// The deck's cards as a bit per id: [`Deck::holds`] of every id, in a
    /// few operations (every table settled asks for it).
    pub fn mask(&self) -> u128 {
        // a bit at each rank of one suit: the ids 4r + 0
        const SUIT: u128 = {
            let mut m = 0u128;
            let mut r = 0;
            while r < 13 {
                m |= 1 << (4 * r);
                r += 1;
            }
            m
        };
        let first = (1u128 << DECK) - 1;
        let second = if self.decks == 2 {
            first
        } else {
            (0..4)
                .filter(|s| self.added_suits >> s & 1 != 0)
                .fold(0, |m, s| m | SUIT << s)
        };
        let jokers = match self.jokers {
            j if j >= 2 => 3u128,
            1 => 1,
            _ => 0,
        };
        first | second << DECK | jokers << BLACK_JOKER
    }

    /// Checks that `ids` are cards of this deck, each at most once.
    pub fn check(&self, ids: &[u8]) -> Result<()> {
        self.check_in(self.mask(), ids)
    }

    /// [`check`](Self::check) with the deck's [`mask`](Self::mask) at hand:
    /// one bit test a card when all is well.
    #[inline]
    pub fn check_in(&self, mask: u128, ids: &[u8]) -> Result<()> {
        let mut seen = 0u128;
        let mut outside = false;
        for &id in ids {
            let bit = 1u128.checked_shl(id as u32).unwrap_or(0);
            outside |= mask & bit == 0;
            seen |= bit;
        }
        if !outside && seen.count_ones() as usize == ids.len() {
            return Ok(());
        }
        self.check_slowly(ids)
    }

    /// The first fault of `ids`, named.
    #[cold]
    fn check_slowly(&self, ids: &[u8]) -> Result<()> {
        let mut seen = 0u128;
        for (pos, &id) in ids.iter().enumerate() {
            if !self.holds(id) {
                return Err(self.not_held(id, pos));
            }
            let bit = 1u128 << id;
            if seen & bit != 0 {
                let first = ids.iter().position(|&c| c == id).unwrap_or(pos);
                return Err(Error::hand(format!(
                    "card {} (id {id}) appears twice, at positions {first} and {pos}",
                    card_text(id)
                )));
            }
            seen |= bit;
        }
        Ok(())
    }

    /// Checks a hand of one of `sizes` cards of this deck, called `what`.
    pub fn check_hand(&self, ids: &[u8], sizes: &[usize], what: &str) -> Result<()> {
        if !sizes.contains(&ids.len()) {
            let want: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
            return Err(Error::hand(format!(
                "{what} needs {} cards, got {}",
                want.join(" or "),
                ids.len()
            )));
        }
        self.check(ids)
    }

    /// The error for the card `id` at position `pos` of a hand, which this
    /// deck does not hold.
    pub fn not_held(&self, id: u8, pos: usize) -> Error {
        not_in_deck(id, pos, &self.describe())
    }
}

#[cfg(test)]
mod tests;
