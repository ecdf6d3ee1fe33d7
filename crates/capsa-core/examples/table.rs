//! A table dealt, arranged and settled with the game core alone, no Python:
//!
//! ```text
//! cargo run --release -p capsa-core --example table -- [PRESET] [SEED]
//! ```
//!
//! deals the preset's deck (`capsa-susun` and seed 2026 by default) to as
//! many seats as it holds, sets every hand as the solver would, and prints
//! each arrangement and the settlement.

use capsa_core::arrangement::arrangement_text;
use capsa_core::deal::deal_deck;
use capsa_core::error::{Error, Result};
use capsa_core::presets;
use capsa_core::settle::{most_seats, settle, SeatInput, Stakes};
use capsa_core::settlement_text::explain;
use capsa_core::solver::{Solver, Tables};

fn main() {
    if let Err(e) = run() {
        eprintln!("table: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let preset = args
        .next()
        .unwrap_or_else(|| presets::DEFAULT_PRESET.into());
    let seed = match args.next() {
        Some(text) => text
            .parse::<u64>()
            .map_err(|_| Error::argument(format!("the seed is an integer, not {text:?}")))?,
        None => 2026,
    };
    let rules = presets::rules(&preset)?;
    let seats = most_seats(&rules.deck);
    let hands = deal_deck(&rules.deck, seats, Some(seed))?;
    let solver = Solver::new(&rules, Tables::nearest(&rules), seats)?;
    let played = hands
        .iter()
        .map(|hand| {
            let choice = solver.best(hand)?;
            Ok(SeatInput::playing(choice.cards, choice.declare_natural))
        })
        .collect::<Result<Vec<_>>>()?;
    let settlement = settle(&rules, &played, &Stakes::Uniform(1))?;

    println!("{preset}, seed {seed}, {seats} seats");
    for (seat, input) in played.iter().enumerate() {
        println!("seat {seat}: {}", arrangement_text(&input.cards));
    }
    println!();
    print!("{}", explain(&settlement, &played));
    let balance: i64 = settlement.seats.iter().map(|s| s.money).sum();
    assert_eq!(balance, 0, "a settlement balances to zero");
    Ok(())
}
