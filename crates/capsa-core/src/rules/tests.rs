use super::*;
use std::fmt;

fn round_trips<T: RuleChoice + PartialEq + fmt::Debug>() {
    assert_eq!(T::ALL.len(), T::NAMES.len(), "{}", T::KEY);
    for (value, name) in T::ALL.iter().zip(T::NAMES) {
        assert_eq!(value.to_string(), *name);
        assert_eq!(name.parse::<T>().unwrap(), *value);
    }
    for unknown in ["", "bogus", "Strict", " none", "suit_first"] {
        let e = unknown.parse::<T>().unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Rules);
        let m = e.message();
        assert!(m.starts_with(T::KEY), "{m}");
        assert!(m.contains(&format!("{unknown:?}")), "{m}");
        assert!(m.contains(&T::NAMES.join(", ")), "{m}");
    }
}

#[test]
fn every_choice_round_trips_and_names_the_valid_ones() {
    round_trips::<RoyaltyMode>();
    round_trips::<FoulMode>();
    round_trips::<NaturalResolve>();
    round_trips::<NaturalTies>();
    round_trips::<TieBreak>();
    round_trips::<FlushCompare>();
    round_trips::<Wheel>();
    round_trips::<FoulCheck>();
    round_trips::<NaturalOpponents>();
    round_trips::<CapStage>();
    round_trips::<RaisedBy>();
}

#[test]
fn unknown_choice_message() {
    let e = "high".parse::<Wheel>().unwrap_err();
    assert_eq!(
        e.message(),
        "wheel must be one of low, second, got \"high\""
    );
}

#[test]
fn flags_are_the_second_name() {
    for on in [false, true] {
        assert_eq!(TieBreak::from_flag(on).flag(), on);
        assert_eq!(FlushCompare::from_flag(on).flag(), on);
        assert_eq!(Wheel::from_flag(on).flag(), on);
        assert_eq!(FoulCheck::from_flag(on).flag(), on);
    }
    assert_eq!(Wheel::from_flag(true), Wheel::Second);
    assert_eq!(FoulCheck::from_flag(true), FoulCheck::Strict);
}

#[test]
fn rule_choices_list_every_knob_once() {
    let keys: Vec<&str> = rule_choices().map(|(k, _)| k).collect();
    assert_eq!(keys.len(), 11, "{keys:?}");
    let mut unique = keys.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
}

#[test]
fn suit_strengths_are_a_permutation() {
    for bad in [[0, 1, 2, 255], [0, 0, 1, 2], [1, 2, 3, 4]] {
        let rules = Rules {
            evaluator: Evaluator::new(Ranking {
                suit_strength: bad,
                flush_suit_first: true,
                ..Ranking::default()
            }),
            ..Rules::default()
        };
        let e = rules.validate().unwrap_err();
        assert!(e.message().contains("suit strengths"), "{e}");
    }
    assert!(Rules::default().validate().is_ok());
}

#[test]
fn every_knob_of_the_table_sets_and_reads_back() {
    let rules = Rules::default();
    for k in KNOBS {
        let Some(value) = k.default.value() else {
            continue;
        };
        if matches!(k.kind, KnobType::Text) {
            assert_eq!(rules.knob(k.name), None, "{}", k.name);
            continue;
        }
        assert_eq!(rules.knob(k.name), Some(value.clone()), "{}", k.name);
        let mut again = Rules::default();
        again.set_knob(k.name, value).unwrap();
    }
    assert!(Rules::default()
        .set_knob("scoop.nope", KnobValue::Int(1))
        .is_err());
    assert!(Rules::default()
        .set_knob("wheel", KnobValue::Int(1))
        .is_err());
}

#[test]
fn knob_names_are_unique_and_dotted_under_known_tables() {
    let mut names: Vec<&str> = KNOBS.iter().map(|k| k.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), KNOBS.len());
}

