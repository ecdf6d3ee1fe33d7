use super::*;

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
    let keys: Vec<&str> = RULE_CHOICES.iter().map(|(k, _)| *k).collect();
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
