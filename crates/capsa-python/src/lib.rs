//! The Python binding: converts types, maps errors, releases the GIL around
//! core calls. No game logic lives here; the batch loops are in
//! `capsa_core::batch`.
//!
//! Every reader of an argument is in `conversion`, one per input kind. The
//! other files hold what Python sees, one file per topic: the `Card` class
//! (`card`), the card functions (`cards`), the compiled rules and the knob
//! table (`rules`), ranking (`hands`), splits (`splits`), naturals
//! (`naturals`), settlement (`settle`), the `capsa settle` stream
//! (`stream`), the solver (`solver`), bulk settlement and simulation
//! (`bulk`), the provably fair deal (`fair`), round records (`records`),
//! the argument readers the Python layer shares (`readers`), the MAC of a
//! saved round state (`state`), JSON values without Python's `json`
//! (`json_values`),
//! the generators' raw output (`rng`), and the one mapping of core errors
//! to exceptions (`errors`).

use pyo3::prelude::*;

mod bulk;
mod card;
mod cards;
mod conversion;
mod errors;
mod fair;
mod hands;
mod json_tree;
mod json_values;
mod naturals;
mod readers;
mod records;
mod rng;
mod rules;
mod settle;
mod settlement_dict;
mod solver;
mod splits;
mod state;
mod stream;
mod submission;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // the one version: Cargo's, which maturin also writes into the wheel
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    cards::register(m)?;
    hands::register(m)?;
    rules::register(m)?;
    splits::register(m)?;
    naturals::register(m)?;
    settle::register(m)?;
    solver::register(m)?;
    stream::register(m)?;
    fair::register(m)?;
    submission::register(m)?;
    state::register(m)?;
    json_values::register(m)?;
    records::register(m)?;
    readers::register(m)?;
    rng::register(m)?;
    bulk::register(m)?;
    Ok(())
}
