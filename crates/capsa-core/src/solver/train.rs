//! Training: tables computed by iterated best response.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::baselines::{Arranger, Strategy};
use super::classes::CLASS_SHIFT;
use super::joint::{bin_of, Joint, Percentiles, JOINT_BINS};
use super::tables::{check_tables_name, rules_meta, Tables, MAX_TRAIN_HANDS, MAX_TRAIN_ITERATIONS};
use crate::deal::{shuffled_ids, ChaCha20};
use crate::error::{Error, Result};
use crate::hands;
use crate::rules::Rules;
use crate::table::{check_table_seats, most_seats};

/// The version of the training procedure, written into every tables file
/// as `trainer`. Any change to the code that changes what [`train`] computes
/// from the same rules and config (the solver's search and model, the
/// deals, the mixing) bumps it, and the shipped tables are regenerated:
/// the `training_fingerprint` test pins the output of a small training
/// beside this number, so such a change cannot pass unnoticed.
pub const TRAINER_VERSION: u32 = 3;

/// Seed of deal `i` of a seeded run (independent of the thread count).
pub fn deal_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i.wrapping_add(1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

type Counts = ([HashMap<u32, u64>; 3], u64, u64);

/// The row strengths (top, middle, bottom) of every seat of a deal.
pub(super) type DealRows = [[u32; 3]];

/// How far a training has come, for a caller that reports it: the deals
/// arranged so far (of [`train_deals`]), and a flag that stops the training
/// before its next chunk of deals (it then returns an error).
#[derive(Debug, Default)]
pub struct TrainProgress {
    /// Deals arranged so far.
    pub done: AtomicUsize,
    /// Set to stop the training.
    pub stop: AtomicBool,
}

/// How many hands a deal of the rules' deck deals: four of the 52-card
/// deck, as many as the deck seats otherwise.
fn hands_per_deal(rules: &Rules) -> usize {
    most_seats(&rules.deck)
}

/// Deals `deals` deals of the rules' deck from the `seed` stream (each
/// [`hands_per_deal`] hands), arranges every hand with `arr` and folds
/// each deal's row strengths into a per-chunk `T` (from `new`, by `add`),
/// on all cores; the chunks' results in deal order, so the outcome never
/// depends on the thread count.
pub(super) fn fold_arranged_deals<T: Send>(
    arr: &Arranger,
    (deals, seed): (usize, u64),
    progress: &TrainProgress,
    new: impl Fn() -> T + Sync,
    add: impl Fn(&mut T, &DealRows) + Sync,
) -> Result<Vec<T>> {
    let rules = &arr.solver.rules;
    let hands = hands_per_deal(rules);
    let chunks: Vec<std::ops::Range<usize>> = (0..deals)
        .step_by(256)
        .map(|s| s..(s + 256).min(deals))
        .collect();
    chunks
        .into_par_iter()
        .map(|range| {
            if progress.stop.load(Ordering::Relaxed) {
                return Err(Error::argument("the training was stopped"));
            }
            let mut acc = new();
            let mut rows = vec![[0u32; 3]; hands];
            let count = range.len();
            for d in range {
                let mut rng = ChaCha20::from_seed(deal_seed(seed, d as u64));
                let deck = shuffled_ids(&rules.deck, &mut rng);
                for (r, hand) in rows.iter_mut().zip(deck.chunks_exact(13)) {
                    *r = hands::row_strengths(rules, &arr.choose(hand)?.cards);
                }
                add(&mut acc, &rows);
            }
            progress.done.fetch_add(count, Ordering::Relaxed);
            Ok(acc)
        })
        .collect()
}

/// The joint counts of `deals` deals arranged by `arr`, each row
/// placed in the distributions `rows` (the tables `arr` plays with).
fn count_joint(
    arr: &Arranger,
    rows: &[Vec<(u32, f64)>; 3],
    deals: (usize, u64),
    progress: &TrainProgress,
) -> Result<Joint> {
    let pct: [Percentiles; 3] = std::array::from_fn(|r| Percentiles::new(&rows[r]));
    let bins = JOINT_BINS;
    let parts = fold_arranged_deals(
        arr,
        deals,
        progress,
        || vec![0u64; bins.pow(3)],
        |cells, deal| {
            for s in deal {
                let b: [usize; 3] =
                    std::array::from_fn(|r| bin_of(pct[r].of(s[r] >> CLASS_SHIFT), bins));
                cells[(b[0] * bins + b[1]) * bins + b[2]] += 1;
            }
        },
    )?;
    let mut cells = vec![0u64; bins.pow(3)];
    for p in parts {
        for (c, v) in cells.iter_mut().zip(p) {
            *c += v;
        }
    }
    Ok(Joint { bins, cells })
}

/// Row classes of `deals` deals arranged by `arr`, and the number of
/// scoops among the pairs (seat 0 vs 1, 2 vs 3, and so on) and of pairs.
fn count_rows(arr: &Arranger, deals: (usize, u64), progress: &TrainProgress) -> Result<Counts> {
    let parts = fold_arranged_deals(arr, deals, progress, Counts::default, |c, rows| {
        for r in rows {
            for (map, s) in c.0.iter_mut().zip(r.iter()) {
                *map.entry(s >> CLASS_SHIFT).or_insert(0) += 1;
            }
        }
        for pair in rows.chunks_exact(2) {
            let (x, y) = (pair[0], pair[1]);
            let w = (0..3).filter(|&k| x[k] > y[k]).count();
            let l = (0..3).filter(|&k| x[k] < y[k]).count();
            c.1 += (w == 3) as u64 + (l == 3) as u64;
            c.2 += 2;
        }
    })?;
    let mut total: Counts = Default::default();
    for p in parts {
        for row in 0..3 {
            for (k, v) in &p.0[row] {
                *total.0[row].entry(*k).or_insert(0) += v;
            }
        }
        total.1 += p.1;
        total.2 += p.2;
    }
    Ok(total)
}

fn counts_to_rows(c: &Counts) -> [Vec<(u32, f64)>; 3] {
    std::array::from_fn(|row| {
        let mut v: Vec<(u32, f64)> = c.0[row].iter().map(|(&k, &n)| (k, n as f64)).collect();
        v.sort_unstable_by_key(|x| x.0);
        v
    })
}

/// Settings of [`train`].
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hands per iteration (dealt as many to a deck as it seats: four of
    /// the 52-card deck).
    pub hands: usize,
    /// Best-response iterations after the greedy start.
    pub iterations: usize,
    pub seed: u64,
    /// The table size the opponents play for (the sweep-all terms).
    pub seats: usize,
    /// Name written into the tables' metadata.
    pub name: String,
}

impl TrainConfig {
    /// Checks the name ([`check_tables_name`]: a `RulesError`), the table
    /// size under the rules' deck ([`check_table_seats`]: a `TableError`,
    /// as for every seat count) and the ranges of the training sizes (an
    /// `ArgumentError`).
    pub fn validate(&self, rules: &Rules) -> Result<()> {
        check_tables_name(&self.name)?;
        check_table_seats(&rules.deck, self.seats).map_err(|e| e.context("seats"))?;
        let ranges = [
            ("hands", self.hands, 1, MAX_TRAIN_HANDS),
            ("iterations", self.iterations, 0, MAX_TRAIN_ITERATIONS),
        ];
        for (key, v, lo, hi) in ranges {
            if !(lo..=hi).contains(&v) {
                return Err(Error::argument(format!(
                    "training {key} must be {lo} to {hi}, got {v}"
                )));
            }
        }
        Ok(())
    }
}

/// The defaults of every training entry point (the API, the command line):
/// the parameters the shipped tables are trained with.
pub const DEFAULT_TRAIN_HANDS: usize = 200_000;
pub const DEFAULT_TRAIN_ITERATIONS: usize = 16;
pub const DEFAULT_TRAIN_SEED: u64 = 1;
pub const DEFAULT_TRAIN_SEATS: usize = 4;

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hands: DEFAULT_TRAIN_HANDS,
            iterations: DEFAULT_TRAIN_ITERATIONS,
            seed: DEFAULT_TRAIN_SEED,
            seats: DEFAULT_TRAIN_SEATS,
            name: "custom".into(),
        }
    }
}

