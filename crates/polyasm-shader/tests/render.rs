//! The CPU renderer against the definition (`exec::render_naive`): random programs over every
//! register, sizes around the block size, the size limits, and the PNG writer.

use polyasm_shader::exec::{self, Alpha, Frame, Image};
use polyasm_shader::ops::{COLOR, Instr, OPS, Op, Operand, PC, REGISTERS, Reg, SIZE, TIME};
use polyasm_shader::render::{self, BLOCK, MAX_PIXELS, MAX_SIDE, Plan, RenderError};
use proptest::prelude::*;

#[path = "../benches/sphere/mod.rs"]
mod sphere;

fn instr(op: Op, regs: [Reg; 3], constant: f32) -> Instr {
    Instr { op, regs, constant }
}

fn frame(width: u32, height: u32, time: f32) -> Frame {
    Frame { width, height, time }
}

/// Renders with both renderers and says where they first differ.
fn assert_same(program: &[Instr], frame: &Frame, alpha: Alpha) {
    let fast = render::render(program, frame, alpha).expect("the size is allowed");
    let naive = exec::render_naive(program, frame, alpha);
    assert_eq!((fast.width, fast.height), (naive.width, naive.height));
    if let Some(at) = (0..naive.rgba.len()).find(|&i| fast.rgba[i] != naive.rgba[i]) {
        let pixel = at / 4;
        panic!(
            "{}x{} at t = {}: pixel {} of row {} from the top is {:?}, the definition says {:?}",
            frame.width,
            frame.height,
            frame.time,
            pixel % frame.width as usize,
            pixel / frame.width as usize,
            &fast.rgba[pixel * 4..pixel * 4 + 4],
            &naive.rgba[pixel * 4..pixel * 4 + 4],
        );
    }
}

/// Any register; the output and the inputs more often than their share, so that random
/// programs read the pixel and write the colour.
fn register() -> impl Strategy<Value = Reg> {
    prop_oneof![
        4 => (0..REGISTERS).prop_map(Reg),
        2 => Just(COLOR),
        1 => Just(PC),
        1 => Just(SIZE),
        1 => Just(TIME),
    ]
}

/// Constants that make every kind of f32: zeros of both signs, huge, tiny and subnormal,
/// infinities, NaN and ordinary numbers.
fn constant() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0),
        Just(1.0),
        Just(-1.0),
        Just(0.5),
        Just(255.0),
        Just(1e30),
        Just(-3e38),
        Just(1e-30),
        Just(1e-40),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::NAN),
        -4.0f32..4.0,
        any::<f32>(),
    ]
}

