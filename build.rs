//! Embeds every solver tables file shipped in `python/capsa/tables` (one per
//! preset, `<preset>.bin`), found in the directory, so that shipping a
//! preset's tables needs no edit of the code.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = root.join("python").join("capsa").join("tables");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the shipped tables directory")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".bin").map(str::to_string)
        })
        .collect();
    // the order the nearest tables are looked for in: by name
    names.sort();
    let mut out = String::from("&[\n");
    for name in &names {
        let path = dir.join(format!("{name}.bin"));
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({name:?}, include_bytes!({:?}) as &[u8]),",
            path.display()
        )
        .expect("writing to a String");
    }
    out.push(']');
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("shipped_tables.rs");
    std::fs::write(dest, out).expect("writing the shipped tables list");
}
