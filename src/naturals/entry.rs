//! A natural's entry of `naturals.enabled`, as the rules hold it.

pub use crate::rules::{NaturalEntry, RaisedBy};
