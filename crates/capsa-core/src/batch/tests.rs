use super::*;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::settle::{settle, MAX_SEATS};
use crate::solver::{arranger, Effort, Strategy};

/// `tables` tables of `seats` seats dealt from seeded decks, each seat's 13
/// cards in dealt order (a valid arrangement or not), row-major.
fn dealt(tables: usize, seats: usize, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha20::from_seed(seed);
    (0..tables)
        .flat_map(|_| shuffled_deck(&mut rng)[..13 * seats].to_vec())
        .collect()
}

fn seat_inputs(table: &[u8]) -> Vec<SeatInput> {
    table
        .chunks_exact(13)
        .map(|ids| SeatInput {
            cards: ids.try_into().unwrap(),
            surrender: false,
            declare_natural: true,
            banker: false,
            multiplier: 1,
        })
        .collect()
}

#[test]
fn map_rows_keeps_the_order_serially_and_in_parallel() {
    for n in [0, 1, 64, 65, 10_000] {
        let data: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
        let out = map_rows(&data, 1, |row| Ok(row[0] as u32 * 2)).unwrap();
        let want: Vec<u32> = data.iter().map(|&x| x as u32 * 2).collect();
        assert_eq!(out, want, "{n} rows");
    }
}

#[test]
fn map_rows_names_the_bad_row_but_not_in_a_rules_error() {
    // row i holds i as two bytes; only row 4321 is bad
    let data: Vec<u8> = (0..5000u16).flat_map(|i| i.to_le_bytes()).collect();
    let hand = map_rows(&data, 2, |row| {
        if u16::from_le_bytes([row[0], row[1]]) == 4321 {
            Err(Error::hand("bad"))
        } else {
            Ok(0u8)
        }
    });
    let e = hand.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Hand);
    assert_eq!(e.message(), "row 4321: bad");
    let rules = map_rows(&data, 2, |_| -> Result<u8> {
        Err(Error::rules("no rules"))
    });
    assert_eq!(rules.unwrap_err().message(), "no rules");
}

#[test]
fn map_rows_refuses_data_that_is_not_whole_rows() {
    for (len, width) in [(5, 0), (7, 3), (12, 5)] {
        let e = map_rows(&vec![0u8; len], width, |_| Ok(0u8)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Table);
        assert!(
            e.message().contains(&format!("rows of {width}")),
            "{}",
            e.message()
        );
    }
}

#[test]
fn strengths_rank_every_row_and_name_a_repeated_card() {
    let e = Rules::default().evaluator;
    for width in [3, 5] {
        let data = dealt(100, 1, 1)
            .chunks_exact(13)
            .flat_map(|h| h[..width].to_vec())
            .collect::<Vec<_>>();
        let got = strengths(&e, &data, width).unwrap();
        let want: Vec<u32> = data
            .chunks_exact(width)
            .map(|r| e.eval_unchecked(r))
            .collect();
        assert_eq!(got, want);
        let mut bad = data.clone();
        bad[7 * width + 1] = bad[7 * width];
        let err = strengths(&e, &bad, width).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Hand);
        assert!(err.message().starts_with("row 7"), "{}", err.message());
    }
    let err = strengths(&e, &[0, 1, 2, 3], 4).unwrap_err();
    assert!(err.message().contains("3 or 5"), "{}", err.message());
}

#[test]
fn count_splits_and_naturals_agree_with_the_single_hand_calls() {
    let r = Rules::default();
    let data = dealt(40, 1, 2);
    let counts = count_splits(&r.evaluator, r.foul_strict, &data).unwrap();
    let bits = naturals(&data).unwrap();
    for (k, hand) in data.chunks_exact(13).enumerate() {
        let hand13: [u8; 13] = hand.try_into().unwrap();
        let count = splits::count_splits(&r.evaluator, r.foul_strict, hand).unwrap();
        assert_eq!(counts[k] as usize, count);
        assert_eq!(u32::from(bits[k]), naturals::qualifying(&hand13));
    }
    // a bad row in the first group of hands counted together, and beyond it
    for row in [3, 19, 39] {
        let mut bad = data.clone();
        bad[13 * row] = 52;
        for err in [
            count_splits(&r.evaluator, false, &bad).unwrap_err(),
            naturals(&bad).unwrap_err(),
        ] {
            assert_eq!(err.kind(), ErrorKind::Card);
            let named = format!("row {row}:");
            assert!(err.message().starts_with(&named), "{}", err.message());
        }
    }
}

