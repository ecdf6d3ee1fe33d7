use serde_json::value::RawValue;

use super::*;
use crate::canonical::{self, Json};

/// The fault of `text` as stakes of `seats` read as a record reads JSON
/// and as the stream does: the same message both ways.
fn fault_of(text: &str, seats: usize) -> String {
    let json: Json = canonical::parse_str(text).unwrap();
    let from_record = read_stakes(&Plain(&json), seats).map_err(|e| e.0);
    let raw: &RawValue = serde_json::from_str(text).unwrap();
    let from_stream = read_stakes(&raw, seats).map_err(|e| e.message().to_string());
    assert_eq!(
        from_record.clone().err(),
        from_stream.clone().err(),
        "{text}"
    );
    from_stream.unwrap_err()
}

/// A channel that keeps the fault's own message.
struct StakesFaultOrProblem(String);

impl From<StakesFault> for StakesFaultOrProblem {
    fn from(f: StakesFault) -> Self {
        StakesFaultOrProblem(f.message)
    }
}

/// JSON values, read as a record's reader reads them but keeping the
/// fault's own message (a record puts the field before it).
struct Plain<'a, 'j>(&'a Json<'j>);

impl<'a, 'j> StakesInput for Plain<'a, 'j> {
    type Fail = StakesFaultOrProblem;

    fn look(&self, _limit: usize) -> std::result::Result<StakesValue<Self>, Self::Fail> {
        Ok(match self.0 {
            Json::Int(v) => StakesValue::Int(Ok(*v)),
            Json::Array(items) => StakesValue::List(items.iter().map(Plain).collect()),
            _ => StakesValue::Other,
        })
    }

    fn describe(&self) -> String {
        self.0.kind().to_string()
    }
}

#[test]
fn every_fault_has_one_message() {
    let max = i64::MAX;
    let cases = [
        ("-1", format!("the stake must be in 0..{max}, got -1")),
        (
            "9223372036854775808",
            format!("the stake must be in 0..{max}, got 9223372036854775808"),
        ),
        (
            "[[0, 1], [1, 0], [1, 1]]",
            "stakes must be a 2 x 2 matrix (2 rows of 2), got more than 2 rows".into(),
        ),
        (
            "[[0, 1]]",
            "stakes must be a 2 x 2 matrix (2 rows of 2), got 1 rows".into(),
        ),
        (
            "[[0, 1], [1]]",
            "stakes must be a 2 x 2 matrix (2 rows of 2), row 1 has 1 entries".into(),
        ),
        (
            "[[0, 1], 1]",
            "stakes[1] must be a list of 2 integers, not ".into(),
        ),
        (
            "[[0, -1], [-1, 0]]",
            format!("stakes[0][1] must be in 0..{max}, got -1"),
        ),
        (
            "[[0, 1], [2, 0]]",
            "the stakes matrix is not symmetric: [0][1] = 1 but [1][0] = 2".into(),
        ),
        (
            "[[0, \"1\"], [1, 0]]",
            "stakes[0][1] must be an integer, not ".into(),
        ),
        (
            "\"x\"",
            "stakes must be an integer or a 2 x 2 matrix of integers, not ".into(),
        ),
    ];
    for (text, want) in cases {
        let got = fault_of(text, 2);
        assert!(got.starts_with(&want), "{text}: {got}");
    }
}

#[test]
fn the_diagonal_means_nothing_as_in_settlement() {
    // settlement ignores a seat's stake against itself, so every reader
    // keeps any 64-bit integer there, as written
    let text = "[[-7, 1], [1, -5696864412623699968]]";
    let raw: &RawValue = serde_json::from_str(text).unwrap();
    let spec = read_stakes(&raw, 2).map_err(|e| e.message().to_string());
    let Ok(StakeSpec::Matrix(m)) = spec else {
        panic!("a negative diagonal is refused: {spec:?}");
    };
    assert_eq!(m, vec![-7, 1, 1, -5696864412623699968]);
    let json: Json = canonical::parse_str(text).unwrap();
    assert!(read_stakes(&Plain(&json), 2).is_ok());
    // off the diagonal a negative stake is still refused, and so is a
    // diagonal past 64 bits
    assert!(fault_of("[[0, -1], [-1, 0]]", 2).contains("stakes[0][1] must be in 0.."));
    assert_eq!(
        fault_of("[[0, 1], [1, 9223372036854775808]]", 2),
        "stakes[1][1] must fit in 64 bits, got 9223372036854775808"
    );
}
