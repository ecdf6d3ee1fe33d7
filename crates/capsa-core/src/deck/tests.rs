use super::*;
use crate::cards::parse_text;

fn deck(added: &str, decks: i64, jokers: i64) -> Deck {
    // the suit ids of the letters: d 0, c 1, h 2, s 3
    let added_suits = added
        .bytes()
        .filter_map(|b| b"dchs".iter().position(|&s| s == b))
        .fold(0u8, |m, s| m | 1 << s);
    Deck {
        added_suits,
        decks,
        jokers,
    }
}

#[test]
fn sizes_follow_the_knobs() {
    assert_eq!(Deck::default().size(), 52);
    assert!(Deck::default().is_standard());
    for (d, size) in [
        (deck("s", 1, 0), 65),
        (deck("sh", 1, 0), 78),
        (deck("none", 2, 0), 104),
        (deck("none", 2, 2), 106),
        (deck("d", 1, 1), 66),
    ] {
        assert_eq!(d.size(), size, "{d:?}");
        assert_eq!(d.ids().len(), size, "{d:?}");
        assert!(!d.is_standard());
    }
}

#[test]
fn membership_names_the_card_and_the_deck() {
    let d = deck("s", 1, 0);
    let mut ids = Vec::new();
    parse_text("As' Ks' 2s'", &mut ids).unwrap();
    d.check(&ids).unwrap();
    let err = d.check(&[51, 103, 102]).unwrap_err();
    assert!(err.message().contains("Ah' (id 102)"), "{err}");
    assert!(
        err.message().contains("65-card deck (added suits: s)"),
        "{err}"
    );
    let err = Deck::default().check(&[104]).unwrap_err();
    assert!(err
        .message()
        .contains("BJ (id 104) at position 0 is not in the 52-card deck"));
    let err = deck("none", 2, 2).check(&[105, 105]).unwrap_err();
    assert!(err.message().contains("appears twice"), "{err}");
    let err = deck("none", 2, 2).check(&[106]).unwrap_err();
    assert!(err.message().contains("outside 0..105"), "{err}");
}

#[test]
fn two_decks_take_no_added_suit() {
    assert!(deck("s", 2, 0).validate().is_err());
    assert!(deck("none", 2, 2).validate().is_ok());
}

#[test]
fn faces_and_copies() {
    assert_eq!((face(103), copy_of(103)), (51, 1));
    assert_eq!((face(51), copy_of(51)), (51, 0));
    assert!(is_joker(BLACK_JOKER) && is_joker(RED_JOKER) && !is_joker(103));
    assert_eq!(copy_of(RED_JOKER), 0);
}

/// The mask is the deck's `holds`, id by id, for every deck the knobs make.
#[test]
fn the_mask_holds_what_the_deck_holds() {
    for added_suits in 0..16u8 {
        for decks in 1..=2 {
            for jokers in 0..=2 {
                let deck = Deck {
                    added_suits,
                    decks,
                    jokers,
                };
                let by_id = (0..=255u8)
                    .filter(|&id| deck.holds(id))
                    .fold(0u128, |m, id| m | 1 << id);
                assert_eq!(deck.mask(), by_id, "{deck:?}");
            }
        }
    }
}
