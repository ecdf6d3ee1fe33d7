//! Bulk settlement: the columnar and distributed paths of docs/bulk.md.
//!
//! [`settle_rounds`] settles many rounds of one rules and one table size,
//! each round with its own stake and flags, into every seat's points, money,
//! rake and net, and its outcome (foul, natural, scoops, sweep, surrender). A round that cannot be settled is reported by its row and
//! every other round is settled: a log of a hundred million rounds is never
//! stopped by one bad line. [`with_threads`] runs work on a pool of a given
//! size, so that a worker of a distributed job uses the cores it was given
//! and no more. [`simulate`] is the variant simulator.

pub mod simulate;

use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::deck::Deck;
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::settle::{self, check_table_seats, SeatInput, SeatOutcome, Stakes, MAX_TABLE_SEATS};

/// Rounds of one table size, row-major: round `r`, seat `s` holds
/// `cards[(r * seats + s) * 13..][..13]`, laid out top 0-2, middle 3-7,
/// bottom 8-12.
#[derive(Clone, Copy, Debug)]
pub struct Rounds<'a> {
    pub seats: usize,
    pub cards: &'a [u8],
    /// One stake per round (every pair plays it); `None`: `money.stake`.
    pub stakes: Option<&'a [i64]>,
    /// Per round and seat (`r * seats + s`); `None`: nobody surrenders.
    pub surrender: Option<&'a [bool]>,
    /// Per round and seat; `None`: every seat declares its natural.
    pub declare_natural: Option<&'a [bool]>,
    /// Per round, the banker seat of a banker game; `None`: no banker.
    pub banker: Option<&'a [i64]>,
    /// Per round and seat, the seat's multiplier; `None`: every seat's is 1.
    pub multipliers: Option<&'a [i64]>,
}

impl Rounds<'_> {
    /// The number of rounds, once the lengths are known to agree.
    pub fn len(&self) -> usize {
        self.cards.len() / (13 * self.seats.max(1))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks that `deck` seats the table size (2 to 4 of the 52-card deck)
    /// and that every column has one entry per round (or per round and
    /// seat).
    pub fn check(&self, deck: &Deck) -> Result<()> {
        check_table_seats(deck, self.seats)?;
        if self.cards.len() % (13 * self.seats) != 0 {
            return Err(Error::argument(format!(
                "the cards of {}-seat rounds come in groups of {} ids, got {}",
                self.seats,
                13 * self.seats,
                self.cards.len()
            )));
        }
        let n = self.len();
        let per_seat = n * self.seats;
        let lengths = [
            ("stakes", self.stakes.map(<[i64]>::len), n),
            ("surrender", self.surrender.map(<[bool]>::len), per_seat),
            (
                "declare_natural",
                self.declare_natural.map(<[bool]>::len),
                per_seat,
            ),
            ("banker", self.banker.map(<[i64]>::len), n),
            ("multipliers", self.multipliers.map(<[i64]>::len), per_seat),
        ];
        for (what, got, want) in lengths {
            if let Some(got) = got.filter(|&g| g != want) {
                return Err(Error::argument(format!(
                    "{what} needs {want} entries for {n} rounds of {} seats, got {got}",
                    self.seats
                )));
            }
        }
        Ok(())
    }
}

/// Every seat's figures for the rounds, as defined in
/// docs/rules.md, "Money, rake and exactness"; zero in the rows that could
/// not be settled. Seat-major, so that each seat's column is one slice (as a
/// columnar file stores it): figure `f` of seat `s` in round `r` is
/// `figures[(f * seats + s) * rounds + r]`, `f` in [`FIGURES`] order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundTotals {
    pub rounds: usize,
    pub seats: usize,
    pub figures: Vec<i64>,
    /// Each seat's outcome, laid out as `figures`: outcome `o` (an index
    /// into [`OUTCOMES`]) of seat `s` in round `r` is
    /// `outcomes[(o * seats + s) * rounds + r]`; see [`outcome_bytes`].
    pub outcomes: Vec<u8>,
}

/// The figures of [`RoundTotals`], in their order.
pub const FIGURES: [&str; 4] = ["points", "money", "rake", "net"];

/// The outcomes of [`RoundTotals`], in their order.
pub const OUTCOMES: [&str; 5] = ["fouled", "natural", "scoops", "swept", "surrendered"];

/// A seat's outcome as the bytes of [`OUTCOMES`]: the flags 0 or 1, the
/// natural 0 for none or its index in `NATURAL_NAMES` plus one, the scoops
/// a count.
pub fn outcome_bytes(o: &SeatOutcome) -> [u8; 5] {
    [
        o.foul as u8,
        o.natural.map_or(0, |n| n as u8 + 1),
        o.scoops,
        o.swept_all as u8,
        o.surrender as u8,
    ]
}

