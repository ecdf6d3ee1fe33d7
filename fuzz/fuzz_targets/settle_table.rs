//! `capsa_core::settle::settle` and `settle_points` on tables drawn from the
//! bytes: any card ids (0..=255), flags, uniform or matrix stakes of any
//! `i64`, and rules with every field drawn (extreme values included) that
//! pass `Rules::validate`. Never panics. Ok: points, money and net + rake
//! each sum to zero, every pair's and seat's figures are consistent, and
//! `settle_points` gives the same points and money. Err: the table really
//! has what the error names (a bad id, a repeated card, a surrender the rules
//! do not enable, bad stakes, or figures too large for 64 bits), of the
//! right kind and at the right seat, and `settle_points` gives the same error.
#![no_main]

use arbitrary::{Result, Unstructured};
use capsa_core::error::{Error, ErrorKind};
use capsa_core::rules::Rules;
use capsa_core::settle::{settle, settle_points, PairOutcome, SeatInput, Settlement, Stakes};
use capsa_fuzz::{figure, largest_figure, rules, shuffled_deck, OVERFLOW_FLOOR};
use libfuzzer_sys::fuzz_target;

struct Table {
    rules: Rules,
    seats: Vec<SeatInput>,
    /// `None`: uniform stakes of `uniform`.
    matrix: Option<Vec<i64>>,
    uniform: i64,
}

fn table(u: &mut Unstructured) -> Result<Table> {
    let rules = rules(u)?;
    let n = if u.ratio(1u8, 16)? {
        u.int_in_range(0..=6)?
    } else {
        u.int_in_range(2..=4)?
    };
    let deck = shuffled_deck(u)?;
    let mut seats: Vec<SeatInput> = (0..n)
        .map(|s| {
            Ok(SeatInput {
                cards: std::array::from_fn(|k| deck[(13 * s + k) % 52]),
                surrender: u.ratio(1u8, 6)?,
                declare_natural: u.ratio(3u8, 4)?,
                banker: false,
                multiplier: 1,
            })
        })
        .collect::<Result<_>>()?;
    // now and then a card replaced by any byte, or by another seat's card
    // bounded: an exhausted input answers every `ratio` with true
    for _ in 0..8 {
        if seats.is_empty() || u.is_empty() || !u.ratio(1u8, 5)? {
            break;
        }
        let s = u.choose_index(seats.len())?;
        let k = u.choose_index(13)?;
        seats[s].cards[k] = if u.arbitrary()? {
            u.arbitrary()?
        } else {
            let t = u.choose_index(seats.len())?;
            seats[t].cards[u.choose_index(13)?]
        };
    }
    let uniform = figure(u)?;
    let matrix = if u.arbitrary()? {
        let len = if u.ratio(1u8, 8)? {
            u.int_in_range(0..=20)?
        } else {
            n * n
        };
        let mut m: Vec<i64> = (0..len).map(|_| figure(u)).collect::<Result<_>>()?;
        if len == n * n && !u.ratio(1u8, 8)? {
            for i in 0..n {
                for j in 0..i {
                    m[i * n + j] = m[j * n + i];
                }
            }
        }
        Some(m)
    } else {
        None
    };
    Ok(Table {
        rules,
        seats,
        matrix,
        uniform,
    })
}

/// The first thing wrong with the table's seats, as the settlement words it:
/// seat by seat, card by card (an id outside 0..51, then a card seen
/// before), then the seat's surrender flag.
fn seat_problem(t: &Table) -> Option<(ErrorKind, Option<usize>)> {
    let n = t.seats.len();
    if !(2..=4).contains(&n) {
        return Some((ErrorKind::Table, None));
    }
    let mut seen = [false; 52];
    for (s, seat) in t.seats.iter().enumerate() {
        for &c in &seat.cards {
            if c >= 52 {
                return Some((ErrorKind::Card, Some(s)));
            }
            if std::mem::replace(&mut seen[c as usize], true) {
                return Some((ErrorKind::Hand, Some(s)));
            }
        }
        if seat.surrender && !t.rules.surrender_enabled {
            return Some((ErrorKind::Table, Some(s)));
        }
    }
    None
}

