//! Textures and full-screen rendering: Mesa's reload program, each pixel's centre,
//! derivatives over 2x2 quads, discarded pixels, the failing pixel a rendering error names,
//! and any valid program running without a panic.

mod common;

use common::exec::*;
use polyasm_lima::exec::{Filter, Image, Inputs, Output, Program, Texture, Vec4, Wrap, render, run_fragment};
use polyasm_lima::instr::{Branch, Instr, Varying, VaryingFetch, VaryingSource, VecDest};
use polyasm_lima::ops::{AccOp, BranchCond, Perspective, REG_CONST0, VaryingAlignment};
use proptest::prelude::*;

fn reload_at(u: f32, v: f32, filter: Filter, wrap: Wrap) -> Vec4 {
    let program = Program::from_words(&RELOAD).unwrap();
    let inputs = Inputs {
        varyings: vec![[u, v, 0.0, 0.0]],
        textures: vec![Some(four_texels())],
        filter,
        wrap,
        ..Inputs::default()
    };
    match run_fragment(&program, &inputs).unwrap() {
        Output::Color(c) => c,
        Output::Discarded => panic!("discarded"),
    }
}

#[test]
fn mesa_reload_program_samples_at_the_varying() {
    let (n, l) = (Filter::Nearest, Filter::Linear);
    assert_eq!(reload_at(0.25, 0.25, n, Wrap::Repeat), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.75, 0.75, n, Wrap::Repeat), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(reload_at(0.25, 0.75, l, Wrap::Repeat), [1.0, 0.0, 0.0, 1.0]);
    // The centre of the texture is the average of the four texels.
    assert_eq!(reload_at(0.5, 0.5, l, Wrap::Repeat), [0.5, 0.5, 0.5, 1.0]);
    // Repeat and clamp outside [0, 1].
    assert_eq!(reload_at(1.25, -0.75, n, Wrap::Repeat), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(1.25, -0.75, n, Wrap::Clamp), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.0, 0.25, l, Wrap::Clamp), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.0, 0.25, l, Wrap::Repeat), [0.5, 0.5, 1.0, 1.0]);
}

#[test]
fn the_reload_program_renders_a_copy_of_its_texture() {
    let program = Program::from_words(&RELOAD).unwrap();
    for (width, height) in [(7, 5), (8, 6), (1, 1), (33, 2)] {
        let source = test_picture(width, height);
        for filter in [Filter::Nearest, Filter::Linear] {
            let inputs = Inputs {
                textures: vec![Some(Texture::from_rgba8(width, height, &source).unwrap())],
                filter,
                ..Inputs::default()
            };
            let image = render(&program, &inputs, width, height).unwrap();
            assert_eq!((image.width, image.height), (width, height));
            assert!(image.rgba == source, "{width}x{height} {filter:?}");
        }
    }
}

/// `$0 = (u, v, 0, 1)` from varying 0, then `last` (with stop).
fn render_uv_then(last: Instr, width: u32, height: u32) -> Image {
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    render(&Program::new(&[fetch, stop(last)]), &Inputs::default(), width, height).unwrap()
}

#[test]
fn rendering_gives_each_pixel_its_centre_with_v_up() {
    let image = render_uv_then(Instr::default(), 4, 2);
    // Row 0 of the picture is the top: v = 0.75.
    assert_eq!(image.pixel(0, 0), [32, 191, 0, 255]);
    assert_eq!(image.pixel(3, 1), [223, 64, 0, 255]);
}

#[test]
fn derivatives_are_taken_over_2x2_quads() {
    // $0 = (dFdx(u), dFdy(v), dFdx(v), 1): right - left and top - bottom of each quad.
    let last = Instr {
        vec4_acc: Some(vacc(
            AccOp::Dfdx,
            Some(VecDest { reg: 0, mask: 0b0101 }),
            vs(0, 0b01_01_01_00),
            Some(v(0)),
        )),
        float_acc: Some(facc(AccOp::Dfdy, Some(1), s(0, 1), Some(s(0, 1)))),
        sync: true,
        ..Instr::default()
    };
    for (width, height) in [(2, 4), (4, 8), (3, 3)] {
        let image = render_uv_then(last, width, height);
        let du = (1.0 / width as f32 * 255.0).round() as u8;
        let dv = (1.0 / height as f32 * 255.0).round() as u8;
        for y in 0..height {
            for x in 0..width {
                assert_eq!(image.pixel(x, y), [du, dv, 0, 255], "{width}x{height} at {x}, {y}");
            }
        }
    }
}

#[test]
fn discarded_pixels_are_transparent_black() {
    // Discard the left half: branch.lt u 0.5 over the stop to a discard.
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    let half = 0x3800;
    let branch = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Lt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target: 0,
        }),
        const0: Some([half, 0, 0, 0]),
        ..Instr::default()
    };
    let target = branch.count() as i32 + 1;
    let branch = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Lt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target,
        }),
        ..branch
    };
    let discard = Instr {
        branch: Some(Branch::Discard),
        stop: true,
        ..Instr::default()
    };
    let program = Program::new(&[fetch, branch, stop(Instr::default()), discard]);
    let image = render(&program, &Inputs::default(), 4, 1).unwrap();
    assert_eq!(image.pixel(0, 0), [0; 4]);
    assert_eq!(image.pixel(1, 0), [0; 4]);
    assert_eq!(image.pixel(2, 0), [159, 128, 0, 255]);
    assert_eq!(image.pixel(3, 0), [223, 128, 0, 255]);
}

#[test]
fn a_rendering_error_names_the_lowest_failing_pixel() {
    // Loops forever where u > 0.5 (the right half).
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    let spin = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Gt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target: 0,
        }),
        const0: Some([0x3800, 0, 0, 0]),
        ..Instr::default()
    };
    let spin_offset = fetch.count() as usize;
    let program = Program::new(&[fetch, spin, stop(Instr::default())]);
    let inputs = Inputs {
        max_steps: 50,
        ..Inputs::default()
    };
    // The quad of pixels 2 and 3 is the first with a pixel right of the middle.
    let error = render(&program, &inputs, 6, 6).unwrap_err();
    assert_eq!(error.code(), "PP300");
    assert_eq!(error.offset, spin_offset);
    assert_eq!(error.pixel, Some((3, 0)));
    assert!(
        error.to_string().ends_with("(pixel 3, 0 from the bottom left)"),
        "{error}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_valid_program_runs_or_fails_without_panicking(program in common::strategies::program(6)) {
        let inputs = Inputs {
            varyings: vec![[0.5, 0.25, 1.0, 1.0]; 4],
            uniforms: vec![[1.0, -2.0, 0.5, 3.0]; 4],
            textures: vec![Some(four_texels())],
            max_steps: 64,
            ..Inputs::default()
        };
        let program = Program::new(&program);
        if let Err(error) = run_fragment(&program, &inputs) {
            prop_assert!(error.code().starts_with("PP3"));
        }
        if let Err(error) = render(&program, &inputs, 3, 3) {
            prop_assert!(error.pixel.is_some() || error.code() == "PP304");
        }
    }
}
