//! `polyasm run`'s options and textures for Lima: option values fill the inputs, bad ones are
//! usage errors with help, textures are read only when sampled and checked from their headers
//! before they are decoded, and one fragment's colour prints as shortest decimals.

use polyasm_core::Diagnostic;
use polyasm_core::options::{OptionValues, TargetOptions, UsageError};
use polyasm_lima::exec::{self, Filter, Image, MAX_TEXTURE_TEXELS, Output, Program, Texture, Vec4, Wrap, try_vec};
use polyasm_lima::instr::{Instr, Sampler};
use polyasm_lima::run::{
    RUN_OPTIONS, decode_png, decode_png_within, format_output, load_textures, memory_reason, png_size, run_settings,
};

fn read(pairs: &[(&str, &str)]) -> Result<TargetOptions, UsageError> {
    OptionValues::read(&[RUN_OPTIONS], pairs).map(|values| TargetOptions {
        values,
        ..TargetOptions::default()
    })
}

fn options(pairs: &[(&str, &str)]) -> TargetOptions {
    read(pairs).expect("good values")
}

fn error(pairs: &[(&str, &str)]) -> Diagnostic {
    *read(pairs).and_then(|o| run_settings(&o)).unwrap_err().0
}

#[test]
fn options_fill_the_inputs() {
    let settings = run_settings(&options(&[
        ("varying", "2=1,2"),
        ("uniform", "1=0.5"),
        ("texture", "3=a.png"),
        ("fragcoord", "1.5,2.5"),
        ("filter", "nearest"),
        ("wrap", "clamp"),
        ("max-steps", "7"),
        ("fb-color", "0.25,0.5,0.75,1"),
        ("fb-depth", "0.5"),
    ]))
    .unwrap();
    let inputs = &settings.inputs;
    assert_eq!(inputs.varyings, vec![[0.0; 4], [0.0; 4], [1.0, 2.0, 0.0, 0.0]]);
    assert_eq!(inputs.uniforms, vec![[0.0; 4], [0.5, 0.0, 0.0, 0.0]]);
    assert_eq!(settings.textures, vec![(3, "a.png".to_string())]);
    assert_eq!(inputs.frag_coord, [1.5, 2.5, 0.0, 1.0]);
    assert_eq!(
        (inputs.filter, inputs.wrap, inputs.max_steps),
        (Filter::Nearest, Wrap::Clamp, 7)
    );
    assert_eq!((inputs.fb_color, inputs.fb_depth), ([0.25, 0.5, 0.75, 1.0], 0.5));
    assert_eq!(settings.size, None);
    let defaults = run_settings(&TargetOptions::default()).unwrap();
    assert_eq!(defaults.inputs.max_steps, exec::DEFAULT_MAX_STEPS);
    assert_eq!(defaults.inputs.filter, Filter::Linear);
}

#[test]
fn bad_values_are_usage_errors_with_help() {
    for (pairs, message) in [
        (&[("varying", "64=1")][..], "varying slot 64 is out of range"),
        (&[("varying", "1=1,2,3,4,5")], "at most 4"),
        (&[("varying", "1=2"), ("varying", "1=3")], "varying 1 is given twice"),
        (&[("uniform", "x=1")], "`x` names no uniform slot"),
        (&[("uniform", "65536=1")], "out of range"),
        (&[("texture", "a.png")], "should be N=FILE.png"),
        (&[("texture", "4096=a.png")], "sampler slot 4096 is out of range"),
        (&[("texture", "0=")], "the file is missing"),
        (
            &[("texture", "0=a.png"), ("texture", "0=b.png")],
            "texture 0 is given twice",
        ),
        (&[("fragcoord", "1")], "has 1 number, and"),
        (&[("fragcoord", "1,z")], "`z` is not a number"),
        (&[("size", "10")], "for `--size`"),
        (&[("filter", "cubic")], "for `--filter`"),
        (&[("wrap", "mirror")], "for `--wrap`"),
        (&[("max-steps", "0")], "for `--max-steps`"),
        (&[("fb-depth", "deep")], "not a number"),
        (&[("size", "4x4"), ("fragcoord", "1,1")], "`--fragcoord`"),
        (
            &[("size", "4x4"), ("varying", "0=1")],
            "varying 0 is each pixel's (u, v)",
        ),
    ] {
        let d = error(pairs);
        assert_eq!(d.code, "PA006");
        assert!(d.message.contains(message), "{pairs:?}: {}", d.message);
        assert!(d.help.is_some(), "{pairs:?}");
    }
    assert!(run_settings(&options(&[("size", "4x4"), ("varying", "1=1")])).is_ok());
}

#[test]
fn outputs_print_as_shortest_decimals() {
    assert_eq!(
        format_output(&Output::Color([1.0, 0.0, -0.5, -1.677_734_4])),
        "$0 = (1, 0, -0.5, -1.6777344)\n"
    );
    assert_eq!(format_output(&Output::Discarded), "discarded\n");
}

