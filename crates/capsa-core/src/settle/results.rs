//! What a settlement reports, and the outputs the routine hands each
//! pair's and seat's result to.

use crate::naturals::Natural;

/// One seat's result for the round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// Strengths of the submitted top, middle and bottom.
    pub strengths: [u32; 3],
    /// The royalty table value of each row's hand (0 when `royalty_mode` is
    /// none), whether or not the round paid it.
    pub royalties: [i64; 3],
    /// The seat was settled as fouled: its arrangement is invalid and it
    /// neither declared a natural nor surrendered.
    pub foul: bool,
    /// The seat was settled as surrendered: it asked to and did not declare a
    /// natural (a declared natural is settled first).
    pub surrender: bool,
    /// The declared natural and its points, if any.
    pub natural: Option<(Natural, i64)>,
    /// The seat swept all (docs/rules.md, "Sweep-all").
    pub swept_all: bool,
    pub points: i64,
    pub money: i64,
    pub rake: i64,
    /// `money - rake`.
    pub net: i64,
}

/// How a pair was settled: the first step of docs/rules.md, "Settlement", that applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PairOutcome {
    Natural,
    Surrender,
    Foul,
    #[default]
    Rows,
    /// A pair of two seats that are not the banker, in a banker game.
    Unplayed,
}

/// One pair's result, from seat `i`'s point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairResult {
    pub i: usize,
    pub j: usize,
    pub outcome: PairOutcome,
    /// +1 i won the row, -1 j won it, 0 tie (all 0 unless outcome is Rows).
    pub rows: [i8; 3],
    /// `rows` of docs/rules.md, "Step 4: rows": i's row points minus j's (0 unless Rows).
    pub row_points: i64,
    /// The overall point, signed (0 unless Rows).
    pub overall: i64,
    /// Rows: `roy`, i's royalties minus j's. Foul: the royalties the fouled
    /// seat pays, signed from i's view. Both before any multiplier.
    pub royalties: i64,
    /// +1 i won all three rows (or collected a foul), -1 j did, 0 neither.
    pub scoop: i8,
    /// The multiplier in force came from `sweep_all` (a sweep-all scoop, a
    /// foul in foul mode `sweep-all`, a `scoop`-mode foul collected by a seat
    /// that swept all, a `fixed`-mode foul whose royalties were multiplied
    /// at the sweep-all rate).
    pub sweep_all: bool,
    /// The multiplier applied (1 when none).
    pub multiplier: i64,
    /// The scoop, sweep-all or foul bonus, signed from i's view.
    pub bonus: i64,
    /// Step 1's points: what the first of naturals, surrender, fouls and
    /// rows that applied settles (docs/rules.md, "A pair's terms").
    pub base: i64,
    /// i's bonus natural's points minus j's (0 when neither has one).
    pub natural_bonus: i64,
    /// The cap that bound the points (0 when none did).
    pub cap: i64,
    /// The horse card's multiplier applied (1 when none).
    pub horse: i64,
    /// The non-banker seat's multiplier in a banker game (1 otherwise).
    pub seat_multiplier: i64,
    /// What i collects from j (negative: i pays).
    pub points: i64,
    pub stake: i64,
    /// `points * stake`.
    pub money: i64,
}

impl PairResult {
    /// Whether a term after the base is not neutral: a bonus natural, a
    /// cap that bound, the horse card or a seat's multiplier. A pair
    /// without one has `points == base`, and its record leaves the terms
    /// out.
    pub fn has_terms(&self) -> bool {
        self.natural_bonus != 0 || self.cap != 0 || self.horse != 1 || self.seat_multiplier != 1
    }
}

/// The whole settlement of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub seats: Vec<SeatResult>,
    pub pairs: Vec<PairResult>,
}

/// Where the core writes a round's results: every figure for [`settle`],
/// only each seat's points and money for [`settle_points`]. The core is
/// generic over it, so the batch path drops what it does not keep.
pub(super) trait Out {
    fn pair(&mut self, p: PairResult);
    fn seat(&mut self, s: usize, r: SeatResult);
    /// Forgets what a pass that stopped part-way wrote.
    fn clear(&mut self);
}

pub(super) struct Full(pub(super) Settlement);

impl Out for Full {
    #[inline(always)]
    fn pair(&mut self, p: PairResult) {
        self.0.pairs.push(p);
    }
    #[inline(always)]
    fn seat(&mut self, _s: usize, r: SeatResult) {
        self.0.seats.push(r);
    }
    fn clear(&mut self) {
        self.0.pairs.clear();
        self.0.seats.clear();
    }
}

pub(super) struct Totals<'a> {
    pub(super) points: &'a mut [i64],
    pub(super) money: &'a mut [i64],
}

impl Out for Totals<'_> {
    #[inline(always)]
    fn pair(&mut self, _p: PairResult) {}
    #[inline(always)]
    fn seat(&mut self, s: usize, r: SeatResult) {
        self.points[s] = r.points;
        self.money[s] = r.money;
    }
    // seats are written only once the whole round is settled
    fn clear(&mut self) {}
}

/// What analytics keep of a seat's round besides its figures: how it was
/// settled (docs/rules.md, "Settlement") and how many scoops it won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatOutcome {
    /// Settled as fouled (see [`SeatResult::foul`]).
    pub foul: bool,
    /// Settled as surrendered (see [`SeatResult::surrender`]).
    pub surrender: bool,
    /// The declared natural it was settled with.
    pub natural: Option<Natural>,
    /// Swept all (docs/rules.md, "Sweep-all").
    pub swept_all: bool,
    /// The opponents it won all three rows against (a scoop of the rule
    /// text: three rows won outright; a foul collected is not one).
    pub scoops: u8,
}

/// Each seat's points and money, as [`Totals`], and its [`SeatOutcome`].
pub(super) struct TotalsAndOutcomes<'a> {
    pub(super) points: &'a mut [i64],
    pub(super) money: &'a mut [i64],
    pub(super) outcomes: &'a mut [SeatOutcome],
}

impl Out for TotalsAndOutcomes<'_> {
    #[inline(always)]
    fn pair(&mut self, p: PairResult) {
        if p.outcome == PairOutcome::Rows {
            let winner = match p.scoop {
                1 => Some(p.i),
                -1 => Some(p.j),
                _ => None,
            };
            if let Some(w) = winner {
                self.outcomes[w].scoops += 1;
            }
        }
    }
    #[inline(always)]
    fn seat(&mut self, s: usize, r: SeatResult) {
        self.points[s] = r.points;
        self.money[s] = r.money;
        let scoops = self.outcomes[s].scoops;
        self.outcomes[s] = SeatOutcome {
            foul: r.foul,
            surrender: r.surrender,
            natural: r.natural.map(|(n, _)| n),
            swept_all: r.swept_all,
            scoops,
        };
    }
    // the scoops counted by a pass that stopped part-way
    fn clear(&mut self) {
        self.outcomes.fill(SeatOutcome::default());
    }
}
