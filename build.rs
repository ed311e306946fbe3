//! Names the commit in `polyasm --version` when the package is built from a git checkout:
//! `polyasm 0.1.0 (1a2b3c4d5e6f 2026-11-23)`. Without git (a tarball, a registry download) the
//! version is the package's alone.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let described = match commit() {
        Some((hash, date)) => format!("{version} ({hash} {date})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=POLYASM_VERSION={described}");
    println!("cargo:rerun-if-env-changed=GIT_DIR");
}

/// The short hash and date of HEAD, if this is a git checkout and git runs; asks cargo to look
/// again when HEAD moves.
fn commit() -> Option<(String, String)> {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").ok()?;
    let git = |args: &[&str]| -> Option<String> {
        let output = Command::new("git").current_dir(&manifest).args(args).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Only a checkout of this very package counts, not a git repository around an unpacked tarball.
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != Path::new(&manifest).canonicalize().ok()? {
        return None;
    }
    // HEAD, the branch it names and the packed refs; cargo would rerun on every build for a
    // path that does not exist, so only existing ones are watched.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for file in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        if let Some(path) = git(&["rev-parse", "--git-path", file]) {
            let path = Path::new(&manifest).join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
    let date = git(&["log", "-1", "--format=%cs", "HEAD"])?;
    Some((hash, date))
}
