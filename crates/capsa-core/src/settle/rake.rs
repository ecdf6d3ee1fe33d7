//! The house's rake of a round: a rate in basis points of each winner's
//! money, nothing from a winner below the minimum pot, at most the cap per
//! pot from one winner, and at most the cap per round from all of them,
//! shared by largest remainders (docs/rules.md,
//! "Money, rake and exactness").

use crate::rules::Rake;
use crate::table::MAX_TABLE_SEATS;
use std::cmp::Reverse;

/// The rates are in hundredths of a percent.
const BASIS: i128 = 10_000;

/// What each seat pays the house on its `money` for the round (one entry
/// per seat of `money`, zeros after, up to `N`). Each rake is between 0 and the seat's
/// money when that is positive, and 0 otherwise, so `money - rake` always
/// fits in `i64`.
#[inline(always)]
pub fn round_rake<const N: usize>(rake: &Rake, money: &[i64]) -> [i64; N] {
    let mut rakes = [0i64; N];
    if rake.basis_points == 0 {
        return rakes;
    }
    for (r, &m) in rakes.iter_mut().zip(money) {
        if m > 0 && m >= rake.minimum_pot {
            // at most `m`: the rate is at most 10,000 basis points
            let share = (m as i128 * rake.basis_points as i128 / BASIS) as i64;
            *r = if rake.cap_per_pot > 0 {
                share.min(rake.cap_per_pot)
            } else {
                share
            };
        }
    }
    if rake.cap_per_round > 0 {
        share_round_cap(&mut rakes[..money.len()], rake.cap_per_round);
    }
    rakes
}

/// Brings the round's rakes down to `cap` when they sum to more: each seat
/// pays `floor(cap * rake / total)`, and the units left over go one each to
/// the seats with the largest remainders, ties to the lower seat, so the
/// house takes exactly `cap`.
fn share_round_cap(rakes: &mut [i64], cap: i64) {
    // a sum of at most four `i64`s, and products of two: both fit in 128 bits
    let total: i128 = rakes.iter().map(|&r| r as i128).sum();
    let cap = cap as i128;
    if total <= cap {
        return;
    }
    let mut remainders = [0i128; MAX_TABLE_SEATS];
    let mut taken = 0i128;
    for (r, remainder) in rakes.iter_mut().zip(&mut remainders) {
        let share = cap * *r as i128;
        *remainder = share % total;
        *r = (share / total) as i64;
        taken += *r as i128;
    }
    // fewer units than seats with a remainder: the shares' fractions sum to them
    for _ in 0..cap - taken {
        let seat = (0..rakes.len())
            .max_by_key(|&s| (remainders[s], Reverse(s)))
            .expect("a seat pays rake when the round cap binds");
        rakes[seat] += 1;
        remainders[seat] = -1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rake(basis_points: i64, minimum_pot: i64, cap_per_pot: i64, cap_per_round: i64) -> Rake {
        Rake {
            basis_points,
            minimum_pot,
            cap_per_pot,
            cap_per_round,
        }
    }

    #[test]
    fn rate_rounds_down_on_winners_only() {
        let r = rake(250, 0, 0, 0);
        assert_eq!(round_rake::<4>(&r, &[399, -400, 1])[..4], [9, 0, 0, 0]);
        assert_eq!(
            round_rake::<4>(&rake(10_000, 0, 0, 0), &[i64::MAX, -i64::MAX])[0],
            i64::MAX
        );
    }

    #[test]
    fn minimum_pot_and_cap_per_pot() {
        let r = rake(1_000, 100, 5, 0);
        assert_eq!(round_rake::<4>(&r, &[99, -99])[..4], [0, 0, 0, 0]);
        assert_eq!(round_rake::<4>(&r, &[100, -100])[..4], [5, 0, 0, 0]);
        assert_eq!(
            round_rake::<4>(&rake(1_000, 100, 0, 0), &[100, -100])[..4],
            [10, 0, 0, 0]
        );
    }

    #[test]
    fn round_cap_shared_by_largest_remainders() {
        // uncapped 10, 10, 10 against a cap of 20: 6.67 each, so 6, 6, 6 and
        // the two units left to the lower seats of the tie
        let r = rake(1_000, 0, 0, 20);
        assert_eq!(
            round_rake::<4>(&r, &[100, 100, 100, -300])[..4],
            [7, 7, 6, 0]
        );
        // 30 and 10 against 20: exactly 15 and 5
        assert_eq!(round_rake::<4>(&r, &[300, 100, -400])[..4], [15, 5, 0, 0]);
        // under the cap: untouched
        assert_eq!(round_rake::<4>(&r, &[150, -150])[..4], [15, 0, 0, 0]);
        // shares of a cap near the top of i64
        let big = rake(10_000, 0, 0, i64::MAX - 1);
        let rakes = round_rake::<4>(&big, &[i64::MAX, i64::MAX, -i64::MAX, -i64::MAX]);
        assert_eq!(
            rakes.iter().map(|&r| r as i128).sum::<i128>(),
            (i64::MAX - 1) as i128
        );
    }
}
