//! Every Lima example in examples/lima/ through the built binary: it assembles without a
//! single diagnostic, its words disassemble in the proposed syntax and in Mesa's and both
//! texts assemble back to the same words, and `polyasm run` gives the colour its comments
//! promise, worked out here in plain Rust from the maths they state (one fragment printed,
//! or the pixels of a rendered picture). The texture copy is Mesa's tile-reload program:
//! its words and Mesa's text, byte for byte.

use std::f64::consts::TAU;
use std::path::{Path, PathBuf};

mod common;
use common::*;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/lima");

/// Every example, by its file name without `.pp`.
const NAMES: [&str; 7] = [
    "clear.mesa",
    "discard",
    "lit_surface",
    "procedural",
    "solid_colour",
    "texture_copy",
    "vertex_colour",
];

/// Mesa's tile-reload program: its words and the line Mesa's disassembler prints for them
/// (the space before `, sync` is Mesa's: `mov` has no second source).
const RELOAD_WORDS: [u32; 6] = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];
const RELOAD_TEXT: &str = "@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n";

fn example(name: &str) -> String {
    Path::new(EXAMPLES).join(format!("{name}.pp")).display().to_string()
}

fn ok(args: &[&str]) -> std::process::Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

fn ok_with_stdin(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let out = run_with_stdin(args, stdin);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

fn parse_hex(text: &str) -> Vec<u32> {
    text.lines()
        .map(|l| u32::from_str_radix(l.trim(), 16).unwrap())
        .collect()
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The example's words; it must assemble without a diagnostic, warnings included.
fn words(name: &str) -> Vec<u32> {
    let out = ok(&["-t", "lima", &example(name), "-f", "hex"]);
    assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
    parse_hex(&stdout(&out))
}

/// `polyasm run -t lima EXAMPLE ARGS...` for one fragment: the line it prints.
fn fragment(name: &str, args: &[&str]) -> String {
    let path = example(name);
    let mut all = vec!["run", "-t", "lima", &path];
    all.extend_from_slice(args);
    let out = ok(&all);
    assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
    stdout(&out)
}

fn assert_close(got: [f32; 4], want: [f32; 4], what: &str) {
    for lane in 0..4 {
        assert!(
            (got[lane] - want[lane]).abs() <= 1e-6,
            "{what}: lane {lane} is {}, want {} ({got:?} against {want:?})",
            got[lane],
            want[lane]
        );
    }
}

/// `polyasm run -t lima EXAMPLE --size WxH -o FILE ARGS...`: the picture.
fn render(name: &str, size: &str, args: &[&str]) -> polyasm_core::picture::Image {
    let dir = temp();
    let out_png: PathBuf = dir.path().join("out.png");
    let path = example(name);
    let mut all = vec!["run", "-t", "lima", &path, "--size", size, "-o", path_str(&out_png)];
    all.extend_from_slice(args);
    let out = ok(&all);
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{name}: {}",
        stderr(&out)
    );
    read_png(&out_png)
}

/// `value` in 8 bits, as the picture stores it.
fn byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn bytes(rgba: [f32; 4]) -> [u8; 4] {
    rgba.map(byte)
}

/// The pixel's (u, v): its centre over the picture's size, from the bottom left.
fn uv(x: u32, y: u32, width: u32, height: u32) -> (f32, f32) {
    ((x as f32 + 0.5) / width as f32, (y as f32 + 0.5) / height as f32)
}

// ---------------------------------------------------------------------------------------------

#[test]
fn every_example_here_is_tested() {
    let mut found: Vec<String> = std::fs::read_dir(EXAMPLES)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".pp").map(str::to_string))
        .collect();
    found.sort();
    assert_eq!(found, NAMES, "each example needs its checks in this file");
    let readme = std::fs::read_to_string(Path::new(EXAMPLES).join("README.md")).unwrap();
    for name in NAMES {
        assert!(
            readme.contains(&format!("`{name}.pp`")),
            "README.md does not list {name}.pp"
        );
        assert!(
            readme.contains(&format!("polyasm run -t lima examples/lima/{name}.pp")),
            "README.md has no command that runs {name}.pp"
        );
    }
}

