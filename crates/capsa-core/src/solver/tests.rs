use super::*;
use crate::deal::{shuffled_deck, ChaCha20};
use crate::rules::{Rules, TOP};
use crate::splits::{self, SUBSETS3};
use crate::test_support::strict_foul_check;

/// Every strategy; the output fingerprint hashes their choices in this order.
const STRATEGIES: [Strategy; 4] = [
    Strategy::Solver,
    Strategy::Separable,
    Strategy::Greedy,
    Strategy::Random,
];

/// `n` seeded hands: the first 13 cards of deck `i` of `seed`'s stream.
pub(super) fn hands(n: usize, seed: u64) -> Vec<[u8; 13]> {
    (0..n)
        .map(|i| {
            let d = shuffled_deck(&mut ChaCha20::from_seed(deal_seed(seed, i as u64)));
            d[..13].try_into().unwrap()
        })
        .collect()
}

fn check_valid(rules: &Rules, a: &[u8; 13]) {
    let e = &rules.evaluator;
    let t = e.eval3([a[0], a[1], a[2]]);
    let m = e.eval5(a[3..8].try_into().unwrap());
    let b = e.eval5(a[8..].try_into().unwrap());
    assert!(splits::is_valid(t, m, b, rules.foul_strict), "{a:?} fouls");
}

/// FNV-1a over 64-bit words.
fn mix_word(h: u64, word: u64) -> u64 {
    (h ^ word).wrapping_mul(0x100_0000_01b3)
}

fn mix_choice(h: u64, c: &Choice) -> u64 {
    let h = c.cards.iter().fold(h, |h, &x| mix_word(h, x as u64));
    let h = mix_word(h, c.declare_natural as u64);
    mix_word(h, c.expected_points.to_bits())
}

/// Every choice the strategies make on seeded deals, under each preset's
/// shipped tables and a few rules variants, hashed into one number: the
/// solver's output does not change unless this value is changed too.
#[test]
fn solver_output_fingerprint() {
    let deals: Vec<[u8; 13]> = (0..500u64)
        .flat_map(|seed| crate::deal::deal(4, Some(seed)).unwrap())
        .collect();
    let strict = strict_foul_check(Rules::default());
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    // the tables of the first six presets, in the order this fingerprint was
    // taken in
    for name in [
        "capsa-susun",
        "pagat",
        "2-4",
        "1-6",
        "mau-binh",
        "hawaiian-gardens",
    ] {
        let tables = Tables::preset(name).unwrap();
        let a = Arranger::new(Strategy::Solver, &Rules::default(), tables, 4).unwrap();
        for d in &deals {
            h = mix_choice(h, &a.choose(d).unwrap());
        }
        for d in &deals[..50] {
            for c in a.solver().rank(d, 5).unwrap() {
                h = mix_choice(h, &c);
            }
        }
    }
    for (rules, seats) in [(Rules::default(), 2), (Rules::default(), 3), (strict, 2)] {
        for strategy in STRATEGIES {
            let a = arranger(&rules, None, seats, strategy).unwrap();
            for d in &deals[..400] {
                h = mix_choice(h, &a.choose(d).unwrap());
            }
        }
    }
    assert_eq!(
        h, 0xe6e1_294f_1e16_fd14,
        "solver output fingerprint {h:#018x}"
    );
}

#[test]
fn every_shipped_and_trained_table_round_trips() {
    for name in shipped_presets() {
        let t = Tables::preset(name).unwrap();
        assert_eq!(&Tables::from_bytes(&t.to_bytes()).unwrap(), t, "{name}");
    }
    let cfg = TrainConfig {
        hands: 400,
        iterations: 1,
        name: "tiny.trained-1".into(),
        ..TrainConfig::default()
    };
    let t = train(&Rules::default(), &cfg).unwrap();
    assert_eq!(Tables::from_bytes(&t.to_bytes()).unwrap(), t);
}

#[test]
fn solver_refuses_invalid_tables_built_in_rust() {
    let mut t = Tables::preset("pagat").unwrap().clone();
    t.rows[TOP][0].1 = f64::NAN;
    let e = Solver::new(&Rules::default(), &t, 4).err().unwrap();
    assert!(e.message().contains("row top: entry 0: weight NaN"), "{e}");
    assert_eq!(e.row(), Some("top"));
    t.rows[TOP][0].1 = 1.0;
    let scoop_rate = t.meta.iter_mut().find(|(k, _)| k == "scoop_rate").unwrap();
    scoop_rate.1 = "inf".into();
    assert!(arranger(&Rules::default(), Some(&t), 4, Strategy::Solver).is_err());
}

