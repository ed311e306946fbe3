//! Every package of the workspace is fit for crates.io: the metadata the registry shows, a
//! README that exists, keywords and categories the registry accepts, and the codes' docs each
//! dialect embeds reachable from inside its own folder.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The crates.io categories these packages may name (a subset of the registry's list).
const CATEGORIES: &[&str] = &[
    "command-line-utilities",
    "compilers",
    "development-tools",
    "development-tools::build-utils",
    "emulators",
    "game-development",
    "graphics",
    "rendering",
    "text-editors",
    "web-programming::http-server",
];

fn packages() -> Vec<Value> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    metadata["packages"].as_array().expect("a list of packages").clone()
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

#[test]
fn every_package_has_the_metadata_crates_io_shows() {
    let packages = packages();
    assert!(packages.len() >= 9, "the root and the crates: {}", packages.len());
    for package in &packages {
        let name = package["name"].as_str().unwrap();
        let folder = Path::new(package["manifest_path"].as_str().unwrap()).parent().unwrap();
        for field in ["description", "license", "repository", "rust_version", "readme"] {
            assert!(
                package[field].as_str().is_some_and(|v| !v.is_empty()),
                "{name}: no `{field}`"
            );
        }
        let readme = folder.join(package["readme"].as_str().unwrap());
        let text = std::fs::read_to_string(&readme).unwrap_or_else(|e| panic!("{name}: {}: {e}", readme.display()));
        assert!(
            text.starts_with(&format!("# {name}")),
            "{name}: its README starts with its name"
        );

        let keywords = strings(&package["keywords"]);
        assert!(
            (1..=5).contains(&keywords.len()),
            "{name}: 1 to 5 keywords, not {keywords:?}"
        );
        for keyword in keywords {
            let well_formed = keyword.len() <= 20
                && keyword.starts_with(|c: char| c.is_ascii_alphabetic())
                && keyword
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'));
            assert!(well_formed, "{name}: keyword {keyword:?}");
        }
        let categories = strings(&package["categories"]);
        assert!(
            (1..=5).contains(&categories.len()),
            "{name}: 1 to 5 categories, not {categories:?}"
        );
        for category in categories {
            assert!(CATEGORIES.contains(&category), "{name}: category {category:?}");
        }
    }
}

#[test]
fn each_dialect_embeds_its_codes_from_its_own_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (package, docs) in [
        ("polyasm-core", "core"),
        ("polyasm-vu", "vu"),
        ("polyasm-nv2a", "nv2a"),
        ("polyasm-masfix", "masfix"),
        ("polyasm-shader", "shader"),
        ("polyasm-lima", "lima"),
    ] {
        let inside = root.join("crates").join(package).join("codes.md");
        let canonical = root.join("docs/codes").join(format!("{docs}.md"));
        assert_eq!(
            std::fs::read_to_string(&inside).unwrap_or_else(|e| panic!("{}: {e}", inside.display())),
            std::fs::read_to_string(&canonical).unwrap(),
            "{package}: codes.md is docs/codes/{docs}.md"
        );
    }
}
