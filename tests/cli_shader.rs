//! The shader-asm target through the built binary: assembling to bytecode and the other
//! formats, disassembling bytecode and hex back to source, `check`, diagnostics, broken
//! bytecode files, and `run` rendering to PNG.

use std::path::{Path, PathBuf};

mod common;
use common::*;

const UV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/shader/uv.sasm");

const UV_CANONICAL: &str = "getComponent0(pc, s0)\ngetComponent1(pc, s1)\ngetComponent0(s, s3)\n\
reciprocal(s3, s2)\ngetComponent1(s, s4)\nreciprocal(s4, s3)\nmultiply(s0, s2, s0)\n\
multiply(s1, s3, s1)\nsetComponent0(c, s0)\nsetComponent1(c, s1)\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn assemble_bytes(args: &[&str]) -> Vec<u8> {
    let out = run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    out.stdout
}

#[test]
fn assembles_to_a_bytecode_file_by_default_and_disassembles_it_back() {
    let dir = temp();
    let shb = dir.path().join("uv.shb");
    let out = run(&[UV, "-o", path_str(&shb)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&shb).unwrap();
    assert_eq!(&bytes[..12], b"SHBC\x01\x00\x00\x00\x0a\x00\x00\x00");
    assert_eq!(bytes.len(), 12 + 10 * 8);
    // getComponent0(pc, s0): opcode 5, a = 16 (pc), b = 0; no constant.
    assert_eq!(&bytes[12..20], [5, 16, 0, 0, 0, 0, 0, 0]);

    let out = run(&["disasm", path_str(&shb)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), UV_CANONICAL);

    let again = run_with_stdin(&["-t", "shader", "-", "-o", "-"], UV_CANONICAL.as_bytes());
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(again.stdout, bytes, "the canonical source assembles to the same bytes");
}

#[test]
fn the_alias_and_the_extensions_select_the_target() {
    let from_stdin = run_with_stdin(
        &["-t", "shader-asm", "-", "-o", "-"],
        b"load(s0, 1)\nsetComponent0(c, s0)\n",
    );
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert_eq!(&from_stdin.stdout[..4], b"SHBC");
    let targets = stdout(&run(&["targets"]));
    let line = targets.lines().find(|l| l.starts_with("shader")).expect("a shader row");
    assert!(line.contains(".sasm") && line.contains(".shb"), "{line}");
}

#[test]
fn hex_listing_and_json_formats() {
    let hex = stdout(&run(&[UV, "-f", "hex"]));
    let words: Vec<&str> = hex.lines().collect();
    assert_eq!(words.len(), 3 + 20);
    assert_eq!(&words[..4], ["43424853", "00000001", "0000000a", "00001005"]);
    let back = run_with_stdin(&["disasm", "-t", "shader"], hex.as_bytes());
    assert!(back.status.success(), "{}", stderr(&back));
    assert_eq!(stdout(&back), UV_CANONICAL, "hex words read back as the bytecode file");

    let listing = stdout(&run(&[UV, "-f", "listing"]));
    assert!(listing.contains("(target shader)"), "{listing}");
    assert!(
        listing.contains("43424853 00000001 0000000a     -  ; bytecode header"),
        "{listing}"
    );
    assert!(
        listing.contains("0003    00020303 00000000              6  reciprocal(s3, s2)"),
        "{listing}"
    );

    let json: serde_json::Value = serde_json::from_str(&stdout(&run(&[UV, "-f", "json"]))).unwrap();
    assert_eq!(json["target"], "shader");
    assert_eq!(json["word_bytes"], 4);
    assert_eq!(json["words"].as_array().unwrap().len(), 23);
    assert_eq!(json["listing"][1]["source"], "getComponent0(pc, s0) # s0 = pc.x");
}

#[test]
fn wgsl_and_glsl_write_the_program_as_a_native_shader() {
    use polyasm_shader::{native, runtime};
    let program = polyasm_shader::assemble_text(&std::fs::read_to_string(UV).unwrap()).unwrap();
    let dir = temp();
    let shb = dir.path().join("uv.shb");
    assert!(run(&[UV, "-o", path_str(&shb)]).status.success());
    for (format, text, interpreter) in [
        ("wgsl", native::wgsl(&program), runtime::WGSL),
        ("glsl", native::glsl(&program), runtime::GLSL),
    ] {
        let out = run(&[UV, "-f", format]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), text);
        assert!(text.contains("    // reciprocal(s3, s2)\n"), "{text}");
        assert_ne!(text, interpreter);
        // The extension of `-o` chooses the format.
        let file = dir.path().join(format!("uv.{format}"));
        let out = run(&[UV, "-o", path_str(&file)]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
        // Bytecode is assembled as source; its disassembly is the way from a .shb.
        let source = run(&["disasm", path_str(&shb)]);
        let out = run_with_stdin(&["-t", "shader", "-", "-f", format], &source.stdout);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), text);
    }
    let targets = stdout(&run(&["targets"]));
    let line = targets.lines().find(|l| l.starts_with("shader")).expect("a shader row");
    assert!(line.ends_with("json wgsl glsl"), "{line}");
    // Another target has no such format.
    let out = run(&["-t", "vu", "-", "-f", "wgsl", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PA009"), "{}", stderr(&out));
}

#[test]
fn native_shaders_refuse_to_overwrite_the_input_and_write_nothing_after_errors() {
    let dir = temp();
    let source = std::fs::read(UV).unwrap();
    let input = write(dir.path(), "uv.sasm", &source);
    for format in ["wgsl", "glsl"] {
        let out = run(&[path_str(&input), "-f", format, "-o", path_str(&input)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("PA014"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&input).unwrap(), source);

        let bad = write(dir.path(), "bad.sasm", b"load(s0, 1)\nsetComponent0(c, s9)\n");
        let target = dir.path().join(format!("bad.{format}"));
        let out = run(&[path_str(&bad), "-o", path_str(&target), "--error-format", "short"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("SH003"), "{}", stderr(&out));
        assert!(!target.exists());
        let out = run(&[path_str(&bad), "-f", format]);
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn check_reports_every_error_with_its_place_and_code() {
    let dir = temp();
    let bad = write(
        dir.path(),
        "bad.sasm",
        b"Add(s0, s1, s2)\nmultiply(v0, s1, s2)\nload(s0, 1e39)\nmove(s0, t)\n",
    );
    let out = run(&["check", UV, path_str(&bad), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let name = path_str(&bad);
    assert_eq!(
        stderr(&out),
        format!(
            "{name}:1:1: error[SH002]: unknown instruction `Add`\n\
             {name}:2:10: error[SH005]: `multiply` takes a scalar here, `v0` is a vector\n\
             {name}:3:10: error[SH010]: `1e39` is too large for a 32-bit float\n\
             {name}:4:10: error[SH008]: `move` writes `t`, an input, which is read only\n"
        )
    );
    let good = run(&["check", UV]);
    assert!(good.status.success(), "{}", stderr(&good));
}

#[test]
fn human_errors_carry_help_and_leave_the_output_alone() {
    let dir = temp();
    let bad = write(dir.path(), "bad.sasm", b"getcomponent0(pc, s0)\n");
    let target = write(dir.path(), "out.shb", b"old");
    let out = run(&[path_str(&bad), "-o", path_str(&target), "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[SH002]: unknown instruction `getcomponent0`"),
        "{err}"
    );
    assert!(err.contains("did you mean `getComponent0`?"), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    let fresh = dir.path().join("new.shb");
    let out = run(&[path_str(&bad), "-o", path_str(&fresh)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!fresh.exists());
}

#[test]
fn a_bom_and_crlf_line_breaks_are_read_like_plain_text() {
    let plain = assemble_bytes(&[UV, "-o", "-"]);
    let text = std::fs::read_to_string(UV).unwrap();
    let dir = temp();
    let crlf = write(
        dir.path(),
        "crlf.sasm",
        format!("\u{feff}{}", text.replace('\n', "\r\n")).as_bytes(),
    );
    assert_eq!(assemble_bytes(&[path_str(&crlf), "-o", "-"]), plain);
}

#[test]
fn the_unread_result_warning_passes_unless_made_an_error() {
    let dir = temp();
    let file = write(
        dir.path(),
        "w.sasm",
        b"load(s0, 1)\nload(s1, 2)\nsetComponent0(c, s0)\n",
    );
    let out = run(&["check", path_str(&file), "--error-format", "short"]);
    assert!(out.status.success());
    assert!(
        stderr(&out).contains(":2:6: warning[SH015]: the result of `load` in `s1` is never read"),
        "{}",
        stderr(&out)
    );
    let out = run(&["check", path_str(&file), "-W", "error=SH015"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["check", path_str(&file), "-W", "no-SH015"]);
    assert!(out.status.success() && out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn a_program_past_the_limit_is_one_error() {
    let dir = temp();
    let text = "getComponent0(pc, s0)\n".repeat(65_536) + "setComponent0(c, s0)\n";
    let file = write(dir.path(), "long.sasm", text.as_bytes());
    let out = run(&["check", path_str(&file), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "{}:65537:1: error[SH014]: program is longer than 65536 instructions\n",
            path_str(&file)
        )
    );
}

#[test]
fn broken_bytecode_files_are_refused_with_the_offset_and_code() {
    let dir = temp();
    let good = assemble_bytes(&[UV, "-o", "-"]);
    let cases: Vec<(&str, Vec<u8>, &[&str])> = vec![
        (
            "magic.shb",
            b"ELF\x7f\x01\x00\x00\x00\x00\x00\x00\x00".to_vec(),
            &["SH020"],
        ),
        ("cut.shb", good[..good.len() - 3].to_vec(), &["SH023"]),
        ("long.shb", [good.as_slice(), &[0]].concat(), &["SH024"]),
        ("version.shb", [&good[..4], &[9, 0], &good[6..]].concat(), &["SH021"]),
        ("flags.shb", [&good[..6], &[1, 0], &good[8..]].concat(), &["SH022"]),
        ("count.shb", [&good[..8], &[0xff; 4], &good[12..]].concat(), &["SH030"]),
        (
            "instructions.shb",
            {
                let mut bad = good.clone();
                bad[12] = 14; // opcode past load
                bad[20 + 1] = 20; // getComponent1's vector field: no register 20
                bad[28 + 2] = 17; // getComponent0(s, t): writes an input
                bad[36 + 3] = 1; // reciprocal's unused third field
                bad[44 + 4] = 1; // a constant on getComponent1
                bad
            },
            &["SH025", "SH026", "SH027", "SH028", "SH028"],
        ),
    ];
    for (name, bytes, codes) in cases {
        let path = write(dir.path(), name, &bytes);
        let out = run(&["disasm", path_str(&path), "--error-format", "short"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        let got = error_codes(&err);
        assert_eq!(got, codes, "{name}: {err}");
        assert!(err.contains("at byte "), "{name}: {err}");
    }
    let mut infinite = run_with_stdin(
        &["-t", "shader", "-", "-o", "-"],
        b"load(s0, 1)\nsetComponent0(c, s0)\n",
    )
    .stdout;
    infinite[16..20].copy_from_slice(&f32::INFINITY.to_bits().to_le_bytes());
    let path = write(dir.path(), "inf.shb", &infinite);
    let out = run(&["disasm", path_str(&path), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[SH029]"), "{}", stderr(&out));
    assert!(stderr(&out).contains("at byte 16"), "{}", stderr(&out));
}

#[test]
fn every_code_is_explained() {
    for code in ["SH001", "SH008", "SH015", "SH020", "SH030"] {
        let out = run(&["explain", code]);
        assert!(out.status.success(), "{code}");
        assert!(stdout(&out).contains(code), "{code}: {}", stdout(&out));
    }
}

/// The pixel at column `x`, row `y` from the bottom, of a PNG file.
fn png_pixel(path: &Path, x: u32, y: u32) -> [u8; 4] {
    read_png(path).pixel_from_bottom(x, y)
}

#[test]
fn run_renders_a_png_black_at_the_bottom_left_and_yellow_at_the_top_right() {
    let dir = temp();
    let out_png = dir.path().join("uv.png");
    let out = run(&["run", UV, "-o", out_png.to_str().unwrap(), "--size", "64x36"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // (0.5 / 64, 0.5 / 36) and (63.5 / 64, 35.5 / 36), times 255, rounded.
    assert_eq!(png_pixel(&out_png, 0, 0), [2, 4, 0, 255]);
    assert_eq!(png_pixel(&out_png, 63, 35), [253, 251, 0, 255]);
    // The default size, and alpha kept from `c.w` (never written: 0).
    let out = run(&["run", UV, "-o", out_png.to_str().unwrap(), "--alpha", "keep"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(png_pixel(&out_png, 639, 359)[3], 0);
    // From bytecode too.
    let shb = dir.path().join("uv.shb");
    assert!(run(&[UV, "-o", shb.to_str().unwrap()]).status.success());
    let from_shb = dir.path().join("shb.png");
    let out = run(&[
        "run",
        shb.to_str().unwrap(),
        "-o",
        from_shb.to_str().unwrap(),
        "--size",
        "64x36",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(png_pixel(&from_shb, 63, 35), [253, 251, 0, 255]);
}

#[test]
fn run_refuses_bad_sizes_times_and_alpha_as_usage_errors() {
    let dir = temp();
    let out_png = dir.path().join("x.png");
    std::fs::write(&out_png, b"keep").unwrap();
    for (option, value) in [
        ("--size", "0x10"),
        ("--size", "640"),
        ("--size", "16385x1"),
        ("--size", "16384x16384"),
        ("--time", "soon"),
        ("--time", "inf"),
        ("--alpha", "half"),
    ] {
        let out = run(&[
            "run",
            UV,
            "-o",
            out_png.to_str().unwrap(),
            option,
            value,
            "--error-format",
            "short",
        ]);
        assert_eq!(out.status.code(), Some(2), "{option} {value}");
        assert!(stderr(&out).contains("PA006"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&out_png).unwrap(), b"keep");
    }
}

#[test]
fn emit_runtime_prints_the_interpreters_and_refuses_what_does_not_apply() {
    for (name, text) in [
        ("wgsl", polyasm_shader::runtime::WGSL),
        ("glsl", polyasm_shader::runtime::GLSL),
    ] {
        let out = run(&["-t", "shader", "--emit-runtime", name]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
    }
    let dir = temp();
    let file = dir.path().join("interp.wgsl");
    let out = run(&[
        "-t",
        "shader-asm",
        "--emit-runtime",
        "wgsl",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), polyasm_shader::runtime::WGSL);
    for args in [
        &["-t", "shader", "--emit-runtime", "hlsl"][..],
        &["-t", "vu", "--emit-runtime", "wgsl"],
        &[UV, "--emit-runtime", "wgsl"],
        &["-t", "shader", "--emit-runtime", "wgsl", "-f", "hex"],
    ] {
        let out = run(&[args, &["--error-format", "short"]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("PA025"), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn run_renders_on_the_device_asked_for() {
    let dir = temp();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let render = |device: &str, out: &str| {
        polyasm()
            .args(["run", UV, "-o", out, "--size", "64x36", "--device", device])
            // As on a server: no desktop session, no choice of Vulkan device.
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("NODEVICE_SELECT")
            .env_remove("MESA_VK_DEVICE_SELECT")
            .output()
            .unwrap()
    };
    let cpu = render("cpu", &path("cpu.png"));
    assert!(cpu.status.success(), "{}", stderr(&cpu));
    assert!(!stderr(&cpu).contains("note:"), "{}", stderr(&cpu));
    // `auto` renders, on a hardware GPU or on the CPU with a note.
    let auto = render("auto", &path("auto.png"));
    assert!(auto.status.success(), "{}", stderr(&auto));
    let gpu = render("gpu", &path("gpu.png"));
    if std::env::var("POLYASM_NO_GPU").is_ok_and(|v| v == "1") && !gpu.status.success() {
        assert!(stderr(&gpu).contains("SH040"), "{}", stderr(&gpu));
    } else {
        assert!(
            gpu.status.success(),
            "no GPU adapter (set POLYASM_NO_GPU=1 on a machine without one): {}",
            stderr(&gpu)
        );
        // Nothing on stderr: not even Mesa's device-selection layer's complaint about the
        // missing session.
        assert_eq!(stderr(&gpu), "");
        let near = |a: [u8; 4], b: [u8; 4]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 1);
        for (x, y) in [(0, 0), (63, 35), (10, 20), (40, 5)] {
            let on_gpu = png_pixel(Path::new(&path("gpu.png")), x, y);
            assert!(near(on_gpu, png_pixel(Path::new(&path("cpu.png")), x, y)), "({x}, {y})");
        }
        assert!(near(png_pixel(Path::new(&path("gpu.png")), 0, 0), [2, 4, 0, 255]));
        assert!(near(png_pixel(Path::new(&path("gpu.png")), 63, 35), [253, 251, 0, 255]));
    }
    // An adapter that does not exist: `gpu` fails with SH040 and writes nothing, `auto` falls
    // back to the CPU.
    let missing = polyasm()
        .args([
            "run",
            UV,
            "-o",
            &path("none.png"),
            "--device",
            "gpu",
            "--error-format",
            "short",
        ])
        .env("WGPU_ADAPTER_NAME", "no such adapter")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("SH040"), "{}", stderr(&missing));
    assert!(!dir.path().join("none.png").exists());
    let fallback = polyasm()
        .args(["run", UV, "-o", &path("fallback.png"), "--size", "64x36"])
        .env("WGPU_ADAPTER_NAME", "no such adapter")
        .output()
        .unwrap();
    assert!(fallback.status.success(), "{}", stderr(&fallback));
    assert!(
        stderr(&fallback).contains("note: rendering on the CPU"),
        "{}",
        stderr(&fallback)
    );
    assert_eq!(
        std::fs::read(path("fallback.png")).unwrap(),
        std::fs::read(path("cpu.png")).unwrap()
    );
    let bad = run(&["run", UV, "--device", "tpu", "--error-format", "short"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("PA006"));
}

#[test]
fn watch_renders_again_when_the_source_changes_and_survives_errors() {
    use std::io::Read;
    let dir = temp();
    let source = dir.path().join("watched.sasm");
    let picture = dir.path().join("watched.png");
    std::fs::write(&source, "load(s0, 1)\nsetComponent0(c, s0)\n").unwrap();
    let mut child = polyasm()
        .args([
            "run",
            "--watch",
            source.to_str().unwrap(),
            "-o",
            picture.to_str().unwrap(),
        ])
        .args(["--size", "4x4", "--device", "cpu", "--error-format", "short"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Waits (up to a minute, polling) until `done` holds.
    let wait = |what: &str, done: &dyn Fn() -> bool| {
        for _ in 0..600 {
            if done() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("--watch never got to: {what}");
    };
    let red = || picture.exists() && png_pixel(&picture, 0, 0) == [255, 0, 0, 255];
    wait("the first picture", &red);
    // A mistake is reported and the watch goes on; the last picture stays.
    std::fs::write(&source, "load(s0, 1)\nsetComponent9(c, s0)\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(red(), "the picture is kept while the source is wrong");
    // The fixed source is rendered again: green now.
    std::fs::write(&source, "load(s0, 1)\nsetComponent1(c, s0)\n").unwrap();
    let green = || picture.exists() && png_pixel(&picture, 0, 0) == [0, 255, 0, 255];
    wait("the picture of the changed source", &green);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.contains("SH002"), "{err}");
    // Standard input cannot be watched.
    let out = run(&["run", "--watch", "-t", "shader", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PA006"), "{}", stderr(&out));
}

#[test]
fn frames_render_an_animation_to_numbered_files() {
    let dir = temp();
    // Red is the time: frame i of `--fps 4` from `--time 0.25` has t = 0.25 + i / 4.
    let source = write(dir.path(), "clock.sasm", b"setComponent0(c, t)\n");
    let pattern = dir.path().join("frames_%02d.png");
    let out = run(&[
        "run",
        source.to_str().unwrap(),
        "--frames",
        "4",
        "--fps",
        "4",
        "--time",
        "0.25",
        "--size",
        "3x2",
        "--device",
        "cpu",
        "-o",
        pattern.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let reds: Vec<u8> = (0..4)
        .map(|i| png_pixel(&dir.path().join(format!("frames_{i:02}.png")), 2, 1)[0])
        .collect();
    assert_eq!(reds, [64, 128, 191, 255]);
    assert!(!dir.path().join("frames_04.png").exists());
    // Usage errors: no pattern, no `-o`, `--fps` alone, absurd counts.
    for args in [
        &["--frames", "2", "-o", "still.png"][..],
        &["--frames", "2"],
        &["--fps", "2", "-o", "x.png"],
        &["--frames", "0", "-o", "%d.png"],
        &["--frames", "2", "--fps", "0", "-o", "%d.png"],
    ] {
        let out = run(&[&["run", source.to_str().unwrap(), "--error-format", "short"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("PA006"), "{}", stderr(&out));
    }
    // A frame that would be the input is refused, and the input is left alone.
    let input = write(dir.path(), "prog1.sasm", b"setComponent0(c, t)\n");
    let pattern = dir.path().join("prog%d.sasm");
    let out = run(&[
        "run",
        input.to_str().unwrap(),
        "--frames",
        "3",
        "--device",
        "cpu",
        "--error-format",
        "short",
        "-o",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PA014"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&input).unwrap(), b"setComponent0(c, t)\n");
}

#[cfg(unix)]
#[test]
fn a_picture_piped_into_head_exits_0_without_a_message() {
    let dir = temp();
    // A picture far larger than a pipe's buffer, so that the write meets the closed pipe.
    let piped = piped_into_head(dir.path(), &format!("run '{UV}' -o - --size 2000x2000 --device cpu"), 8);
    assert_eq!(piped.out, b"\x89PNG\r\n\x1a\n");
    assert_eq!((piped.status.as_str(), piped.err.as_str()), ("0", ""));
}

#[cfg(unix)]
#[test]
fn a_signal_during_an_animation_leaves_whole_frames_and_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let sphere = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/shader/sphere.sasm");
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = temp();
        let pattern = dir.path().join("%04d.png");
        // Far more frames than can be rendered before the signal.
        let mut child = polyasm()
            .args([
                "run", sphere, "--device", "cpu", "--size", "512x512", "--frames", "100000",
            ])
            .args(["-o", path_str(&pattern)])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let first = dir.path().join("0000.png");
        let deadline = std::time::Instant::now() + HANG;
        while !first.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // SAFETY: kill sends a signal to the child we started.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = wait_bounded(&mut child, "an animation after a signal");
        assert_eq!(status.signal(), Some(signal));
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().any(|n| n == "0000.png"), "{names:?}");
        for name in &names {
            assert!(name.ends_with(".png") && !name.starts_with('.'), "left behind: {name}");
            // Each frame on disk is a whole picture.
            let path = dir.path().join(name);
            assert_eq!(png_pixel(&path, 0, 0)[3], 255, "{name}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// v2, ShaderVM's current dialect.

const SHADERVM_UV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/shader/shadervm_uv.sasm");
const SHADERVM_SPHERE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/shader/shadervm_sphere.sasm");

/// A colour channel in 8 bits, as the renderer converts it.
fn byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[test]
fn v2_programs_assemble_to_bytecode_flagged_v2_and_disassemble_in_v2() {
    let dir = temp();
    for source in [SHADERVM_UV, SHADERVM_SPHERE] {
        let shb = dir.path().join("v2.shb");
        let out = run(&[source, "-o", path_str(&shb)]);
        assert!(out.status.success(), "{source}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{source}: no warning");
        let bytes = std::fs::read(&shb).unwrap();
        assert_eq!(
            &bytes[..8],
            b"SHBC\x01\x00\x01\x00",
            "{source}: version 1, flags 1 (v2)"
        );

        let out = run(&["disasm", path_str(&shb)]);
        assert!(out.status.success(), "{source}: {}", stderr(&out));
        let text = stdout(&out);
        // The source's instructions, in order, without its comments and spacing.
        let lines: Vec<String> = std::fs::read_to_string(source)
            .unwrap()
            .lines()
            .map(|l| l.split('#').next().unwrap().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(text.lines().collect::<Vec<_>>(), lines, "{source}");

        // The disassembly needs no `--dialect`: it is detected again, and gives the same bytes.
        let again = run_with_stdin(&["-t", "shader", "-", "-o", "-"], text.as_bytes());
        assert!(again.status.success(), "{}", stderr(&again));
        assert_eq!(again.stdout, bytes, "{source}");
        let named = run_with_stdin(&["-t", "shader", "--dialect", "v2", "-", "-o", "-"], text.as_bytes());
        assert_eq!(named.stdout, bytes, "{source} with --dialect v2");
    }
    // The UV program's first instructions: load(s4, 1) is opcode 13, register 4, the constant
    // 1.0; getComponent(s, s2, z) is opcode 14 with s (18), s2 (2) and z (20).
    let bytes = assemble_bytes(&[SHADERVM_UV, "-o", "-"]);
    assert_eq!(&bytes[12..20], [13, 4, 0, 0, 0x00, 0x00, 0x80, 0x3f]);
    assert_eq!(&bytes[20..28], [14, 18, 2, 20, 0, 0, 0, 0]);
    let listing = stdout(&run(&[SHADERVM_UV, "-f", "listing"]));
    assert!(
        listing.contains("43424853 00010001 0000000b     -  ; bytecode header: SHBC, version 1, flags 1 (v2)"),
        "{listing}"
    );
}

#[test]
fn the_v2_uv_program_renders_red_across_and_green_up() {
    let dir = temp();
    let png = dir.path().join("uv.png");
    let (w, h) = (640u32, 360u32);
    let out = run(&["run", SHADERVM_UV, "-o", path_str(&png), "--device", "cpu"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Red is (x + 0.5) / 640, green (y + 0.5) / 360, blue 0.
    for (x, y) in [(0, 0), (639, 359), (320, 180), (100, 300), (639, 0)] {
        let expected = [
            byte((x as f32 + 0.5) / w as f32),
            byte((y as f32 + 0.5) / h as f32),
            0,
            255,
        ];
        assert_eq!(png_pixel(&png, x, y), expected, "({x}, {y})");
    }
    assert_eq!(png_pixel(&png, 0, 0), [0, 0, 0, 255]);
    assert_eq!(png_pixel(&png, 639, 359), [255, 255, 0, 255]);
    // 320.5 / 640 = 0.5008 and 180.5 / 360 = 0.5014: 128 each.
    assert_eq!(png_pixel(&png, 320, 180), [128, 128, 0, 255]);
    // ShaderVM never writes c.w: with the alpha kept, it is 0.
    let out = run(&[
        "run",
        SHADERVM_UV,
        "-o",
        path_str(&png),
        "--alpha",
        "keep",
        "--size",
        "8x8",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(png_pixel(&png, 7, 7), [byte(7.5 / 8.0), byte(7.5 / 8.0), 0, 0]);
}

#[test]
fn the_v2_sphere_program_renders_a_white_disc_of_radius_sqrt_one_third() {
    let dir = temp();
    let png = dir.path().join("sphere.png");
    let out = run(&[
        "run",
        SHADERVM_SPHERE,
        "-o",
        path_str(&png),
        "--device",
        "cpu",
        "--alpha",
        "keep",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The ray (x', y', -1) meets the unit sphere at (0, 0, -2) where 16 - 12 a > 0 with
    // a = x'^2 + y'^2 + 1; x' = (2 (x + 0.5) / 640 - 1) 640 / 360, y' = 2 (y + 0.5) / 360 - 1.
    // The grey is 100 times the discriminant, both clamped to [0, 1].
    let grey = |x: u32, y: u32| {
        let u = (2.0 * (x as f32 + 0.5) / 640.0 - 1.0) * (640.0 / 360.0);
        let v = 2.0 * (y as f32 + 0.5) / 360.0 - 1.0;
        let discriminant = 16.0 - 12.0 * (u * u + v * v + 1.0);
        byte(100.0 * discriminant.clamp(0.0, 1.0))
    };
    // The centre, inside near the edge, just outside, far outside, the corners.
    for (x, y) in [
        (320, 180),
        (424, 180),
        (425, 180),
        (320, 283),
        (320, 285),
        (0, 0),
        (639, 359),
        (100, 50),
    ] {
        let g = grey(x, y);
        assert_eq!(png_pixel(&png, x, y), [g, g, g, 255], "({x}, {y})");
    }
    // Worked out: at the centre a = 1 + 2e-5, so the discriminant is about 4: white. At
    // x = 424, x' = 0.5847, a = 1.3419, 16 - 12 a = -0.10: black; at x = 419, x' = 0.5569,
    // a = 1.3101, 16 - 12 a = 0.28: white.
    assert_eq!(png_pixel(&png, 320, 180), [255, 255, 255, 255]);
    assert_eq!(png_pixel(&png, 419, 180), [255, 255, 255, 255]);
    assert_eq!(png_pixel(&png, 424, 180), [0, 0, 0, 255]);
    assert_eq!(png_pixel(&png, 0, 0), [0, 0, 0, 255]);
    // Bytecode renders the same.
    let shb = dir.path().join("sphere.shb");
    assert!(run(&[SHADERVM_SPHERE, "-o", path_str(&shb)]).status.success());
    let again = dir.path().join("again.png");
    let out = run(&[
        "run",
        path_str(&shb),
        "-o",
        path_str(&again),
        "--device",
        "cpu",
        "--alpha",
        "keep",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&png).unwrap());
}

#[test]
fn v2_is_detected_from_its_forms_and_shared_forms_stay_v1() {
    let dir = temp();
    // Only forms both dialects share: v1 bytecode, flags 0.
    let shared = write(
        dir.path(),
        "shared.sasm",
        b"load(s0, 1)\nmove(s0, s1)\nadd(s0, s1, s2)\n",
    );
    let bytes = assemble_bytes(&[path_str(&shared), "-o", "-", "-W", "no-SH015"]);
    assert_eq!(&bytes[4..8], [1, 0, 0, 0]);
    // Each v2-only form makes a file v2: `z`, `sign`, and memory.
    for (name, text) in [
        ("z.sasm", "move(z, s0)\nload(s1, 1)\nsetComponent0(c, s0)\n"),
        ("sign.sasm", "load(s0, 3)\nsign(s0, s1)\n"),
        ("memory.sasm", "load(s0, 7)\nwriteMemory(s0, z)\nreadMemory(s1, z)\n"),
    ] {
        let file = write(dir.path(), name, text.as_bytes());
        let out = run(&["check", path_str(&file), "--error-format", "short", "-W", "no-SH015"]);
        if name == "z.sasm" {
            // `setComponent0` is v1's: in a file that is v2 from `z` on, a mix.
            assert_eq!(out.status.code(), Some(1), "{name}");
            let err = stderr(&out);
            assert!(
                err.contains(":3:1: error[SH016]: `setComponent0` is v1's, but this file is v2 from `z` on"),
                "{err}"
            );
        } else {
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            let bytes = assemble_bytes(&[path_str(&file), "-o", "-", "-W", "no-SH015"]);
            assert_eq!(&bytes[4..8], [1, 0, 1, 0], "{name}");
        }
    }
}

#[test]
fn mixing_the_dialects_is_an_error_at_each_form_of_the_second() {
    let dir = temp();
    let file = write(
        dir.path(),
        "mixed.sasm",
        b"getComponent(pc, s0, z)\ngetComponent1(pc, s1)\nmove(s7, s0)\nsetComponent(c, s0, z)\n",
    );
    let out_shb = write(dir.path(), "out.shb", b"old");
    let out = run(&[path_str(&file), "-o", path_str(&out_shb), "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[SH016]: `getComponent1` is v1's, but this file is v2 from `getComponent` on"),
        "{err}"
    );
    assert!(
        err.contains("error[SH016]: `s7` is v1's, but this file is v2 from `getComponent` on"),
        "{err}"
    );
    assert!(err.contains("the first v2 form"), "{err}");
    assert!(
        err.contains("write the file in one dialect; `--dialect v1` or `--dialect v2` names it"),
        "{err}"
    );
    assert!(
        err.contains("v2's `getComponent(vA, sA, sB)` takes the component from a register (`z` for 0)"),
        "{err}"
    );
    assert_eq!(err.matches("error[").count(), 2, "{err}");
    assert_eq!(std::fs::read(&out_shb).unwrap(), b"old", "the output is left alone");
    // The first form decides: a v1 file with a v2 form later is a mix the other way round.
    let file = write(
        dir.path(),
        "mixed1.sasm",
        b"getComponent0(pc, s0)\nsign(s0, s1)\nsetComponent0(c, s1)\n",
    );
    let out = run(&["check", path_str(&file), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "{}:2:1: error[SH016]: `sign` is v2's, but this file is v1 from `getComponent0` on\n",
            path_str(&file)
        )
    );
}

#[test]
fn dialect_v1_refuses_v2_forms_with_a_help_line_naming_dialect_v2() {
    let dir = temp();
    let out = run(&[SHADERVM_UV, "--dialect", "v1", "-o", "-", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[SH002]: unknown instruction `getComponent`"),
        "{err}"
    );
    assert!(err.contains("to assemble the file as v2, give `--dialect v2`"), "{err}");
    assert!(
        err.contains("`getComponent` is v2's; v1 writes the component in the name"),
        "{err}"
    );
    // `z` in an instruction both dialects have.
    let file = write(
        dir.path(),
        "z.sasm",
        b"move(z, s0)
setComponent0(c, s0)
",
    );
    let out = run(&["check", path_str(&file), "--dialect", "v1", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[SH003]: unknown register `z`"), "{err}");
    assert!(err.contains("to assemble the file as v2, give `--dialect v2`"), "{err}");
    assert!(err.contains("in v1, load 0 into a register of your own"), "{err}");
    // And v2 refuses v1's forms the same way.
    let file = write(
        dir.path(),
        "v1.sasm",
        b"getComponent0(pc, s0)\nmove(s0, s6)\nsetComponent0(c, s6)\n",
    );
    let out = run(&["check", path_str(&file), "--dialect", "v2", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let codes: Vec<&str> = err.lines().map(|l| &l[l.find("error[").unwrap() + 6..][..5]).collect();
    assert_eq!(codes, ["SH002", "SH003", "SH002"], "{err}");
    let out = run(&["check", path_str(&file), "--dialect", "v2", "--color", "never"]);
    assert!(stderr(&out).contains("to assemble the file as v1, give `--dialect v1`"));
    assert!(stderr(&out).contains("v2 has the scalars s0 to s5 and the vectors v0 to v4"));
    // With `--dialect v1` the v1 file is fine, and so it is without the option.
    for args in [
        vec!["check", path_str(&file), "--dialect", "v1"],
        vec!["check", path_str(&file)],
    ] {
        let out = run(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    // Running takes the option too.
    let png = dir.path().join("x.png");
    let out = run(&[
        "run",
        SHADERVM_UV,
        "--dialect",
        "v2",
        "-o",
        path_str(&png),
        "--size",
        "4x4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&[
        "run",
        SHADERVM_UV,
        "--dialect",
        "v1",
        "-o",
        path_str(&png),
        "--error-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("SH002"), "{}", stderr(&out));
}

#[test]
fn an_unknown_dialect_is_a_usage_error() {
    let out = run(&[UV, "--dialect", "v3", "-o", "-", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("error[PA006]: invalid value `v3` for `--dialect`"),
        "{err}"
    );
    let out = run(&[UV, "--dialect", "v3", "-o", "-", "--color", "never"]);
    assert!(stderr(&out).contains("the dialects are: v1, v2"), "{}", stderr(&out));
}

#[test]
fn v2_load_takes_whole_numbers_up_to_24_bits() {
    let dir = temp();
    let file = write(
        dir.path(),
        "numbers.sasm",
        b"load(s0, 16777215)\nload(s1, 0.5)\nload(s2, -1)\nload(s3, 1e3)\nload(s4, 16777216)\nsign(s0, s5)\n",
    );
    let out = run(&["check", path_str(&file), "--error-format", "short", "-W", "no-SH015"]);
    assert_eq!(out.status.code(), Some(1));
    let name = path_str(&file);
    assert_eq!(
        stderr(&out),
        format!(
            "{name}:2:10: error[SH017]: v2's `load` takes a whole number from 0 to 16777215, not `0.5`\n\
             {name}:3:10: error[SH017]: v2's `load` takes a whole number from 0 to 16777215, not `-1`\n\
             {name}:4:10: error[SH017]: v2's `load` takes a whole number from 0 to 16777215, not `1e3`\n\
             {name}:5:10: error[SH017]: v2's `load` takes a whole number from 0 to 16777215, not `16777216`\n"
        )
    );
    let out = run(&["check", path_str(&file), "--color", "never", "-W", "no-SH015"]);
    assert!(
        stderr(&out).contains("build it from whole numbers: 0.5 is `load(s0, 2)` then `reciprocal(s0, s0)`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn v2_warns_about_indexes_always_out_of_range_and_memory_never_read() {
    let dir = temp();
    let file = write(
        dir.path(),
        "warn.sasm",
        b"load(s0, 4)\ngetComponent(pc, s1, s0)\nload(s2, 64)\nwriteMemory(s1, s2)\n\
          load(s3, 5)\nwriteMemory(s1, s3)\nsetComponent(c, s1, z)\n",
    );
    let out = run(&["check", path_str(&file), "--error-format", "short"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let name = path_str(&file);
    assert_eq!(
        stderr(&out),
        format!(
            "{name}:2:22: warning[SH018]: the component `getComponent` picks is always outside 0 to 3\n\
             {name}:4:17: warning[SH018]: the memory cell `writeMemory` picks is always outside 0 to 63\n\
             {name}:6:1: warning[SH015]: the result of `writeMemory` in memory cell 5 is never read\n"
        )
    );
}

#[test]
fn bytecode_of_one_dialect_with_forms_of_the_other_is_refused() {
    let dir = temp();
    let v2 = assemble_bytes(&[SHADERVM_UV, "-o", "-"]);
    let v1 = assemble_bytes(&[UV, "-o", "-"]);
    let cases: Vec<(&str, Vec<u8>, &[&str])> = vec![
        // The v2 flag cleared: getComponent is v2's, and so is z.
        (
            "unflagged.shb",
            [&v2[..6], &[0, 0], &v2[8..]].concat(),
            &["SH025"; 11][..4],
        ),
        // The v2 flag on a v1 program: the flag is what is wrong.
        ("flagged.shb", [&v1[..6], &[1, 0], &v1[8..]].concat(), &["SH022"]),
        // A reserved flag.
        ("reserved.shb", [&v2[..6], &[3, 0], &v2[8..]].concat(), &["SH022"]),
        (
            "fraction.shb",
            {
                let mut bad = v2.clone();
                bad[16..20].copy_from_slice(&0.5f32.to_bits().to_le_bytes()); // load(s4, 0.5)
                bad
            },
            &["SH031"],
        ),
        (
            "s6.shb",
            {
                let mut bad = v2.clone();
                bad[13] = 6; // load(s6, 1)
                bad
            },
            &["SH026"],
        ),
    ];
    for (name, bytes, codes) in cases {
        let path = write(dir.path(), name, &bytes);
        let out = run(&["disasm", path_str(&path), "--error-format", "short"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        let got = error_codes(&err);
        if name == "unflagged.shb" {
            assert!(got.iter().all(|c| *c == "SH025" || *c == "SH026"), "{name}: {err}");
            assert!(
                err.contains("`getComponent` is v2's, and the file's flags say v1"),
                "{err}"
            );
        } else {
            assert_eq!(got, codes, "{name}: {err}");
        }
    }
}

#[test]
fn bytecode_errors_print_constants_as_the_disassembler_does_and_call_z_read_only() {
    let dir = temp();
    // sign(s0, s1), then load(s0, the smallest subnormal): a v2 file with a constant v2 has not.
    let header = [b"SHBC".as_slice(), &[1, 0, 1, 0], &2u32.to_le_bytes()].concat();
    let sign = [16u32 | (1 << 16), 0];
    let tiny = [
        header.clone(),
        sign.iter().flat_map(|w| w.to_le_bytes()).collect(),
        13u32.to_le_bytes().to_vec(),
        1u32.to_le_bytes().to_vec(),
    ]
    .concat();
    let path = write(dir.path(), "tiny.shb", &tiny);
    let out = run(&["disasm", path_str(&path), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.contains("`load`'s constant 1e-45 (0x00000001)"), "{err}");
    // sign(s0, z): writes the always-zero register.
    let writes_z = [
        header,
        sign.iter().flat_map(|w| w.to_le_bytes()).collect(),
        (16u32 | (20 << 16)).to_le_bytes().to_vec(),
        0u32.to_le_bytes().to_vec(),
    ]
    .concat();
    let path = write(dir.path(), "z.shb", &writes_z);
    let out = run(&["disasm", path_str(&path), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[SH027]"), "{err}");
    assert!(
        err.contains("writes `z`, which always reads 0 and is read only"),
        "{err}"
    );
    assert!(!err.contains("an input"), "{err}");
}

/// The code of each line of short-format errors (`""` for a line that is not an error).
fn error_codes(err: &str) -> Vec<&str> {
    err.lines()
        .map(|l| l.split("error[").nth(1).map_or("", |rest| &rest[..5]))
        .collect()
}