#[test]
fn a_failed_allocation_is_an_error_that_becomes_the_texture_diagnostic() {
    // More than the address space: the reservation fails at once, with nothing allocated.
    let e = try_vec::<u8>(isize::MAX as usize).unwrap_err();
    assert_eq!(e.bytes, isize::MAX as usize);
    let e = try_vec::<Vec4>(usize::MAX / 4).unwrap_err();
    assert_eq!(e.bytes, usize::MAX);
    let reason = memory_reason(&e);
    assert_eq!(
        reason,
        format!(
            "decoding it needs memory that cannot be had ({} bytes of memory could not be allocated)",
            usize::MAX
        )
    );
    let d = polyasm_lima::error::texture_error(0, "a.png", &reason);
    assert_eq!((d.code, d.severity), ("PP305", polyasm_core::Severity::Error));
    assert!(d.message.ends_with("could not be allocated)"), "{}", d.message);
    assert_eq!(try_vec::<u8>(16).unwrap().capacity(), 16);
}

fn png_of(width: u32, height: u32) -> Vec<u8> {
    let image = Image {
        width,
        height,
        rgba: vec![7; (width * height * 4) as usize],
    };
    let mut png = Vec::new();
    image.write_png(&mut png).unwrap();
    png
}

#[test]
fn texture_sizes_are_checked_before_decoding_against_the_side_and_the_runs_budget() {
    assert!(decode_png(&png_of(4096, 1)).is_ok());
    assert!(decode_png(&png_of(1, 4096)).is_ok());
    let e = decode_png(&png_of(4097, 1)).unwrap_err();
    assert_eq!(e, "the picture is 4097x1, and a texture is at most 4096 pixels a side");
    let png = png_of(3, 2);
    assert_eq!(png_size(&png), Ok((3, 2)));
    assert!(decode_png_within(&png, MAX_TEXTURE_TEXELS - 6).is_ok());
    let e = decode_png_within(&png, MAX_TEXTURE_TEXELS - 5).unwrap_err();
    assert_eq!(
        e,
        "the picture is 3x2, and the textures a program samples hold at most 67108864 texels together"
    );
}

#[test]
fn only_the_textures_a_program_samples_are_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("p.png");
    std::fs::write(&picture, png_of(2, 2)).unwrap();
    let garbage = dir.path().join("g.png");
    std::fs::write(&garbage, b"not a picture").unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let textures = vec![(3, path(&picture)), (5, path(&garbage))];
    // Sampler 5 is never sampled: its file is opened, not decoded.
    let read = load_textures(&textures, Some(&[0, 3])).unwrap();
    assert_eq!(read.table.len(), 4);
    assert_eq!(read.table[3].as_ref().map(|t| (t.width(), t.height())), Some((2, 2)));
    assert_eq!(read.warnings.len(), 1);
    assert_eq!(read.warnings[0].code, "PP306");
    assert!(
        read.warnings[0].message.starts_with("texture 5 "),
        "{}",
        read.warnings[0].message
    );
    // When any sampler may be read, every texture is decoded.
    let e = load_textures(&textures, None).unwrap_err();
    assert_eq!(e.code, "PP305");
    assert!(e.message.contains("texture 5"), "{}", e.message);
    // A directory or a missing file is an error even when unsampled.
    for bad in [path(dir.path()), path(&dir.path().join("missing.png"))] {
        let e = load_textures(&[(1, bad.clone())], Some(&[])).unwrap_err();
        assert_eq!(e.code, "PP305", "{bad}");
    }
}

#[test]
fn a_program_names_the_samplers_it_reads() {
    let fetch = |index, offset| Instr {
        sampler: Some(Sampler {
            index,
            offset,
            lod_bias: None,
            explicit_lod: false,
            constant_lod_bias: 0,
        }),
        ..Instr::default()
    };
    let program = Program::new(&[fetch(7, None), Instr::default(), fetch(2, None), fetch(7, None)]);
    assert_eq!(program.samplers(), Some(vec![2, 7]));
    assert_eq!(Program::new(&[Instr::default()]).samplers(), Some(vec![]));
    assert_eq!(Program::new(&[fetch(2, None), fetch(0, Some(4))]).samplers(), None);
}

#[test]
fn pictures_round_trip_through_png() {
    let rgba: Vec<u8> = (0..6 * 4).map(|i| (i * 10) as u8).collect();
    let image = Image {
        width: 3,
        height: 2,
        rgba: rgba.clone(),
    };
    let mut png = Vec::new();
    image.write_png(&mut png).unwrap();
    assert_eq!(decode_png(&png).unwrap(), Texture::from_rgba8(3, 2, &rgba).unwrap());
    assert!(decode_png(b"not a png").unwrap_err().contains("not a valid PNG"));
    assert!(decode_png(&png[..png.len() / 2]).is_err());
}
