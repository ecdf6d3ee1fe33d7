//! `capsa_core::solver::Tables::from_bytes` on arbitrary bytes, and the solver
//! run with whatever it accepts. Never panics. Tables it accepts write back
//! (`to_bytes`) to bytes that read as the same tables, and the solver given
//! them arranges any hand: the arrangement is a permutation of the hand that
//! does not foul (bottom >= middle >= top by the evaluator; strictly under
//! `foul_check = "strict"`), with a finite expected value.
//!
//! Input layout: one control byte (bit 0 strict foul check, bit 1 no suit
//! tie-break, bit 2 wheel second, bit 3 flush suit first, bits 4-5 the seats
//! (0 or 3: four, 1: two, 2: three), bit 6 the separable strategy; 0 is the
//! `capsa-susun` preset at four seats with the solver strategy), 13 bytes
//! that pick the hand from the deck, then the tables file. Inputs shorter
//! than 14 bytes are read as a tables file whole.
#![no_main]

use capsa_core::rank::{Evaluator, Ranking};
use capsa_core::rules::Rules;
use capsa_core::solver::{arranger, Strategy, Tables};
use capsa_core::splits::is_valid;
use libfuzzer_sys::fuzz_target;

const PREFIX: usize = 14;

fn rules_of(control: u8) -> Rules {
    let ranking = Ranking {
        tie_break_suit: control & 2 == 0,
        wheel_second: control & 4 != 0,
        flush_suit_first: control & 8 != 0,
        ..Ranking::default()
    };
    Rules {
        foul_strict: control & 1 != 0,
        evaluator: Evaluator::new(ranking),
        ..Rules::default()
    }
}

/// Thirteen distinct cards: each byte picks one of the cards left.
fn hand_of(picks: &[u8]) -> [u8; 13] {
    let mut deck: Vec<u8> = (0..52).collect();
    std::array::from_fn(|k| deck.swap_remove(picks[k] as usize % deck.len()))
}

fuzz_target!(|data: &[u8]| {
    if data.len() < PREFIX {
        let _ = Tables::from_bytes(data);
        return;
    }
    let (control, hand, file) = (data[0], hand_of(&data[1..PREFIX]), &data[PREFIX..]);
    let Ok(tables) = Tables::from_bytes(file) else {
        return;
    };
    let rules = rules_of(control);
    let seats = match (control >> 4) & 3 {
        1 => 2,
        2 => 3,
        _ => 4,
    };
    let strategy = if control & 0x40 != 0 {
        Strategy::Separable
    } else {
        Strategy::Solver
    };
    let a = arranger(&rules, Some(&tables), seats, strategy).expect("accepted tables compile");
    let choice = a
        .choose(&hand)
        .expect("a hand of 13 distinct cards is arranged");
    let mut laid = choice.cards;
    laid.sort_unstable();
    let mut sorted = hand;
    sorted.sort_unstable();
    assert_eq!(
        laid, sorted,
        "the arrangement {:?} is the hand {hand:?}",
        choice.cards
    );
    let e = &rules.evaluator;
    let c = &choice.cards;
    let strengths = [
        e.eval3([c[0], c[1], c[2]]),
        e.eval5([c[3], c[4], c[5], c[6], c[7]]),
        e.eval5([c[8], c[9], c[10], c[11], c[12]]),
    ];
    assert!(
        is_valid(strengths[0], strengths[1], strengths[2], rules.foul_strict),
        "the arrangement {c:?} fouls: strengths {strengths:?}"
    );
    assert!(
        choice.expected_points.is_finite(),
        "expected points {} for {c:?}",
        choice.expected_points
    );
    let again = Tables::from_bytes(&tables.to_bytes());
    assert_eq!(again.as_ref(), Ok(&tables), "accepted tables write back");
});
