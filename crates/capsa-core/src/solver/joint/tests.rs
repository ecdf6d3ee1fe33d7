use super::*;
use crate::rules::Rules;
use crate::solver::{RowOutcome, Solver, Tables};

fn outcome(w: f64, t: f64) -> RowOutcome {
    let l = 1.0 - w - t;
    RowOutcome {
        prob: [w, t, l],
        points: [w, 0.0, -l],
        royalty: [0.0; 3],
    }
}

/// The same count in every cell: independent uniform rows.
fn independent(bins: usize) -> Joint {
    Joint {
        bins,
        cells: vec![3; bins.pow(3)],
    }
}

/// Two cells: every row in the low half, or every row in the high half.
fn comonotone() -> Joint {
    let mut cells = vec![0u64; 8];
    cells[0] = 10;
    cells[7] = 10;
    Joint { bins: 2, cells }
}

fn with_joint(j: Option<Joint>) -> Solver {
    let mut t = Tables::preset("capsa-susun").unwrap().clone();
    t.joint = j;
    Solver::new(&Rules::default(), &t, 2).unwrap()
}

#[test]
fn independent_rows_leave_the_independent_value() {
    let rows = [outcome(0.3, 0.1), outcome(0.6, 0.0), outcome(0.45, 0.05)];
    let plain = with_joint(None);
    let flat = with_joint(Some(independent(16)));
    let (a, b) = (plain.value(&rows), flat.value(&rows));
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    assert!((a - plain.exact_value(&rows)).abs() < 1e-15);
    // and the copula's patterns are the products of the outcome probabilities
    let p = JointModel::new(&independent(16)).patterns(&rows);
    for (idx, &x) in p.iter().enumerate() {
        let want = rows[0].prob[idx / 9] * rows[1].prob[(idx / 3) % 3] * rows[2].prob[idx % 3];
        assert!((x - want).abs() < 1e-12, "pattern {idx}: {x} vs {want}");
    }
}

#[test]
fn comonotone_rows_win_and_lose_together() {
    let jm = JointModel::new(&comonotone());
    let rows = [outcome(0.5, 0.0), outcome(0.5, 0.0), outcome(0.5, 0.0)];
    let p = jm.patterns(&rows);
    // win all (pattern 0) or lose all (pattern 26), half the time each
    assert!(
        (p[0] - 0.5).abs() < 1e-12 && (p[26] - 0.5).abs() < 1e-12,
        "{p:?}"
    );
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

/// A hand at the median of top and bottom and sure of the middle, in
/// capsa-susun heads-up (1 point a row, the scoop doubles).
#[test]
fn comonotone_rows_change_the_value_of_an_uneven_hand() {
    let plain = with_joint(None);
    let joint = with_joint(Some(comonotone()));
    let rows = [outcome(0.5, 0.0), outcome(1.0, 0.0), outcome(0.5, 0.0)];
    // independent: win all 1/4 (+6), one row lost 1/2 (+1), two 1/4 (-1)
    assert!(
        (plain.value(&rows) - 1.75).abs() < 1e-12,
        "{}",
        plain.value(&rows)
    );
    // comonotone: win all 1/2 (+6), else top and bottom lost (-1)
    assert!(
        (joint.value(&rows) - 2.5).abs() < 1e-12,
        "{}",
        joint.value(&rows)
    );
    // the separable strategy ignores the copula with the scoop
    let sep = with_joint(Some(comonotone())).separable();
    assert!((sep.value(&rows) - sep.exact_value(&rows)).abs() < 1e-15);
}

#[test]
fn rules_without_joint_terms_ignore_the_copula() {
    // pagat's scoring: the rows are scored one by one, nothing jointly
    let mut rules = Rules {
        scoop_multiplier: 1,
        scoop_bonus: 0,
        overall_point: 0,
        sweep_all_multiplier: 1,
        sweep_all_bonus: 0,
        ..Rules::default()
    };
    let mut t = Tables::preset("capsa-susun").unwrap().clone();
    t.joint = Some(comonotone());
    assert!(Solver::new(&rules, &t, 4).unwrap().joint.is_none());
    rules.overall_point = 1;
    assert!(Solver::new(&rules, &t, 4).unwrap().joint.is_some());
}

#[test]
fn the_section_round_trips_and_is_validated() {
    let j = independent(4);
    let mut out = Vec::new();
    j.write(&mut out);
    let mut pos = 0;
    assert_eq!(Joint::read(&out, &mut pos).unwrap(), j);
    assert_eq!(pos, out.len());
    let bad = |j: Joint| j.validate().unwrap_err();
    assert!(bad(Joint {
        bins: 0,
        cells: vec![]
    })
    .contains("0 bins"));
    assert!(bad(Joint {
        bins: 33,
        cells: vec![1; 33 * 33 * 33]
    })
    .contains("33 bins"));
    assert!(bad(Joint {
        bins: 2,
        cells: vec![1; 5]
    })
    .contains("5 cells"));
    assert!(bad(Joint {
        bins: 2,
        cells: vec![0; 8]
    })
    .contains("no hands"));
    // a count past the bound, and a truncated section
    let mut big = vec![1u8];
    put_varint(&mut big, 1 << 41);
    let e = Joint::read(&big, &mut 0).unwrap_err();
    assert!(e.contains("cell 0"), "{e}");
    let e = Joint::read(&out[..out.len() - 1], &mut 0).unwrap_err();
    assert!(e.contains("truncated"), "{e}");
}

#[test]
fn percentiles_are_the_mass_below_and_half_the_own() {
    let p = Percentiles::new(&[(10, 1.0), (20, 2.0), (30, 1.0)]);
    assert_eq!(p.of(10), 0.125);
    assert_eq!(p.of(20), 0.5);
    assert_eq!(p.of(25), 0.75);
    assert_eq!(p.of(30), 0.875);
    assert_eq!(p.of(5), 0.0);
    assert_eq!(p.of(40), 1.0);
}