fn stakes_problem(t: &Table) -> bool {
    let n = t.seats.len();
    match &t.matrix {
        None => t.uniform < 0,
        Some(m) => {
            m.len() != n * n
                || (0..n).any(|i| {
                    (0..n).any(|j| i != j && (m[i * n + j] < 0 || m[i * n + j] != m[j * n + i]))
                })
        }
    }
}

fn check_error(t: &Table, e: &Error) {
    if let Some((kind, seat)) = seat_problem(t) {
        assert_eq!(e.kind(), kind, "{e}");
        assert_eq!(e.seat(), seat, "{e}");
        return;
    }
    assert_eq!(e.kind(), ErrorKind::Table, "{e}");
    if stakes_problem(t) {
        assert!(e.message().contains("stake"), "{e}");
        return;
    }
    // only large figures can overflow
    assert!(e.message().contains("64-bit"), "{e}");
    // the diagonal of a matrix is not a stake
    let n = t.seats.len();
    let stakes: Vec<i64> = match &t.matrix {
        Some(m) => (0..n * n)
            .filter(|k| k / n != k % n)
            .map(|k| m[k])
            .collect(),
        None => vec![t.uniform],
    };
    let largest = stakes
        .iter()
        .map(|s| s.unsigned_abs())
        .max()
        .unwrap_or(0)
        .max(largest_figure(&t.rules) as u64);
    assert!(
        largest >= OVERFLOW_FLOOR as u64,
        "overflow reported with no figure above {largest}: {e}"
    );
}

