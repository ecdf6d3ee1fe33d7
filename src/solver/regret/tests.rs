use super::*;

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

/// The fast solver against solver opponents is the tournament's check,
/// figure for figure.
#[test]
fn the_default_check_is_the_tournaments() {
    let rules = Rules::default();
    let ours = best_response_check(&rules, None, 4, 30, 7, &CheckConfig::default()).unwrap();
    let theirs = crate::tournament::best_response_check(&rules, None, 4, 30, 7).unwrap();
    assert_eq!(report_figures(&ours), report_figures(&theirs));
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