#[test]
fn every_example_round_trips_through_both_syntaxes() {
    let dir = temp();
    for name in NAMES {
        let words = words(name);
        assert!(!words.is_empty(), "{name}");
        let bin = dir.path().join(format!("{name}.bin"));
        ok(&["-t", "lima", &example(name), "-o", path_str(&bin)]);
        assert_eq!(std::fs::read(&bin).unwrap(), le_bytes(&words), "{name}");

        // The proposed syntax, printed and assembled again.
        let out = ok(&["disasm", "-t", "lima", path_str(&bin)]);
        assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
        let proposed = stdout(&out);
        assert!(!proposed.contains('@'), "{name}:\n{proposed}");
        let again = ok_with_stdin(&["-t", "lima", "-", "-f", "hex"], proposed.as_bytes());
        assert!(again.stderr.is_empty(), "{name}: {}", stderr(&again));
        assert_eq!(parse_hex(&stdout(&again)), words, "{name}, proposed:\n{proposed}");

        // Mesa's text: every line has its `@N: ` prefix, which is enough to read it back;
        // `--syntax mesa` reads it the same.
        let out = ok(&["disasm", "-t", "lima", "--syntax", "mesa", path_str(&bin)]);
        assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
        let mesa = stdout(&out);
        assert!(mesa.lines().all(|l| l.starts_with('@')), "{name}:\n{mesa}");
        for args in [
            &["-t", "lima", "-", "-f", "hex"][..],
            &["-t", "lima", "--syntax", "mesa", "-", "-f", "hex"],
        ] {
            let again = ok_with_stdin(args, mesa.as_bytes());
            assert!(again.stderr.is_empty(), "{name}: {}", stderr(&again));
            assert_eq!(parse_hex(&stdout(&again)), words, "{name}, Mesa's text:\n{mesa}");
        }
    }
}

#[test]
fn texture_copy_is_mesas_reload_program_word_for_word_and_byte_for_byte() {
    let dir = temp();
    let bin = dir.path().join("out.bin");
    let out = ok(&["-t", "lima", &example("texture_copy"), "-o", path_str(&bin)]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&bin).unwrap(), le_bytes(&RELOAD_WORDS));
    let out = ok(&["disasm", "-t", "lima", "--syntax", "mesa", path_str(&bin)]);
    // Byte for byte, the space before `, sync` included.
    assert_eq!(out.stdout, RELOAD_TEXT.as_bytes());
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn texture_copy_reads_texture_0_at_varying_0() {
    let dir = temp();
    let texture = dir.path().join("t.png");
    // 4 x 2 texels, rows from the bottom: each texel its own colour.
    let texel = |i: u32, j: u32| {
        [
            (i * 60) as u8,
            (j * 200) as u8,
            7 + (i + 4 * j) as u8,
            255 - (i * 10) as u8,
        ]
    };
    let rows: Vec<Vec<[u8; 4]>> = (0..2).map(|j| (0..4).map(|i| texel(i, j)).collect()).collect();
    write_png(&texture, 4, &rows);
    let binding = format!("0={}", path_str(&texture));

    // One fragment at the centre of texel (2, 1), u = 2.5 / 4, v = 1.5 / 2: that texel, with
    // either filter (bilinear weighs only it at its centre).
    for filter in ["nearest", "linear"] {
        let line = fragment(
            "texture_copy",
            &["--texture", &binding, "--varying", "0=0.625,0.75", "--filter", filter],
        );
        assert_eq!(colour(&line), texel(2, 1).map(|b| f32::from(b) / 255.0), "{filter}");
    }

    // Rendered at the texture's own size, pixel centres are texel centres: a copy.
    let picture = render("texture_copy", "4x2", &["--texture", &binding]);
    for (j, row) in rows.iter().enumerate() {
        for (i, want) in row.iter().enumerate() {
            assert_eq!(picture.pixel_from_bottom(i as u32, j as u32), *want, "pixel ({i}, {j})");
        }
    }

    // At twice the size, bilinear filtering: pixel 1 of 8 has u = 1.5 / 8, in texels
    // 4 u - 0.5 = 0.25 past texel 0's centre, so it weighs texel 0 by 3/4 and texel 1 by
    // 1/4. In v, row 1 of 4 is at 2 v - 0.5 = 0.25 texel rows past row 0's centre: row 0
    // by 3/4, row 1 by 1/4.
    let picture = render("texture_copy", "8x4", &["--texture", &binding]);
    let c = |t: [u8; 4]| t.map(|b| f32::from(b) / 255.0);
    let want = [0, 1, 2, 3].map(|lane| {
        let row0 = 0.75 * c(texel(0, 0))[lane] + 0.25 * c(texel(1, 0))[lane];
        let row1 = 0.75 * c(texel(0, 1))[lane] + 0.25 * c(texel(1, 1))[lane];
        0.75 * row0 + 0.25 * row1
    });
    // Red: texel column 1 has 60, weighed 1/4: 15. Green: texel row 1 has 200, by 1/4: 50.
    assert_eq!(bytes(want)[..2], [15, 50]);
    let got = picture.pixel_from_bottom(1, 1);
    assert!(
        (0..4).all(|lane| got[lane].abs_diff(byte(want[lane])) <= 1),
        "{got:?} against {:?}",
        bytes(want)
    );
}

