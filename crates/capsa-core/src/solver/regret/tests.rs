use super::*;
use crate::deal::{shuffled_deck, ChaCha20};

fn report_figures(r: &RegretReport) -> Vec<(Vec<u8>, usize, u64, u64, u64)> {
    r.hands
        .iter()
        .map(|h| {
            (
                h.cards.to_vec(),
                h.arrangements,
                h.solver_points.to_bits(),
                h.regret.to_bits(),
                h.holdout_regret.to_bits(),
            )
        })
        .collect()
}

/// The fast solver against solver opponents keeps its figures, bit for
/// bit (with the tables trained with 4 iterations they were those of the
/// check as first written, a separate implementation since removed).
/// Retrained tables change the solver's picks, and then this fingerprint,
/// like `solver_output_fingerprint`.
#[test]
fn the_default_check_keeps_its_figures() {
    let rules = Rules::default();
    let ours = best_response_check(&rules, None, 4, 30, 7, &CheckConfig::default()).unwrap();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for (cards, n, a, b, c) in report_figures(&ours) {
        for x in cards.iter().map(|&x| x as u64).chain([n as u64, a, b, c]) {
            h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    assert_eq!(
        h, 0x688b_bc1f_923b_5a50,
        "regret check fingerprint {h:#018x}"
    );
    assert!(ours.hands.iter().all(|x| x.regret >= 0.0));
}

#[test]
fn other_opponents_and_the_deep_pick_are_checked() {
    let rules = Rules::default();
    let base = best_response_check(&rules, None, 3, 20, 2, &CheckConfig::default()).unwrap();
    let greedy = CheckConfig {
        opponents: Strategy::Greedy,
        ..CheckConfig::default()
    };
    let against_greedy = best_response_check(&rules, None, 3, 20, 2, &greedy).unwrap();
    // the same hands, other opponents
    assert_eq!(against_greedy.hands[0].cards, base.hands[0].cards);
    assert_ne!(report_figures(&against_greedy), report_figures(&base));
    let deep = CheckConfig {
        effort: Effort::Deep,
        ..CheckConfig::default()
    };
    let r = best_response_check(&rules, None, 2, 20, 2, &deep).unwrap();
    assert!(r.hands.iter().all(|h| h.regret >= 0.0));
    let baseline_deep = CheckConfig {
        strategy: Strategy::Greedy,
        effort: Effort::Deep,
        ..CheckConfig::default()
    };
    let e = best_response_check(&rules, None, 1, 4, 2, &baseline_deep).unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Argument);
}

#[test]
fn cached_points_are_the_cores_for_every_split() {
    let mut variants = vec![Rules::default()];
    let mut rules = Rules {
        overall_point: 1,
        scoop_bonus: 3,
        scoop_multiply_royalties: true,
        ..Rules::default()
    };
    variants.push(rules.clone());
    rules.royalty_adds = false;
    variants.push(rules.clone());
    rules.royalty_mode = crate::rules::RoyaltyMode::Always;
    rules.sweep_all_min_players = 2;
    variants.push(rules);
    let random = arranger(&Rules::default(), None, 2, Strategy::Random).unwrap();
    for rules in &variants {
        for deal in 0..40u64 {
            let deck = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(99, deal)));
            let mut hand: [u8; 13] = deck[..13].try_into().unwrap();
            hand.sort_unstable();
            let pick = random.choose(&hand).unwrap();
            let candidates = Arrangements::new(rules, &hand, &pick).unwrap();
            for opponent_deal in 0..8usize {
                let cards = &deck[13 + opponent_deal..26 + opponent_deal];
                let reply = random.choose(cards).unwrap();
                let opponent = SeatInput::playing(reply.cards, reply.declare_natural);
                let mut cached = vec![0i64; candidates.distinct.len()];
                candidates
                    .points_against(rules, opponent, &mut cached)
                    .unwrap();
                for (&seat, &points) in candidates.distinct.iter().zip(&cached) {
                    let direct = heads_up_points(rules, seat, opponent).unwrap();
                    assert_eq!(points, direct, "{rules:?}");
                }
            }
        }
    }
}
