//! `polyasm run -t lima` through the built binary: one fragment printed, every option
//! (`--varying`, `--uniform`, `--texture` with both filters and wraps, `--fragcoord`,
//! `--size` with `-o`, `--max-steps`, `--fb-color`, `--fb-depth`), Mesa's text and binary
//! programs (`.mbs`, `--binary`) as input, each usage error (exit 2) and run error (exit 1)
//! with the output file left as it was, the picture kept off a terminal, a closed pipe, and
//! an output that is one of the inputs.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod common;
use common::*;

/// Mesa's clear program in the proposed syntax: (1, 1, 1, 1).
const CLEAR: &str = "stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734375\n";
/// The colour is the texture at varying 0.
const TEXTURE: &str = "stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n";
/// The colour is varying 0: when rendering, (u, v, 0, 1).
const VARYING_0: &str = "stop, load.v $0 0\n";
/// A loop that never ends: the branch is on line 2.
const LOOP: &str = "top:\nbranch top\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `polyasm run -t lima` on `program` (given as a file `prog.pp` in a fresh folder) with `args`.
fn run_program(program: &str, args: &[&str]) -> Output {
    let dir = temp();
    let source = write(dir.path(), "prog.pp", program.as_bytes());
    let mut all = vec!["run", "-t", "lima", path_str(&source), "--error-format", "short"];
    all.extend_from_slice(args);
    run(&all)
}