impl RoundTotals {
    /// Figure `figure` (an index into [`FIGURES`]) of every round at seat `seat`.
    pub fn column(&self, figure: usize, seat: usize) -> &[i64] {
        let at = (figure * self.seats + seat) * self.rounds;
        &self.figures[at..at + self.rounds]
    }

    /// Outcome `outcome` (an index into [`OUTCOMES`]) of every round at seat `seat`.
    pub fn outcome_column(&self, outcome: usize, seat: usize) -> &[u8] {
        let at = (outcome * self.seats + seat) * self.rounds;
        &self.outcomes[at..at + self.rounds]
    }
}

/// Settles one round into `out`: points, money, rake and net of each seat,
/// and into `outcomes` each seat's outcome.
fn settle_one(
    rules: &Rules,
    seats: &[SeatInput],
    stake: i64,
    out: &mut [[i64; MAX_TABLE_SEATS]; 4],
    outcomes: &mut [SeatOutcome; MAX_TABLE_SEATS],
) -> Result<()> {
    let p = seats.len();
    let [points, money, rake, net] = out;
    settle::settle_points_and_outcomes(
        rules,
        seats,
        &Stakes::Uniform(stake),
        &mut points[..p],
        &mut money[..p],
        &mut outcomes[..p],
    )?;
    rake[..p]
        .copy_from_slice(&settle::round_rake::<MAX_TABLE_SEATS>(&rules.rake, &money[..p])[..p]);
    for s in 0..p {
        // a rake is between 0 and the seat's positive money
        net[s] = money[s] - rake[s];
    }
    Ok(())
}

/// Rounds a task of the parallel loop settles (few enough per thread to
/// balance, many enough that a task is worth scheduling).
fn chunk_rows(n: usize) -> usize {
    (n / (rayon::current_num_threads() * 8)).clamp(64, 8192)
}

/// Settles every round on the current rayon pool. Returns the figures and
/// outcomes and the rounds that could not be settled, by row, in row order;
/// the figures and outcomes of those rows are zero. Only a malformed [`Rounds`] (its `check`) is an
/// error of the whole call.
pub fn settle_rounds(rules: &Rules, rounds: &Rounds) -> Result<(RoundTotals, Vec<(usize, Error)>)> {
    rounds.check(&rules.deck)?;
    let p = rounds.seats;
    let n = rounds.len();
    let mut totals = RoundTotals {
        rounds: n,
        seats: p,
        figures: vec![0; FIGURES.len() * p * n],
        outcomes: vec![0; OUTCOMES.len() * p * n],
    };
    if n == 0 {
        return Ok((totals, Vec::new()));
    }
    let chunk = chunk_rows(n);
    // each task gets its rows' part of every column
    let figure_parts = column_parts(&mut totals.figures, n, chunk);
    let outcome_parts = column_parts(&mut totals.outcomes, n, chunk);
    let tasks: Vec<_> = figure_parts.into_iter().zip(outcome_parts).collect();
    let errors: Vec<(usize, Error)> = tasks
        .into_par_iter()
        .enumerate()
        .flat_map_iter(|(c, (mut parts, mut outcome_parts))| {
            let first = c * chunk;
            let mut errs = Vec::new();
            let mut seats = [SeatInput {
                cards: [0; 13],
                surrender: false,
                declare_natural: true,
                banker: false,
                multiplier: 1,
            }; MAX_TABLE_SEATS];
            let mut out = [[0i64; MAX_TABLE_SEATS]; 4];
            let mut outcomes = [SeatOutcome::default(); MAX_TABLE_SEATS];
            for k in 0..parts[0].len() {
                let row = first + k;
                let table = &rounds.cards[row * p * 13..(row + 1) * p * 13];
                for (s, (seat, ids)) in seats.iter_mut().zip(table.chunks_exact(13)).enumerate() {
                    seat.cards.copy_from_slice(ids);
                    let flag = row * p + s;
                    seat.surrender = rounds.surrender.is_some_and(|f| f[flag]);
                    seat.declare_natural = rounds.declare_natural.is_none_or(|f| f[flag]);
                    seat.banker = rounds.banker.is_some_and(|b| b[row] == s as i64);
                    seat.multiplier = rounds.multipliers.map_or(1, |m| m[flag]);
                }
                let stake = rounds.stakes.map_or(rules.stake, |s| s[row]);
                if let Err(e) = settle_one(rules, &seats[..p], stake, &mut out, &mut outcomes) {
                    out = [[0; MAX_TABLE_SEATS]; 4];
                    outcomes = [SeatOutcome::default(); MAX_TABLE_SEATS];
                    errs.push((row, e));
                }
                for (f, figure) in out.iter().enumerate() {
                    for (s, &value) in figure.iter().enumerate().take(p) {
                        parts[f * p + s][k] = value;
                    }
                }
                for (s, outcome) in outcomes.iter().enumerate().take(p) {
                    for (o, byte) in outcome_bytes(outcome).into_iter().enumerate() {
                        outcome_parts[o * p + s][k] = byte;
                    }
                }
            }
            errs
        })
        .collect();
    Ok((totals, errors))
}

