//! Tests of the naturals of larger decks: the 52-card answers kept, the
//! generalised definitions, the four naturals of copies and the jokers.

use super::*;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::naturals::{declared_in, ALL};
use crate::rules::RaisedBy;
use crate::test_support::cards;

fn hand13(text: &str) -> [u8; 13] {
    cards(text).try_into().expect("13 cards")
}

/// The natural of `text` when `natural` is the only entry, worth 1 (2 raised
/// by `raised`).
fn only(text: &str, natural: Natural, raised: Option<RaisedBy>) -> Option<i64> {
    let mut entry = NaturalEntry::new(natural, 1);
    entry.raised = raised.map(|by| (2, by));
    declared_in(&hand13(text), &[entry], true).map(|d| d.points)
}

fn every_entry() -> Vec<NaturalEntry> {
    ALL.iter().map(|&n| NaturalEntry::new(n, 1)).collect()
}

#[test]
fn fifty_two_card_hands_answer_as_the_fast_path() {
    // the definitions read on faces reduce to the 52-card ones: each entry
    // alone, raised both ways, on dealt hands and on hands of few ranks
    let mut rng = ChaCha20::from_seed(42);
    let mut entries: Vec<NaturalEntry> = every_entry();
    for by in [RaisedBy::Quads, RaisedBy::StraightFlush] {
        for n in [
            Natural::ThreeStraights,
            Natural::ThreeFlushes,
            Natural::SixPairs,
        ] {
            let mut e = NaturalEntry::new(n, 3);
            e.raised = Some((7, by));
            entries.push(e);
        }
    }
    for deal in 0..4000 {
        let deck = shuffled_deck(&mut rng);
        let hand: [u8; 13] = if deal % 2 == 0 {
            deck[..13].try_into().unwrap()
        } else {
            // sorted by id: the hand holds few ranks, so more naturals
            let mut d = deck;
            d.sort_unstable();
            let at = deal % 40;
            d[at..at + 13].try_into().unwrap()
        };
        for e in &entries {
            let fast = declared_in(&hand, std::slice::from_ref(e), true);
            let wide = strongest_playing(&hand, std::slice::from_ref(e));
            assert_eq!(
                fast.map(|d| (d.index, d.points != e.points)),
                wide.map(|p| (p.index, p.raised)),
                "{hand:?} {e:?}"
            );
        }
    }
}

#[test]
fn the_four_naturals_of_copies() {
    let six = "As Ah Ad Ac As' Ah' 2c 3d 4h 5s 6c 7d 8h";
    assert_eq!(only(six, Natural::SixOfAKind, None), Some(1));
    assert_eq!(only(six, Natural::SevenOfAKind, None), None);
    let eight = "As Ah Ad Ac As' Ah' Ad' Ac' 2c 3d 4h 5s 6c";
    assert_eq!(only(eight, Natural::EightOfAKind, None), Some(1));
    assert_eq!(only(eight, Natural::SevenOfAKind, None), Some(1));
    // eight of a rank is two quads, and with a third three quads
    let quads = "As Ah Ad Ac As' Ah' Ad' Ac' Kc Kd Kh Ks 2c";
    assert_eq!(only(quads, Natural::ThreeQuads, None), Some(1));
    let emperors = "As Ah Ad Ac As' Kc Kd Kh Ks Kc' 2c 2d 2h";
    assert_eq!(only(emperors, Natural::TwoFiveOfAKinds, None), Some(1));
    assert_eq!(only(emperors, Natural::FivePairsTrips, None), None);
}

#[test]
fn generalised_pairs_and_trips() {
    // five of a rank is trips and a pair: with four pairs, five-pairs-trips
    let five = "As Ah Ad Ac As' Kc Kd Qh Qs Jc Jd Tc Td";
    assert_eq!(only(five, Natural::FivePairsTrips, None), Some(1));
    // six of a rank is two trips
    let triples = "As Ah Ad Ac As' Ah' Kc Kd Kh Qs Qc Qd 2c";
    assert_eq!(only(triples, Natural::FourTriples, None), Some(1));
    // a clean dragon needs thirteen ranks, not thirteen cards of a suit
    let spades = "2s 2s' 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks";
    assert_eq!(only(spades, Natural::CleanDragon, None), None);
    assert_eq!(only(spades, Natural::ThreeFlushes, None), Some(1));
}

#[test]
fn partition_naturals_with_copies() {
    // both copies of a card in one flush row
    let flushes = "2s 2s' 9s | 3h 3h' 7h 8h Kh | 4d 4d' 5d Jd Ad";
    assert_eq!(only(flushes, Natural::ThreeFlushes, None), Some(1));
    // a straight holds a rank once: two copies go to two rows
    let straights = "Ac 2d 3h | Ah' 2c 3s 4d 5h | 2h' 3c 4s 5d 6c";
    assert_eq!(only(straights, Natural::ThreeStraights, None), Some(1));
    let sf = "Ac 2c 3c | Ac' 2c' 3c' 4c 5c | 9h Th Jh Qh Kh";
    assert_eq!(only(sf, Natural::ThreeStraightFlushes, None), Some(1));
    assert_eq!(
        only(sf, Natural::ThreeStraights, Some(RaisedBy::StraightFlush)),
        Some(2)
    );
}

#[test]
fn jokers_play_as_the_cards_that_qualify() {
    // a joker completes the dragon, two jokers the eight of a kind
    let dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks BJ";
    assert_eq!(only(dragon, Natural::Dragon, None), Some(1));
    let eight = "As Ah Ad Ac As' Ah' 2c 3d 4h 5s 6c BJ RJ";
    assert_eq!(only(eight, Natural::EightOfAKind, None), Some(1));
    // the joker may play a card the hand holds: a third ace of spades
    let flush = "As As' 2s 3s 4s 5s 6s 7s 8s 9s Ts Js BJ";
    assert_eq!(only(flush, Natural::CleanDragon, None), None);
    assert_eq!(only(flush, Natural::ThreeFlushes, None), Some(1));
    // raised when some way of playing the joker raises it: six pairs with
    // a joker as the fourth king
    let pairs = "Ks Kh Kd 2c 2d 3c 3d 4c 4d 5c 5d 7h BJ";
    assert_eq!(
        only(pairs, Natural::SixPairs, Some(RaisedBy::Quads)),
        Some(2)
    );
}

#[test]
fn the_earliest_entry_any_playing_qualifies_for() {
    // the joker could make six pairs or a dragon: the dragon is listed first
    let entries = [
        NaturalEntry::new(Natural::Dragon, 13),
        NaturalEntry::new(Natural::SixPairs, 3),
    ];
    let dragon = hand13("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks BJ");
    let d = declared_in(&dragon, &entries, true).unwrap();
    assert_eq!((d.index, d.points), (0, 13));
    assert!(
        d.played.iter().any(|&f| rank_index(f) == 12),
        "{:?}",
        d.played
    );
    // played for the highest rank groups: the joker a second ace, not a deuce
    let pairs = hand13("Ac 2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9h BJ");
    let d = declared_in(&pairs, &entries[1..], true).unwrap();
    assert_eq!(rank_groups(&d.played).0[0], 12);
}

#[test]
fn declining_and_must_declare_as_the_fifty_two_card_path() {
    let six = hand13("As Ah Ad Ac As' Ah' 2c 3d 4h 5s 6c 7d 8h");
    let mut e = NaturalEntry::new(Natural::SixOfAKind, 5);
    assert!(declared_in(&six, &[e], false).is_none());
    e.must_declare = true;
    assert_eq!(declared_in(&six, &[e], false).map(|d| d.points), Some(5));
}
