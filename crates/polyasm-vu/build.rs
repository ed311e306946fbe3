//! Collects the workspace's valid VU programs (examples and corpus) into a Rust file that
//! `tests/reference.rs` includes, so each is assembled by both polyasm and the reference
//! `vu_asm!` macro of `dbsdk-vu-asm` and the words compared.
//!
//! A program is included unless its name starts with `err_` (a failing corpus case) or it
//! uses the `.word` directive, which the reference syntax lacks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs = [root.join("examples/vu"), root.join("tests/corpus/vu")];
    let mut programs: Vec<(String, String)> = Vec::new();
    for dir in &dirs {
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            if !name.ends_with(".vu") || name.starts_with("err_") {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("corpus files are UTF-8");
            if text.contains(".word") {
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
            programs.push((relative, text));
        }
    }
    let mut out = String::from("/// (path, source, words from `vu_asm!`) for every valid program.\n");
    out.push_str("pub const REFERENCE_PROGRAMS: &[(&str, &str, &[u32])] = &[\n");
    for (path, text) in &programs {
        let _ = writeln!(
            out,
            "    ({path:?}, {text:?}, &dbsdk_vu_asm::vu_asm! {{\n{text}\n    }}),"
        );
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("reference_programs.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
