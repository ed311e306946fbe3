//! Every shader-asm example in examples/shader/ draws what its comments say: rendered by the
//! CPU renderer at 256x256 and at 640x360, every pixel agrees within 1 per channel with the
//! colour worked out here, in plain Rust f32, from the maths the program's comments state
//! (with `sqrt`, `exp` and `cos` where the program approximates them), and pixels chosen by
//! hand have the colours the comments promise. Each example
//! also survives `.sasm` -> `.shb` -> `disasm` -> `.sasm` unchanged, `polyasm run` writes it
//! as a PNG, and the GPU interpreter draws the same picture within 1 per channel.
//!
//! The GPU test needs a Vulkan adapter (lavapipe is enough). Without one it fails, unless
//! `POLYASM_NO_GPU=1` says that this machine has none on purpose.

use std::collections::BTreeSet;
use std::f32::consts::TAU;
use std::path::{Path, PathBuf};

use polyasm_core::SourceMap;
use polyasm_shader::exec::{Alpha, Frame, Image};
use polyasm_shader::ops::Instr;
use polyasm_shader::{assemble, bytecode_bytes, render};

mod common;
use common::*;

// The GPU tests' one renderer and their rule for a machine without one, as the shader crate's.
#[path = "../crates/polyasm-shader/tests/common/mod.rs"]
mod shader_gpu;
use shader_gpu::gpu;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/shader");

/// Every example, by the stem of its `.sasm` file; the `shadervm_` ones are in v2, ShaderVM's
/// current dialect.
const NAMES: [&str; 8] = [
    "checker",
    "circle",
    "colour_cycle",
    "radial",
    "shadervm_sphere",
    "shadervm_uv",
    "sphere",
    "uv",
];

fn example_path(name: &str) -> PathBuf {
    Path::new(EXAMPLES).join(format!("{name}.sasm"))
}

/// The example's instructions; it must assemble without a single diagnostic, warnings
/// included.
fn program(name: &str) -> Vec<Instr> {
    let path = example_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sources = SourceMap::new();
    let file = sources.add(path.display().to_string(), text);
    let outcome = assemble(&sources, file, false);
    let messages: Vec<String> = outcome
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    assert!(messages.is_empty(), "{name}: {messages:?}");
    outcome.value.expect("a program without diagnostics assembles").instrs
}

fn frame(width: u32, height: u32, time: f32) -> Frame {
    Frame { width, height, time }
}