/// Columns of `n` rows laid end to end, cut into the parts each task of
/// `chunk` rows writes: task `t` gets its rows' part of every column.
fn column_parts<T>(columns: &mut [T], n: usize, chunk: usize) -> Vec<Vec<&mut [T]>> {
    let mut parts: Vec<_> = columns
        .chunks_mut(n)
        .map(|column| column.chunks_mut(chunk))
        .collect();
    (0..n.div_ceil(chunk))
        .map(|_| parts.iter_mut().filter_map(Iterator::next).collect())
        .collect()
}

/// Runs `work` on a rayon pool of `threads` threads (`None`: the global
/// pool, one thread per core). Pools are built once per size and kept.
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R> {
    let Some(threads) = threads else {
        return Ok(work());
    };
    if threads == 0 {
        return Err(Error::argument("threads must be >= 1, got 0"));
    }
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    let pool = {
        let mut pools = pools
            .lock()
            .map_err(|_| Error::argument("the thread pools are poisoned"))?;
        match pools.iter().find(|(size, _)| *size == threads) {
            Some((_, pool)) => pool.clone(),
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| Error::argument(format!("cannot start {threads} threads: {e}")))?;
                let pool = Arc::new(pool);
                pools.push((threads, pool.clone()));
                pool
            }
        }
    };
    Ok(pool.install(work))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal;
    use crate::error::ErrorKind;
    use crate::rules::{Rake, Rules};

    /// `rounds` random four-seat rounds, each seat's dealt cards as dealt
    /// (sorted, so some foul), from seeds `first..`.
    fn dealt(rounds: usize, first: u64) -> Vec<u8> {
        (0..rounds as u64)
            .flat_map(|k| deal(4, Some(first + k)).unwrap().into_iter().flatten())
            .collect()
    }

    #[test]
    fn figures_are_those_of_settle() {
        let rules = Rules {
            rake: Rake {
                basis_points: 700,
                minimum_pot: 20,
                cap_per_pot: 60,
                cap_per_round: 100,
            },
            surrender_enabled: true,
            surrender_cost: 3,
            ..Rules::default()
        };
        let cards = dealt(300, 1);
        let stakes: Vec<i64> = (0..300).map(|r| r * 13 % 101).collect();
        let surrender: Vec<bool> = (0..1200).map(|k| k % 7 == 0).collect();
        let declare: Vec<bool> = (0..1200).map(|k| k % 5 != 0).collect();
        let rounds = Rounds {
            seats: 4,
            cards: &cards,
            stakes: Some(&stakes),
            surrender: Some(&surrender),
            declare_natural: Some(&declare),
            banker: None,
            multipliers: None,
        };
        let (totals, errors) = settle_rounds(&rules, &rounds).unwrap();
        assert!(errors.is_empty());
        for r in 0..300 {
            let seats: Vec<SeatInput> = (0..4)
                .map(|s| SeatInput {
                    cards: cards[(r * 4 + s) * 13..][..13].try_into().unwrap(),
                    surrender: surrender[r * 4 + s],
                    declare_natural: declare[r * 4 + s],
                    banker: false,
                    multiplier: 1,
                })
                .collect();
            let full = settle::settle(&rules, &seats, &Stakes::Uniform(stakes[r])).unwrap();
            for (s, seat) in full.seats.iter().enumerate() {
                let got = (
                    totals.column(0, s)[r],
                    totals.column(1, s)[r],
                    totals.column(2, s)[r],
                    totals.column(3, s)[r],
                );
                assert_eq!(
                    got,
                    (seat.points, seat.money, seat.rake, seat.net),
                    "round {r}"
                );
                let scoops = full
                    .pairs
                    .iter()
                    .filter(|q| q.outcome == settle::PairOutcome::Rows)
                    .filter(|q| (q.i == s && q.scoop == 1) || (q.j == s && q.scoop == -1))
                    .count() as u8;
                let want = SeatOutcome {
                    foul: seat.foul,
                    surrender: seat.surrender,
                    natural: seat.natural.map(|(n, _)| n),
                    swept_all: seat.swept_all,
                    scoops,
                };
                let outcome: Vec<u8> = (0..OUTCOMES.len())
                    .map(|o| totals.outcome_column(o, s)[r])
                    .collect();
                assert_eq!(outcome, outcome_bytes(&want), "round {r} seat {s}");
            }
        }
        // the rounds hold every outcome
        let all = |o: usize| (0..4).any(|s| totals.outcome_column(o, s).iter().any(|&b| b > 0));
        assert!((0..OUTCOMES.len()).all(all), "an outcome never met");
    }

    #[test]
    fn a_bad_round_is_reported_by_its_row_and_the_others_are_settled() {
        let rules = Rules::default();
        let mut cards = dealt(200, 9);
        cards[(57 * 4 + 2) * 13 + 4] = 60; // an id outside 0..51
        cards[(58 * 4 + 1) * 13] = cards[58 * 4 * 13]; // a card twice
        let stakes: Vec<i64> = (0..200).map(|r| if r == 130 { -5 } else { 10 }).collect();
        let surrender: Vec<bool> = (0..800).map(|k| k == 150 * 4 + 3).collect();
        let rounds = Rounds {
            seats: 4,
            cards: &cards,
            stakes: Some(&stakes),
            surrender: Some(&surrender),
            declare_natural: None,
            banker: None,
            multipliers: None,
        };
        let (totals, errors) = settle_rounds(&rules, &rounds).unwrap();
        let rows: Vec<usize> = errors.iter().map(|(r, _)| *r).collect();
        assert_eq!(rows, vec![57, 58, 130, 150]);
        let kinds: Vec<ErrorKind> = errors.iter().map(|(_, e)| e.kind()).collect();
        assert_eq!(
            kinds,
            vec![
                ErrorKind::Card,
                ErrorKind::Hand,
                ErrorKind::Table,
                ErrorKind::Table
            ]
        );
        assert!(errors[0].1.message().contains("60"), "{}", errors[0].1);
        assert_eq!(errors[0].1.seat(), Some(2));
        assert!(
            errors[3].1.message().contains("surrender"),
            "{}",
            errors[3].1
        );
        let seat_figures =
            |f: usize, r: usize| -> Vec<i64> { (0..4).map(|s| totals.column(f, s)[r]).collect() };
        for (r, _) in &errors {
            assert!((0..4).all(|f| seat_figures(f, *r) == [0; 4]));
        }
        let settled = (0..200).filter(|r| !rows.contains(r));
        for r in settled {
            let points = seat_figures(0, r);
            assert_eq!(points.iter().sum::<i64>(), 0);
            let staked: Vec<i64> = points.iter().map(|p| p * 10).collect();
            assert_eq!(seat_figures(1, r), staked, "round {r}");
        }
    }

    #[test]
    fn a_malformed_batch_is_one_error_naming_the_column() {
        let rules = Rules::default();
        let cards = dealt(3, 1);
        let short = [true; 5];
        let rounds = Rounds {
            seats: 4,
            cards: &cards,
            stakes: None,
            surrender: Some(&short),
            declare_natural: None,
            banker: None,
            multipliers: None,
        };
        let e = settle_rounds(&rules, &rounds).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Argument);
        assert!(e.message().contains("surrender"), "{e}");
        let rounds = Rounds {
            seats: 5,
            cards: &cards,
            stakes: None,
            surrender: None,
            declare_natural: None,
            banker: None,
            multipliers: None,
        };
        assert_eq!(
            settle_rounds(&rules, &rounds).unwrap_err().kind(),
            ErrorKind::Table
        );
        let rounds = Rounds {
            seats: 4,
            cards: &cards[..50],
            stakes: None,
            surrender: None,
            declare_natural: None,
            banker: None,
            multipliers: None,
        };
        let e = settle_rounds(&rules, &rounds).unwrap_err();
        assert!(e.message().contains("groups of 52"), "{e}");
    }

    #[test]
    fn a_pool_of_one_thread_gives_the_same_figures() {
        let rules = Rules::default();
        let cards = dealt(500, 3);
        let rounds = Rounds {
            seats: 4,
            cards: &cards,
            stakes: None,
            surrender: None,
            declare_natural: None,
            banker: None,
            multipliers: None,
        };
        let all = settle_rounds(&rules, &rounds).unwrap();
        let one = with_threads(Some(1), || settle_rounds(&rules, &rounds))
            .unwrap()
            .unwrap();
        assert_eq!(all, one);
        assert_eq!(
            with_threads(Some(1), rayon::current_num_threads).unwrap(),
            1
        );
        assert_eq!(
            with_threads(Some(0), || ()).unwrap_err().kind(),
            ErrorKind::Argument
        );
    }
}