#[test]
fn solid_colour_is_opaque_black_and_clear_is_white() {
    // const0 = (1, 0, 0, 0) read as .yyyx.
    assert_eq!(fragment("solid_colour", &[]), "$0 = (0, 0, 0, 1)\n");
    let picture = render("solid_colour", "3x2", &[]);
    for (x, y) in [(0, 0), (2, 0), (1, 1), (2, 1)] {
        assert_eq!(picture.pixel_from_bottom(x, y), [0, 0, 0, 255]);
    }
    // const0.x = 1 in every lane.
    assert_eq!(fragment("clear.mesa", &[]), "$0 = (1, 1, 1, 1)\n");
    let picture = render("clear.mesa", "2x2", &[]);
    assert_eq!(picture.pixel_from_bottom(1, 1), [255; 4]);
}

#[test]
fn vertex_colour_passes_varying_1_through() {
    let line = fragment("vertex_colour", &["--varying", "1=0.25,0.5,0.75,1"]);
    assert_eq!(colour(&line), [0.25, 0.5, 0.75, 1.0]);
    // Lanes left out of the option are 0.
    let line = fragment("vertex_colour", &["--varying", "1=0.5,-2"]);
    assert_eq!(colour(&line), [0.5, -2.0, 0.0, 0.0]);
    // Rendered, every pixel has the one colour; 0.5 * 255 = 127.5 rounds up.
    let picture = render("vertex_colour", "5x3", &["--varying", "1=1,0.5,0,1"]);
    for y in 0..3 {
        for x in 0..5 {
            assert_eq!(picture.pixel_from_bottom(x, y), [255, 128, 0, 255], "pixel ({x}, {y})");
        }
    }
}