fn render_cpu(name: &str, frame: &Frame, alpha: Alpha) -> Image {
    render::render(&program(name), frame, alpha).unwrap_or_else(|e| panic!("{name}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// The pictures, worked out by hand.

/// A colour worked out here: r, g, b, a before the conversion to 8 bits.
type Rgba = [f32; 4];

/// `value` in 8 bits, as a picture stores it.
fn byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn opaque([r, g, b]: [f32; 3]) -> Rgba {
    [r, g, b, 1.0]
}

fn mix(from: [f32; 3], to: [f32; 3], k: f32) -> [f32; 3] {
    [0, 1, 2].map(|i| from[i] + k * (to[i] - from[i]))
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let length = dot(a, a).sqrt();
    a.map(|x| x / length)
}

/// The logistic curve 1 / (1 + e^-z).
fn logistic(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Where a pixel is: `pc.x`, `pc.y`, the picture's size and the time.
#[derive(Clone, Copy)]
struct At {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    t: f32,
}

/// Red from the column, green from the row.
fn uv(p: At) -> Rgba {
    opaque([p.x / p.w, p.y / p.h, 0.0])
}

/// Three cosine waves a third of a turn apart, at the phase t / 4 + x / 2w + y / 4h.
fn colour_cycle(p: At) -> Rgba {
    let phase = p.t / 4.0 + p.x / (2.0 * p.w) + p.y / (4.0 * p.h);
    opaque([0.0, 1.0, 2.0].map(|third: f32| (1.0 + (TAU * (phase - third / 3.0)).cos()) / 2.0))
}

const SLATE: [f32; 3] = [0.17, 0.22, 0.30];
const CREAM: [f32; 3] = [0.94, 0.89, 0.79];

/// Eight squares to the height; a square wave per axis, 1 / (1 + (4f)^32), mixed as XOR.
fn checker(p: At) -> Rgba {
    let wave = |cells: f32| {
        let a = cells / 2.0 - 0.25;
        let f = a - a.round();
        1.0 / (1.0 + (4.0 * f).powi(32))
    };
    let (sx, sy) = (wave(8.0 * p.x / p.h), wave(8.0 * p.y / p.h));
    opaque(mix(SLATE, CREAM, sx + sy - 2.0 * sx * sy))
}

/// Smoothstep of the distance from the centre over half the diagonal.
fn radial(p: At) -> Rgba {
    let (dx, dy) = (p.x - p.w / 2.0, p.y - p.h / 2.0);
    let d = (dx * dx + dy * dy).sqrt() / ((p.w / 2.0).powi(2) + (p.h / 2.0).powi(2)).sqrt();
    let s = d * d * (3.0 - 2.0 * d);
    opaque(mix([1.0, 0.82, 0.45], [0.16, 0.06, 0.30], s))
}

/// A disc of radius 0.35 h, its edge a logistic ramp of twice the distance in pixels.
fn circle(p: At) -> Rgba {
    let dist = ((p.x - p.w / 2.0).powi(2) + (p.y - p.h / 2.0).powi(2)).sqrt();
    let m = logistic(2.0 * (0.35 * p.h - dist));
    let [r, g, b] = mix([0.10, 0.12, 0.20], [0.98, 0.76, 0.25], m);
    [r, g, b, m]
}

/// The unit sphere at (0.2, 0.1, -3) seen from the origin through a screen 2 away, under a
/// light from (-0.5, 0.7, 0.5): half-Lambert diffuse, ambient 0.08, a Blinn-Phong
/// highlight, a smooth silhouette and a sky graded by v.
fn sphere(p: At) -> Rgba {
    let (u, v) = ((2.0 * p.x - p.w) / p.h, (2.0 * p.y - p.h) / p.h);
    let d = normalize([u, v, -2.0]);
    let centre = [0.2, 0.1, -3.0];
    let b = dot(d, centre);
    let h = b * b - (dot(centre, centre) - 1.0);
    let m = logistic(0.4 * p.h * h);
    let k = b - (h * m + 1.0 / p.h).sqrt();
    let normal = [0, 1, 2].map(|i| k * d[i] - centre[i]);
    let light = normalize([-0.5, 0.7, 0.5]);
    let half = normalize([light[0], light[1], light[2] + 1.0]);
    let diffuse = ((1.0 + dot(normal, light)) / 2.0).powi(2) + 0.08;
    let highlight = 0.6 * dot(normal, half).powi(32);
    let ball = [0.9, 0.3, 0.18].map(|albedo| albedo * diffuse + highlight);
    let sky = [0.55 - 0.25 * v, 0.64 - 0.14 * v, 0.795 + 0.055 * v];
    opaque(mix(sky, ball, m))
}

/// ShaderVM's ray-sphere test: the ray (x', y', -1) from the origin meets the unit sphere at
/// (0, 0, -2) where 16 - 12 (x'^2 + y'^2 + 1) > 0; grey clamp(100 clamp(that, 0, 1), 0, 1).
fn shadervm_sphere(p: At) -> Rgba {
    let x = (2.0 * p.x / p.w - 1.0) * (p.w / p.h);
    let y = 2.0 * p.y / p.h - 1.0;
    let discriminant = 16.0 - 12.0 * (x * x + y * y + 1.0);
    let grey = (100.0 * discriminant.clamp(0.0, 1.0)).clamp(0.0, 1.0);
    [grey, grey, grey, 1.0]
}

fn model(name: &str) -> fn(At) -> Rgba {
    match name {
        "uv" | "shadervm_uv" => uv,
        "shadervm_sphere" => shadervm_sphere,
        "colour_cycle" => colour_cycle,
        "checker" => checker,
        "radial" => radial,
        "circle" => circle,
        "sphere" => sphere,
        _ => panic!("no model of {name}"),
    }
}

/// The colour of the picture's pixel (column `x`, row `y` from the bottom) is within 1 per
/// channel of the model's.
fn assert_pixel(name: &str, image: &Image, frame: &Frame, alpha: Alpha, (x, y): (u32, u32)) {
    let at = At {
        x: x as f32 + 0.5,
        y: y as f32 + 0.5,
        w: frame.width as f32,
        h: frame.height as f32,
        t: frame.time,
    };
    let [r, g, b, a] = model(name)(at);
    let expected = [
        byte(r),
        byte(g),
        byte(b),
        if alpha == Alpha::Keep { byte(a) } else { 255 },
    ];
    let got = image.pixel_from_bottom(x, y);
    assert!(
        got.iter().zip(expected).all(|(g, e)| g.abs_diff(e) <= 1),
        "{name} at {}x{} t {}: pixel ({x}, {y}) is {got:?}, worked out {expected:?}",
        frame.width,
        frame.height,
        frame.time
    );
}

fn assert_matches_model(name: &str, frame: &Frame, alpha: Alpha) -> Image {
    let image = render_cpu(name, frame, alpha);
    for y in 0..frame.height {
        for x in 0..frame.width {
            assert_pixel(name, &image, frame, alpha, (x, y));
        }
    }
    image
}

/// Both sizes every example is checked at.
const SIZES: [(u32, u32); 2] = [(256, 256), (640, 360)];

#[test]
fn the_examples_are_exactly_the_ones_tested_here_and_in_the_readme() {
    let found: BTreeSet<String> = std::fs::read_dir(EXAMPLES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sasm"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    let tested: BTreeSet<String> = NAMES.iter().map(|n| n.to_string()).collect();
    assert_eq!(
        found, tested,
        "every example needs a model here, and every model an example"
    );
    let readme = std::fs::read_to_string(Path::new(EXAMPLES).join("README.md")).unwrap();
    for name in NAMES {
        assert!(
            readme.contains(&format!("`{name}.sasm`")),
            "examples/shader/README.md lacks {name}"
        );
        program(name);
    }
}

#[test]
fn uv_is_black_at_the_bottom_left_and_yellow_at_the_top_right() {
    let frame = frame(640, 360, 0.0);
    let image = assert_matches_model("uv", &frame, Alpha::Opaque);
    assert_eq!(image.pixel_from_bottom(0, 0), [0, 0, 0, 255]);
    assert_eq!(image.pixel_from_bottom(639, 359), [255, 255, 0, 255]);
    assert_eq!(image.pixel_from_bottom(639, 0), [255, 0, 0, 255]);
    assert_eq!(image.pixel_from_bottom(0, 359), [0, 255, 0, 255]);
    // (320.5 / 640, 180.5 / 360)
    assert_eq!(image.pixel_from_bottom(320, 180), [128, 128, 0, 255]);
    assert_matches_model("uv", &self::frame(256, 256, 0.0), Alpha::Opaque);
}

#[test]
fn shadervm_uv_is_the_v2_spelling_of_uv() {
    for (w, h) in SIZES {
        let frame = frame(w, h, 0.0);
        let image = assert_matches_model("shadervm_uv", &frame, Alpha::Opaque);
        assert_eq!(
            image,
            render_cpu("uv", &frame, Alpha::Opaque),
            "the same bytes as uv.sasm"
        );
        let kept = render_cpu("shadervm_uv", &frame, Alpha::Keep);
        assert_eq!(kept, render_cpu("uv", &frame, Alpha::Keep), "alpha 0 in both");
    }
}

#[test]
fn shadervm_sphere_is_a_white_disc_a_third_of_the_height_across() {
    for (w, h) in SIZES {
        let image = assert_matches_model("shadervm_sphere", &frame(w, h, 0.0), Alpha::Keep);
        assert_eq!(image.pixel_from_bottom(w / 2, h / 2), [255, 255, 255, 255]);
        assert_eq!(image.pixel_from_bottom(0, 0), [0, 0, 0, 255]);
        // The disc's radius is sqrt(1/3) of half the height: 0.577 h / 2 pixels.
        let radius = (h as f32 / 2.0 / 3.0f32.sqrt()) as u32;
        assert_eq!(image.pixel_from_bottom(w / 2, h / 2 + radius - 2), [255, 255, 255, 255]);
        assert_eq!(image.pixel_from_bottom(w / 2 + radius + 2, h / 2), [0, 0, 0, 255]);
    }
}

#[test]
fn colour_cycle_follows_three_cosines_and_changes_with_time() {
    for (w, h) in SIZES {
        for time in [0.0, 1.5, 2.75] {
            assert_matches_model("colour_cycle", &frame(w, h, time), Alpha::Opaque);
        }
    }
    // At the bottom-left corner the phase is t / 4 (plus 0.0015): at t = 0 red is at its
    // peak, green and blue at (1 + cos(2 pi / 3)) / 2 = 1/4; a second later, a quarter turn
    // on, red is at 1/2, green at (1 + cos(pi / 6)) / 2 = 0.93 and blue at 0.07.
    let near = |time, expected: [u8; 3]| {
        let got = render_cpu("colour_cycle", &frame(256, 256, time), Alpha::Opaque).pixel_from_bottom(0, 0);
        assert!(
            got.iter().zip(expected).all(|(g, e)| g.abs_diff(e) <= 3),
            "t {time}: {got:?}"
        );
    };
    near(0.0, [255, 64, 64]);
    near(1.0, [128, 238, 17]);
    // Four seconds is one turn of the colour wheel.
    let (first, turn) = (
        render_cpu("colour_cycle", &frame(256, 256, 0.5), Alpha::Opaque),
        render_cpu("colour_cycle", &frame(256, 256, 4.5), Alpha::Opaque),
    );
    assert!(first.rgba.iter().zip(&turn.rgba).all(|(a, b)| a.abs_diff(*b) <= 1));
    assert_ne!(
        first.rgba,
        render_cpu("colour_cycle", &frame(256, 256, 1.0), Alpha::Opaque).rgba
    );
}

#[test]
fn checker_has_eight_squares_to_the_height_light_where_one_index_is_odd() {
    for (w, h) in SIZES {
        let frame = frame(w, h, 0.0);
        let image = assert_matches_model("checker", &frame, Alpha::Opaque);
        // The middle of square (i, j) is at ((i + 0.5) h / 8, (j + 0.5) h / 8).
        let side = h / 8;
        for i in 0..w / side {
            for j in 0..8 {
                let pixel = image.pixel_from_bottom(i * side + side / 2, j * side + side / 2);
                let colour = if (i + j) % 2 == 1 { CREAM } else { SLATE };
                assert_eq!(
                    pixel,
                    [byte(colour[0]), byte(colour[1]), byte(colour[2]), 255],
                    "square {i}, {j}"
                );
            }
        }
    }
}

#[test]
fn radial_goes_from_warm_in_the_centre_to_violet_in_the_corners() {
    for (w, h) in SIZES {
        let image = assert_matches_model("radial", &frame(w, h, 0.0), Alpha::Opaque);
        let [r, g, b, _] = image.pixel_from_bottom(w / 2, h / 2);
        assert!(
            r == 255 && g.abs_diff(209) <= 1 && b.abs_diff(115) <= 1,
            "centre {r} {g} {b}"
        );
        // Circles, not ellipses: the same distance up and to the side gives the same colour.
        assert_eq!(
            image.pixel_from_bottom(w / 2 + 100, h / 2),
            image.pixel_from_bottom(w / 2, h / 2 + 100)
        );
        let [r, g, b, _] = image.pixel_from_bottom(0, 0);
        assert!(
            r.abs_diff(41) <= 1 && g.abs_diff(15) <= 1 && b.abs_diff(77) <= 1,
            "corner {r} {g} {b}"
        );
    }
}

#[test]
fn circle_is_a_disc_with_a_two_pixel_edge_and_its_alpha() {
    for (w, h) in SIZES {
        for alpha in [Alpha::Opaque, Alpha::Keep] {
            assert_matches_model("circle", &frame(w, h, 0.0), alpha);
        }
        let image = render_cpu("circle", &frame(w, h, 0.0), Alpha::Keep);
        let gold = [250, 194, 64, 255];
        let ground = [26, 31, 51, 0];
        assert_eq!(image.pixel_from_bottom(w / 2, h / 2), gold);
        assert_eq!(image.pixel_from_bottom(0, 0), ground);
        // Along the middle row, the edge is 0.35 h right of the centre: the pixel whose
        // centre is nearest it is mixed, the one 4 pixels inside solid, 4 outside clear.
        let edge = (w as f32 / 2.0 + 0.35 * h as f32 - 0.5).round() as u32;
        assert_eq!(image.pixel_from_bottom(edge - 4, h / 2), gold);
        assert_eq!(image.pixel_from_bottom(edge + 4, h / 2), ground);
        let [_, _, _, a] = image.pixel_from_bottom(edge, h / 2);
        assert!((40..=215).contains(&a), "edge alpha {a}");
    }
}

#[test]
fn sphere_is_lit_from_the_upper_left_against_the_sky() {
    for (w, h) in SIZES {
        let image = assert_matches_model("sphere", &frame(w, h, 0.0), Alpha::Opaque);
        // The centre is red, the top of the sky blue, the bottom pale.
        let [r, g, b, _] = image.pixel_from_bottom(w / 2, h / 2);
        assert!(r > 2 * g && r > 2 * b, "centre {r} {g} {b}");
        let [r, _, b, _] = image.pixel_from_bottom(0, h - 1);
        assert!(b > 200 && r < 100, "sky {r} {b}");
        let [r, g, b, _] = image.pixel_from_bottom(0, 0);
        assert!(r > 190 && g > 190 && b > 180, "horizon {r} {g} {b}");
        // The point of the sphere facing H is the highlight, white-ish: green about
        // 0.3 (0.9 + 0.08) + 0.6. Where the normal is (0.5, -0.5, 0.71), down and right,
        // N . L = -0.25 and red is only about 0.9 (0.14 + 0.08).
        let centre = [0.2, 0.1, -3.0];
        let light = normalize([-0.5, 0.7, 0.5]);
        let half = normalize([light[0], light[1], light[2] + 1.0]);
        let shaded = normalize([0.5, -0.5, 0.71]);
        let on_screen = |normal: [f32; 3]| {
            let point = [0, 1, 2].map(|i| centre[i] + normal[i]);
            let (u, v) = (2.0 * point[0] / -point[2], 2.0 * point[1] / -point[2]);
            let (w, h) = (w as f32, h as f32);
            image.pixel_from_bottom(((u * h + w) / 2.0) as u32, ((v + 1.0) * h / 2.0) as u32)
        };
        let (lit, shade) = (on_screen(half), on_screen(shaded));
        assert!(lit[1] > 200 && shade[0] < 70, "lit {lit:?} shade {shade:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Through the command line.

#[test]
fn each_example_survives_bytecode_and_disassembly() {
    let dir = temp();
    for name in NAMES {
        let source = example_path(name);
        let shb = dir.path().join(format!("{name}.shb"));
        let listing = dir.path().join(format!("{name}.dis.sasm"));
        let again = dir.path().join(format!("{name}.again.shb"));
        for args in [
            vec![path_str(&source), "-o", path_str(&shb)],
            vec!["disasm", path_str(&shb), "-o", path_str(&listing)],
            vec![path_str(&listing), "-o", path_str(&again)],
        ] {
            let output = run(&args);
            assert!(output.status.success(), "{name}: {args:?}: {}", stderr(&output));
            assert_eq!(stderr(&output), "", "{name}: {args:?}");
        }
        let bytes = std::fs::read(&shb).unwrap();
        assert_eq!(bytes, bytecode_bytes(&program(name)), "{name}");
        assert_eq!(std::fs::read(&again).unwrap(), bytes, "{name}");
    }
}

fn assert_within_one(what: &str, a: &Image, b: &Image) {
    assert_eq!((a.width, a.height), (b.width, b.height), "{what}");
    let far = a.rgba.iter().zip(&b.rgba).filter(|(x, y)| x.abs_diff(**y) > 1).count();
    assert_eq!(far, 0, "{what}: {far} channels differ by more than 1");
}

#[test]
fn polyasm_run_writes_each_example_as_a_png_at_the_default_size() {
    let dir = temp();
    for name in NAMES {
        let out = dir.path().join(format!("{name}.png"));
        let output = run(&["run", path_str(&example_path(name)), "-o", path_str(&out)]);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let picture = read_png(&out);
        // On the CPU or, where a hardware GPU renders, within 1 of it.
        let expected = render_cpu(name, &frame(640, 360, 0.0), Alpha::Opaque);
        assert_within_one(name, &picture, &expected);
        if name == "uv" {
            assert_eq!(picture.pixel_from_bottom(0, 0), [0, 0, 0, 255], "bottom left");
            assert_eq!(picture.pixel_from_bottom(639, 359), [255, 255, 0, 255], "top right");
        }
    }
}

/// The picture in the README is what the command beside it renders, and the text around it
/// counts the program right.
#[test]
fn the_readme_shows_the_sphere_as_its_command_renders_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(Path::new(root).join("README.md")).unwrap();
    let command = "polyasm run examples/shader/sphere.sasm -o docs/images/sphere.png --size 480x270";
    assert!(readme.contains(command), "the README shows how its picture was made");
    assert!(readme.contains("(docs/images/sphere.png)"));
    let count = format!("{} instructions", program("sphere").len());
    assert!(readme.contains(&count), "the README says {count}");
    let picture = read_png(&Path::new(root).join("docs/images/sphere.png"));
    let expected = render_cpu("sphere", &frame(480, 270, 0.0), Alpha::Opaque);
    assert_within_one("docs/images/sphere.png", &picture, &expected);
}

// ---------------------------------------------------------------------------------------------
// On the GPU.

#[test]
fn the_gpu_draws_every_example_like_the_cpu() {
    let Some(gpu) = gpu() else { return };
    for name in NAMES {
        let times: &[f32] = if name == "colour_cycle" {
            &[0.0, 1.5, 2.75]
        } else {
            &[0.0]
        };
        for &time in times {
            let frame = frame(256, 256, time);
            let cpu = render_cpu(name, &frame, Alpha::Keep);
            let on_gpu = gpu
                .render(&program(name), &frame, Alpha::Keep)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_within_one(&format!("{name} at t {time} on {}", gpu.adapter_name()), &on_gpu, &cpu);
        }
    }
}
