//! The emulator's inputs and memory: varyings, uniforms, temporaries, framebuffer reads, and
//! indices and coordinates far outside them.

mod common;

use common::exec::*;
use polyasm_lima::exec::{Filter, Inputs, Program, RunErrorKind, Wrap, render, run_fragment};
use polyasm_lima::instr::{Instr, Load, Store, Varying, VaryingFetch, VaryingSource, VecSource};
use polyasm_lima::ops::{AccOp, Alignment, FbRead, LoadSource, MulOp, Perspective, REG_UNIFORM, VaryingAlignment};

#[test]
fn offsets_and_coordinates_past_i64_saturate() {
    // A sampler number offset by 3e38: no texture there, and no overflow on the way.
    let sampler = stop(Instr {
        sampler: Some(polyasm_lima::instr::Sampler {
            index: 1,
            offset: Some(4),
            lod_bias: None,
            explicit_lod: false,
            constant_lod_bias: 0,
        }),
        ..Instr::default()
    });
    let program = [load_reg(0, 1), sampler];
    let inputs = with_uniforms(&[[3e38; 4]]);
    let error = run_fragment(&Program::new(&program), &inputs).unwrap_err();
    assert_eq!(error.kind, RunErrorKind::NoTexture { sampler: i64::MAX });
    // A uniform index offset by -3e38 or 3e38 is outside memory, which reads 0.
    let mut load = uniform(0);
    load.offset = Some(4);
    let far = stop(Instr {
        load: Some(load),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    });
    for offset in [-3e38, 3e38] {
        let inputs = with_uniforms(&[[offset; 4]]);
        assert_eq!(color(&[load_reg(0, 1), far], &inputs), [0.0; 4]);
    }
    // Bilinear sampling at the largest coordinates reads the texels at the saturated edge.
    for (s, t) in [(3e38, 3e38), (-3e38, 3e38), (f32::MAX, f32::MIN)] {
        for wrap in [Wrap::Repeat, Wrap::Clamp] {
            let texel = four_texels().sample(s, t, Filter::Linear, wrap);
            assert!(texel.iter().all(|c| (0.0..=1.0).contains(c) || c.is_nan()), "{texel:?}");
        }
    }
}

