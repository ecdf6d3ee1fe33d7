//! Replaying a record: every derived field recomputed from the inputs in
//! the record, every difference named.

use super::format::join;
use super::format::{rules_digest, Problem, MAX_PROBLEMS};
use super::read::Record;
use super::table::auto_problems;
use super::write::{check_play, named_settlement_version, seat_inputs, settlement_text};
use crate::fair::{self, hex};
use capsa_core::arrangement::cards_text;
use capsa_core::canonical::{self, Json};
use capsa_core::rules::Rules;
use capsa_core::settle::settle;

/// A value in a message, cut short when long.
fn shown(value: Option<&Json<'_>>) -> String {
    match value {
        None => "nothing".into(),
        Some(v) => {
            let text = canonical::to_string(v);
            if text.chars().count() > 80 {
                format!("{}...", text.chars().take(77).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// Every path where `recorded` and `recomputed` differ, at most `room`.
fn diff(
    path: &str,
    recorded: &Json<'_>,
    recomputed: &Json<'_>,
    out: &mut Vec<Problem>,
    room: usize,
) {
    if out.len() >= room || recorded == recomputed {
        return;
    }
    match (recorded, recomputed) {
        (Json::Object(a), Json::Object(b)) => {
            let mut keys: Vec<&str> = a.iter().chain(b.iter()).map(|(k, _)| k.as_ref()).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                let field = join(path, key);
                match (recorded.get(key), recomputed.get(key)) {
                    (Some(x), Some(y)) => diff(&field, x, y, out, room),
                    (x, y) => out.push(Problem::new(
                        field.as_str(),
                        format!("{field}: recorded {}, recomputed {}", shown(x), shown(y)),
                    )),
                }
                if out.len() >= room {
                    return;
                }
            }
        }
        (Json::Array(a), Json::Array(b)) if a.len() == b.len() => {
            for (k, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{k}]"), x, y, out, room);
            }
        }
        _ => out.push(Problem::new(
            path,
            format!(
                "{path}: recorded {}, recomputed {}",
                shown(Some(recorded)),
                shown(Some(recomputed))
            ),
        )),
    }
}

impl Record {
    /// Checks the provably fair deal from the record alone: the revealed
    /// server seed hashes to the commitment (and the commitment is
    /// `published`, when given), and the hands are the ones the seeds deal.
    pub fn verify_deal(&self, published: Option<[u8; 32]>) -> Vec<Problem> {
        self.deal_problems(published, &self.dealt_hands())
    }

    /// The hands the record's seeds deal.
    fn dealt_hands(&self) -> Vec<[u8; 13]> {
        capsa_core::deal::hands_of(
            &fair::shuffled(
                &self.deck,
                &self.server_seed,
                &self.client_seeds,
                self.nonce,
            ),
            self.hands.len(),
        )
    }

    /// [`Record::verify_deal`] with the hands the seeds deal, `dealt`.
    fn deal_problems(&self, published: Option<[u8; 32]>, dealt: &[[u8; 13]]) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Some(p) = published {
            if p != self.commitment {
                problems.push(Problem::new(
                    "deal.commitment",
                    format!(
                        "deal.commitment {} is not the commitment published before the deal, {}",
                        hex(&self.commitment),
                        hex(&p)
                    ),
                ));
            }
        }
        let hashed = fair::commitment(&self.server_seed);
        if hashed != self.commitment {
            problems.push(Problem::new(
                "deal.server_seed",
                format!(
                    "deal.server_seed is not the seed committed to: its SHA-256 is {}, \
                     the commitment is {}",
                    hex(&hashed),
                    hex(&self.commitment)
                ),
            ));
        }
        for (k, (recorded, dealt)) in self.hands.iter().zip(dealt).enumerate() {
            if recorded != dealt {
                problems.push(Problem::new(
                    format!("seats[{k}].hand"),
                    format!(
                        "seats[{k}].hand is not the hand the seeds deal: recorded {:?}, \
                         dealt {:?} from deal.server_seed, deal.client_seeds and deal.nonce \
                         (one of them, or the hand, was changed)",
                        cards_text(recorded),
                        cards_text(dealt)
                    ),
                ));
            }
        }
        problems
    }

    /// Recomputes everything derived from the record's inputs under `rules`
    /// (the record's own rules, compiled by the caller) and lists every
    /// field that differs: the digest, the rules digest, the deal, what each
    /// seat played against its hand and the rules (from format 2 on, each seat
    /// arranged at the close against the solver's choice), every figure of the
    /// settlement, and the chain link when `previous` is given (the digest
    /// the record must follow, or None for the first of a chain).
    pub fn replay(&self, rules: &Rules, previous: Option<Option<[u8; 32]>>) -> Vec<Problem> {
        let mut problems = self.digest_problems(previous);
        let dealt = self.dealt_hands();
        problems.extend(self.deal_problems(None, &dealt));
        problems.extend(
            check_play(rules, &dealt, &self.seats, self.policy)
                .into_iter()
                .map(|(_, p)| p),
        );
        if let Some(solver) = &self.solver {
            problems.extend(auto_problems(
                rules,
                solver,
                self.policy,
                &dealt,
                &self.seats,
            ));
        }
        self.settlement_problems(rules, &mut problems);
        problems.truncate(MAX_PROBLEMS);
        problems
    }

    /// The digests that do not match: the record's own, the link to the
    /// record before it (`previous`, when given) and the rules'.
    fn digest_problems(&self, previous: Option<Option<[u8; 32]>>) -> Vec<Problem> {
        let mut problems = Vec::new();
        let contents = self.content_digest;
        if contents != self.digest {
            problems.push(Problem::new(
                "digest",
                format!(
                    "digest {} is not the digest of the record's contents, {}: \
                     the record was changed after it was written",
                    hex(&self.digest),
                    hex(&contents)
                ),
            ));
        }
        if let Some(expected) = previous {
            if expected != self.previous_digest {
                problems.push(Problem::new(
                    "previous_digest",
                    format!(
                        "previous_digest is {}, but the record before it has digest {}",
                        self.previous_digest.map_or("null".into(), |d| hex(&d)),
                        expected.map_or("null (none: the first of the chain)".into(), |d| hex(&d))
                    ),
                ));
            }
        }
        let rules_digest = rules_digest(&self.rules_text);
        if rules_digest != self.rules_digest {
            problems.push(Problem::new(
                "rules_digest",
                format!(
                    "rules_digest {} is not the digest of the rules, {}: \
                     the rules or their digest were changed",
                    hex(&self.rules_digest),
                    hex(&rules_digest)
                ),
            ));
        }
        problems
    }

    /// The differences between the recorded settlement and the one
    /// recomputed from the record's inputs.
    fn settlement_problems(&self, rules: &Rules, problems: &mut Vec<Problem>) {
        let inputs = seat_inputs(&self.seats);
        match settle(rules, &inputs, &self.stakes.stakes()) {
            Ok(s) => {
                let named = named_settlement_version(self.format_version, self.settlement_version);
                let text = settlement_text(&s, &inputs, named);
                if self.settlement_text != text {
                    match (
                        canonical::parse_str(&self.settlement_text),
                        canonical::parse_str(&text),
                    ) {
                        (Ok(recorded), Ok(recomputed)) => {
                            diff("settlement", &recorded, &recomputed, problems, MAX_PROBLEMS)
                        }
                        (Err(e), _) | (_, Err(e)) => {
                            problems.push(Problem::new("settlement", e.message()))
                        }
                    }
                }
            }
            Err(e) => problems.push(Problem::new(
                "settlement",
                format!(
                    "the settlement cannot be recomputed from the record: {}",
                    e.message()
                ),
            )),
        }
    }
}