fn check_settlement(t: &Table, s: &Settlement) {
    let n = t.seats.len();
    let rules = &t.rules;
    assert!(
        seat_problem(t).is_none() && !stakes_problem(t),
        "a bad table was settled"
    );
    assert_eq!(s.seats.len(), n);
    assert_eq!(s.pairs.len(), n * (n - 1) / 2);
    let sum = |f: fn(&capsa_core::settle::SeatResult) -> i64| -> i128 {
        s.seats.iter().map(|r| f(r) as i128).sum()
    };
    assert_eq!(sum(|r| r.points), 0, "points balance");
    assert_eq!(sum(|r| r.money), 0, "money balances");
    assert_eq!(sum(|r| r.net) + sum(|r| r.rake), 0, "net + rake balances");
    let mut points = vec![0i128; n];
    let mut money = vec![0i128; n];
    for p in &s.pairs {
        assert!(p.i < p.j && p.j < n);
        let stake = match &t.matrix {
            Some(m) => m[p.i * n + p.j],
            None => t.uniform,
        };
        assert_eq!(p.stake, stake, "pair ({}, {})", p.i, p.j);
        assert_eq!(p.money as i128, p.points as i128 * stake as i128);
        points[p.i] += p.points as i128;
        points[p.j] -= p.points as i128;
        money[p.i] += p.money as i128;
        money[p.j] -= p.money as i128;
        if p.outcome != PairOutcome::Rows && p.outcome != PairOutcome::Foul {
            assert_eq!(p.rows, [0, 0, 0]);
        }
    }
    let e = &rules.evaluator;
    for (k, (r, seat)) in s.seats.iter().zip(&t.seats).enumerate() {
        assert_eq!(
            r.points as i128, points[k],
            "seat {k}'s points are its pairs'"
        );
        assert_eq!(r.money as i128, money[k], "seat {k}'s money is its pairs'");
        // the rate's share, before the caps and the minimum pot
        let share = (rules.rake.basis_points as i128 * r.money.max(0) as i128).div_euclid(10_000);
        let r_ = &rules.rake;
        let uncapped = r_.cap_per_pot == 0 && r_.cap_per_round == 0;
        if r.money < r_.minimum_pot || (uncapped && r.money > 0) {
            let expected = if r.money < r_.minimum_pot { 0 } else { share };
            assert_eq!(r.rake as i128, expected, "seat {k}'s rake");
        }
        assert!((0..=share).contains(&(r.rake as i128)), "seat {k}'s rake");
        assert!(
            r_.cap_per_pot == 0 || r.rake <= r_.cap_per_pot,
            "seat {k}'s rake cap"
        );
        assert_eq!(
            r.net as i128,
            r.money as i128 - r.rake as i128,
            "seat {k}'s net"
        );
        let c = &seat.cards;
        let strengths = [
            e.eval3([c[0], c[1], c[2]]),
            e.eval5([c[3], c[4], c[5], c[6], c[7]]),
            e.eval5([c[8], c[9], c[10], c[11], c[12]]),
        ];
        assert_eq!(r.strengths, strengths, "seat {k}");
        let invalid = !capsa_core::splits::is_valid(
            strengths[0],
            strengths[1],
            strengths[2],
            rules.foul_strict,
        );
        if let Some((natural, pts)) = r.natural {
            assert!(seat.declare_natural, "seat {k} did not declare");
            assert!(
                rules
                    .naturals
                    .iter()
                    .any(|e| (e.natural, e.points) == (natural, pts)),
                "seat {k}'s natural"
            );
        }
        // a bonus natural does not settle the pair: its seat plays its rows
        // (or surrenders them) like any seat
        let settling = r.natural.filter(|(natural, _)| {
            !rules
                .naturals
                .iter()
                .any(|e| e.natural == *natural && e.bonus)
        });
        assert_eq!(
            r.surrender,
            seat.surrender && settling.is_none(),
            "seat {k}"
        );
        assert_eq!(
            r.foul,
            invalid && settling.is_none() && !r.surrender,
            "seat {k}"
        );
        if r.swept_all {
            assert!(n >= rules.sweep_all_min_players && !r.foul && !r.surrender);
        }
    }
    let house: i128 = s.seats.iter().map(|r| r.rake as i128).sum();
    let cap = rules.rake.cap_per_round;
    assert!(cap == 0 || house <= cap as i128, "the round's rake cap");
}

fuzz_target!(|data: &[u8]| {
    let Ok(t) = table(&mut Unstructured::new(data)) else {
        return;
    };
    if t.rules.validate().is_err() {
        return;
    }
    let stakes = match &t.matrix {
        Some(m) => Stakes::Matrix(m),
        None => Stakes::Uniform(t.uniform),
    };
    let n = t.seats.len();
    let (mut points, mut money) = (vec![i64::MIN; n], vec![i64::MIN; n]);
    let fast = settle_points(&t.rules, &t.seats, &stakes, &mut points, &mut money);
    match settle(&t.rules, &t.seats, &stakes) {
        Ok(s) => {
            check_settlement(&t, &s);
            assert_eq!(fast, Ok(()), "settle_points fails where settle does not");
            let want: Vec<i64> = s.seats.iter().map(|r| r.points).collect();
            assert_eq!(points, want, "settle_points' points");
            let want: Vec<i64> = s.seats.iter().map(|r| r.money).collect();
            assert_eq!(money, want, "settle_points' money");
        }
        Err(e) => {
            check_error(&t, &e);
            assert_eq!(fast, Err(e), "settle_points' error");
            assert!(
                points.iter().chain(&money).all(|&x| x == i64::MIN),
                "slices untouched"
            );
        }
    }
    // slices of the wrong length are an error, never a panic
    let mut short = vec![0i64; n.saturating_sub(1)];
    let mut long = vec![0i64; n + 1];
    let wrong = settle_points(&t.rules, &t.seats, &stakes, &mut short, &mut long);
    assert_eq!(wrong.map_err(|e| e.kind()), Err(ErrorKind::Table));
});
