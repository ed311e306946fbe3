//! examples/rust-build, a crate whose build script uses polyasm-build, built and run by Cargo:
//! its output, a rebuild when an included file changes, and a failed build at the place of
//! the mistake. It is built offline from its own Cargo.lock, under this workspace's target
//! folder, so that a second run of these tests builds nothing again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rust-build");

/// Where the example is built: one folder for every test, which Cargo locks while it builds.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust-build")
}

/// One test at a time: the example and its copies share the target folder, where each build
/// puts its program at the same path, which `cargo run` runs after the build.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static CARGO: Mutex<()> = Mutex::new(());
    CARGO.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `cargo ARGS` on the crate at `dir`, offline and from its Cargo.lock.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = dir.join("Cargo.toml");
    let output = Command::new(&cargo)
        .args(args)
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir())
        .args(["--offline", "--locked", "--color", "never"])
        .env_remove("CARGO_TARGET_DIR")
        .output();
    output.unwrap_or_else(|e| panic!("cannot run {}: {e}", Path::new(&cargo).display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A copy of the example in a temporary folder, to change its files without touching the
/// example's: its path dependencies point back at this workspace, and its package is called
/// `name`, so that its program is not the example's in the shared target folder (Cargo does
/// not copy a program it did not rebuild to the folder `cargo run` runs it from).
fn copy_of_example(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_tree(Path::new(EXAMPLE), dir.path());
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let crates = crates.canonicalize().expect("the crates folder exists");
    let renamed = format!("name = \"{name}\"");
    let edit = |file: &str, edit: &dyn Fn(&str) -> String| {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).expect("the copy has the file");
        let edited = edit(&text);
        assert_ne!(edited, text, "{file} of the example changes in the copy");
        std::fs::write(&path, edited).expect("the copy is writable");
    };
    edit("Cargo.toml", &|text| {
        text.replace("\"../../crates/", &format!("\"{}/", crates.display()))
            .replace("name = \"rust-build\"", &renamed)
    });
    edit("Cargo.lock", &|text| text.replace("name = \"rust-build\"", &renamed));
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder can be made");
    for entry in std::fs::read_dir(from).expect("the example is readable") {
        let entry = entry.expect("a readable entry");
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).expect("a file can be copied");
        }
    }
}

#[test]
fn the_example_embeds_and_runs_what_its_build_script_assembled() {
    let _cargo = one_at_a_time();
    let output = cargo(Path::new(EXAMPLE), &["run", "--quiet"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "nv2a: mvp.vsh is 6 instructions\n\
         shader-asm: uv.sasm is 23 words\n\
         masfix: hello.mx printed hi!\n"
    );
}

#[test]
fn changing_an_included_file_runs_the_build_script_again_and_nothing_else_does() {
    let _cargo = one_at_a_time();
    let copy = copy_of_example("rust-build-rerun");
    let first = cargo(copy.path(), &["build"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let again = cargo(copy.path(), &["build", "-v"]);
    let log = text(&again.stderr);
    assert!(again.status.success(), "{log}");
    assert!(log.contains("Fresh rust-build-rerun"), "nothing changed: {log}");
    assert!(
        !log.contains("build-script-build`"),
        "the build script did not run: {log}"
    );

    // A new macro body prints one more character.
    let library = copy.path().join("asm/lib/text.mx");
    let old = std::fs::read_to_string(&library).expect("the copy has the library");
    let new = old.replace("    outc 10\n", "    outc '.'\n    outc 10\n");
    assert_ne!(new, old, "the library's newline macro prints 10");
    std::fs::write(&library, new).expect("the copy is writable");
    let file = std::fs::File::options()
        .write(true)
        .open(&library)
        .expect("just written");
    // Later than anything the first build saw, whatever the file system's clock resolution.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    file.set_modified(later).expect("its time can be set");
    drop(file);

    let rebuilt = cargo(copy.path(), &["run", "-v"]);
    let log = text(&rebuilt.stderr);
    assert!(rebuilt.status.success(), "{log}");
    assert!(log.contains("build-script-build`"), "the build script ran again: {log}");
    assert!(
        text(&rebuilt.stdout).ends_with("masfix: hello.mx printed hi!.\n"),
        "{}",
        text(&rebuilt.stdout)
    );
}

#[test]
fn a_missing_include_fails_the_build_at_its_directive() {
    let _cargo = one_at_a_time();
    let copy = copy_of_example("rust-build-broken");
    let source = copy.path().join("asm/hello.mx");
    let text_of = std::fs::read_to_string(&source).expect("the copy has hello.mx");
    std::fs::write(&source, text_of.replace("%include \"text\"", "%include \"txet\"")).expect("writable");
    let output = cargo(copy.path(), &["build"]);
    let log = text(&output.stderr);
    assert!(!output.status.success(), "the build fails: {log}");
    assert!(
        log.contains("asm/hello.mx:3:1: error[PA019]: cannot find `txet.mx` to include"),
        "Cargo shows the place as a warning: {log}"
    );
    assert!(log.contains("help: add the folder that holds it"), "{log}");
    // The build script's standard error, which Cargo indents: the report, then its summary.
    assert!(
        log.contains("\n  error[PA019]: cannot find `txet.mx` to include\n"),
        "{log}"
    );
    assert!(
        log.contains("\n  error: asm/hello.mx not assembled; no output written: "),
        "{log}"
    );
}

#[test]
fn the_example_locks_the_versions_the_workspace_locks() {
    let packages = |path: &str| -> Vec<(String, String)> {
        let text = std::fs::read_to_string(path).expect("the lock file exists");
        let mut found = Vec::new();
        let mut name = None;
        for line in text.lines() {
            if let Some(value) = line.strip_prefix("name = ") {
                name = Some(value.trim_matches('"').to_string());
            } else if let (Some(value), Some(n)) = (line.strip_prefix("version = "), name.take()) {
                found.push((n, value.trim_matches('"').to_string()));
            }
        }
        found
    };
    let workspace = packages(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"));
    let example = packages(&format!("{EXAMPLE}/Cargo.lock"));
    assert!(example.len() > 20, "the example's lock lists its dependencies");
    let stray: Vec<String> = example
        .iter()
        .filter(|p| p.0 != "rust-build" && !workspace.contains(p))
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    assert!(
        stray.is_empty(),
        "examples/rust-build/Cargo.lock has versions the workspace does not use, so it cannot build \
         offline: {stray:?}; copy the workspace's Cargo.lock over it and run `cargo metadata \
         --offline --manifest-path examples/rust-build/Cargo.toml`"
    );
}
