//! The Python binding: converts types, maps errors, releases the GIL around
//! core calls. No game logic lives here; the batch loops are in
//! `crate::batch`.
//!
//! One file per topic: the plain arguments (`args`), cards and their readers
//! (`cards`), the compiled rules (`rules`), card-id numpy arrays (`arrays`),
//! ranking (`hands`), splits (`splits`), naturals (`naturals`), settlement
//! (`settle`), the `capsa settle` stream (`stream`), the solver (`solver`),
//! stakes (`stakes`), bulk settlement and simulation (`bulk`), the provably fair deal (`fair`),
//! round records (`records`), the generators' raw output (`rng`), and the
//! one mapping of core errors to exceptions (`errors`).

use pyo3::prelude::*;

mod args;
mod arrays;
mod bulk;
mod cards;
mod errors;
mod fair;
mod hands;
mod naturals;
mod records;
mod rng;
mod rules;
mod settle;
mod solver;
mod splits;
mod stakes;
mod stream;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
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
    records::register(m)?;
    rng::register(m)?;
    bulk::register(m)?;
    Ok(())
}