/// Computes tables for `rules` by iterated best response: the opponents'
/// row distributions of greedy play, then repeatedly of the solver playing
/// against the current tables; each new estimate is averaged with the
/// previous tables (weights 1/2) to damp oscillation. A last round of
/// fresh deals against the final tables counts the copula of the rows
/// (the `joint` module). Every iteration deals
/// fresh hands; the result depends only on the rules and the config (and
/// [`TRAINER_VERSION`]), never on the tables shipped today: greedy play
/// consults no tables.
pub fn train(rules: &Rules, cfg: &TrainConfig) -> Result<Tables> {
    train_with(rules, cfg, &TrainProgress::default())
}

/// The deals a training arranges in all: a greedy round, `iterations`
/// rounds against the tables, and the round that counts the copula.
pub fn train_deals(rules: &Rules, cfg: &TrainConfig) -> usize {
    cfg.hands.div_ceil(hands_per_deal(rules)).max(1) * (cfg.iterations + 2)
}

/// [`train`], counting its deals in `progress` as it goes and stopping when
/// told to.
pub fn train_with(rules: &Rules, cfg: &TrainConfig, progress: &TrainProgress) -> Result<Tables> {
    cfg.validate(rules)?;
    let per_deal = hands_per_deal(rules);
    let deals = cfg.hands.div_ceil(per_deal).max(1);
    let greedy = Arranger::new(Strategy::Greedy, rules, Tables::nearest(rules), cfg.seats)?;
    let c = count_rows(&greedy, (deals, deal_seed(cfg.seed, 0)), progress)?;
    let mut rows = counts_to_rows(&c);
    let mut scoop_rate = c.1 as f64 / c.2.max(1) as f64;
    let make = |rows: &[Vec<(u32, f64)>; 3], scoop_rate: f64, iters: usize| {
        let mut meta = vec![
            ("format".to_string(), "1".to_string()),
            ("trainer".to_string(), TRAINER_VERSION.to_string()),
            ("preset".to_string(), cfg.name.clone()),
            ("seats".to_string(), cfg.seats.to_string()),
            ("hands".to_string(), (deals * per_deal).to_string()),
            ("iterations".to_string(), iters.to_string()),
            ("seed".to_string(), cfg.seed.to_string()),
            ("scoop_rate".to_string(), format!("{scoop_rate:.6}")),
        ];
        meta.extend(rules_meta(rules));
        Tables {
            meta,
            rows: rows.clone(),
            joint: None,
        }
    };
    for it in 0..cfg.iterations {
        let tables = make(&rows, scoop_rate, it);
        let solver = Arranger::new(Strategy::Solver, rules, &tables, cfg.seats)?;
        let c = count_rows(
            &solver,
            (deals, deal_seed(cfg.seed, it as u64 + 1)),
            progress,
        )?;
        let fresh = counts_to_rows(&c);
        rows = std::array::from_fn(|r| mix(&rows[r], &fresh[r]));
        scoop_rate = 0.5 * scoop_rate + 0.5 * c.1 as f64 / c.2.max(1) as f64;
    }
    // Whole weights, as the file stores them, so that the tables equal
    // what `from_bytes` reads back. Every class of the last estimate has a
    // weight of at least 1/2, so no row is left empty.
    let whole: [Vec<(u32, f64)>; 3] = std::array::from_fn(|r| {
        rows[r]
            .iter()
            .map(|&(c, w)| (c, w.round()))
            .filter(|&(_, w)| w > 0.0)
            .collect()
    });
    let mut tables = make(&whole, scoop_rate, cfg.iterations);
    // The copula of the final play: fresh deals arranged against the final
    // row tables, each row placed in them.
    let solver = Arranger::new(Strategy::Solver, rules, &tables, cfg.seats)?;
    let joint_seed = deal_seed(cfg.seed, cfg.iterations as u64 + 1);
    tables.joint = Some(count_joint(&solver, &whole, (deals, joint_seed), progress)?);
    tables.validate()?;
    Ok(tables)
}

