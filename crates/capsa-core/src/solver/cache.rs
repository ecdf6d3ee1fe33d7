//! Compiled arrangers, cached by rules, tables, seats and strategy.

use std::sync::{Arc, Mutex, OnceLock};

use super::baselines::{Arranger, Strategy};
use super::fnv::fnv1a;
use super::tables::Tables;
use crate::error::{Error, Result};
use crate::rules::Rules;

type CacheKey = (String, usize, Strategy, u64);
type ArrangerCache = Vec<(CacheKey, Arc<Arranger>)>;

/// A compiled arranger for (rules, tables, seats, strategy), cached.
/// `tables = None` uses [`Tables::nearest`].
pub fn arranger(
    rules: &Rules,
    tables: Option<&Tables>,
    seats: usize,
    strategy: Strategy,
) -> Result<Arc<Arranger>> {
    static CACHE: OnceLock<Mutex<ArrangerCache>> = OnceLock::new();
    let tables_id = match tables {
        None => 0,
        // odd, so that no tables share the id of `None`
        Some(t) => fnv1a(&t.to_bytes()) | 1,
    };
    let key: CacheKey = (format!("{rules:?}"), seats, strategy, tables_id);
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, a)) = cache
        .lock()
        .map_err(|_| Error::table("solver cache poisoned"))?
        .iter()
        .find(|(k, _)| *k == key)
    {
        return Ok(a.clone());
    }
    let t = tables.unwrap_or_else(|| Tables::nearest(rules));
    let a = Arc::new(Arranger::new(strategy, rules, t, seats)?);
    let mut c = cache
        .lock()
        .map_err(|_| Error::table("solver cache poisoned"))?;
    if c.len() > 64 {
        c.remove(0);
    }
    c.push((key, a.clone()));
    Ok(a)
}
