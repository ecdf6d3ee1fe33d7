use super::*;

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
