//! What a simulation counts: integers only, so that summaries of any split
//! of the deal range merge into exactly the summary of the whole range.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::naturals::NATURAL_NAMES;
use crate::settle::{PairOutcome, Settlement};

/// Natural kinds, in the order of `NATURAL_NAMES`.
pub const NATURALS: usize = NATURAL_NAMES.len();

/// How many rounds held at least one of each event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundCounts {
    pub natural: u64,
    pub foul: u64,
    pub surrender: u64,
    pub scoop: u64,
    pub sweep_all: u64,
}

/// Counts over a range of simulated deals (docs/bulk.md, "The summary").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub seats: usize,
    pub deals: u64,
    /// Per seat: how many rounds ended with each number of points. Money is
    /// points times the stake, so this is the seat's money distribution too.
    pub points: Vec<BTreeMap<i64, u64>>,
    /// Per seat: how many rounds ended with each net (money after rake; a
    /// cap per round makes one seat's rake depend on the others' money).
    pub net: Vec<BTreeMap<i64, u64>>,
    /// How many rounds paid the house each total rake.
    pub house_rake: BTreeMap<i64, u64>,
    /// Per natural: seats whose 13 cards qualify for it, enabled or not.
    pub qualifying: [u64; NATURALS],
    /// Per natural: seats settled with it declared.
    pub declared: [u64; NATURALS],
    /// Seats settled as fouled, surrendered, sweeping all.
    pub fouls: u64,
    pub surrenders: u64,
    pub sweep_alls: u64,
    /// Pairs settled on their rows where one seat won all three (the pairs
    /// of a sweep-all included), and all pairs played (a banker game's
    /// pairs of two players are not).
    pub scoops: u64,
    pub pairs: u64,
    pub rounds: RoundCounts,
}

fn add(into: &mut BTreeMap<i64, u64>, value: i64, count: u64) {
    *into.entry(value).or_insert(0) += count;
}

impl Summary {
    /// The empty summary of a table of `seats`.
    pub fn new(seats: usize) -> Self {
        Summary {
            seats,
            points: vec![BTreeMap::new(); seats],
            net: vec![BTreeMap::new(); seats],
            ..Summary::default()
        }
    }

    /// Counts one settled round and its seats' qualifying naturals (bit
    /// sets over `NATURAL_NAMES`).
    pub fn record(&mut self, settlement: &Settlement, qualifying: &[u32]) {
        self.deals += 1;
        for bits in qualifying {
            for (k, count) in self.qualifying.iter_mut().enumerate() {
                *count += u64::from((bits >> k) & 1);
            }
        }
        let mut house = 0i64;
        let (mut natural, mut foul, mut surrender, mut sweep) = (false, false, false, false);
        for (s, seat) in settlement.seats.iter().enumerate() {
            add(&mut self.points[s], seat.points, 1);
            add(&mut self.net[s], seat.net, 1);
            // the round is settled: its rakes fit in i64 and so does their
            // sum, which the winners' money bounds
            house = house.saturating_add(seat.rake);
            if let Some((n, _)) = seat.natural {
                self.declared[n as usize] += 1;
                natural = true;
            }
            self.fouls += u64::from(seat.foul);
            self.surrenders += u64::from(seat.surrender);
            self.sweep_alls += u64::from(seat.swept_all);
            foul |= seat.foul;
            surrender |= seat.surrender;
            sweep |= seat.swept_all;
        }
        add(&mut self.house_rake, house, 1);
        let scoops = settlement
            .pairs
            .iter()
            .filter(|p| p.outcome == PairOutcome::Rows && p.scoop != 0)
            .count() as u64;
        self.scoops += scoops;
        let played = settlement
            .pairs
            .iter()
            .filter(|p| p.outcome != PairOutcome::Unplayed)
            .count() as u64;
        self.pairs += played;
        let r = &mut self.rounds;
        r.natural += u64::from(natural);
        r.foul += u64::from(foul);
        r.surrender += u64::from(surrender);
        r.scoop += u64::from(scoops > 0);
        r.sweep_all += u64::from(sweep);
    }

    /// Adds `other`'s counts (a summary of other deals at the same table size).
    pub fn merge(&mut self, other: &Summary) -> Result<()> {
        if other.seats != self.seats {
            return Err(Error::argument(format!(
                "cannot merge a summary of {} seats into one of {}",
                other.seats, self.seats
            )));
        }
        self.deals += other.deals;
        let seats = self.points.iter_mut().zip(&other.points);
        for (mine, theirs) in seats.chain(self.net.iter_mut().zip(&other.net)) {
            for (&v, &c) in theirs {
                add(mine, v, c);
            }
        }
        for (&v, &c) in &other.house_rake {
            add(&mut self.house_rake, v, c);
        }
        for k in 0..NATURALS {
            self.qualifying[k] += other.qualifying[k];
            self.declared[k] += other.declared[k];
        }
        self.fouls += other.fouls;
        self.surrenders += other.surrenders;
        self.sweep_alls += other.sweep_alls;
        self.scoops += other.scoops;
        self.pairs += other.pairs;
        let (r, o) = (&mut self.rounds, &other.rounds);
        r.natural += o.natural;
        r.foul += o.foul;
        r.surrender += o.surrender;
        r.scoop += o.scoop;
        r.sweep_all += o.sweep_all;
        Ok(())
    }
}