#[test]
fn varyings_fill_lanes_from_x_by_alignment_and_offset() {
    let fetch = |alignment, index, offset| {
        stop(Instr {
            varying: Some(Varying {
                dest: 0,
                mask: 0xF,
                source: VaryingSource::Fetch {
                    perspective: Perspective::None,
                    fetch: VaryingFetch {
                        alignment,
                        index,
                        offset,
                    },
                },
            }),
            ..Instr::default()
        })
    };
    let inputs = Inputs {
        varyings: vec![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
        uniforms: vec![[1.0, 0.0, 0.0, 0.0]],
        ..Inputs::default()
    };
    assert_eq!(
        color(&[fetch(VaryingAlignment::Vec4, 1, None)], &inputs),
        [5.0, 6.0, 7.0, 8.0]
    );
    assert_eq!(
        color(&[fetch(VaryingAlignment::Vec2, 3, None)], &inputs),
        [7.0, 8.0, 0.0, 0.0]
    );
    assert_eq!(
        color(&[fetch(VaryingAlignment::Scalar, 6, None)], &inputs),
        [7.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(color(&[fetch(VaryingAlignment::Vec4, 7, None)], &inputs), [0.0; 4]);
    // 1.y + $1.x (= 1): varying 1.z.
    let program = [load_reg(0, 1), fetch(VaryingAlignment::Scalar, 5, Some(4))];
    assert_eq!(color(&program, &inputs), [7.0, 0.0, 0.0, 0.0]);
}

#[test]
fn varying_register_sources_fragcoord_and_perspective() {
    let unit = |source| {
        stop(Instr {
            varying: Some(Varying {
                dest: 0,
                mask: 0xF,
                source,
            }),
            ..Instr::default()
        })
    };
    let inputs = Inputs {
        varyings: vec![[2.0, 4.0, 8.0, 2.0]],
        frag_coord: [10.5, 20.5, 0.0, 1.0],
        ..with_uniforms(&[[3.0, 0.0, 4.0, 1.0]])
    };
    let fetch = VaryingFetch {
        alignment: VaryingAlignment::Vec4,
        index: 0,
        offset: None,
    };
    let w = VaryingSource::Fetch {
        perspective: Perspective::W,
        fetch,
    };
    assert_eq!(color(&[unit(w)], &inputs), [1.0, 2.0, 4.0, 1.0]);
    let z = VaryingSource::Fetch {
        perspective: Perspective::Z,
        fetch,
    };
    assert_eq!(color(&[unit(z)], &inputs), [0.25, 0.5, 1.0, 0.25]);
    assert_eq!(
        color(&[unit(VaryingSource::FragCoord)], &inputs),
        [10.5, 20.5, 0.0, 1.0]
    );
    assert_eq!(
        color(&[unit(VaryingSource::FrontFacing)], &inputs),
        [1.0, 0.0, 0.0, 0.0]
    );
    let program = [load_reg(0, 1), unit(VaryingSource::Normalize(vs(1, 0xE4)))];
    assert_eq!(color(&program, &inputs), [0.6, 0.0, 0.8, 1.0]);
    let neg = VecSource {
        neg: true,
        ..vs(1, 0x1B)
    };
    let program = [
        load_reg(0, 1),
        unit(VaryingSource::Register {
            perspective: Perspective::None,
            source: neg,
        }),
    ];
    assert_eq!(color(&program, &inputs), [-1.0, -4.0, -0.0, -3.0]);
    // +x face: s = (-z / x + 1) / 2, t = (-y / x + 1) / 2.
    let program = [load_reg(0, 1), unit(VaryingSource::CubeRegister(v(1)))];
    let inputs = with_uniforms(&[[4.0, 2.0, -2.0, 0.0]]);
    assert_eq!(color(&program, &inputs), [0.75, 0.25, 0.0, 1.0]);
}

#[test]
fn uniform_loads_keep_lanes_in_place_and_read_zero_outside() {
    let load = |alignment, index, offset| {
        stop(Instr {
            load: Some(Load {
                source: LoadSource::Uniform,
                alignment,
                index,
                offset,
            }),
            vec4_mul: Some(mov(0, v(REG_UNIFORM))),
            ..Instr::default()
        })
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-2.0, 0.0, 0.0, 0.0]]);
    assert_eq!(color(&[load(Alignment::Vec4, 1, None)], &inputs), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(color(&[load(Alignment::Vec2, 1, None)], &inputs), [0.0, 0.0, 3.0, 4.0]);
    assert_eq!(
        color(&[load(Alignment::Scalar, 6, None)], &inputs),
        [0.0, 0.0, 7.0, 0.0]
    );
    assert_eq!(color(&[load(Alignment::Vec4, 9, None)], &inputs), [0.0; 4]);
    // Index 2 plus $1.x = -2: uniform 0; plus -3 would be below 0 and reads 0.
    let program = [load_reg(2, 1), load(Alignment::Vec4, 2, Some(4))];
    assert_eq!(color(&program, &inputs), [1.0, 2.0, 3.0, 4.0]);
    let program = [load_reg(2, 1), load(Alignment::Vec4, 1, Some(4))];
    assert_eq!(color(&program, &inputs), [0.0; 4]);
}

#[test]
fn temporaries_are_stored_and_loaded_back() {
    let store = |alignment, index, source| Instr {
        store: Some(Store::Temp {
            alignment,
            index,
            offset: None,
            source,
        }),
        ..Instr::default()
    };
    let load_t = |alignment, index| Instr {
        load: Some(Load {
            source: LoadSource::Temporary,
            alignment,
            index,
            offset: None,
        }),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0]]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec4, 5, 4),
        store(Alignment::Scalar, 20 * 4 + 2, 4 + 3),
        store(Alignment::Vec2, 2 * 30 + 1, 4),
        load_t(Alignment::Vec4, 5),
        stop(Instr {
            vec4_acc: Some(vacc(AccOp::Mov, all(2), v(0), None)),
            ..load_t(Alignment::Vec4, 20)
        }),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 4.0, 0.0]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec2, 2 * 30 + 1, 4),
        stop(load_t(Alignment::Vec4, 30)),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 3.0, 4.0]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec4, 5, 4),
        stop(load_t(Alignment::Vec4, 5)),
    ];
    assert_eq!(color(&program, &inputs), [1.0, 2.0, 3.0, 4.0]);
    // A temporary never written reads 0.
    assert_eq!(color(&[stop(load_t(Alignment::Vec4, 9))], &inputs), [0.0; 4]);
}

