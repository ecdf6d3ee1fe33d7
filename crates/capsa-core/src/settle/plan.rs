//! What a table's rules decide once, before any seat is looked at: the
//! scoop multiplier, the banker, the caps, and whether a pair's points go
//! through the terms after its base at all (docs/rules.md, "Settlement").
//! Under rules whose new knobs are at their defaults, `terms` is false and
//! a pair is paid its base with no further step.

use super::inputs::SeatInput;
use crate::rules::{CapStage, NaturalOpponents, Rules};

/// The per-table decisions of a settlement.
#[derive(Clone, Copy)]
pub(super) struct Plan {
    /// A scoop's multiplier: `scoop.multiplier`, or P with `scoop.by_seats`.
    pub(super) scoop_m: i64,
    /// The banker seat's bit (0 outside a banker game).
    pub(super) banker: u8,
    /// The seats that may sweep all: the banker in a banker game, else all.
    pub(super) may_sweep: u8,
    /// The seats a tied row counts as won by (the banker with
    /// `banker.wins_ties`).
    pub(super) wins_ties: u8,
    /// Opponents with a declared natural are left out of the sweep-all test.
    pub(super) exempt: bool,
    /// Some step after the base can change a pair's points: a cap, the
    /// horse card, a seat's multiplier or a bonus natural.
    pub(super) terms: bool,
    /// The cap of a pair without a scoop, with a scoop, with a sweep-all
    /// (each after its fallback; 0: no cap).
    pub(super) caps: [i64; 3],
    /// The cap applies after the horse card and the seat's multiplier.
    pub(super) cap_final: bool,
}

impl Plan {
    /// The plan of a table of `seats` (checked) under `rules`; `bonus`
    /// says whether the rules have a bonus natural.
    #[inline(always)]
    pub(super) fn new(rules: &Rules, seats: &[SeatInput], bonus: bool) -> Plan {
        let n = seats.len();
        let all = ((1u16 << n) - 1) as u8;
        let mut banker = 0u8;
        if rules.banker_enabled {
            for (s, seat) in seats.iter().enumerate() {
                banker |= (seat.banker as u8) << s;
            }
        }
        let scoop = if rules.cap_scoop != 0 {
            rules.cap_scoop
        } else {
            rules.cap_pair
        };
        let sweep = if rules.cap_sweep_all != 0 {
            rules.cap_sweep_all
        } else {
            scoop
        };
        let caps = [rules.cap_pair, scoop, sweep];
        Plan {
            scoop_m: if rules.scoop_by_seats {
                n as i64
            } else {
                rules.scoop_multiplier
            },
            banker,
            may_sweep: if rules.banker_enabled { banker } else { all },
            wins_ties: if rules.banker_wins_ties { banker } else { 0 },
            exempt: rules.sweep_all_natural_opponents == NaturalOpponents::Exempt,
            terms: caps != [0; 3] || rules.horse_card.is_some() || rules.banker_enabled || bonus,
            caps,
            cap_final: rules.cap_stage == CapStage::Final,
        }
    }

    /// The plan of a plain table ([`plain_table`]): what [`Plan::new`]
    /// gives it, with every house term known to be off, so that a
    /// settlement made for plain tables carries none of their steps.
    #[inline(always)]
    pub(super) fn plain(rules: &Rules, n: usize) -> Plan {
        Plan {
            scoop_m: rules.scoop_multiplier,
            banker: 0,
            may_sweep: ((1u16 << n) - 1) as u8,
            wins_ties: 0,
            exempt: false,
            terms: false,
            caps: [0; 3],
            cap_final: rules.cap_stage == CapStage::Final,
        }
    }

    /// Whether the pair (i, j) is played: every pair outside a banker game,
    /// the banker's pairs in one.
    #[inline(always)]
    pub(super) fn played(&self, i: usize, j: usize) -> bool {
        self.banker == 0 || self.banker & ((1 << i) | (1 << j)) != 0
    }
}

/// Whether a table plays none of the house terms (no banker, horse card,
/// cap, scoop by seats, exempt natural opponents or bonus natural; every
/// seat's multiplier 1): then [`Plan::plain`] is its plan.
#[inline(always)]
pub(super) fn plain_table(rules: &Rules, seats: &[SeatInput], bonus: bool) -> bool {
    !rules.banker_enabled
        & rules.horse_card.is_none()
        & (rules.cap_pair | rules.cap_scoop | rules.cap_sweep_all == 0)
        & !rules.scoop_by_seats
        & (rules.sweep_all_natural_opponents == NaturalOpponents::Block)
        & !bonus
        & seats.iter().all(|s| !s.banker & (s.multiplier == 1))
}
