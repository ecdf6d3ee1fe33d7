//! The shipped presets: the rules of the houses capsa knows by name, one
//! TOML file each in this crate's `presets/` folder, embedded by the build
//! script (a new preset is a new file there, with no edit of the code).
//! docs/rules.md, "Presets", describes each.

use crate::error::{Error, Result};
use crate::rules::{rules_from_tree, Rules};

/// `(name, TOML text)` of every shipped preset, sorted by name.
const SHIPPED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped_presets.rs"));

/// The preset a rules file starts from when it names no `base`.
pub const DEFAULT_PRESET: &str = "capsa-susun";

/// The names of the shipped presets, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(name, _)| *name)
}

/// The TOML text of a shipped preset, or `None` for a name that is not one.
pub fn text(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The rules of a shipped preset: `presets::rules("pagat")`.
///
/// Errors: a `RulesError` for a name that is not a preset, listing them.
pub fn rules(name: &str) -> Result<Rules> {
    let text = text(name).ok_or_else(|| {
        let known: Vec<&str> = names().collect();
        Error::rules(format!(
            "unknown preset {name:?}; the presets are: {}",
            known.join(", ")
        ))
    })?;
    let tree: toml::Table = text
        .parse()
        .map_err(|e| Error::rules(format!("preset {name}: malformed TOML: {e}")))?;
    rules_from_tree(&tree).map_err(|e| e.context(format_args!("preset {name}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{rules_meta, shipped_presets, Tables};

    #[test]
    fn every_preset_reads_and_the_default_is_one() {
        assert!(names().count() >= 15);
        assert!(names().any(|n| n == DEFAULT_PRESET));
        for name in names() {
            rules(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(rules("no-such").unwrap_err().to_string().contains("pagat"));
    }

    #[test]
    fn the_default_preset_is_the_knob_tables_default() {
        let preset = rules(DEFAULT_PRESET).unwrap();
        assert_eq!(rules_meta(&preset), rules_meta(&Rules::default()));
    }

    #[test]
    fn each_preset_reads_as_the_rules_its_tables_were_trained_for() {
        // the tables were trained on the rules the Python layer read from
        // the same files: the two readers agree on every knob the tables hold
        for name in shipped_presets() {
            let meta = rules_meta(&rules(name).unwrap());
            let tables = Tables::preset(name).unwrap();
            for (key, value) in &meta {
                assert_eq!(tables.get(key), Some(value.as_str()), "{name}: {key}");
            }
        }
    }
}