fn mix(a: &[(u32, f64)], b: &[(u32, f64)]) -> Vec<(u32, f64)> {
    let ta: f64 = a.iter().map(|x| x.1).sum();
    let tb: f64 = b.iter().map(|x| x.1).sum();
    let mut m: HashMap<u32, f64> = HashMap::new();
    for &(k, w) in a {
        *m.entry(k).or_insert(0.0) += 0.5 * w * tb / ta.max(1e-300);
    }
    for &(k, w) in b {
        *m.entry(k).or_insert(0.0) += 0.5 * w;
    }
    let mut v: Vec<(u32, f64)> = m.into_iter().collect();
    v.sort_unstable_by_key(|x| x.0);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::fnv::fnv1a;
    use crate::solver::tables::shipped_presets;

    fn small(name: &str) -> TrainConfig {
        TrainConfig {
            hands: 2_000,
            iterations: 1,
            name: name.into(),
            ..TrainConfig::default()
        }
    }

    #[test]
    fn progress_counts_every_deal_and_a_stop_stops() {
        let rules = Rules::default();
        let cfg = small("progress");
        let progress = TrainProgress::default();
        let with = train_with(&rules, &cfg, &progress).unwrap();
        assert_eq!(progress.done.into_inner(), train_deals(&rules, &cfg));
        assert_eq!(with.to_bytes(), train(&rules, &cfg).unwrap().to_bytes());
        let stopped = TrainProgress::default();
        stopped.stop.store(true, Ordering::Relaxed);
        assert!(train_with(&rules, &cfg, &stopped).is_err());
        assert_eq!(stopped.done.into_inner(), 0);
    }

    /// If this fails, what training computes has changed: bump
    /// [`TRAINER_VERSION`], update the fingerprint, and regenerate the
    /// shipped tables (`python -m capsa.tables train --all --ship`).
    #[test]
    fn training_fingerprint() {
        let bytes = train(&Rules::default(), &small("fingerprint"))
            .unwrap()
            .to_bytes();
        let h = fnv1a(&bytes);
        assert_eq!(
            (TRAINER_VERSION, h),
            (3, 0x52e8_73d4_2ce4_eff3),
            "trainer {TRAINER_VERSION}, training fingerprint {h:#018x}"
        );
    }

    #[test]
    fn training_does_not_depend_on_the_thread_count() {
        let rules = Rules::default();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let alone = one.install(|| train(&rules, &small("threads")).unwrap());
        let three = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let shared = three.install(|| train(&rules, &small("threads")).unwrap());
        assert_eq!(alone.to_bytes(), shared.to_bytes());
    }

    #[test]
    fn shipped_tables_come_from_the_current_trainer() {
        for name in shipped_presets() {
            let t = Tables::preset(name).unwrap();
            assert_eq!(
                t.get("trainer"),
                Some(TRAINER_VERSION.to_string().as_str()),
                "{name}: regenerate with python -m capsa.tables train --all --ship"
            );
        }
    }
}