#[test]
fn best_arrangements_are_the_arrangers_choices() {
    let r = Rules::default();
    let a = arranger(&r, None, 4, Strategy::Greedy).unwrap();
    let data = dealt(30, 1, 3);
    let got = best_arrangements(&a, &data, Effort::Fast).unwrap();
    for (k, hand) in data.chunks_exact(13).enumerate() {
        assert_eq!(got[k], a.choose(hand).unwrap().cards);
    }
    let mut bad = data.clone();
    bad[13 * 4 + 2] = bad[13 * 4];
    let err = best_arrangements(&a, &bad, Effort::Fast).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Hand);
    assert!(err.message().starts_with("row 4"), "{}", err.message());
}

#[test]
fn settle_tables_matches_settle_and_reports_bad_tables() {
    let r = Rules::default();
    for seats in 2..=MAX_SEATS {
        let mut data = dealt(300, seats, seats as u64);
        // table 5 holds a card twice; table 9 an id outside the deck
        data[5 * seats * 13 + 1] = data[5 * seats * 13];
        data[9 * seats * 13] = 60;
        let stakes = Stakes::Uniform(3);
        let got = settle_tables(&r, &data, seats, &stakes, SeatFlags::default()).unwrap();
        let rows: Vec<usize> = got.errors.iter().map(|(row, _)| *row).collect();
        assert_eq!(rows, [5, 9]);
        assert_eq!(got.errors[0].1.kind(), ErrorKind::Hand);
        assert_eq!(got.errors[1].1.kind(), ErrorKind::Card);
        for (k, table) in data.chunks_exact(seats * 13).enumerate() {
            let (points, money) = (
                &got.points[k * seats..][..seats],
                &got.money[k * seats..][..seats],
            );
            match settle(&r, &seat_inputs(table), &stakes) {
                Ok(s) => {
                    assert_eq!(points, s.seats.iter().map(|x| x.points).collect::<Vec<_>>());
                    assert_eq!(money, s.seats.iter().map(|x| x.money).collect::<Vec<_>>());
                }
                Err(e) => {
                    assert!(points.iter().chain(money).all(|&x| x == 0));
                    assert_eq!(got.errors.iter().find(|(row, _)| *row == k).unwrap().1, e);
                }
            }
        }
    }
}

#[test]
fn settle_tables_reads_the_flags_of_each_seat() {
    let r = Rules {
        surrender_enabled: true,
        surrender_cost: 2,
        ..Rules::default()
    };
    let data = dealt(3, 2, 7);
    let surrender = [false, false, true, false, false, true];
    let flags = SeatFlags {
        surrender: Some(&surrender),
        declare_natural: None,
        banker: None,
        multipliers: None,
    };
    let got = settle_tables(&r, &data, 2, &Stakes::Uniform(1), flags).unwrap();
    assert!(got.errors.is_empty());
    for (k, table) in data.chunks_exact(26).enumerate() {
        let mut seats = seat_inputs(table);
        seats[0].surrender = surrender[2 * k];
        seats[1].surrender = surrender[2 * k + 1];
        let s = settle(&r, &seats, &Stakes::Uniform(1)).unwrap();
        assert_eq!(got.points[2 * k], s.seats[0].points);
    }
    // without surrender in the rules, the flagged tables are row errors
    let off = settle_tables(&Rules::default(), &data, 2, &Stakes::Uniform(1), flags).unwrap();
    let rows: Vec<usize> = off.errors.iter().map(|(row, _)| *row).collect();
    assert_eq!(rows, [1, 2]);
}

