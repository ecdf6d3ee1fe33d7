use super::*;
use crate::rank::{parse_suit_order, Ranking, STRAIGHT, STRAIGHT_FLUSH};
use crate::test_support::{cards, for_each_combination};

fn wide(suit_order: &str, tie_break_suit: bool, flush_suit_first: bool) -> WideEvaluator {
    WideEvaluator::new(Evaluator::new(Ranking {
        suit_strength: parse_suit_order(suit_order).unwrap(),
        tie_break_suit,
        flush_suit_first,
        wheel_second: false,
    }))
}

fn value(e: &WideEvaluator, text: &str) -> u32 {
    e.eval_unchecked(&cards(text))
}

/// The suit key written out here agrees with the 52-card evaluator's on
/// every hand it can rank: one formula on either path.
#[test]
fn the_suit_key_is_the_52_card_one() {
    let deck: Vec<u8> = (0..52).collect();
    for order in ["shcd", "dchs", "hsdc"] {
        let e = wide(order, true, false);
        let mut checked = 0;
        for_each_combination(&deck[..32], 5, |h| {
            let f = [h[0], h[1], h[2], h[3], h[4]];
            let s = e.base.eval5(f);
            let cat = category_of(s);
            if cat == FLUSH || cat == STRAIGHT || cat == STRAIGHT_FLUSH {
                return;
            }
            let mut counts = [0u8; 13];
            f.iter().for_each(|&x| counts[rank_index(x) as usize] += 1);
            assert_eq!(e.base.rank_part5(f) | e.suit_key(&f, &counts), s, "{f:?}");
            checked += 1;
        });
        assert!(checked > 100_000);
        for_each_combination(&deck, 3, |h| {
            let f = [h[0], h[1], h[2]];
            let mut counts = [0u8; 13];
            f.iter().for_each(|&x| counts[rank_index(x) as usize] += 1);
            assert_eq!(
                e.base.rank_part3(f) | e.suit_key(&f, &counts),
                e.base.eval3(f)
            );
        });
    }
}

#[test]
fn five_of_a_kind_tops_the_royal_flush() {
    let e = wide("shcd", true, false);
    let five = value(&e, "As As' Ah Ah' Ad");
    assert_eq!(category_of(five), FIVE_OF_A_KIND);
    assert!(five > value(&e, "Ts Js Qs Ks As"));
    assert!(value(&e, "2d 2d' 2c 2h 2s") < value(&e, "3d 3d' 3c 3h 3s"));
    assert_eq!(crate::rank::key_rank(five, false), 12);
}

#[test]
fn copies_tie_even_under_the_suit_tie_break() {
    let e = wide("shcd", true, false);
    assert_eq!(value(&e, "As' Kh Qd"), value(&e, "As Kh Qd"));
    assert_eq!(value(&e, "As As' Kd Qc Jh"), value(&e, "As' As Kd Qc Jh"));
    // a pair of two copies against a pair of two suits: the second card's suit decides
    assert!(value(&e, "As As' Kd Qc Jh") > value(&e, "As Ah Kd Qc Jh"));
}

#[test]
fn flushes_with_pairs_rank_by_kind_then_ranks() {
    let e = wide("shcd", false, false);
    let plain = value(&e, "As Ks Qs Js 9s");
    let pair = value(&e, "2s 2s' 3s 4s 6s");
    let two_pair = value(&e, "2s 2s' 3s 3s' 4s");
    assert!(category_of(pair) == FLUSH && plain < pair && pair < two_pair);
    assert!(two_pair < value(&e, "2d 2c 2h 3d 3c"));
    assert!(value(&e, "Ks Ks' As Qs Js") < value(&e, "As As' 2s 3s 4s"));
    assert!(value(&e, "As As' Ks Qs Js") > value(&e, "As As' Ks Qs Ts"));
    assert!(value(&e, "As As' Ks Ks' 2s") > value(&e, "As As' Qs Qs' Ks"));
    assert_eq!(crate::rank::key_rank(pair, false), 0);
    assert_eq!(crate::rank::key_rank(two_pair, false), 1);
    // under suit-first the suit decides between flushes of one kind
    let e = wide("shcd", false, true);
    assert!(value(&e, "2s 2s' 3s 4s 6s") > value(&e, "Ah Ah' Kh Qh Jh"));
    assert!(value(&e, "2d 2d' 3d 4d 6d") > value(&e, "As Ks Qs Js 9s"));
}