#[test]
fn the_players_range_is_the_seats_and_one_past() {
    use crate::table::{MAX_TABLE_SEATS, MIN_SEATS};
    let k = knobs::knob("sweep_all.min_players").unwrap();
    assert_eq!(
        k.kind,
        KnobType::Int {
            min: MIN_SEATS as i64,
            max: MAX_TABLE_SEATS as i64 + 1
        }
    );
}

#[test]
fn validate_reads_the_table_ranges() {
    let rules = Rules {
        scoop_multiplier: 0,
        ..Rules::default()
    };
    assert_eq!(
        rules.validate().unwrap_err().message(),
        "scoop.multiplier must be >= 1, got 0"
    );
    let mut rules = Rules::default();
    rules.rake.basis_points = 10_001;
    assert_eq!(
        rules.validate().unwrap_err().message(),
        "money.rake_basis_points must be in 0..10000, got 10001"
    );
    let e = Rules::default()
        .set_knob("sweep_all.min_players", KnobValue::Int(-1))
        .unwrap_err();
    assert_eq!(e.message(), "sweep_all.min_players must be in 2..9, got -1");
    let mut rules = Rules::default();
    rules.royalties[TOP][2] = 4;
    assert!(rules
        .validate()
        .unwrap_err()
        .message()
        .contains("'two-pair' is not a category of that row"));
}

#[test]
fn a_ranking_knob_set_builds_its_evaluator() {
    let mut rules = Rules::default();
    rules
        .set_knob("wheel", KnobValue::Text("second".into()))
        .unwrap();
    let second = Evaluator::new(Ranking {
        wheel_second: true,
        ..Rules::default().evaluator.ranking
    });
    // A-2-3-4-5 against 9-T-J-Q-K (card ids 4 * (rank - 2) + suit)
    let wheel = [48, 0, 5, 10, 15];
    let nine_high = [29, 32, 39, 42, 44];
    for hand in [wheel, nine_high] {
        assert_eq!(rules.evaluator.eval5(hand), second.eval5(hand));
    }
    assert!(rules.evaluator.eval5(wheel) > rules.evaluator.eval5(nine_high));
}

#[test]
fn the_new_knobs_set_and_read_back() {
    let mut rules = Rules::default();
    for (name, value) in [
        ("scoop.by_seats", KnobValue::Flag(true)),
        (
            "sweep_all.natural_opponents",
            KnobValue::Text("exempt".into()),
        ),
        ("horse.card", KnobValue::Text("Ah".into())),
        ("horse.multiplier", KnobValue::Int(3)),
        ("horse.naturals", KnobValue::Flag(false)),
        ("cap.pair", KnobValue::Int(10)),
        ("cap.scoop", KnobValue::Int(20)),
        ("cap.sweep_all", KnobValue::Int(30)),
        ("cap.stage", KnobValue::Text("final".into())),
        ("banker.enabled", KnobValue::Flag(true)),
        ("banker.wins_ties", KnobValue::Flag(true)),
        ("banker.max_multiplier", KnobValue::Int(7)),
        ("foul.mode", KnobValue::Text("refuse".into())),
    ] {
        rules.set_knob(name, value.clone()).unwrap();
        assert_eq!(rules.knob(name), Some(value), "{name}");
    }
    assert_eq!(rules.horse_card, Some(50));
    assert_eq!(rules.cap_stage, CapStage::Final);
    assert_eq!(rules.foul_mode, FoulMode::Refuse);
    rules
        .set_knob("horse.card", KnobValue::Text("10♥".into()))
        .unwrap();
    assert_eq!(rules.knob("horse.card"), Some(KnobValue::Text("Th".into())));
    let e = rules
        .set_knob("horse.card", KnobValue::Text("1h".into()))
        .unwrap_err();
    assert!(e.message().starts_with("horse.card must be a card"), "{e}");
    let e = rules
        .set_knob("banker.max_multiplier", KnobValue::Int(101))
        .unwrap_err();
    assert_eq!(
        e.message(),
        "banker.max_multiplier must be in 1..100, got 101"
    );
    assert_eq!(Rules::default().knob("horse.card"), None);
}