#[test]
fn store_alignment_3_writes_the_lane_the_index_names_and_load_sources_1_and_2_read_zero() {
    let load = |source, index| {
        stop(Instr {
            load: Some(Load {
                source,
                alignment: Alignment::Vec4,
                index,
                offset: None,
            }),
            vec4_mul: Some(mov(0, v(REG_UNIFORM))),
            ..Instr::default()
        })
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0]]);
    // $1 = (1, 2, 3, 4); `store.t 7.z $1` (alignment 3) writes $1.z to temporary 7.z only.
    let program = [
        load_reg(0, 1),
        Instr {
            store: Some(Store::Temp {
                alignment: Alignment::Reserved,
                index: 7 * 4 + 2,
                offset: None,
                source: 4,
            }),
            ..Instr::default()
        },
        load(LoadSource::Temporary, 7),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 3.0, 0.0]);
    assert_eq!(color(&[load(LoadSource::Uniform, 0)], &inputs), [1.0, 2.0, 3.0, 4.0]);
    for source in [LoadSource::Source1, LoadSource::Source2] {
        assert_eq!(color(&[load(source, 0)], &inputs), [0.0; 4], "{source:?}");
    }
}

#[test]
fn temporaries_start_at_zero_in_every_pixel() {
    // Each pixel reads temporary 65535 and then stores its u there: every pixel sees 0 first,
    // whatever the fragment before it in the same quad position stored.
    let fetch = Instr {
        varying: Some(Varying {
            dest: 1,
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
        load: Some(Load {
            source: LoadSource::Temporary,
            alignment: Alignment::Vec4,
            index: u16::MAX,
            offset: None,
        }),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    };
    let store = Instr {
        store: Some(Store::Temp {
            alignment: Alignment::Vec4,
            index: u16::MAX,
            offset: None,
            source: 4,
        }),
        ..Instr::default()
    };
    let program = Program::new(&[fetch, stop(store)]);
    let image = render(&program, &Inputs::default(), 8, 4).unwrap();
    assert!(image.rgba.iter().all(|&b| b == 0));
}

#[test]
fn framebuffer_reads_give_the_current_colour_and_depth() {
    // Vector D: fb_color $2 / fb_depth $3, stop; then copy both into $0.
    let program = [
        Instr {
            store: Some(Store::FbRead {
                read: FbRead::Color,
                dest: 2,
            }),
            ..Instr::default()
        },
        Instr {
            store: Some(Store::FbRead {
                read: FbRead::Depth,
                dest: 3,
            }),
            ..Instr::default()
        },
        stop(Instr {
            vec4_mul: Some(mov(0, v(2))),
            float_mul: Some(fmul(MulOp::Mov, Some(3), s(3, 0), None)),
            ..Instr::default()
        }),
    ];
    let inputs = Inputs {
        fb_color: [0.25, 0.5, 0.75, 1.0],
        fb_depth: 0.125,
        ..Inputs::default()
    };
    assert_eq!(color(&program, &inputs), [0.25, 0.5, 0.75, 0.125]);
    assert_eq!(color(&program, &Inputs::default()), [0.0; 4]);
}