/// The line printed for one fragment, which must succeed without a diagnostic.
fn fragment(program: &str, args: &[&str]) -> String {
    let out = run_program(program, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    stdout(&out)
}

fn assert_close(got: [f32; 4], want: [f32; 4]) {
    assert!(
        (0..4).all(|i| (got[i] - want[i]).abs() <= 1e-6),
        "{got:?} against {want:?}"
    );
}

/// `value` in 8 bits, as a picture stores it.
fn byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

// ---------------------------------------------------------------------------------------------
// One fragment and the options.

#[test]
fn one_fragment_prints_its_colour_or_discarded() {
    assert_eq!(fragment(CLEAR, &[]), "$0 = (1, 1, 1, 1)\n");
    // From standard input too.
    let out = run_with_stdin(&["run", "-t", "lima", "-"], CLEAR.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "$0 = (1, 1, 1, 1)\n");
    assert_eq!(fragment("stop, discard\n", &[]), "discarded\n");
    // Registers start at 0.
    assert_eq!(fragment("stop, mov.v0 $0 $3\n", &[]), "$0 = (0, 0, 0, 0)\n");
    // -o writes the line to a file.
    let dir = temp();
    let out_file = dir.path().join("out.txt");
    let out = run_program(CLEAR, &["-o", path_str(&out_file)]);
    assert!(out.status.success() && out.stdout.is_empty(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "$0 = (1, 1, 1, 1)\n");
}

#[test]
fn varyings_and_uniforms_fill_their_slots() {
    // $0 = varying 2 + uniform 7, read in one instruction after the fetch.
    let program = "load.v $1 2\nstop, load.u 7, add.v1 $0 $1 ^uniform\n";
    let line = fragment(program, &["--varying", "2=0.5,-1,2,4", "--uniform", "7=1,2,3,0.25"]);
    assert_eq!(colour(&line), [1.5, 1.0, 5.0, 4.25]);
    // Lanes left out are 0; slots not given read 0.
    let line = fragment(program, &["--varying", "2=0.5", "--uniform", "6=9,9,9,9"]);
    assert_eq!(colour(&line), [0.5, 0.0, 0.0, 0.0]);
    // The highest slots.
    let line = fragment(
        "load.v $1 63\nstop, load.u 65535, add.v1 $0 $1 ^uniform\n",
        &["--varying", "63=1,2,3,4", "--uniform", "65535=10,20,30,40"],
    );
    assert_eq!(colour(&line), [11.0, 22.0, 33.0, 44.0]);
}

#[test]
fn fragcoord_fb_color_and_fb_depth_are_what_the_options_say() {
    let program = "stop, load.v $0 gl_FragCoord\n";
    assert_eq!(fragment(program, &[]), "$0 = (0, 0, 0, 1)\n");
    assert_eq!(
        fragment(program, &["--fragcoord", "3.5,7.25"]),
        "$0 = (3.5, 7.25, 0, 1)\n"
    );
    assert_eq!(fragment(program, &["--fragcoord", "1,2,3,4"]), "$0 = (1, 2, 3, 4)\n");
    let program = "stop, fb_color $0\n";
    assert_eq!(fragment(program, &[]), "$0 = (0, 0, 0, 0)\n");
    assert_eq!(
        fragment(program, &["--fb-color", "0.25,0.5,0.75,1"]),
        "$0 = (0.25, 0.5, 0.75, 1)\n"
    );
    let program = "stop, fb_depth $0\n";
    assert_eq!(fragment(program, &["--fb-depth", "0.75"]), "$0 = (0.75, 0, 0, 0)\n");
}

#[test]
fn textures_are_sampled_nearest_or_bilinear_repeating_or_clamped() {
    let dir = temp();
    // Two texels: black on the left, white on the right; their centres are at u = 1/4, 3/4.
    let texture = dir.path().join("bw.png");
    write_png(&texture, 2, &[vec![[0, 0, 0, 255], [255, 255, 255, 255]]]);
    let binding = format!("0={}", path_str(&texture));
    let at = |u: &str, more: &[&str]| {
        let varying = format!("0={u},0.5");
        let mut args = vec!["--texture", &binding, "--varying", &varying];
        args.extend_from_slice(more);
        colour(&fragment(TEXTURE, &args))
    };
    // u = 3/8 is in the black texel: nearest gives black. Bilinear: 2u - 1/2 = 1/4 texel past
    // the black centre, so 3/4 black and 1/4 white (linear is the default).
    assert_close(at("0.375", &["--filter", "nearest"]), [0.0, 0.0, 0.0, 1.0]);
    assert_close(at("0.375", &["--filter", "linear"]), [0.25, 0.25, 0.25, 1.0]);
    assert_close(at("0.375", &[]), [0.25, 0.25, 0.25, 1.0]);
    assert_close(at("0.75", &[]), [1.0, 1.0, 1.0, 1.0]);
    // u = 1/8 is left of the black centre: repeating, the texel to its left is the white one,
    // a quarter of the way; clamped, it is black.
    assert_close(at("0.125", &[]), [0.25, 0.25, 0.25, 1.0]);
    assert_close(at("0.125", &["--wrap", "repeat"]), [0.25, 0.25, 0.25, 1.0]);
    assert_close(at("0.125", &["--wrap", "clamp"]), [0.0, 0.0, 0.0, 1.0]);
    // u = 1.75 repeats to 3/4.
    assert_close(at("1.75", &["--filter", "nearest"]), [1.0, 1.0, 1.0, 1.0]);

    // Another sampler by number: `texld 5`.
    let program = "stop, sync, load.v $1 0.xy, texld 5, mov.v0 $0 ^texture\n";
    let binding5 = format!("5={}", path_str(&texture));
    let line = fragment(program, &["--texture", &binding5, "--varying", "0=0.75,0.5"]);
    assert_eq!(line, "$0 = (1, 1, 1, 1)\n");
}

#[test]
fn size_renders_a_png_to_the_output_file_or_a_pipe() {
    let dir = temp();
    let out_png = dir.path().join("uv.png");
    let out = run_program(VARYING_0, &["--size", "6x4", "-o", path_str(&out_png)]);
    assert!(
        out.status.success() && out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        stderr(&out)
    );
    let bytes = std::fs::read(&out_png).unwrap();
    let picture = decode_png(&bytes);
    assert_eq!((picture.width, picture.height), (6, 4));
    // Each pixel is (u, v, 0, 1) of its centre, v from the bottom.
    for y in 0..4 {
        for x in 0..6 {
            let (u, v) = ((x as f32 + 0.5) / 6.0, (y as f32 + 0.5) / 4.0);
            let pixel = picture.pixel_from_bottom(x, y);
            assert_eq!(pixel, [byte(u), byte(v), 0, 255], "pixel ({x}, {y})");
        }
    }
    // Pixel (0, 0) is (1/12, 1/8): (21.25, 31.875) -> (21, 32).
    assert_eq!(picture.pixel_from_bottom(0, 0), [21, 32, 0, 255]);
    // Standard output that is a pipe takes the picture: the same bytes.
    let out = run_program(VARYING_0, &["--size", "6x4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, bytes);
    // gl_FragCoord is each pixel's centre in pixels, y from the bottom: scaled by (1/8, 1/4),
    // pixel (5, 3) is (5.5 / 8, 3.5 / 4) = (0.6875, 0.875) -> (175.3, 223.1).
    let scaled = "stop, load.v $1 gl_FragCoord, mul.v0 $0 $1 ^const0, const0 0.125 0.25 0 1\n";
    let out = run_program(scaled, &["--size", "6x4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let picture = decode_png(&out.stdout);
    assert_eq!(picture.pixel_from_bottom(5, 3), [175, 223, 0, 255]);
    assert_eq!(
        picture.pixel_from_bottom(0, 0),
        [byte(0.5 / 8.0), byte(0.5 / 4.0), 0, 255]
    );
}

#[test]
fn max_steps_bounds_each_fragment() {
    // Three instructions run to the stop.
    let program = "nop\nnop\nstop, mov.v0 $0 ^const0.xxxx, const0 0.5 0 0 0\n";
    assert_eq!(fragment(program, &["--max-steps", "3"]), "$0 = (0.5, 0.5, 0.5, 0.5)\n");
    let out = run_program(program, &["--max-steps", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("prog.pp:3:1: error[PP300]") && err.contains("ran 2 instructions"),
        "{err}"
    );
    // The default limit ends a loop too.
    let out = run_program(LOOP, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("prog.pp:2:1: error[PP300]") && err.contains("100000"),
        "{err}"
    );
    // Rendering names the pixel.
    let out = run_program(LOOP, &["--max-steps", "5", "--size", "4x4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("pixel 0, 0"), "{}", stderr(&out));
}

// ---------------------------------------------------------------------------------------------
// Programs in Mesa's text and in binary.

#[test]
fn mesas_text_runs_with_its_prefix_or_syntax_mesa() {
    let bare = "mov.v0 $0 ^const0.xxxx , const0 0.500000 0.000000 0.000000 0.250000, stop\n";
    assert_eq!(fragment(bare, &["--syntax", "mesa"]), "$0 = (0.5, 0.5, 0.5, 0.5)\n");
    let prefixed = format!("@     0: {bare}");
    assert_eq!(fragment(&prefixed, &[]), "$0 = (0.5, 0.5, 0.5, 0.5)\n");
    // Bare lines without the option are the proposed syntax, where this is an error: nothing
    // runs.
    let out = run_program(bare, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("error[PP0"), "{}", stderr(&out));
    // `--syntax proposed` refuses Mesa's prefix.
    let out = run_program(&prefixed, &["--syntax", "proposed"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn binary_programs_run_from_mbs_files_and_with_binary() {
    let dir = temp();
    let source = write(dir.path(), "clear.pp", CLEAR.as_bytes());
    let mbs = dir.path().join("clear.mbs");
    let bin = dir.path().join("clear.bin");
    for file in [&mbs, &bin] {
        let out = run(&[path_str(&source), "-o", path_str(file)]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(&std::fs::read(&mbs).unwrap()[..4], b"MBS1");
    // `.mbs` selects the target and is loaded, not assembled.
    for args in [&["run", path_str(&mbs)][..], &["run", "-t", "lima", path_str(&mbs)]] {
        let out = run(args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), "$0 = (1, 1, 1, 1)\n");
    }
    // Raw words need `--binary`; without it they are read as source text.
    let out = run(&["run", "-t", "lima", "--binary", path_str(&bin)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "$0 = (1, 1, 1, 1)\n");
    let out = run(&["run", "-t", "lima", path_str(&bin), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("PA002"), "{}", stderr(&out));
    // Words from standard input with `--binary`.
    let out = run_with_stdin(&["run", "-t", "lima", "--binary", "-"], &std::fs::read(&bin).unwrap());
    assert_eq!(stdout(&out), "$0 = (1, 1, 1, 1)\n");
    // A broken MBS1 file and words that are no program are the loader's errors.
    let broken = write(dir.path(), "broken.mbs", b"MBS1\x10\0\0\0CFRA");
    let out = run(&["run", path_str(&broken), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[PP21"), "{}", stderr(&out));
    let zero = write(dir.path(), "zero.bin", &[0; 8]);
    let out = run(&[
        "run",
        "-t",
        "lima",
        "--binary",
        path_str(&zero),
        "--error-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[PP200]"), "{}", stderr(&out));
}

// ---------------------------------------------------------------------------------------------
// Errors: nothing is written.

#[test]
fn usage_errors_exit_2_with_pa006_and_leave_the_output_alone() {
    let dir = temp();
    let texture = write(dir.path(), "t.png", b"");
    let t0 = format!("0={}", path_str(&texture));
    let cases: &[&[&str]] = &[
        &["--varying", "64=1"],
        &["--varying", "0=a"],
        &["--varying", "1"],
        &["--varying", "1=1,2,3,4,5"],
        &["--varying", "1=1", "--varying", "1=2"],
        &["--uniform", "65536=1"],
        &["--uniform=-1=1"],
        &["--uniform", "0=1e39"],
        &["--texture", "4096=x.png"],
        &["--texture", "x.png"],
        &["--texture", "0="],
        &["--texture", &t0, "--texture", &t0],
        &["--fragcoord", "1"],
        &["--fragcoord", "1,2,3,4,5"],
        &["--fragcoord", "a,b"],
        &["--size", "0x4"],
        &["--size", "640"],
        &["--size", "16385x1"],
        &["--size", "16384x16384"],
        &["--filter", "cubic"],
        &["--wrap", "mirror"],
        &["--max-steps", "0"],
        &["--max-steps", "-1"],
        &["--max-steps", "many"],
        &["--fb-color", "red"],
        &["--fb-depth", "x"],
        &["--size", "4x4", "--fragcoord", "1,2"],
        &["--size", "4x4", "--varying", "0=1,2"],
    ];
    for args in cases {
        let kept = write(dir.path(), "kept.txt", b"previous");
        let new = dir.path().join("new.png");
        for out_file in [&kept, &new] {
            let mut all = args.to_vec();
            all.extend(["-o", path_str(out_file)]);
            all.extend(["--error-format", "json"]);
            let out = run_program(CLEAR, &all);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains(r#""code":"PA006""#) && err.contains(r#""level":"help""#),
                "{args:?}: {err}"
            );
        }
        assert_eq!(std::fs::read(&kept).unwrap(), b"previous", "{args:?}");
        assert!(!new.exists(), "{args:?}");
    }
    // Another target's option is PA010.
    let out = run_program(CLEAR, &["--trace"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PA010"), "{}", stderr(&out));
}

#[test]
fn run_errors_exit_1_with_their_code_and_line_and_leave_the_output_alone() {
    let dir = temp();
    let not_png = write(dir.path(), "not.png", b"GIF89a");
    let missing = dir.path().join("missing.png");
    let bad = format!("0={}", path_str(&not_png));
    let gone = format!("0={}", path_str(&missing));
    let cases: &[(&str, &[&str], &str)] = &[
        (LOOP, &["--max-steps", "10"], "prog.pp:2:1: error[PP300]"),
        (TEXTURE, &[], "prog.pp:1:1: error[PP301]"),
        ("nop\nbranch +1\nstop, nop\n", &[], "prog.pp:2:1: error[PP302]"),
        // The branch jumps over its own 4 words to the last instruction, which has no stop.
        ("branch +4\nmov.v0 $0 $1\n", &[], "prog.pp:2:1: error[PP303]"),
        ("mov.v0 $0 $1\n", &[], "prog.pp:1:1: error[PP303]"),
        ("# no instruction\n", &[], "error[PP304]"),
        (TEXTURE, &["--texture", &bad], "error[PP305]"),
        (TEXTURE, &["--texture", &gone], "error[PP305]"),
    ];
    for (program, args, want) in cases {
        for size in [&[][..], &["--size", "3x2"]] {
            let kept = write(dir.path(), "kept.png", b"previous");
            let new = dir.path().join("new.png");
            for out_file in [&kept, &new] {
                let mut all = args.to_vec();
                all.extend_from_slice(size);
                all.extend(["-o", path_str(out_file)]);
                let out = run_program(program, &all);
                assert_eq!(out.status.code(), Some(1), "{program:?} {all:?}: {}", stderr(&out));
                assert!(stderr(&out).contains(want), "{program:?} {all:?}: {}", stderr(&out));
                assert!(out.stdout.is_empty());
            }
            assert_eq!(std::fs::read(&kept).unwrap(), b"previous", "{program:?}");
            assert!(!new.exists(), "{program:?}");
        }
    }
    // The human format says the program did not run.
    let out = run_program(TEXTURE, &["--error-format", "human"]);
    assert!(stderr(&out).contains("did not run"), "{}", stderr(&out));
}

/// A black `width` x `height` picture of 1-bit grey pixels: a large picture in a small file.
fn write_black_png(path: &Path, width: u32, height: u32) {
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().unwrap();
    writer
        .write_image_data(&vec![0u8; width.div_ceil(8) as usize * height as usize])
        .unwrap();
    writer.finish().unwrap();
}

#[test]
fn a_texture_beyond_4096_a_side_is_refused_from_its_header_and_an_unsampled_one_is_not_read() {
    let dir = temp();
    let big = dir.path().join("big.png");
    write_black_png(&big, 8192, 8192);
    assert!(std::fs::metadata(&big).unwrap().len() < 1 << 20, "small on disk");
    let at0 = format!("0={}", path_str(&big));
    let out_file = dir.path().join("out.png");
    for size in [&[][..], &["--size", "2x2", "-o", path_str(&out_file)]] {
        let mut args = vec!["--texture", &at0];
        args.extend_from_slice(size);
        let out = run_program(TEXTURE, &args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "error[PP305]: cannot read texture 0 from `{}`: the picture is 8192x8192, and a texture is at most 4096 pixels a side",
                path_str(&big)
            )),
            "{err}"
        );
        assert!(!out_file.exists());
    }
    // Bound to samplers the program never samples, two of them are opened, not decoded: the
    // run succeeds with a warning for each.
    let at1 = format!("1={}", path_str(&big));
    let at2 = format!("2={}", path_str(&big));
    let out = run_program(CLEAR, &["--texture", &at1, "--texture", &at2]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "$0 = (1, 1, 1, 1)\n");
    let err = stderr(&out);
    assert_eq!(err.matches("warning[PP306]").count(), 2, "{err}");
    assert!(
        err.contains(&format!(
            "warning[PP306]: texture 1 (`{}`) is not read: the program never samples sampler 1",
            path_str(&big)
        )),
        "{err}"
    );
    // A sampler the program does read is decoded beside them.
    let small = dir.path().join("small.png");
    write_png(&small, 1, &[vec![[255, 0, 255, 255]]]);
    let small0 = format!("0={}", path_str(&small));
    let out = run_program(TEXTURE, &["--texture", &small0, "--texture", &at1]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "$0 = (1, 0, 1, 1)\n");
    // An unsampled texture whose file cannot be opened is still an error.
    let gone = format!("3={}", path_str(&dir.path().join("gone.png")));
    let out = run_program(CLEAR, &["--texture", &gone]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error[PP305]: cannot read texture 3"),
        "{}",
        stderr(&out)
    );
    // A fetch that adds a register to its sampler number may read any sampler: every texture
    // is read.
    let offset = "stop, sync, load.v $1 0.xy, texld 0+$2.x, mov.v0 $0 ^texture\n";
    let out = run_program(offset, &["--texture", &small0, "--texture", &at1]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("texture 1"), "{}", stderr(&out));
    assert!(stderr(&out).contains("at most 4096 pixels a side"), "{}", stderr(&out));
}

#[test]
fn an_output_that_is_an_input_is_refused_with_pa014() {
    let dir = temp();
    let source = write(dir.path(), "prog.pp", CLEAR.as_bytes());
    let out = run(&["run", "-t", "lima", path_str(&source), "-o", path_str(&source)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PA014"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&source).unwrap(), CLEAR);
    // A texture is an input too, however it is named.
    let texture = dir.path().join("t.png");
    write_png(&texture, 1, &[vec![[1, 2, 3, 4]]]);
    let before = std::fs::read(&texture).unwrap();
    let copy = write(dir.path(), "copy.pp", TEXTURE.as_bytes());
    let binding = format!("0={}/./t.png", path_str(dir.path()));
    let out = run(&[
        "run",
        "-t",
        "lima",
        path_str(&copy),
        "--texture",
        &binding,
        "--size",
        "2x2",
        "-o",
        path_str(&texture),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("PA014"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&texture).unwrap(), before);
}

// ---------------------------------------------------------------------------------------------
// Terminals and pipes.

/// Runs `args` with standard output on a terminal: the exit code, what the terminal got and
/// standard error.
#[cfg(unix)]
fn on_terminal(args: &[&str]) -> (Option<i32>, String, String) {
    let (mut master, slave) = open_pty();
    let child = polyasm()
        .args(args)
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let mut buffer = [0u8; 65536];
    let n = std::io::Read::read(&mut master, &mut buffer).unwrap_or(0);
    (
        out.status.code(),
        String::from_utf8_lossy(&buffer[..n]).into_owned(),
        stderr(&out),
    )
}

#[cfg(unix)]
#[test]
fn a_picture_is_kept_off_a_terminal_but_one_fragment_prints_there() {
    let dir = temp();
    let source = write(dir.path(), "clear.pp", CLEAR.as_bytes());
    let (code, text, err) = on_terminal(&["run", "-t", "lima", path_str(&source), "--size", "4x4"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("PA007") && err.contains("-o out.png"), "{err}");
    assert!(!text.contains("PNG"), "{text:?}");
    // With -o the terminal is not written to.
    let out_png = dir.path().join("out.png");
    let (code, _, err) = on_terminal(&[
        "run",
        "-t",
        "lima",
        path_str(&source),
        "--size",
        "4x4",
        "-o",
        path_str(&out_png),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(&std::fs::read(&out_png).unwrap()[1..4], b"PNG");
    // One fragment is text, which a terminal takes.
    let (code, text, err) = on_terminal(&["run", "-t", "lima", path_str(&source)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("$0 = (1, 1, 1, 1)"), "{text:?}");
}

#[cfg(unix)]
#[test]
fn a_picture_piped_into_head_exits_0_without_a_message() {
    let dir = temp();
    // A picture far larger than a pipe's buffer, so that the write meets the closed pipe:
    // fract of (u v) times large numbers changes from pixel to pixel and compresses badly.
    write(
        dir.path(),
        "noise.pp",
        b"load.v $1 0.xy, mul.v0 ^v0 $1.xxxx $1.yyyy, mov.v1 $2 ^v0\n\
          stop, mul.v0 ^v0 $2 ^const0, fract.v1 $0 ^v0, const0 1031 1523 1999 1\n",
    );
    let piped = piped_into_head(dir.path(), "run -t lima noise.pp --size 1000x1000", 8);
    assert_eq!(piped.out, b"\x89PNG\r\n\x1a\n");
    assert_eq!((piped.status.as_str(), piped.err.as_str()), ("0", ""));
    // The same picture whole is far larger than a pipe's buffer (64 KiB).
    let out = run(&[
        "run",
        "-t",
        "lima",
        path_str(&dir.path().join("noise.pp")),
        "--size",
        "1000x1000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.len() > 1 << 20, "{} bytes", out.stdout.len());
}