#[test]
fn training_settings_are_validated() {
    let rules = Rules::default();
    let bad_name = TrainConfig {
        name: "x\nscoop_rate=inf".into(),
        ..TrainConfig::default()
    };
    let e = train(&rules, &bad_name).unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Rules);
    assert!(e.message().contains("name \"x\\nscoop_rate=inf\""), "{e}");
    for (cfg, key) in [
        (
            TrainConfig {
                hands: 0,
                ..TrainConfig::default()
            },
            "hands",
        ),
        (
            TrainConfig {
                hands: usize::MAX,
                ..TrainConfig::default()
            },
            "hands",
        ),
        (
            TrainConfig {
                iterations: 1000,
                ..TrainConfig::default()
            },
            "iterations",
        ),
    ] {
        let e = train(&rules, &cfg).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Argument);
        assert!(e.message().contains(key), "{e}");
    }
    let too_many_seats = TrainConfig {
        seats: 9,
        ..TrainConfig::default()
    };
    let e = train(&rules, &too_many_seats).unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Table);
    assert_eq!(e.message(), "seats: a table has 2 to 4 seats, got 9");
}

#[test]
fn extreme_requests_and_rules_do_not_panic() {
    let h = hands(1, 9).remove(0);
    let a = arranger(&Rules::default(), None, 4, Strategy::Solver).unwrap();
    let all = a.solver().rank(&h, 1 << 40).unwrap();
    assert!(!all.is_empty() && all.len() <= SUBSETS3 * 126 + 1);
    // scores beyond f32: the fast scan still keeps valid splits
    let huge = Rules {
        row_points: i64::MAX,
        overall_point: i64::MAX,
        scoop_multiplier: i64::MAX,
        scoop_bonus: i64::MAX,
        sweep_all_multiplier: i64::MAX,
        sweep_all_bonus: 0,
        ..Rules::default()
    };
    let zero = Rules {
        row_points: 0,
        overall_point: 0,
        royalties: [[0; 10]; 3],
        scoop_multiplier: 1,
        sweep_all_multiplier: 1,
        naturals: Vec::new(),
        ..Rules::default()
    };
    for rules in [huge, zero] {
        for strategy in [Strategy::Solver, Strategy::Greedy, Strategy::Random] {
            let a = arranger(&rules, None, 4, strategy).unwrap();
            check_valid(&rules, &a.choose(&h).unwrap().cards);
        }
        let r = arranger(&rules, None, 3, Strategy::Solver).unwrap();
        assert_eq!(r.solver().rank(&h, 3).unwrap().len(), 3);
    }
}

#[test]
fn solver_never_fouls_and_is_deterministic() {
    let rules = Rules::default();
    for strategy in STRATEGIES {
        let a = arranger(&rules, None, 4, strategy).unwrap();
        for h in hands(200, 5) {
            let c = a.choose(&h).unwrap();
            check_valid(&rules, &c.cards);
            let mut x = c.cards.to_vec();
            x.sort_unstable();
            let mut y = h.to_vec();
            y.sort_unstable();
            assert_eq!(x, y);
            assert_eq!(a.choose(&h).unwrap(), c);
        }
    }
}

#[test]
fn strict_rules_never_foul() {
    let rules = strict_foul_check(Rules::default());
    let a = arranger(&rules, None, 2, Strategy::Solver).unwrap();
    let g = arranger(&rules, None, 2, Strategy::Greedy).unwrap();
    for h in hands(200, 6) {
        check_valid(&rules, &a.choose(&h).unwrap().cards);
        check_valid(&rules, &g.choose(&h).unwrap().cards);
    }
}

