use super::*;
use crate::rank::Ranking;
use crate::splits::{sorted_hand, subset_strengths, SubsetStrengths, SUBSETS5};

fn rankings() -> [Evaluator; 2] {
    [
        Evaluator::new(Ranking::default()),
        Evaluator::new(Ranking {
            tie_break_suit: false,
            ..Ranking::default()
        }),
    ]
}

/// Hands dealt from a seeded deck, and a hand built for ties: five ranks
/// held twice, so halves of the same ranks tie when suits do not count.
fn hands(count: usize) -> Vec<[u8; 13]> {
    let mut rng = crate::deal::ChaCha20::from_seed(21);
    let mut out: Vec<[u8; 13]> = (0..count)
        .map(|_| {
            let deck = crate::deal::shuffled_deck(&mut rng);
            sorted_hand(&deck[..13]).unwrap()
        })
        .collect();
    // ranks 2-6 of clubs and diamonds, then three spades (id = rank * 4 + suit)
    let tied: Vec<u8> = [0u8, 1, 4, 5, 8, 9, 12, 13, 16, 17, 27, 39, 51].to_vec();
    out.push(sorted_hand(&tied).unwrap());
    out
}

/// One lane's strengths as a [`SubsetStrengths`].
fn lane_strengths(lanes: &LaneStrengths, lane: usize, cards: [u8; 13]) -> SubsetStrengths {
    SubsetStrengths {
        cards,
        s3: lanes.s3.iter().map(|s| unbiased(s[lane])).collect(),
        s5: lanes.s5[..SUBSETS5]
            .iter()
            .map(|s| unbiased(s[lane]))
            .collect(),
    }
}

#[test]
fn every_lane_counts_as_the_hand_alone() {
    let all = hands(37);
    for e in rankings() {
        let mut lanes = LaneStrengths::default();
        for strict in [false, true] {
            // groups of every size from 1 to LANES
            let mut start = 0;
            for size in (1..=LANES).cycle() {
                if start >= all.len() {
                    break;
                }
                let group = &all[start..(start + size).min(all.len())];
                let counts = lanes.count_valid(&e, group, strict);
                for (lane, hand) in group.iter().enumerate() {
                    let alone = subset_strengths(&e, hand);
                    let in_lane = lane_strengths(&lanes, lane, *hand);
                    assert_eq!(in_lane.s3, alone.s3);
                    assert_eq!(in_lane.s5, alone.s5);
                    assert_eq!(counts[lane] as usize, alone.count_valid(strict), "{hand:?}");
                }
                start += group.len();
            }
        }
    }
}

#[test]
fn the_portable_kernel_counts_as_the_chosen_one() {
    let all = hands(15);
    for e in rankings() {
        let mut lanes = LaneStrengths::default();
        for group in all.chunks(LANES) {
            lanes.rank(&e, group);
            assert_eq!(lanes.count(false), lanes.count_portable(false));
            assert_eq!(lanes.count(true), lanes.count_portable(true));
        }
    }
}

#[test]
fn ties_are_counted_twice_and_strictly_not_at_all() {
    // the tie hand: without the suit tie-break, some halvings tie
    let e = &rankings()[1];
    let hand = *hands(0).last().unwrap();
    let alone = subset_strengths(e, &hand);
    let table = table();
    let tied = table
        .halvings
        .iter()
        .filter(|&&[t, b, c]| {
            let (t, b, c) = (
                alone.s3[t as usize],
                alone.s5[b as usize],
                alone.s5[c as usize],
            );
            b == c && b >= t
        })
        .count();
    assert!(tied > 0, "the hand was built to tie");
    let mut lanes = LaneStrengths::default();
    let loose = lanes.count_valid(e, &[hand], false)[0] as usize;
    let strict = lanes.count_valid(e, &[hand], true)[0] as usize;
    assert!(loose >= strict + 2 * tied);
}

#[test]
#[should_panic(expected = "1 to 8 hands a group")]
fn a_group_holds_at_most_the_lanes() {
    let all = hands(LANES);
    LaneStrengths::default().rank(&rankings()[0], &all);
}