/// The lit surface's colour for normal `n`, light direction `l`, diffuse `d` and ambient `a`,
/// computed in the order the program does.
fn lit(n: [f32; 3], l: [f32; 3], d: [f32; 3], a: [f32; 3]) -> [f32; 4] {
    let dot = |p: [f32; 3], q: [f32; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    let inverse_length = 1.0 / dot(n, n).sqrt();
    let cosine = (dot(n, l) * inverse_length).max(0.0);
    [d[0] * cosine + a[0], d[1] * cosine + a[1], d[2] * cosine + a[2], 1.0]
}

#[test]
fn lit_surface_is_diffuse_times_the_clamped_cosine_plus_ambient() {
    let light = |n: &str, l: &str, d: &str, a: &str| {
        let line = fragment(
            "lit_surface",
            &[
                "--varying",
                &format!("1={n}"),
                "--uniform",
                &format!("0={l}"),
                "--uniform",
                &format!("1={d}"),
                "--uniform",
                &format!("2={a}"),
            ],
        );
        colour(&line)
    };
    // N = (0, 0, 2), twice too long: cos = 0.8, so 0.8 * (0.8, 0.6, 0.4) + 0.1.
    let got = light("0,0,2", "0.6,0,0.8", "0.8,0.6,0.4", "0.1,0.1,0.1");
    assert_close(got, [0.74, 0.58, 0.42, 1.0], "facing up");
    assert_close(
        got,
        lit([0.0, 0.0, 2.0], [0.6, 0.0, 0.8], [0.8, 0.6, 0.4], [0.1; 3]),
        "facing up",
    );
    // N = (1, 2, 2), length 3, light along z: cos = 2 / 3.
    let got = light("1,2,2", "0,0,1", "0.9,0.3,0.6", "0.05,0,0.1");
    assert_close(
        got,
        [0.9 * 2.0 / 3.0 + 0.05, 0.3 * 2.0 / 3.0, 0.6 * 2.0 / 3.0 + 0.1, 1.0],
        "tilted",
    );
    assert_close(
        got,
        lit([1.0, 2.0, 2.0], [0.0, 0.0, 1.0], [0.9, 0.3, 0.6], [0.05, 0.0, 0.1]),
        "tilted",
    );
    // Facing away (N . L < 0): the ambient term alone.
    let got = light("0,0,-3", "0.6,0,0.8", "0.8,0.6,0.4", "0.1,0.2,0.3");
    assert_close(got, [0.1, 0.2, 0.3, 1.0], "facing away");
    // Side on (N . L = 0): the ambient term too; the normal's w is not used.
    let got = light("0,5,0,9", "1,0,0", "1,1,1", "0.25,0.5,0.75");
    assert_close(got, [0.25, 0.5, 0.75, 1.0], "side on");
}

#[test]
fn discard_drops_fragments_left_of_the_middle() {
    assert_eq!(fragment("discard", &["--varying", "0=0.25,0.5"]), "discarded\n");
    assert_eq!(fragment("discard", &["--varying", "0=0.4999"]), "discarded\n");
    // u = 0.5 is not below the threshold.
    assert_eq!(
        fragment("discard", &["--varying", "0=0.5"]),
        "$0 = (1, 0.5, 0.125, 1)\n"
    );
    assert_eq!(
        fragment("discard", &["--varying", "0=0.75,0.5"]),
        "$0 = (1, 0.5, 0.125, 1)\n"
    );
    // Rendered 8 wide: columns 0-3 have u < 1/2 and are transparent; the others orange,
    // (255, 127.5 -> 128, 31.875 -> 32, 255).
    let picture = render("discard", "8x3", &[]);
    for y in 0..3 {
        for x in 0..8 {
            let want = if uv(x, y, 8, 3).0 < 0.5 {
                [0, 0, 0, 0]
            } else {
                [255, 128, 32, 255]
            };
            assert_eq!(picture.pixel_from_bottom(x, y), want, "pixel ({x}, {y})");
        }
    }
}

const CREAM: [f32; 3] = [1.0, 0.875, 0.625];
const SLATE: [f32; 3] = [0.125, 0.25, 0.375];

/// The procedural pattern at (u, v), from the maths in its comments.
fn procedural(u: f32, v: f32) -> [f32; 4] {
    // floor(8t) is odd exactly where fract(4t) >= 1/2.
    let odd = |t: f32| {
        let f = 4.0 * t;
        f - f.floor() >= 0.5
    };
    let square = if odd(u) != odd(v) { CREAM } else { SLATE };
    let (dx, dy) = (u - 0.5, v - 0.5);
    let d = (dx * dx + dy * dy).sqrt();
    let brightness = 0.75 + 0.25 * (TAU * f64::from(6.0 * d)).cos() as f32;
    [
        square[0] * brightness,
        square[1] * brightness,
        square[2] * brightness,
        1.0,
    ]
}

#[test]
fn procedural_renders_the_checkerboard_shaded_by_rings() {
    let picture = render("procedural", "512x512", &[]);
    assert_eq!((picture.width, picture.height), (512, 512));
    // Chosen points, worked out by hand.
    // The centre pixel (256, 256): u = v = 256.5 / 512, in square (4, 4), both even: slate;
    // d = 0.5 / 512 * sqrt(2), so cos(6 d turns) is 1 to 4 decimals: slate at full brightness.
    assert_eq!(
        picture.pixel_from_bottom(256, 256),
        bytes([SLATE[0], SLATE[1], SLATE[2], 1.0])
    );
    // Pixel (320, 256): square (5, 4), odd and even: cream. d = 64.5 / 512 = 0.126 (dy is
    // 0.5 / 512), 6 d = 0.756 turn, just past three quarters: the cosine is
    // sin(0.0059 turn) = 0.037, the brightness 0.759: (193.6, 169.4, 121.0).
    assert_eq!(picture.pixel_from_bottom(320, 256), [194, 169, 121, 255]);
    // Pixel (256, 299): square (4, 4), slate; d = 43 / 512 ~ 1/12, 6 d ~ 1/2 turn, cosine
    // -1: slate at half brightness, (15.9, 31.9, 47.8).
    assert_eq!(picture.pixel_from_bottom(256, 299), [16, 32, 48, 255]);
    // The corner pixel (0, 0): square (0, 0), slate; d = 255.5 / 512 * sqrt(2) = 0.7057,
    // 6 d = 4.234 turns, cos(0.234 turn) = 0.098, brightness 0.7745: (24.7, 49.4, 74.1).
    assert_eq!(picture.pixel_from_bottom(0, 0), [25, 49, 74, 255]);
    assert_eq!(
        picture.pixel_from_bottom(0, 0),
        bytes(procedural(0.5 / 512.0, 0.5 / 512.0))
    );
    // And every pixel, within 1 per channel (the cosine is rounded from f64).
    for y in 0..512 {
        for x in 0..512 {
            let (u, v) = uv(x, y, 512, 512);
            let want = bytes(procedural(u, v));
            let got = picture.pixel_from_bottom(x, y);
            assert!(
                (0..4).all(|i| got[i].abs_diff(want[i]) <= 1),
                "pixel ({x}, {y}): {got:?} against {want:?}"
            );
        }
    }
    // One fragment at a chosen (u, v): square (1, 6) is odd, even: cream; d = 0.5: 3 turns.
    let line = fragment("procedural", &["--varying", "0=0.1875,0.8"]);
    assert_close(colour(&line), procedural(0.1875, 0.8), "one fragment");
}

/// The Lima commands of the repository's README, run from the repository root with their
/// outputs in a temporary folder: the texture copy gives Mesa's words, the procedural example
/// renders its 512 x 512 picture.
#[test]
fn the_readmes_lima_commands_do_what_they_say() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(Path::new(root).join("README.md")).unwrap();
    let command = |start: &str| -> Vec<String> {
        let line = readme
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("README.md has no line starting `{start}`"));
        let line = line.split('#').next().unwrap();
        line.split_whitespace().skip(1).map(str::to_string).collect()
    };
    let dir = temp();
    let outputs = |mut args: Vec<String>| {
        let o = args.iter().position(|a| a == "-o").expect("the command writes a file") + 1;
        args[o] = dir.path().join(&args[o]).display().to_string();
        let out = polyasm().current_dir(root).args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        std::fs::read(&args[o]).unwrap()
    };
    let words = outputs(command("polyasm -t lima examples/lima/texture_copy.pp"));
    assert_eq!(words, le_bytes(&RELOAD_WORDS));
    let png = outputs(command("polyasm run -t lima examples/lima/procedural.pp"));
    let path = dir.path().join("readme.png");
    std::fs::write(&path, png).unwrap();
    let picture = read_png(&path);
    assert_eq!((picture.width, picture.height), (512, 512));
    assert_eq!(
        picture.pixel_from_bottom(256, 256),
        bytes([SLATE[0], SLATE[1], SLATE[2], 1.0])
    );
}
