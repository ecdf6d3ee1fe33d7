//! Embeds this crate's data, found in its folders so that shipping a preset
//! or its tables needs no edit of the code: every preset in `presets/`
//! (`<name>.toml`) and every solver tables file in `tables/` (`<preset>.bin`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The names of the files in `dir` ending in `.suffix`, sorted: the order
/// presets are listed in and nearest tables looked for in.
fn names(dir: &Path, suffix: &str) -> Vec<String> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(suffix).map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// A Rust slice expression of `(name, include_<kind>!(path))` for every file.
fn embedded(dir: &Path, suffix: &str, include: &str, item: &str) -> String {
    let mut out = String::from("&[\n");
    for name in names(dir, suffix) {
        let path = dir.join(format!("{name}{suffix}"));
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({name:?}, {include}!({:?}) as {item}),",
            path.display()
        )
        .expect("writing to a String");
    }
    out.push(']');
    out
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let presets = embedded(&root.join("presets"), ".toml", "include_str", "&str");
    std::fs::write(out.join("shipped_presets.rs"), presets).expect("writing the presets list");
    let tables = embedded(&root.join("tables"), ".bin", "include_bytes", "&[u8]");
    std::fs::write(out.join("shipped_tables.rs"), tables).expect("writing the tables list");
}
