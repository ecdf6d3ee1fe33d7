use super::*;

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
            let candidates = candidates(rules, &hand, &pick).unwrap();
            for opponent_deal in 0..8usize {
                let cards = &deck[13 + opponent_deal..26 + opponent_deal];
                let reply = random.choose(cards).unwrap();
                let opponent = seat_playing(reply.cards, reply.declare_natural);
                let cached = candidates.points_against(rules, opponent).unwrap();
                for (&seat, &points) in candidates.distinct.iter().zip(&cached) {
                    let direct = heads_up_points(rules, seat, opponent).unwrap();
                    assert_eq!(points, direct, "{rules:?}");
                }
            }
        }
    }
}

#[test]
fn tournament_is_zero_sum_and_reproducible() {
    let rules = Rules::default();
    let s = [Strategy::Solver, Strategy::Greedy];
    let a = duplicate_tournament(&rules, None, &s, 4, 40, 3).unwrap();
    let b = duplicate_tournament(&rules, None, &s, 4, 40, 3).unwrap();
    assert_eq!(a.mean, b.mean);
    assert!((a.mean[0] + a.mean[1]).abs() < 1e-9);
    assert_eq!(a.patterns.len(), 2);
}

#[test]
fn regret_check_runs() {
    let rules = Rules::default();
    let r = best_response_check(&rules, None, 2, 20, 1).unwrap();
    assert_eq!(r.hands.len(), 2);
    assert!(r.hands.iter().all(|h| h.regret >= 0.0));
}