#[test]
fn settle_tables_refuses_bad_arguments_before_any_table() {
    let r = Rules::default();
    let data = dealt(4, 2, 8);
    let stakes = Stakes::Uniform(1);
    let none = SeatFlags::default();
    for seats in [0, 1, 5] {
        let e = settle_tables(&r, &[], seats, &stakes, none).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Table);
        assert_eq!(
            e.message(),
            format!("a table has 2 to 4 seats, got {seats}")
        );
    }
    let e = settle_tables(&r, &data[..30], 2, &stakes, none).unwrap_err();
    assert!(e.message().contains("rows of 26"), "{}", e.message());
    let e = settle_tables(&r, &data, 2, &Stakes::Uniform(-1), none).unwrap_err();
    assert!(e.message().starts_with("stakes: "), "{}", e.message());
    let short = [true; 7];
    let flags = SeatFlags {
        surrender: None,
        declare_natural: Some(&short),
        banker: None,
        multipliers: None,
    };
    let e = settle_tables(&r, &data, 2, &stakes, flags).unwrap_err();
    assert!(e
        .message()
        .starts_with("declare_natural needs one flag per seat (4 x 2)"));
    let empty = settle_tables(&r, &[], 3, &stakes, none).unwrap();
    assert!(empty.points.is_empty() && empty.errors.is_empty());
}

#[test]
fn settle_lines_numbers_the_lines_and_counts_the_failures() {
    let r = Rules::default();
    let lookup = |_: Option<&str>| -> std::result::Result<&Rules, String> { Ok(&r) };
    let good = br#"{"seats": ["Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d", "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"]}"#;
    let mut lines = vec![StreamLine::Bytes(good); 600];
    lines[1] = StreamLine::Bytes(b"   ");
    lines[2] = StreamLine::Bytes(b"not json");
    lines[300] = StreamLine::Overlong(1 << 30);
    let (parts, failed) = settle_lines(&lines, 10, &lookup);
    assert_eq!(failed, 2);
    let text = parts.concat();
    let records: Vec<&str> = text.lines().collect();
    assert_eq!(records.len(), 599, "a blank line gives no record");
    assert!(records[1].contains("\"line\":12"), "{}", records[1]);
    assert!(records[299].contains("\"line\":310"), "{}", records[299]);
    assert!(records[0].starts_with("{\"money\""), "{}", records[0]);
}

#[test]
fn tables_of_a_larger_deck_settle_as_one_by_one() {
    use crate::rules::KnobValue;
    let mut rules = Rules::default();
    rules
        .set_knob("deck.added_suits", KnobValue::Text("hc".into()))
        .unwrap();
    let mut ids = rules.deck.ids();
    let mut rng = ChaCha20::from_seed(9);
    let mut data = Vec::new();
    for _ in 0..50 {
        for i in (1..ids.len()).rev() {
            ids.swap(i, rng.below(i as u32 + 1) as usize);
        }
        data.extend_from_slice(&ids[..78]);
    }
    let flags = SeatFlags {
        surrender: None,
        declare_natural: None,
        banker: None,
        multipliers: None,
    };
    let batch = settle_tables(&rules, &data, 6, &Stakes::Uniform(1), flags).unwrap();
    assert!(batch.errors.is_empty());
    for (row, table) in data.chunks_exact(78).enumerate() {
        let seats: Vec<SeatInput> = table
            .chunks_exact(13)
            .map(|c| SeatInput::playing(c.try_into().unwrap(), true))
            .collect();
        let one = settle(&rules, &seats, &Stakes::Uniform(1)).unwrap();
        let points: Vec<i64> = one.seats.iter().map(|s| s.points).collect();
        assert_eq!(batch.points[6 * row..6 * row + 6], points[..]);
    }
    // seven seats are more than 78 cards deal
    let err = settle_tables(&rules, &data[..91], 7, &Stakes::Uniform(1), flags);
    assert!(err.is_err());
}
