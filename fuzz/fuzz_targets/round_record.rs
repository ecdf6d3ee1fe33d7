//! `capsa_records::record::read_any`, the reader of round records and void records,
//! then replay and deal verification of what it accepts. Any bytes: a
//! refusal names a field (a path of the record, or empty for the record as
//! a whole) and says why; an accepted record replays and verifies without a
//! panic, every difference named; and a record that replays with no
//! difference under the rules it was settled with is exactly what
//! `record::write` (or `record::write_void`) writes from its inputs, byte
//! for byte, once written canonically. The seeds are real records
//! (`tests/golden/records-1.jsonl` to `records-4.jsonl` and
//! `void-1.jsonl`), so the fuzzer mutates real fields.
#![no_main]

use capsa_core::canonical;
use capsa_core::rules::Rules;
use capsa_records::record::{
    installed_solver, read_any, write, write_void, AnyRecord, Problem, RoundInputs, VoidInputs,
    VoidRecord, MAX_PROBLEMS,
};
use libfuzzer_sys::fuzz_target;

fn check_problems(problems: &[Problem]) {
    assert!(problems.len() <= MAX_PROBLEMS);
    for problem in problems {
        assert!(!problem.field.is_empty() && !problem.message.is_empty());
        assert!(
            problem.message.contains(problem.field.as_str()),
            "{problem:?}"
        );
    }
}

/// A void record: checked, and when it replays written again byte for byte.
fn void(data: &[u8], record: &VoidRecord) {
    check_problems(&record.verify_deal(None));
    let problems = record.replay(None);
    check_problems(&problems);
    if !problems.is_empty() || record.capsa_version != env!("CARGO_PKG_VERSION") {
        return;
    }
    let (text, digest) = write_void(&VoidInputs {
        table_id: record.table_id.as_deref(),
        round_id: &record.round_id,
        previous_digest: record.previous_digest,
        commitment: record.commitment,
        nonce: record.nonce,
        reason: &record.reason,
        meta: &record.meta,
    })
    .expect("a void record that replays can be written");
    let given = std::str::from_utf8(data).expect("a record read is UTF-8");
    let value = canonical::parse_str(given).expect("a record read is JSON");
    assert_eq!(text, canonical::to_string(&value));
    assert_eq!(digest, record.digest);
}

fuzz_target!(|data: &[u8]| {
    let record = match read_any(data) {
        Ok(AnyRecord::Round(record)) => record,
        Ok(AnyRecord::Void(record)) => return void(data, &record),
        Err(problem) => {
            assert!(!problem.message.is_empty());
            assert!(
                problem.field.is_empty() || problem.message.contains(problem.field.as_str()),
                "{problem:?}"
            );
            return;
        }
    };
    assert!((2..=4).contains(&record.seats.len()));
    assert_eq!(record.hands.len(), record.seats.len());
    for problem in record.verify_deal(None) {
        assert!(!problem.field.is_empty() && !problem.message.is_empty());
    }
    let rules = Rules::default();
    let problems = record.replay(&rules, None);
    check_problems(&problems);
    if !problems.is_empty() || record.capsa_version != env!("CARGO_PKG_VERSION") {
        return;
    }
    // it replays: writing it again from its inputs gives the same text
    let solver = record
        .solver
        .clone()
        .unwrap_or_else(|| installed_solver(&rules));
    let written = write(&RoundInputs {
        format_version: record.format_version,
        round_id: &record.round_id,
        table_id: record.table_id.as_deref(),
        players: &record.players,
        solver: &solver,
        previous_digest: record.previous_digest,
        meta: &record.meta,
        rules: &rules,
        rules_text: &record.rules_text,
        stakes: &record.stakes,
        server_seed: &record.server_seed,
        client_seeds: &record.client_seeds,
        nonce: record.nonce,
        seats: &record.seats,
    })
    .expect("a record that replays can be written");
    let text = std::str::from_utf8(data).expect("a record read is UTF-8");
    let value = canonical::parse_str(text).expect("a record read is JSON");
    assert_eq!(written.text, canonical::to_string(&value));
    assert_eq!(written.digest, record.digest);
});
