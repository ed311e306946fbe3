//! CMake builds that run polyasm: examples/cmake through cmake/polyasm.cmake (the outputs,
//! and rebuilds that follow the depfiles), and examples/cmake-nv2avsh, which calls `nv2avsh`
//! as nxdk projects do, with a link named nv2avsh to polyasm first on PATH. These need cmake
//! and a C compiler, and fail when cmake is missing.

mod common;
use common::*;

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const POLYASM: &str = env!("CARGO_BIN_EXE_polyasm");

/// `cmake ARGS`, which must succeed.
fn cmake(args: &[&str], path: Option<&std::ffi::OsStr>) -> Output {
    let mut command = Command::new("cmake");
    command.args(args);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let output = command.output().unwrap_or_else(|e| {
        panic!("cmake cannot be run ({e}): these tests need CMake 3.20 or later on PATH (apt-get install cmake)")
    });
    assert!(
        output.status.success(),
        "cmake {args:?} failed:\n{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    output
}

/// Copies the folder `from` into `to`, files and folders.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The lines of a build's output that say polyasm ran.
fn assembled(build: &Output) -> Vec<String> {
    stdout(build)
        .lines()
        .filter_map(|line| {
            line.split_once("polyasm: assembling ")
                .map(|(_, source)| source.to_string())
        })
        .collect()
}

/// Makes `path` newer than anything the build wrote, without waiting.
fn touch_later(path: &Path) {
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

#[test]
fn the_example_builds_checks_its_words_and_rebuilds_what_an_included_file_changes() {
    let dir = temp();
    // Folders with spaces: the depfiles escape them, and CMake reads them back.
    let (source, build) = (dir.path().join("source folder"), dir.path().join("build folder"));
    copy_tree(&Path::new(ROOT).join("examples/cmake"), &source);
    cmake(
        &[
            "-S",
            path_str(&source),
            "-B",
            path_str(&build),
            &format!("-DPOLYASM_EXECUTABLE={POLYASM}"),
            &format!("-DPOLYASM_CMAKE_DIR={ROOT}/cmake"),
        ],
        None,
    );
    let first = cmake(&["--build", path_str(&build)], None);
    assert_eq!(
        assembled(&first),
        ["shaders/transform.vsh", "shaders/tint.pp", "programs/countdown.mx"],
        "{}",
        stdout(&first)
    );
    let checked = Command::new(build.join("check_words")).output().unwrap();
    assert_eq!(stdout(&checked), "ok\n");
    assert!(checked.status.success());
    assert_eq!(
        std::fs::read_to_string(build.join("vm_programs/countdown.h.d")).unwrap(),
        format!(
            "{0}/vm_programs/countdown.h: {1}/programs/countdown.mx \\\n  {1}/programs/lib/print.mx\n",
            path_str(&build).replace(' ', "\\ "),
            path_str(&source).replace(' ', "\\ ")
        )
    );

    // Nothing changed: nothing runs.
    let again = cmake(&["--build", path_str(&build)], None);
    assert!(assembled(&again).is_empty(), "{}", stdout(&again));

    // The file countdown.mx includes changed: that source, and only it, is assembled again.
    let included = source.join("programs/lib/print.mx");
    touch_later(&included);
    let rebuilt = cmake(&["--build", path_str(&build)], None);
    assert_eq!(assembled(&rebuilt), ["programs/countdown.mx"], "{}", stdout(&rebuilt));

    // A broken include fails the build and leaves the last output and depfile as they were.
    let header = build.join("vm_programs/countdown.h");
    let (old_header, old_depfile) = (
        std::fs::read(&header).unwrap(),
        std::fs::read(build.join("vm_programs/countdown.h.d")).unwrap(),
    );
    let text = std::fs::read_to_string(&included).unwrap();
    std::fs::write(&included, text.replace("outu %n", "outq %n")).unwrap();
    touch_later(&included);
    let failed = Command::new("cmake")
        .args(["--build", path_str(&build)])
        .output()
        .unwrap();
    assert!(!failed.status.success());
    assert!(stderr(&failed).contains("error[MX"), "{}", stderr(&failed));
    assert_eq!(std::fs::read(&header).unwrap(), old_header);
    assert_eq!(
        std::fs::read(build.join("vm_programs/countdown.h.d")).unwrap(),
        old_depfile
    );
    std::fs::write(&included, text).unwrap();
    touch_later(&included);
    let fixed = cmake(&["--build", path_str(&build)], None);
    assert_eq!(assembled(&fixed), ["programs/countdown.mx"], "{}", stdout(&fixed));
}

#[cfg(unix)]
#[test]
fn an_nxdk_style_build_runs_polyasm_through_a_link_named_nv2avsh_on_path() {
    let dir = temp();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(POLYASM, bin.join("nv2avsh")).unwrap();
    let mut path = std::ffi::OsString::from(bin.as_os_str());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let build = dir.path().join("build");
    cmake(
        &["-S", &format!("{ROOT}/examples/cmake-nv2avsh"), "-B", path_str(&build)],
        Some(&path),
    );
    let cache = std::fs::read_to_string(build.join("CMakeCache.txt")).unwrap();
    assert!(
        cache.contains(&format!("NV2AVSH:FILEPATH={}/nv2avsh", path_str(&bin))),
        "another nv2avsh was found"
    );
    let built = cmake(&["--build", path_str(&build)], Some(&path));
    assert!(
        stdout(&built).contains("nv2avsh: shaders/passthrough.vsh"),
        "{}",
        stdout(&built)
    );
    let checked = Command::new(build.join("upload_check")).output().unwrap();
    assert_eq!(stdout(&checked), "ok: 3 instructions\n");
    assert!(checked.status.success());
    // The include as nv2avsh writes it to a file: no newline after the last line.
    let vshinc = std::fs::read(build.join("vertex_shaders/passthrough.vshinc")).unwrap();
    assert!(vshinc.ends_with(b"0x2070f849,"), "{}", String::from_utf8_lossy(&vshinc));
}