#[test]
fn a_ranked_royalty_takes_the_place_of_its_category() {
    use crate::test_support::cards;
    let mut rules = Rules::default();
    let mut top: RankedRow = [[None; 13]; 10];
    top[crate::rank::PAIR as usize][4] = Some(1); // a pair of sixes
    top[crate::rank::TRIPS as usize][12] = Some(10); // aces
    rules
        .set_knob(
            "royalties.top_by_rank",
            KnobValue::RoyaltiesByRank(Box::new(top)),
        )
        .unwrap();
    assert_eq!(rules.ranked_categories[TOP], 1 << 1 | 1 << 3);
    let top_of = |text: &str| {
        let c = cards(text);
        rules.royalty(TOP, rules.evaluator.eval3([c[0], c[1], c[2]]))
    };
    assert_eq!(top_of("6c 6d Ah"), 1);
    assert_eq!(top_of("7c 7d Ah"), 0); // not listed: the category's 0
    assert_eq!(top_of("Ac Ad Ah"), 10);
    assert_eq!(top_of("Kc Kd Kh"), 5); // not listed: trips pay 5
    assert_eq!(
        rules.knob("royalties.top_by_rank"),
        Some(KnobValue::RoyaltiesByRank(Box::new(top)))
    );
    // only the top row's categories
    let mut bad: RankedRow = [[None; 13]; 10];
    bad[crate::rank::QUADS as usize][12] = Some(1);
    rules
        .set_knob(
            "royalties.top_by_rank",
            KnobValue::RoyaltiesByRank(Box::new(bad)),
        )
        .unwrap();
    assert!(rules
        .validate()
        .unwrap_err()
        .message()
        .contains("'quads' is not a category of that row"));
}

#[test]
fn a_natural_entry_takes_only_its_own_fields() {
    use crate::natural_kind::Natural;
    let mut entry = NaturalEntry::new(Natural::Dragon, 13);
    assert!(entry.check(0).is_ok());
    entry.lowest = 8;
    assert_eq!(
        entry.check(2).unwrap_err().message(),
        "naturals.enabled[2].lowest: only all-high takes lowest, not dragon"
    );
    let mut entry = NaturalEntry::new(Natural::AllHigh, 5);
    entry.lowest = 8;
    assert!(entry.check(0).is_ok());
    entry.same_tier = true;
    assert!(entry
        .check(0)
        .unwrap_err()
        .message()
        .starts_with("naturals.enabled[0].same_tier"));
    assert!(entry.check(1).is_ok());
    entry.raised = Some((9, RaisedBy::StraightFlush));
    assert!(entry
        .check(1)
        .unwrap_err()
        .message()
        .starts_with("naturals.enabled[1].raised_by"));
    let mut entry = NaturalEntry::new(Natural::ThreeFlushes, 3);
    entry.raised = Some((6, RaisedBy::StraightFlush));
    assert!(entry.check(1).is_ok());
    let twice = Rules {
        naturals: vec![
            NaturalEntry::new(Natural::Dragon, 13),
            NaturalEntry::new(Natural::Dragon, 13),
        ],
        ..Rules::default()
    };
    assert_eq!(
        twice.validate().unwrap_err().message(),
        "naturals.enabled[1]: natural 'dragon' is listed twice"
    );
    assert!(NaturalEntry::given_fault(0, Natural::AllHigh, "lowest").is_none());
    assert!(NaturalEntry::given_fault(0, Natural::Dragon, "bonus").is_none());
    assert!(NaturalEntry::given_fault(0, Natural::Dragon, "lowest").is_some());
    let rules = Rules {
        naturals: vec![NaturalEntry {
            count: 14,
            ..NaturalEntry::new(Natural::TwelveRoyals, 24)
        }],
        ..Rules::default()
    };
    assert_eq!(
        rules.validate().unwrap_err().message(),
        "naturals.enabled[0].count must be in 12..13, got 14"
    );
}