#[test]
fn rank_is_sorted_and_consistent() {
    let rules = Rules::default();
    let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
    for h in hands(50, 7) {
        let r = a.solver().rank(&h, 8).unwrap();
        assert!(!r.is_empty());
        assert!(r
            .windows(2)
            .all(|w| w[0].expected_points >= w[1].expected_points));
        let b = a.solver().best(&h).unwrap();
        assert_eq!(r[0].cards, b.cards);
        assert!((r[0].expected_points - b.expected_points).abs() < 1e-9);
        for c in &r {
            check_valid(&rules, &c.cards);
            if !c.declare_natural {
                let v = a.solver().value_of(&c.cards).unwrap();
                assert!((v - c.expected_points).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn dragon_is_declared() {
    let rules = Rules::default();
    let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
    let dragon: Vec<u8> = (0..13).map(|r| 4 * r + (r % 4)).collect();
    let c = a.choose(&dragon).unwrap();
    assert!(c.declare_natural);
    assert!((c.expected_points - 3.0 * 208.0).abs() < 1e-9);
    // no naturals enabled: nothing declared
    let mut none = rules.clone();
    none.naturals.clear();
    let b = arranger(&none, None, 4, Strategy::Solver).unwrap();
    assert!(!b.choose(&dragon).unwrap().declare_natural);
}

#[test]
fn exact_value_matches_brute_force() {
    // Exact 27-pattern value against enumeration of a discrete opponent.
    let rules = Rules {
        overall_point: 1,
        scoop_bonus: 3,
        scoop_multiply_royalties: true,
        ..Rules::default()
    };
    let s = Solver::new(&rules, Tables::preset("capsa-susun").unwrap(), 2).unwrap();
    let outs = [
        RowOutcome {
            prob: [0.5, 0.1, 0.4],
            points: [0.5, 0.0, -0.4],
            royalty: [0.0, 0.0, -0.2],
        },
        RowOutcome {
            prob: [0.3, 0.2, 0.5],
            points: [0.3, 0.0, -0.5],
            royalty: [0.3, 0.0, 0.0],
        },
        RowOutcome {
            prob: [0.7, 0.0, 0.3],
            points: [0.7, 0.0, -0.3],
            royalty: [0.0, 0.0, -0.6],
        },
    ];
    let got = s.exact_value(&outs);
    // brute force over conditional expectations
    let mut want = 0.0;
    for o0 in 0..3 {
        for o1 in 0..3 {
            for o2 in 0..3 {
                let o = [o0, o1, o2];
                let p: f64 = (0..3).map(|r| outs[r].prob[o[r]]).product();
                if p == 0.0 {
                    continue;
                }
                let rows: f64 = (0..3)
                    .map(|r| outs[r].points[o[r]] / outs[r].prob[o[r]])
                    .sum();
                let roy: f64 = (0..3)
                    .map(|r| outs[r].royalty[o[r]] / outs[r].prob[o[r]])
                    .sum();
                let w = o.iter().filter(|&&x| x == 0).count();
                let l = o.iter().filter(|&&x| x == 2).count();
                let ov = (w as f64 - l as f64).signum() * if w == l { 0.0 } else { 1.0 };
                let v = if w == 3 {
                    (rows + ov) * 2.0 + 3.0 + roy * 2.0
                } else if l == 3 {
                    (rows + ov) * 2.0 - 3.0 + roy * 2.0
                } else {
                    rows + ov + roy
                };
                want += p * v;
            }
        }
    }
    assert!((got - want).abs() < 1e-12, "{got} vs {want}");
}

#[test]
fn solver_value_beats_greedy_value() {
    // the solver's pick has the best model value among what it compares
    let rules = Rules::default();
    let a = arranger(&rules, None, 4, Strategy::Solver).unwrap();
    let g = arranger(&rules, None, 4, Strategy::Greedy).unwrap();
    for h in hands(100, 8) {
        let sv = a.choose(&h).unwrap();
        let gv = g.choose(&h).unwrap();
        if !sv.declare_natural {
            assert!(sv.expected_points >= gv.expected_points - 1e-9);
        }
    }
}

/// The strength of a three-card top row.
fn top_strength(rules: &Rules, cards: [&str; 3]) -> u32 {
    let ids = cards.map(|c| crate::cards::parse_token(c).unwrap());
    rules.evaluator.eval3(ids)
}

#[test]
fn ranked_royalties_enter_the_model_per_rank() {
    // a pair of aces on top pays 5 under the ranked table, a pair of kings
    // nothing: the expected royalty of winning with each follows
    let mut rules = Rules::default();
    rules.royalties_by_rank[TOP][1][12] = Some(5);
    rules.index_ranked_royalties();
    let s = Solver::new(&rules, Tables::preset("capsa-susun").unwrap(), 2).unwrap();
    let aces = s.row_outcome(TOP, top_strength(&rules, ["Ah", "Ad", "2c"]));
    let kings = s.row_outcome(TOP, top_strength(&rules, ["Kh", "Kd", "2c"]));
    assert!((aces.royalty[0] - 5.0 * aces.prob[0]).abs() < 1e-12);
    assert_eq!(kings.royalty[0], 0.0);
    // and an opponent's aces cost the kings when they lose (its class
    // carries the ranked royalty): more than under the plain table
    let plain = Solver::new(&Rules::default(), Tables::preset("capsa-susun").unwrap(), 2).unwrap();
    let kings_plain = plain.row_outcome(TOP, top_strength(&rules, ["Kh", "Kd", "2c"]));
    assert!(kings.royalty[2] < kings_plain.royalty[2] - 1e-6);
}

#[test]
fn a_banker_who_wins_ties_turns_a_players_ties_into_losses() {
    let tables = Tables::preset("shisanshui").unwrap();
    let mut open = Rules {
        banker_enabled: true,
        ..Rules::default()
    };
    // equal hands tie (no suit tie-break)
    open.set_knob("tie_break", crate::rules::KnobValue::Text("none".into()))
        .unwrap();
    let ties = Rules {
        banker_wins_ties: true,
        ..open.clone()
    };
    let cards = ["7h", "7d", "2c"];
    let a = Solver::new(&open, tables, 4).unwrap();
    let b = Solver::new(&ties, tables, 4).unwrap();
    let oa = a.row_outcome(TOP, top_strength(&open, cards));
    let ob = b.row_outcome(TOP, top_strength(&ties, cards));
    assert!(oa.prob[1] > 0.0);
    assert_eq!(ob.prob[1], 0.0);
    assert!((ob.prob[2] - (oa.prob[2] + oa.prob[1])).abs() < 1e-12);
    assert_eq!(ob.prob[0], oa.prob[0]);
    // a player settles against the banker alone: a natural is worth its
    // points once, not once per other seat
    assert_eq!(a.opponents(), 1.0);
}

#[test]
fn a_cap_bounds_the_value_and_scoop_by_seats_raises_it() {
    let tables = Tables::preset("capsa-susun").unwrap();
    let sure = RowOutcome {
        prob: [1.0, 0.0, 0.0],
        points: [1.0, 0.0, 0.0],
        royalty: [6.0, 0.0, 0.0],
    };
    let rows = [sure; 3];
    let plain = Rules {
        scoop_multiplier: 2,
        sweep_all_min_players: 5,
        ..Rules::default()
    };
    let v = |r: &Rules, seats| Solver::new(r, tables, seats).unwrap().exact_value(&rows);
    let uncapped = v(&plain, 2);
    assert!(uncapped > 8.0);
    let capped = Rules {
        cap_pair: 8,
        ..plain.clone()
    };
    assert!((v(&capped, 2) - 8.0).abs() < 1e-12);
    let by_seats = Rules {
        scoop_by_seats: true,
        ..plain.clone()
    };
    // the multiplier is the number of players: 4 at a table of four
    assert!(v(&by_seats, 4) > v(&plain, 4));
}

/// Rules of a deck with copies or jokers: the default rules with the
/// deck's knobs changed.
fn rules_of_deck(added_suits: u8, decks: i64, jokers: i64) -> Rules {
    let mut rules = Rules::default();
    rules.deck.added_suits = added_suits;
    rules.deck.decks = decks;
    rules.deck.jokers = jokers;
    rules
}

/// `n` seeded hands of the rules' deck: the first 13 cards of each deal.
fn deck_hands(rules: &Rules, n: usize, seed: u64) -> Vec<[u8; 13]> {
    (0..n)
        .map(|i| {
            let mut rng = ChaCha20::from_seed(deal_seed(seed, i as u64));
            let d = crate::deal::shuffled_ids(&rules.deck, &mut rng);
            d[..13].try_into().unwrap()
        })
        .collect()
}

/// Under decks with copies and jokers, at every table size the deck
/// seats, each strategy lays out the hand's own cards, never fouls as the
/// deck's evaluator ranks the rows, is deterministic, and the solver's
/// pick is worth at least greedy's in its own model.
#[test]
fn the_solver_plays_decks_with_copies_and_jokers() {
    for (rules, seats) in [
        (rules_of_deck(0b0010, 1, 0), 5),
        (rules_of_deck(0b0110, 1, 0), 6),
        (rules_of_deck(0, 1, 2), 4),
        (rules_of_deck(0, 2, 2), 8),
    ] {
        let solver = arranger(&rules, None, seats, Strategy::Solver).unwrap();
        let greedy = arranger(&rules, None, seats, Strategy::Greedy).unwrap();
        for h in deck_hands(&rules, 60, seats as u64) {
            let c = solver.choose(&h).unwrap();
            assert!(!crate::hands::fouls(&rules, &c.cards), "{h:?} fouls");
            let (mut x, mut y) = (c.cards.to_vec(), h.to_vec());
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y);
            assert_eq!(solver.choose(&h).unwrap(), c);
            let g = greedy.choose(&h).unwrap();
            if !c.declare_natural {
                assert!(c.expected_points >= g.expected_points - 1e-9);
            }
        }
        assert!(arranger(&rules, None, seats + 1, Strategy::Solver).is_err());
    }
}

/// The deep mode samples opponents from the rules' deck: one per other
/// seat at a table of more than four, none of them holding the hand's
/// cards, and never fouls.
#[test]
fn the_deep_mode_plays_a_six_seat_table_of_added_suits() {
    let rules = rules_of_deck(0b0110, 1, 0);
    let solver = Solver::new(&rules, Tables::nearest(&rules), 6).unwrap();
    let cfg = DeepConfig {
        deals: 6,
        ..DeepConfig::default()
    };
    for h in deck_hands(&rules, 4, 9) {
        let c = solver.best_deep(&h, &cfg).unwrap();
        assert!(!crate::hands::fouls(&rules, &c.cards));
        assert_eq!(solver.best_deep(&h, &cfg).unwrap(), c);
    }
}
