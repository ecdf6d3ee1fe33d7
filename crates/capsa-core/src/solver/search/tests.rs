use super::*;

/// `scan` reads the halvings of top `t` at `t * HALVINGS_PER_TOP`.
#[test]
fn halvings_are_grouped_by_top() {
    let table = splits::table();
    assert_eq!(table.halvings.len(), SUBSETS3 * HALVINGS_PER_TOP);
    for (k, &[top, middle, bottom]) in table.halvings.iter().enumerate() {
        assert_eq!(top as usize, k / HALVINGS_PER_TOP);
        let masks = [
            table.masks3[top as usize],
            table.masks5[middle as usize],
            table.masks5[bottom as usize],
        ];
        assert_eq!(masks[0] | masks[1] | masks[2], (1 << 13) - 1);
    }
}

#[test]
fn a_bad_hand_is_named_as_a_hand_to_arrange() {
    let solver = Solver::new(&Rules::default(), Tables::preset("pagat").unwrap(), 4).unwrap();
    let e = solver.best(&[0, 1, 2]).unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Hand);
    assert!(e.message().contains("a hand to arrange"), "{e}");
}
