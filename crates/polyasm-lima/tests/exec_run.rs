//! `run_object`, what `polyasm run` calls: options, the printed colour, PNG textures in and
//! out, and the diagnostics of a failed run.

mod common;

use common::exec::*;
use polyasm_core::Object;
use polyasm_core::options::OptionValues;
use polyasm_core::stream::RunIo;
use polyasm_core::target::TargetOptions;
use polyasm_lima::exec::{Image, Texture};
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::{Branch, Instr};
use polyasm_lima::ops::BranchCond;
use polyasm_lima::run::{decode_png, run_object};

/// Runs `words` through `run_object` with the options given; (the outcome's value, what was
/// written, the diagnostics' codes and messages).
fn run_words(words: &[u32], pairs: &[(&'static str, &str)]) -> (Option<u8>, Vec<u8>, Vec<(String, String)>) {
    let options = TargetOptions {
        values: OptionValues::read(&[polyasm_lima::run::RUN_OPTIONS], pairs).expect("good values"),
        ..TargetOptions::default()
    };
    let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
    let mut io = RunIo {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        files: None,
        end: None,
    };
    let outcome = run_object(&Object::from_words(words), &options, &mut io).expect("no usage error");
    let diagnostics = outcome
        .diagnostics
        .iter()
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect();
    (outcome.value.map(|s| s.0), stdout, diagnostics)
}

fn png_file(dir: &std::path::Path, name: &str, width: u32, height: u32, rgba: &[u8]) -> String {
    let path = dir.join(name);
    let image = Image {
        width,
        height,
        rgba: rgba.to_vec(),
    };
    let file = std::fs::File::create(&path).unwrap();
    image.write_png(std::io::BufWriter::new(file)).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn run_object_prints_the_fragment_colour() {
    let (status, out, diagnostics) = run_words(&CLEAR, &[]);
    assert_eq!((status, diagnostics.len()), (Some(0), 0));
    assert_eq!(String::from_utf8(out).unwrap(), "$0 = (1, 1, 1, 1)\n");
    // Vector C with a varying and a uniform from the options.
    let words = [
        0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280, 0x00004424,
        0x00000e42, 0x580007ce, 0x00000000,
    ];
    let (_, out, _) = run_words(&words, &[("varying", "0=1,2,3,4"), ("uniform", "0=2,3,0.5,0.25")]);
    assert_eq!(String::from_utf8(out).unwrap(), "$0 = (0.074074075, 6, 1.5, 13.5)\n");
}

#[test]
fn run_object_renders_the_reload_program_as_a_copy_of_the_texture() {
    let dir = tempfile::tempdir().unwrap();
    let source = test_picture(9, 7);
    let texture = png_file(dir.path(), "t.png", 9, 7, &source);
    for filter in ["nearest", "linear"] {
        let (status, out, diagnostics) = run_words(
            &RELOAD,
            &[
                ("texture", &format!("0={texture}")),
                ("size", "9x7"),
                ("filter", filter),
            ],
        );
        assert_eq!((status, diagnostics), (Some(0), vec![]));
        assert_eq!(
            decode_png(&out).unwrap(),
            Texture::from_rgba8(9, 7, &source).unwrap(),
            "{filter}"
        );
    }
    // One fragment in texel (1, 1) from the bottom left.
    let (_, out, _) = run_words(
        &RELOAD,
        &[
            ("texture", &format!("0={texture}")),
            ("varying", "0=0.17,0.2"),
            ("filter", "nearest"),
        ],
    );
    let [r, g, b, a] = {
        let at = (5 * 9 + 1) * 4;
        [0, 1, 2, 3].map(|i| f32::from(source[at + i]) / 255.0)
    };
    assert_eq!(String::from_utf8(out).unwrap(), format!("$0 = ({r}, {g}, {b}, {a})\n"));
}

#[test]
fn grey_and_palette_pictures_are_read_as_rgba() {
    let mut grey = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut grey, 2, 1);
        encoder.set_color(png::ColorType::GrayscaleAlpha);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[10, 20, 30, 40]).unwrap();
    }
    assert_eq!(
        decode_png(&grey).unwrap(),
        Texture::from_rgba8(2, 1, &[10, 10, 10, 20, 30, 30, 30, 40]).unwrap()
    );
    let mut indexed = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut indexed, 2, 1);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(vec![1, 2, 3, 4, 5, 6]);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[1, 0]).unwrap();
    }
    assert_eq!(
        decode_png(&indexed).unwrap(),
        Texture::from_rgba8(2, 1, &[4, 5, 6, 255, 1, 2, 3, 255]).unwrap()
    );
}

#[test]
fn run_object_reports_errors_with_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (status, out, diagnostics) = run_words(&RELOAD, &[]);
    assert_eq!((status, out.len()), (None, 0));
    assert_eq!(diagnostics[0].0, "PP301");
    let missing = dir.path().join("missing.png");
    let (status, _, diagnostics) = run_words(&RELOAD, &[("texture", &format!("0={}", missing.display()))]);
    assert_eq!(status, None);
    assert_eq!(diagnostics[0].0, "PP305");
    assert!(
        diagnostics[0].1.starts_with("cannot read texture 0 from `"),
        "{}",
        diagnostics[0].1
    );
    let not_png = dir.path().join("a.png");
    std::fs::write(&not_png, "hello").unwrap();
    let (_, _, diagnostics) = run_words(&RELOAD, &[("texture", &format!("0={}", not_png.display()))]);
    assert_eq!(diagnostics[0].0, "PP305");
    assert!(diagnostics[0].1.contains("not a valid PNG"), "{}", diagnostics[0].1);
    let (_, _, diagnostics) = run_words(&[0, 1], &[]);
    assert_eq!(diagnostics[0].0, "PP200");
    // A loop: branch to itself forever.
    let spin = [Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Always,
            arg0: 0,
            arg1: 0,
            target: 0,
        }),
        ..Instr::default()
    }];
    let (status, _, diagnostics) = run_words(&encode(&spin), &[("max-steps", "20")]);
    assert_eq!(status, None);
    assert_eq!(
        diagnostics,
        vec![(
            "PP300".to_string(),
            "the fragment ran 20 instructions without reaching `stop`; the next is at word 0".to_string()
        )]
    );
    let (_, _, diagnostics) = run_words(&encode(&spin), &[("max-steps", "20"), ("size", "2x2")]);
    assert_eq!(diagnostics[0].0, "PP300");
    assert!(diagnostics[0].1.ends_with("(pixel 0, 0 from the bottom left)"));
}
