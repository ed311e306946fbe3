//! The builder against files in a temporary package: Cargo's lines, the reports of errors,
//! the paths it accepts and the files it writes.

use std::path::{Path, PathBuf};

use polyasm_build::{Assemble, Error, Format, assemble};

/// A package folder holding `files` (path, text).
fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("folders can be made");
        std::fs::write(path, text).expect("the file can be written");
    }
    dir
}

/// Runs `build` with its Cargo lines captured: the result and the lines, with the package's
/// folder written as `PKG`.
fn captured<T>(
    dir: &Path,
    build: impl FnOnce(Assemble<'_>) -> Result<T, Error>,
    source: &str,
) -> (Result<T, Error>, String) {
    let mut lines = Vec::new();
    let result = build(assemble(source).manifest_dir(dir).messages_to(&mut lines));
    let lines = String::from_utf8(lines).expect("Cargo's lines are UTF-8 here");
    (result, lines.replace(&dir.display().to_string(), "PKG"))
}

fn run(
    dir: &Path,
    source: &str,
    set: impl FnOnce(Assemble<'_>) -> Assemble<'_>,
) -> (Result<polyasm_build::Assembled, Error>, String) {
    captured(dir, |a| set(a).run(), source)
}

/// The error's report with the package's folder written as `PKG`.
fn report(error: &Error, dir: &Path) -> String {
    error.report().replace(&dir.display().to_string(), "PKG")
}

#[test]
fn a_warning_is_a_cargo_warning_line_and_its_note_and_help_are_lines_of_their_own() {
    let dir = package(&[("shaders/w.vsh", "mov oPos.xyba, v0\n")]);
    let (result, lines) = run(dir.path(), "shaders/w.vsh", |a| a);
    let assembled = result.expect("a warning is no error");
    assert_eq!(assembled.target(), "nv2a");
    assert_eq!(assembled.bytes().len(), 16, "one nv2a instruction is four words");
    assert_eq!(
        lines,
        "cargo:rerun-if-changed=PKG/shaders/w.vsh\n\
         cargo:warning=PKG/shaders/w.vsh:1:9: warning[NV2A030]: mask `.xyba` mixes `xyzw` and `rgba` letters\n\
         cargo:warning=note: each letter names its lane: `r` is x, `g` y, `b` z, `a` w\n\
         cargo:warning=help: write `.xyzw`\n"
    );
}

#[test]
fn warnings_follow_the_warning_policy() {
    let dir = package(&[("w.vsh", "mov oPos.xyba, v0\n")]);
    let (result, lines) = run(dir.path(), "w.vsh", |a| a.warnings("no-NV2A030"));
    assert!(result.is_ok());
    assert_eq!(
        lines, "cargo:rerun-if-changed=PKG/w.vsh\n",
        "a silenced warning is not printed"
    );
    let (result, lines) = run(dir.path(), "w.vsh", |a| a.warnings("error"));
    let error = result.expect_err("`error` makes warnings errors");
    assert_eq!(error.codes(), ["NV2A030"]);
    assert!(
        lines.contains("cargo:warning=PKG/w.vsh:1:9: error[NV2A030]: mask"),
        "{lines}"
    );
    assert!(
        lines.contains("cargo:warning=note: `-W error` turns warning NV2A030 into an error\n"),
        "{lines}"
    );
    let (result, _) = run(dir.path(), "w.vsh", |a| a.warnings("no-VU001"));
    assert_eq!(result.expect_err("VU001 is an error").codes(), ["PA011"]);
}

#[test]
fn an_error_comes_back_as_the_report_the_command_line_prints_and_as_cargo_warnings() {
    let dir = package(&[("e.mx", "inc\n%include \"missing\"\n")]);
    let (result, lines) = run(dir.path(), "e.mx", |a| a);
    let error = result.expect_err("the include is missing");
    assert_eq!(error.codes(), ["PA019"]);
    assert_eq!(
        report(&error, dir.path()),
        "error[PA019]: cannot find `missing.mx` to include
   ╭─[ PKG/e.mx:2:1 ]
   │
 2 │ %include \"missing\"
   │ ─────────┬────────
   │          ╰────────── not found
   │
   │ Help: add the folder that holds it with `-I DIR`
   │
   │ Note: searched, in order: `PKG`, the built-in files, `.`
───╯

error: PKG/e.mx not assembled; no output written: 1 error"
    );
    assert_eq!(error.to_string(), error.report(), "Display is the report");
    assert!(
        format!("{error:?}").contains("error[PA019]"),
        "Debug shows the report too"
    );
    assert_eq!(
        lines,
        "cargo:rerun-if-changed=PKG/e.mx\n\
         cargo:warning=PKG/e.mx:2:1: error[PA019]: cannot find `missing.mx` to include\n\
         cargo:warning=note: searched, in order: `PKG`, the built-in files, `.`\n\
         cargo:warning=help: add the folder that holds it with `-I DIR`\n"
    );
}

#[test]
fn rerun_if_changed_names_the_source_and_every_file_it_included() {
    let dir = package(&[
        ("src/hi.mx", "%include \"greet\"\n%say('h')\n%say(10)\n"),
        ("lib/greet.mx", "%include \"out\"\n%macro say(c) {\n    %out(%c)\n}\n"),
        ("lib/out.mx", "%macro out(c) {\n    outc %c\n}\n"),
    ]);
    let (result, lines) = run(dir.path(), "src/hi.mx", |a| a.include_dir("lib"));
    let assembled = result.expect("the includes are found in lib/");
    assert_eq!(
        lines,
        "cargo:rerun-if-changed=PKG/src/hi.mx\n\
         cargo:rerun-if-changed=PKG/lib/greet.mx\n\
         cargo:rerun-if-changed=PKG/lib/out.mx\n"
    );
    let read: Vec<PathBuf> = ["src/hi.mx", "lib/greet.mx", "lib/out.mx"]
        .iter()
        .map(|f| dir.path().join(f))
        .collect();
    assert_eq!(assembled.files_read(), read);
    assert_eq!(assembled.file_name(), "hi.bin");
}

#[test]
fn a_missing_source_is_pa001_naming_it_and_still_watched() {
    let dir = package(&[]);
    let (result, lines) = run(dir.path(), "shaders/gone.vsh", |a| a);
    let error = result.expect_err("there is no source");
    assert_eq!(error.codes(), ["PA001"]);
    assert!(
        report(&error, dir.path())
            .starts_with("error[PA001]: cannot read PKG/shaders/gone.vsh: No such file or directory"),
        "{}",
        error.report()
    );
    assert_eq!(
        lines,
        "cargo:rerun-if-changed=PKG/shaders/gone.vsh\n\
         cargo:warning=error[PA001]: cannot read PKG/shaders/gone.vsh: No such file or directory\n"
    );
}

#[test]
fn files_outside_the_package_are_pa030_unless_allowed() {
    let outside = package(&[
        ("shared/out.mx", "%macro out(c) {\n    outc %c\n}\n"),
        ("top.mx", "outc 10\n"),
    ]);
    let dir = package(&[("a.mx", "%include \"out\"\n%out(10)\n")]);
    let shared = outside.path().join("shared");

    let (result, lines) = run(dir.path(), "a.mx", |a| a.include_dir(&shared));
    let error = result.expect_err("the include folder is outside");
    assert_eq!(error.codes(), ["PA031"]);
    let shown = report(&error, outside.path()).replace(&dir.path().display().to_string(), "PKG");
    assert!(
        shown.starts_with("error[PA031]: include folder `PKG/shared` is outside the package"),
        "{shown}"
    );
    assert!(shown.contains("Cargo packages only the files under PKG"), "{shown}");
    assert!(shown.contains("call `allow_outside_package()`"), "{shown}");
    assert!(
        lines.contains("cargo:warning=help: move the file into the package"),
        "{lines}"
    );

    let (result, _) = run(dir.path(), "a.mx", |a| a.include_dir(&shared).allow_outside_package());
    result.expect("allowed");

    // Through `..` from a folder inside: the directive is pointed at.
    let inner = package(&[("sub/b.mx", "%include \"../top.mx\"\n")]);
    std::fs::write(inner.path().join("top.mx"), "outc 10\n").expect("writable");
    let (result, lines) = captured(&inner.path().join("sub"), |a| a.run(), "b.mx");
    let error = result.expect_err("the included file is above the package");
    assert_eq!(error.codes(), ["PA031"]);
    assert!(
        lines.contains("b.mx:1:1: error[PA031]: included file `"),
        "the directive is the place: {lines}"
    );

    let top = outside.path().join("top.mx");
    let (result, _) = run(dir.path(), top.to_str().expect("a UTF-8 path"), |a| a);
    let error = result.expect_err("the source is outside");
    assert_eq!(error.codes(), ["PA031"]);
    assert!(
        error.report().starts_with("error[PA031]: the source `"),
        "{}",
        error.report()
    );
}

#[test]
fn usage_mistakes_are_the_command_line_codes() {
    let dir = package(&[("p.vsh", "mov oPos, v0\n"), ("p.txt", "mov oPos, v0\n"), ("f", "")]);
    let code = |source: &str, set: fn(Assemble<'_>) -> Assemble<'_>| {
        let (result, lines) = run(dir.path(), source, set);
        let error = result.expect_err("a usage mistake");
        assert!(lines.contains(&format!("error[{}]", error.codes()[0])), "{lines}");
        (error.codes()[0], error.report().to_string())
    };
    let (c, text) = code("p.vsh", |a| a.target("z80"));
    assert_eq!(c, "PA008");
    assert!(
        text.contains("unknown target `z80`") && text.contains("nv2a, vu, masfix, shader, lima"),
        "{text}"
    );
    let (c, text) = code("p.txt", |a| a);
    assert_eq!(c, "PA008");
    assert!(text.contains("name one with `.target(NAME)`"), "{text}");
    assert_eq!(code("p.vsh", |a| a.format("wgsl")).0, "PA009");
    assert_eq!(code("p.vsh", |a| a.option("syntax", "mesa")).0, "PA010");
    assert_eq!(code("p.vsh", |a| a.warnings("loud")).0, "PA011");
    assert_eq!(code("p.vsh", |a| a.format(Format::C).array_name("int")).0, "PA016");
    assert_eq!(code("p.vsh", |a| a.include_dir("nowhere")).0, "PA023");
    assert_eq!(code("p.vsh", |a| a.include_dir("f")).0, "PA023");
    // The same source with the options right assembles.
    let (result, _) = run(dir.path(), "p.txt", |a| a.target("NV2A").option("--explicit-final", ""));
    assert_eq!(result.expect("nv2a by name").target(), "nv2a");
}

#[test]
fn outputs_are_named_from_the_source_and_the_format() {
    let dir = package(&[("v/mvp.vsh", "mov oPos, v0\n")]);
    let out = dir.path().join("out");
    for (format, name) in [
        (Format::Bin, "mvp.bin"),
        (Format::Hex, "mvp.hex"),
        (Format::C, "mvp.c"),
        (Format::Rust, "mvp.rs"),
        (Format::Listing, "mvp.lst"),
        (Format::Json, "mvp.json"),
        (Format::named("vshinc"), "mvp.vshinc"),
        (Format::named("HEX"), "mvp.hex"),
    ] {
        let (result, _) = captured(dir.path(), |a| a.format(format.clone()).into_dir(&out), "v/mvp.vsh");
        assert_eq!(result.expect("every format writes"), out.join(name), "{format:?}");
    }
    let rust = std::fs::read_to_string(out.join("mvp.rs")).expect("written");
    assert!(rust.contains("pub const MVP: [u32; 4]"), "{rust}");
    let (result, _) = captured(
        dir.path(),
        |a| a.format("rust").array_name("transform").to(out.join("t.rs")),
        "v/mvp.vsh",
    );
    result.expect("written");
    let rust = std::fs::read_to_string(out.join("t.rs")).expect("written");
    assert!(rust.contains("pub const TRANSFORM: [u32; 4]"), "{rust}");
}

#[test]
fn an_unchanged_output_is_left_alone_and_a_changed_one_replaced() {
    let dir = package(&[("p.vsh", "mov oPos, v0\n")]);
    let out = dir.path().join("p.bin");
    let write = || captured(dir.path(), |a| a.to(&out), "p.vsh").0.expect("written");
    write();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    let file = std::fs::File::options()
        .write(true)
        .open(&out)
        .expect("the output exists");
    file.set_modified(old).expect("its time can be set");
    drop(file);
    write();
    let modified = || {
        std::fs::metadata(&out)
            .and_then(|m| m.modified())
            .expect("the output exists")
    };
    assert_eq!(modified(), old, "the same bytes are not written again");
    std::fs::write(dir.path().join("p.vsh"), "mov oPos, v1\n").expect("writable");
    write();
    assert_ne!(modified(), old, "new bytes are written");
}

#[test]
fn an_output_over_its_own_source_is_refused_and_the_source_kept() {
    let dir = package(&[("p.vsh", "mov oPos, v0\n")]);
    let (result, lines) = captured(dir.path(), |a| a.to(dir.path().join("p.vsh")), "p.vsh");
    assert_eq!(result.expect_err("the output is the source").codes(), ["PA014"]);
    assert!(
        lines.contains("error[PA014]: the output `PKG/p.vsh` is the input"),
        "{lines}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("p.vsh")).expect("kept"),
        "mov oPos, v0\n"
    );
}
