use crate::rules::Rules;
use crate::solver::tests::hands;
use crate::solver::{shipped_presets, Solver, Tables};
use crate::splits;
use crate::test_support::{hand, strict_foul_check};

/// The kept splits as comparable values: score bits, place, rows.
fn kept(
    solver: &Solver,
    cards: &[u8; 13],
    keep: usize,
    bounded: bool,
) -> Vec<(u32, u32, u16, u16, u16)> {
    let sorted = splits::sorted_hand(cards).unwrap();
    let subsets = splits::subset_strengths(&solver.rules.evaluator, &sorted);
    solver
        .fast_scan(&subsets, keep, bounded)
        .iter()
        .map(|c| (c.score.to_bits(), c.order, c.top, c.middle, c.bottom))
        .collect()
}

/// Hands where many subsets are strong (long suits, quads, runs), which
/// the bounds' list of the strongest subsets fills up fastest.
fn strong_hands() -> Vec<[u8; 13]> {
    [
        "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s",
        "Ah Ad Ac As Kh Kd Kc Ks Qh Qd Qc Qs Jh",
        "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc Ah",
        "As Ks Qs Js 9s Ah Kh Qh Jh 9h 2d 2c 3h",
        "7s 7h 7d 7c 8s 8h 8d 9s 9h Ts Th 2c 3c",
    ]
    .iter()
    .map(|t| hand(t))
    .collect()
}

/// Rules whose fast score has every term: a strict foul check, a scoop
/// bonus and an overall point beside the preset's multipliers.
fn every_term() -> Rules {
    let mut rules = strict_foul_check(Rules::default());
    rules.scoop_bonus = 3;
    rules.overall_point = 1;
    rules.sweep_all_bonus = 2;
    rules
}

/// The bounded scan keeps exactly the splits the scan of every top keeps,
/// in the same order, under every preset's tables, every table size (the
/// sweep-all power), both foul checks and the separable strategy, for
/// lists of one split up to more than the solver refines.
#[test]
fn bounded_scan_keeps_what_the_full_scan_keeps() {
    let mut dealt = hands(60, 7);
    dealt.extend(strong_hands());
    let mut checked = 0;
    for name in shipped_presets() {
        let tables = Tables::preset(name).unwrap();
        for rules in [Rules::default(), every_term()] {
            for seats in 2..=4 {
                let solver = Solver::new(&rules, tables, seats).unwrap();
                let separable = Solver::new(&rules, tables, seats).unwrap().separable();
                for s in [&solver, &separable] {
                    for cards in &dealt {
                        for keep in [1, 24, 300] {
                            assert_eq!(
                                kept(s, cards, keep, true),
                                kept(s, cards, keep, false),
                                "{name}, {seats} seats, keep {keep}, hand {cards:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, shipped_presets().count() * 2 * 3 * 2 * 65 * 3);
}

/// A list longer than the valid splits keeps them all, best first.
#[test]
fn a_long_list_keeps_every_valid_split() {
    let solver = Solver::new(&Rules::default(), Tables::preset("pagat").unwrap(), 4).unwrap();
    for cards in hands(5, 3) {
        let sorted = splits::sorted_hand(&cards).unwrap();
        let subsets = splits::subset_strengths(&solver.rules.evaluator, &sorted);
        let all = solver.fast_scan(&subsets, 40_000, true);
        assert_eq!(all.len(), subsets.count_valid(false));
        assert!(all
            .windows(2)
            .all(|w| w[0].score > w[1].score
                || (w[0].score == w[1].score && w[0].order < w[1].order)));
    }
}

/// The tops in the order the scan visits them: largest bound first as
/// `f32::total_cmp` orders bounds (NaN, infinities, both zeros and
/// subnormals included), equal bounds by index.
#[test]
fn tops_are_visited_best_bound_first() {
    let special = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        f32::MIN,
        f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1.0,
        -1.0,
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..200 {
        let bounds: Vec<f32> = (0..super::SUBSETS3)
            .map(|_| match next() % 4 {
                0 => special[(next() % special.len() as u64) as usize],
                1 => f32::from_bits(next() as u32),
                // few distinct values, so that many bounds are equal
                _ => (next() % 7) as f32 - 3.0,
            })
            .collect();
        let mut want: Vec<(f32, u16)> = bounds
            .iter()
            .enumerate()
            .map(|(t, &b)| (b, t as u16))
            .collect();
        want.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let got = super::best_first(&bounds);
        let bits = |v: &[(f32, u16)]| v.iter().map(|&(b, t)| (b.to_bits(), t)).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "round {round}");
    }
}

/// Under rules where no arrangement fouls, the scan keeps every split of
/// the hand (72,072: each halving's subsets in either row), best first,
/// each the split of its rows, and a list of the best holds splits whose
/// rows are out of order where they score more.
#[test]
fn without_fouls_every_split_is_scanned() {
    let mut rules = Rules::default();
    rules.foul_mode = crate::rules::FoulMode::NoFoul;
    let solver = Solver::new(&rules, Tables::preset("pagat").unwrap(), 4).unwrap();
    let mut out_of_order = 0;
    for cards in hands(4, 11) {
        let sorted = splits::sorted_hand(&cards).unwrap();
        let subsets = splits::subset_strengths(&solver.rules.evaluator, &sorted);
        let all = solver.fast_scan(&subsets, 80_000, true);
        assert_eq!(all.len(), splits::SPLITS);
        let mut rows: Vec<(u16, u16, u16)> =
            all.iter().map(|c| (c.top, c.middle, c.bottom)).collect();
        rows.sort_unstable();
        rows.dedup();
        assert_eq!(rows.len(), splits::SPLITS, "each split once");
        assert!(all
            .windows(2)
            .all(|w| w[0].score > w[1].score
                || (w[0].score == w[1].score && w[0].order < w[1].order)));
        let best = solver.fast_scan(&subsets, 24, true);
        assert_eq!(
            best.iter().map(|c| c.score.to_bits()).collect::<Vec<_>>(),
            all[..24]
                .iter()
                .map(|c| c.score.to_bits())
                .collect::<Vec<_>>()
        );
        out_of_order += best
            .iter()
            .filter(|c| {
                !splits::is_valid(
                    subsets.s3[c.top as usize],
                    subsets.s5[c.middle as usize],
                    subsets.s5[c.bottom as usize],
                    false,
                )
            })
            .count();
    }
    assert!(
        out_of_order > 0,
        "no split with rows out of order scored among the best"
    );
}
