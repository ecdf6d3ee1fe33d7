//! Binding of the `capsa settle` stream: rounds given as JSON text, settled
//! in parallel into output records.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::report;
use crate::rules::Rules;

/// Settles rounds given as JSON texts (one round each), in parallel. Returns
/// the output records, one line per round (its settlement, or an error record
/// naming the line `first_line + index` and the reason), and how many rounds
/// failed.
#[pyfunction]
#[pyo3(signature = (lines, rules, default=None, first_line=1))]
fn settle_json_lines(
    py: Python<'_>,
    lines: Vec<String>,
    rules: &Bound<'_, PyDict>,
    default: Option<String>,
    first_line: usize,
) -> PyResult<(String, usize)> {
    let mut named: Vec<(String, Rules)> = Vec::new();
    for (k, v) in rules.iter() {
        let set = v
            .cast::<super::RuleSet>()
            .map_err(|_| PyTypeError::new_err("rules maps names to RuleSet values"))?;
        named.push((k.extract()?, set.get().rules.clone()));
    }
    let default_rules = super::default_rules().clone();
    let lookup = |name: Option<&str>| -> Result<&Rules, String> {
        let want = match name {
            Some(n) => n,
            None => match &default {
                Some(d) => d.as_str(),
                None => return Ok(&default_rules),
            },
        };
        named
            .iter()
            .find(|(n, _)| n == want)
            .map(|(_, r)| r)
            .ok_or_else(|| {
                let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
                format!("unknown rules {want:?}; known: {}", names.join(", "))
            })
    };
    const CHUNK: usize = 256;
    let parts: Vec<(String, usize)> = py.detach(|| {
        lines
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut out = String::with_capacity(chunk.len() * 3072);
                let mut failed = 0;
                for (k, line) in chunk.iter().enumerate() {
                    let number = first_line + c * CHUNK + k;
                    if !report::settle_round(line, number, lookup, &mut out) {
                        failed += 1;
                    }
                    out.push('\n');
                }
                (out, failed)
            })
            .collect()
    });
    let failed = parts.iter().map(|(_, f)| f).sum();
    let text: String = parts.into_iter().map(|(t, _)| t).collect();
    Ok((text, failed))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(settle_json_lines, m)?)?;
    Ok(())
}