#[test]
fn jokers_take_the_strongest_face() {
    let e = wide("shcd", true, false);
    // a joker and a pair make trips, of the strongest suit
    assert_eq!(value(&e, "BJ Kd Kc"), value(&e, "Ks Kd Kc"));
    // two jokers and a card on top: trips of its rank
    assert_eq!(value(&e, "BJ RJ 7d"), value(&e, "7s 7s 7d"));
    // a joker completes a straight flush, not just a flush
    assert_eq!(value(&e, "9h Th Jh Qh RJ"), value(&e, "9h Th Jh Qh Kh"));
    // four of a suit and a joker: the royal flush when it can be one
    assert_eq!(value(&e, "Th Jh Qh Kh BJ"), value(&e, "Th Jh Qh Kh Ah"));
    // quads and a joker: five of a kind
    assert_eq!(category_of(value(&e, "9d 9c 9h 9s BJ")), FIVE_OF_A_KIND);
    // a flush and a joker: trips in a flush beats two pairs in one
    let trips_flush = value(&e, "As As' Ks Qs BJ");
    assert_eq!(category_of(trips_flush), FLUSH);
    assert!(trips_flush > value(&e, "As As' Ks Ks' Qs"));
    assert!(trips_flush < value(&e, "2d 2c 2h 3d 3c"));
}

/// The strongest over every face for every joker, without the shortcut of
/// `best` (the strongest suit or the shared one).
fn every_face(e: &WideEvaluator, c: &[u8]) -> u32 {
    let Some(j) = c.iter().position(|&x| crate::deck::is_joker(x)) else {
        return e.faces(&c.iter().map(|&x| face(x)).collect::<Vec<_>>());
    };
    (0..52u8)
        .map(|f| {
            let mut next = c.to_vec();
            next[j] = f;
            every_face(e, &next)
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn jokers_need_only_the_strongest_or_the_shared_suit() {
    let mut deck: Vec<u8> = (0..52).collect();
    deck.extend([crate::deck::BLACK_JOKER, crate::deck::RED_JOKER]);
    for (order, tie, first) in [
        ("shcd", true, false),
        ("dhcs", true, true),
        ("shcd", false, false),
    ] {
        let e = wide(order, tie, first);
        for_each_combination(&deck, 3, |h| {
            if h.iter().any(|&x| crate::deck::is_joker(x)) {
                assert_eq!(e.eval3([h[0], h[1], h[2]]), every_face(&e, h), "{h:?}");
            }
        });
        // five cards with a joker: a spread of hands, flush draws included
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..6000 {
            let mut hand = vec![crate::deck::BLACK_JOKER];
            if k % 7 == 0 {
                hand.push(crate::deck::RED_JOKER);
            }
            while hand.len() < 5 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let draw = (state >> 40) as u8;
                let id = match k % 4 {
                    // flush draws, straight draws (ranks T..A, then the wheel's)
                    0 => draw % 13 * 4 + 3,
                    1 => 32 + draw % 20 + 52 * (draw >> 7),
                    2 => (draw % 5 * 4 + (draw >> 3) % 4 + 48) % 52,
                    _ => draw % 104,
                };
                if !hand.iter().any(|&x| face(x) == face(id)) || id >= 52 && !hand.contains(&id) {
                    hand.push(id);
                }
            }
            let c = [hand[0], hand[1], hand[2], hand[3], hand[4]];
            assert_eq!(e.eval5(c), every_face(&e, &c), "{c:?}");
        }
    }
}

#[test]
fn two_jokers_need_only_the_hand_s_ranks_or_a_straight_s() {
    // every seventh set of three faces (pairs, straight draws and flush
    // draws among them) beside both jokers, against every pair of faces
    let faces: Vec<u8> = (0..52).collect();
    for (order, tie, first) in [("shcd", true, false), ("dhcs", true, true)] {
        let e = wide(order, tie, first);
        let mut k = 0u32;
        for_each_combination(&faces, 3, |h| {
            k += 1;
            if k % 7 == 0 {
                let c = [
                    h[0],
                    h[1],
                    h[2],
                    crate::deck::BLACK_JOKER,
                    crate::deck::RED_JOKER,
                ];
                assert_eq!(e.eval5(c), every_face(&e, &c), "{c:?}");
            }
        });
    }
}