/// Any instruction with registers that exist; fields the op does not use hold anything.
fn instruction() -> impl Strategy<Value = Instr> {
    (
        0..OPS.len(),
        [register(), register(), register()],
        [any::<u8>(), any::<u8>(), any::<u8>()],
        constant(),
    )
        .prop_map(|(code, regs, junk, constant)| {
            let info = &OPS[code];
            let regs = std::array::from_fn(|i| match info.operands.get(i) {
                Some(Operand::Number) | None => Reg(junk[i]),
                Some(_) => regs[i],
            });
            instr(info.op, regs, constant)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_programs_render_the_bytes_of_the_definition(
        program in prop::collection::vec(instruction(), 0..48),
        width in 1u32..=67,
        height in 1u32..=13,
        time in prop_oneof![Just(0.0f32), -10.0f32..10.0, any::<f32>()],
        keep in any::<bool>(),
    ) {
        let alpha = if keep { Alpha::Keep } else { Alpha::Opaque };
        assert_same(&program, &frame(width, height, time), alpha);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn long_random_programs_render_the_bytes_of_the_definition(
        program in prop::collection::vec(instruction(), 100..400),
        width in 1u32..=40,
        height in 1u32..=4,
    ) {
        assert_same(&program, &frame(width, height, 1.5), Alpha::Keep);
    }
}

/// A program whose colour varies in every pixel and reads every input: c = (pc.x / s.x,
/// pc.y * pc.x / (s.x s.y), 1 / (pc.x - 3.5) with an infinity at column 3, t).
fn gradient() -> Vec<Instr> {
    let [s0, s1, s2, s3] = [Reg(0), Reg(1), Reg(2), Reg(3)];
    vec![
        instr(Op::GetComponent0, [PC, s0, Reg(0)], 0.0),
        instr(Op::GetComponent0, [SIZE, s1, Reg(0)], 0.0),
        instr(Op::Reciprocal, [s1, s1, Reg(0)], 0.0),
        instr(Op::Multiply, [s0, s1, s2], 0.0),
        instr(Op::SetComponent0, [COLOR, s2, Reg(0)], 0.0),
        instr(Op::GetComponent1, [PC, s3, Reg(0)], 0.0),
        instr(Op::Multiply, [s3, s2, s3], 0.0),
        instr(Op::GetComponent1, [SIZE, s2, Reg(0)], 0.0),
        instr(Op::Reciprocal, [s2, s2, Reg(0)], 0.0),
        instr(Op::Multiply, [s3, s2, s3], 0.0),
        instr(Op::SetComponent1, [COLOR, s3, Reg(0)], 0.0),
        instr(Op::Load, [s1, Reg(0), Reg(0)], -3.5),
        instr(Op::Add, [s0, s1, s0], 0.0),
        instr(Op::Reciprocal, [s0, s0, Reg(0)], 0.0),
        instr(Op::SetComponent2, [COLOR, s0, Reg(0)], 0.0),
        instr(Op::SetComponent3, [COLOR, TIME, Reg(0)], 0.0),
    ]
}

#[test]
fn sizes_around_the_block_size_render_the_bytes_of_the_definition() {
    for width in [
        1,
        2,
        7,
        BLOCK as u32 - 1,
        BLOCK as u32,
        BLOCK as u32 + 1,
        2 * BLOCK as u32 + 3,
    ] {
        for height in [1, 2, 5] {
            assert_same(&gradient(), &frame(width, height, 0.25), Alpha::Keep);
        }
    }
    assert_same(&gradient(), &frame(1, 300, 0.25), Alpha::Opaque);
}

#[test]
fn the_gradient_has_the_values_computed_by_hand() {
    let image = render::render(&gradient(), &frame(8, 4, 0.5), Alpha::Keep).expect("small");
    // Column 1, row 2: pc = (1.5, 2.5); c = (1.5 / 8, 2.5 * 1.5 / 32, 1 / (1.5 - 3.5), 0.5).
    assert_eq!(
        image.pixel_from_bottom(1, 2),
        [exec::channel(0.1875), exec::channel(0.1171875), 0, 128]
    );
    // Column 3: 1 / (3.5 - 3.5) is infinite, so blue is full.
    assert_eq!(image.pixel_from_bottom(3, 0)[2], 255);
}

#[test]
fn an_empty_program_is_black_and_opaque_or_transparent() {
    let opaque = render::render(&[], &frame(3, 2, 0.0), Alpha::Opaque).expect("small");
    assert_eq!(opaque.rgba, [0, 0, 0, 255].repeat(6));
    let kept = render::render(&[], &frame(3, 2, 0.0), Alpha::Keep).expect("small");
    assert_eq!(kept.rgba, vec![0; 24]);
}

#[test]
fn writing_the_inputs_is_seen_by_later_instructions_as_in_the_definition() {
    // Programs from the assembler never do this, but the renderer follows the definition.
    let program = [
        instr(Op::Load, [Reg(0), Reg(0), Reg(0)], 0.75),
        instr(Op::SetComponent0, [PC, Reg(0), Reg(0)], 0.0),
        instr(Op::Move, [Reg(0), TIME, Reg(0)], 0.0),
        instr(Op::GetComponent0, [PC, Reg(1), Reg(0)], 0.0),
        instr(Op::Add, [Reg(1), TIME, Reg(1)], 0.0),
        instr(Op::SetComponent0, [COLOR, Reg(1), Reg(0)], 0.0),
        instr(Op::Move, [PC, COLOR, Reg(0)], 0.0),
    ];
    assert_same(&program, &frame(5, 3, 0.0), Alpha::Keep);
}

#[test]
fn decoding_drops_moves_dead_values_and_row_constant_work() {
    // The spec's UV program: only `pc.x / width` differs along a row.
    let [s0, s1, s2, s3, s4] = [Reg(0), Reg(1), Reg(2), Reg(3), Reg(4)];
    let mut program = vec![
        instr(Op::GetComponent0, [PC, s0, Reg(0)], 0.0),
        instr(Op::GetComponent1, [PC, s1, Reg(0)], 0.0),
        instr(Op::GetComponent0, [SIZE, s3, Reg(0)], 0.0),
        instr(Op::Reciprocal, [s3, s2, Reg(0)], 0.0),
        instr(Op::GetComponent1, [SIZE, s4, Reg(0)], 0.0),
        instr(Op::Reciprocal, [s4, s3, Reg(0)], 0.0),
        instr(Op::Multiply, [s0, s2, s0], 0.0),
        instr(Op::Multiply, [s1, s3, s1], 0.0),
        instr(Op::SetComponent0, [COLOR, s0, Reg(0)], 0.0),
        instr(Op::SetComponent1, [COLOR, s1, Reg(0)], 0.0),
    ];
    let f = frame(16, 9, 0.0);
    let plan = Plan::new(&program, &f, Alpha::Opaque).expect("valid");
    assert_eq!((plan.varying_steps(), plan.uniform_steps()), (1, 1));
    // Work on a register the colour never reads is dropped.
    program.push(instr(Op::Reciprocal, [s0, s4, Reg(0)], 0.0));
    program.push(instr(Op::Add, [s4, s0, s4], 0.0));
    let plan = Plan::new(&program, &f, Alpha::Opaque).expect("valid");
    assert_eq!((plan.varying_steps(), plan.uniform_steps()), (1, 1));
    // c.w is read only when alpha is kept.
    program.push(instr(Op::SetComponent3, [COLOR, s4, Reg(0)], 0.0));
    let plan = Plan::new(&program, &f, Alpha::Keep).expect("valid");
    assert_eq!(plan.varying_steps(), 3);
    assert_same(&program, &f, Alpha::Keep);
}

#[test]
fn sizes_outside_the_limits_are_errors() {
    for (width, height) in [
        (0, 1),
        (1, 0),
        (0, 0),
        (MAX_SIDE + 1, 1),
        (1, MAX_SIDE + 1),
        (MAX_SIDE, MAX_SIDE),
        (u32::MAX, u32::MAX),
    ] {
        assert_eq!(
            render::render(&gradient(), &frame(width, height, 0.0), Alpha::Opaque),
            Err(RenderError::Size { width, height })
        );
    }
    assert!(u64::from(MAX_SIDE) * 4096 <= MAX_PIXELS);
    assert!(render::check_size(MAX_SIDE, 4096).is_ok());
    let message = RenderError::Size { width: 0, height: 5 }.to_string();
    assert!(message.contains("0x5") && message.contains("16384"), "{message}");
}

#[test]
fn a_register_that_does_not_exist_is_an_error_and_unused_fields_are_ignored() {
    let bad = [
        instr(Op::Load, [Reg(0), Reg(0), Reg(0)], 1.0),
        instr(Op::Move, [Reg(0), Reg(REGISTERS), Reg(0)], 0.0),
    ];
    assert_eq!(
        render::render(&bad, &frame(2, 2, 0.0), Alpha::Opaque),
        Err(RenderError::Register {
            index: 1,
            value: REGISTERS
        })
    );
    // `negate` has two operands and `load` one: the other fields are not registers.
    let ignored = [
        instr(Op::Load, [Reg(0), Reg(200), Reg(255)], 1.0),
        instr(Op::Negate, [Reg(0), Reg(1), Reg(99)], 0.0),
        instr(Op::SetComponent2, [COLOR, Reg(0), Reg(250)], 0.0),
    ];
    assert!(render::render(&ignored, &frame(2, 2, 0.0), Alpha::Opaque).is_ok());
}

#[test]
fn rendering_into_a_buffer_reuses_it_and_an_error_leaves_it_alone() {
    let mut image = Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    };
    for (width, height) in [(300, 7), (5, 3), (64, 64)] {
        let f = frame(width, height, 1.0);
        render::render_into(&gradient(), &f, Alpha::Keep, &mut image).expect("allowed");
        assert_eq!(image, exec::render_naive(&gradient(), &f, Alpha::Keep));
    }
    let before = image.clone();
    let error = render::render_into(&gradient(), &frame(0, 3, 0.0), Alpha::Keep, &mut image);
    assert!(error.is_err());
    assert_eq!(image, before);
}

#[test]
fn the_sphere_program_matches_its_source_line_for_line() {
    let printed: Vec<String> = sphere::program()
        .iter()
        .map(|instr| {
            let info = instr.op.info();
            let operands: Vec<String> = info
                .operands
                .iter()
                .zip(instr.regs)
                .map(|(operand, reg)| match operand {
                    Operand::Number => instr.constant.to_string(),
                    _ => reg.name(),
                })
                .collect();
            format!("{}({})", info.mnemonic, operands.join(","))
        })
        .collect();
    let source: Vec<String> = sphere::SOURCE
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").replace([' ', '\t'], ""))
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(printed, source);
}

#[test]
fn the_sphere_renders_the_same_by_every_route_and_looks_like_a_sphere() {
    let program = sphere::program();
    let f = frame(96, 54, 0.0);
    let image = render::render(&program, &f, Alpha::Opaque).expect("small");
    assert_eq!(image, exec::render_naive(&program, &f, Alpha::Opaque));
    assert_eq!(image, sphere::render_by_hand(&f));
    assert_eq!(image, sphere::render_naive_parallel(&program, &f, Alpha::Opaque));
    // The centre is on the sphere, lit orange; a corner is the blue background.
    let [r, g, b, _] = image.pixel_from_bottom(48, 27);
    assert!(r > 100 && r > b && g > b, "{:?}", [r, g, b]);
    let [r, _, b, _] = image.pixel_from_bottom(0, 53);
    assert!(b > 50 && r < 20, "{:?}", [r, b]);
    // Time moves the sphere right: near its left edge, sphere at t = 0 and background at t = 4.
    let later = render::render(&program, &frame(96, 54, 4.0), Alpha::Opaque).expect("small");
    assert_eq!(later, exec::render_naive(&program, &frame(96, 54, 4.0), Alpha::Opaque));
    let [r, _, b, _] = image.pixel_from_bottom(38, 27);
    assert!(r > b, "{:?}", [r, b]);
    let [r, _, b, _] = later.pixel_from_bottom(38, 27);
    assert!(b > r, "{:?}", [r, b]);
}

#[test]
fn png_round_trip_gives_back_every_pixel() {
    for (width, height, alpha) in [(1, 1, Alpha::Opaque), (67, 13, Alpha::Keep)] {
        let image = render::render(&gradient(), &frame(width, height, 0.3), alpha).expect("allowed");
        let mut bytes = Vec::new();
        image.write_png(&mut bytes).expect("a Vec takes any bytes");
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a small picture")];
        let info = reader.next_frame(&mut pixels).expect("one frame");
        assert_eq!((info.width, info.height), (width, height));
        assert_eq!(info.color_type, png::ColorType::Rgba);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        assert_eq!(&pixels[..info.buffer_size()], &image.rgba[..]);
    }
}

#[test]
fn a_failing_writer_is_an_io_error() {
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let image = render::render(&gradient(), &frame(4, 4, 0.0), Alpha::Opaque).expect("small");
    assert!(image.write_png(Broken).is_err());
}

/// The v2 programs of examples/shader/, assembled.
fn v2_example(name: &str) -> Vec<Instr> {
    let path = format!("{}/../../examples/shader/{name}.sasm", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    polyasm_shader::assemble_text(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

#[test]
fn v2_programs_with_known_indexes_are_planned_and_match_the_definition() {
    for name in ["shadervm_uv", "shadervm_sphere"] {
        let program = v2_example(name);
        let f = frame(BLOCK as u32 + 37, 9, 0.0);
        let plan = Plan::new(&program, &f, Alpha::Keep).expect("valid");
        assert!(!plan.runs_per_pixel(), "{name}: its indexes are known when decoding");
        for alpha in [Alpha::Opaque, Alpha::Keep] {
            assert_same(&program, &f, alpha);
        }
    }
    // The UV program's component picks and memory cost nothing: one multiply per pixel, one
    // per row, as for v1's UV program.
    let plan = Plan::new(&v2_example("shadervm_uv"), &frame(64, 36, 0.0), Alpha::Opaque).expect("valid");
    assert_eq!((plan.varying_steps(), plan.uniform_steps()), (1, 1));
}

#[test]
fn v2_indexes_that_differ_per_pixel_run_per_pixel_and_match_the_definition() {
    let z = Reg(20);
    // The component and memory cell picked by 8 * pc.x / width (0 to 8, half out of range),
    // and sign of pc.y - 3.
    let program = [
        instr(Op::GetComponent, [PC, Reg(0), z], 0.0),
        instr(Op::Load, [Reg(5), Reg(0), Reg(0)], 1.0),
        instr(Op::GetComponent, [SIZE, Reg(1), z], 0.0),
        instr(Op::Reciprocal, [Reg(1), Reg(1), Reg(0)], 0.0),
        instr(Op::Multiply, [Reg(0), Reg(1), Reg(0)], 0.0),
        instr(Op::Load, [Reg(2), Reg(0), Reg(0)], 8.0),
        instr(Op::Multiply, [Reg(0), Reg(2), Reg(3)], 0.0),
        instr(Op::SetComponent, [Reg(8), Reg(0), Reg(3)], 0.0),
        instr(Op::WriteMemory, [Reg(0), Reg(3), Reg(0)], 0.0),
        instr(Op::ReadMemory, [Reg(4), Reg(3), Reg(0)], 0.0),
        instr(Op::SetComponent, [COLOR, Reg(4), z], 0.0),
        instr(Op::GetComponent, [Reg(8), Reg(4), Reg(5)], 0.0),
        instr(Op::SetComponent, [COLOR, Reg(4), Reg(5)], 0.0),
        instr(Op::GetComponent, [PC, Reg(4), Reg(5)], 0.0),
        instr(Op::Load, [Reg(2), Reg(0), Reg(0)], 3.0),
        instr(Op::Negate, [Reg(2), Reg(2), Reg(0)], 0.0),
        instr(Op::Add, [Reg(4), Reg(2), Reg(4)], 0.0),
        instr(Op::Sign, [Reg(4), Reg(4), Reg(0)], 0.0),
        instr(Op::Load, [Reg(2), Reg(0), Reg(0)], 2.0),
        instr(Op::SetComponent, [COLOR, Reg(4), Reg(2)], 0.0),
    ];
    let f = frame(40, 6, 0.0);
    let plan = Plan::new(&program, &f, Alpha::Keep).expect("valid");
    assert!(plan.runs_per_pixel());
    assert_same(&program, &f, Alpha::Keep);
    let image = render::render(&program, &f, Alpha::Keep).expect("small");
    // Column 0: 8u = 0.1 picks x and cell 0: red u; green is v0.y, still 0.
    assert_eq!(image.pixel_from_bottom(0, 0), [exec::channel(0.5 / 40.0), 0, 0, 0]);
    // Column 7: 8u = 1.5 picks y: green u too; blue is sign(4.5 - 3) = 1 in row 4, and
    // sign(0.5 - 3) = -1, clamped to 0, in row 0.
    let u = 7.5 / 40.0;
    assert_eq!(
        image.pixel_from_bottom(7, 4),
        [exec::channel(u), exec::channel(u), 255, 0]
    );
    assert_eq!(image.pixel_from_bottom(7, 0)[2], 0);
    // Column 30: 8u = 6.1 picks no component (green stays 0) but memory cell 6 (red u).
    assert_eq!(image.pixel_from_bottom(30, 4), [exec::channel(30.5 / 40.0), 0, 255, 0]);
}
