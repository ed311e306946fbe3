//! Native shaders: the WGSL and GLSL that `native` writes for every example, every corpus
//! program and random programs parse and validate, and rendered on the GPU they agree with the
//! interpreter and with the CPU definition (`exec`) within 1 per channel.
//!
//! The rendering tests need a Vulkan adapter (lavapipe is enough). Without one they fail,
//! unless `POLYASM_NO_GPU=1` says that this machine has none on purpose.

mod common;
mod shaders_check;

use std::path::{Path, PathBuf};
use std::time::Instant;

use proptest::prelude::*;

use common::gpu;
use polyasm_shader::exec::{self, Alpha, Frame, Image};
use polyasm_shader::gpu::{GpuError, GpuRenderer, NativePipeline};
use polyasm_shader::ops::{COLOR, Dialect, Instr, MAX_INSTRUCTIONS, OPS, Op, Operand, Reg, Type};
use polyasm_shader::{DialectChoice, assemble_text, assemble_text_in, native};

// ---------------------------------------------------------------------------------------------
// The programs.

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.sasm` file of `dir` (relative to the repository) with its text, sorted by name.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(repository().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sasm"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (format!("{dir}/{}", path.file_name().unwrap().to_string_lossy()), text)
        })
        .collect();
    files.sort();
    files
}

/// The dialect a corpus file's `# options: --dialect NAME` directive names, if any
/// (tests/corpus/README.md).
fn dialect_option(text: &str) -> DialectChoice {
    let directives = text
        .lines()
        .take_while(|line| line.starts_with("# ") && line.contains(':'));
    for line in directives {
        if let Some(options) = line.strip_prefix("# options:") {
            let words: Vec<&str> = options.split_whitespace().collect();
            if let Some(at) = words.iter().position(|&word| word == "--dialect") {
                let name = words.get(at + 1).expect("a dialect after --dialect");
                return DialectChoice::Named(Dialect::from_name(name).expect("a dialect's name"));
            }
        }
    }
    DialectChoice::Detect
}

/// Every example and every corpus program that assembles: all but the corpus's `err_` files,
/// which must not.
fn programs() -> Vec<(String, Vec<Instr>)> {
    let mut programs = Vec::new();
    for (name, text) in sources("examples/shader")
        .into_iter()
        .chain(sources("tests/corpus/shader"))
    {
        let is_error_file = Path::new(&name)
            .file_name()
            .is_some_and(|file| file.to_string_lossy().starts_with("err_"));
        match assemble_text_in(&text, dialect_option(&text)) {
            Ok(program) => {
                assert!(!is_error_file, "{name} assembles");
                programs.push((name, program));
            }
            Err(errors) => assert!(is_error_file, "{name}: {errors:?}"),
        }
    }
    assert!(programs.len() >= 8 + 12, "only {} programs", programs.len());
    assert!(programs.iter().any(|(name, _)| name.ends_with("/sphere.sasm")));
    assert!(
        programs
            .iter()
            .any(|(name, _)| name.ends_with("/v2_every_instruction.sasm"))
    );
    programs
}

fn instr(op: Op, regs: [u8; 3], constant: f32) -> Instr {
    Instr {
        op,
        regs: regs.map(Reg),
        constant,
    }
}

/// The constants that compilers are most tempted to change: NaN of both signs and with a
/// payload, the infinities, -0, subnormals, the largest float.
const ODD_CONSTANTS: [f32; 9] = [
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    1e-45,
    -1.1754942e-38,
    f32::MAX,
    0.5,
];

/// Column x shows `ODD_CONSTANTS[x]`, read from memory cell x (so that no compiler can fold
/// it): red is the constant times (y + 0.5) / height, green `sign` of it mapped to 0, 0.5, 1,
/// blue its reciprocal, alpha the constant plus 0.25.
fn odd_constants_program() -> Vec<Instr> {
    let mut program = Vec::new();
    for (cell, value) in ODD_CONSTANTS.into_iter().enumerate() {
        program.push(instr(Op::Load, [0, 0, 0], value));
        program.push(instr(Op::Load, [1, 0, 0], cell as f32));
        program.push(instr(Op::WriteMemory, [0, 1, 0], 0.0));
    }
    program.extend([
        instr(Op::GetComponent0, [16, 2, 0], 0.0), // s2 = x + 0.5
        instr(Op::ReadMemory, [3, 2, 0], 0.0),     // s3 = the column's constant
        instr(Op::GetComponent1, [16, 4, 0], 0.0),
        instr(Op::GetComponent1, [18, 5, 0], 0.0),
        instr(Op::Reciprocal, [5, 5, 0], 0.0),
        instr(Op::Multiply, [4, 5, 4], 0.0), // s4 = (y + 0.5) / height
        instr(Op::Multiply, [3, 4, 6], 0.0),
        instr(Op::SetComponent0, [COLOR.0, 6, 0], 0.0),
        instr(Op::Sign, [3, 6, 0], 0.0),
        instr(Op::Load, [7, 0, 0], 0.5),
        instr(Op::Multiply, [6, 7, 6], 0.0),
        instr(Op::Add, [6, 7, 6], 0.0),
        instr(Op::SetComponent1, [COLOR.0, 6, 0], 0.0),
        instr(Op::Reciprocal, [3, 6, 0], 0.0),
        instr(Op::SetComponent2, [COLOR.0, 6, 0], 0.0),
        instr(Op::Load, [7, 0, 0], 0.25),
        instr(Op::Add, [3, 7, 6], 0.0),
        instr(Op::SetComponent3, [COLOR.0, 6, 0], 0.0),
    ]);
    program
}

// ---------------------------------------------------------------------------------------------
// Validation.

fn check_wgsl(what: &str, program: &[Instr]) {
    shaders_check::wgsl_compute(what, &native::wgsl(program));
}

fn check_glsl(what: &str, program: &[Instr]) {
    shaders_check::glsl_fragment(what, &native::glsl(program));
}

#[test]
fn every_example_and_corpus_program_validates_in_both_languages() {
    for (name, program) in programs() {
        check_wgsl(&format!("{name} as WGSL"), &program);
        check_glsl(&format!("{name} as GLSL"), &program);
    }
}

#[test]
fn odd_constants_and_clamped_registers_validate() {
    let mut program = odd_constants_program();
    // Fields past the register file, which the interpreter clamps.
    program.push(instr(Op::Add, [21, 100, 255], 0.0));
    program.push(instr(Op::SetComponent, [255, 30, 21], 0.0));
    check_wgsl("odd constants", &program);
    check_glsl("odd constants", &program);
    for bits in [
        0x7f80_0001,
        0xffff_ffff,
        0x7fbf_ffff,
        0x0000_0001,
        0x8000_0001,
        0x0080_0000,
    ] {
        let program = [instr(Op::Load, [0, 0, 0], f32::from_bits(bits))];
        check_wgsl(&format!("load of {bits:#x}"), &program);
        check_glsl(&format!("load of {bits:#x}"), &program);
    }
}

/// The longest program the bytecode holds: its text grows by a bounded number of bytes per
/// instruction, and naga reads and validates it.
#[test]
fn the_longest_program_is_linear_text_and_validates() {
    let mut program = vec![instr(Op::Load, [1, 0, 0], 1.0 / 65536.0)];
    let middle = [
        instr(Op::Add, [0, 1, 0], 0.0),
        instr(Op::GetComponent, [16, 2, 20], 0.0),
        instr(Op::SetComponent, [8, 2, 3], 0.0),
        instr(Op::WriteMemory, [2, 3, 0], 0.0),
    ];
    program.extend(middle.iter().cycle().take(MAX_INSTRUCTIONS - 2).copied());
    program.push(instr(Op::SetComponent0, [19, 0, 0], 0.0));
    assert_eq!(program.len(), MAX_INSTRUCTIONS);
    for (language, write) in [("WGSL", native::wgsl as fn(&[Instr]) -> String), ("GLSL", native::glsl)] {
        let (empty, text) = (write(&[]), write(&program));
        let per_instruction = (text.len() - empty.len()) as f64 / program.len() as f64;
        assert!(
            per_instruction < 100.0,
            "{language}: {per_instruction} bytes per instruction"
        );
        // A comment and a statement each, and for every function its comment, its braces, a
        // blank line and its call.
        let functions = program.len() / native::INSTRUCTIONS_PER_FUNCTION;
        assert_eq!(
            text.lines().count(),
            empty.lines().count() + 1 + 2 * program.len() + 5 * functions,
            "{language}"
        );
    }
    let started = Instant::now();
    check_wgsl("the longest program", &program);
    let wgsl = started.elapsed();
    let started = Instant::now();
    check_glsl("the longest program", &program);
    eprintln!(
        "{MAX_INSTRUCTIONS} instructions: WGSL parsed and validated in {wgsl:?}, GLSL in {:?}",
        started.elapsed()
    );
}

/// Any instruction: every opcode, any register fields (those past the register file
/// included, which both shaders clamp) and any constant bits (NaN, infinities, subnormals).
fn any_instruction() -> impl Strategy<Value = Instr> {
    (0..OPS.len(), any::<[u8; 3]>(), any::<u32>()).prop_map(|(op, regs, bits)| Instr {
        op: OPS[op].op,
        regs: regs.map(Reg),
        constant: f32::from_bits(bits),
    })
}

/// A valid instruction: registers of the types its operands take, unused fields 0, the
/// constant only on `load` (any bits).
fn valid_instruction() -> impl Strategy<Value = Instr> {
    (0..OPS.len(), any::<[u8; 3]>(), any::<u32>()).prop_map(|(op, picks, bits)| {
        let info = &OPS[op];
        let regs = std::array::from_fn(|i| {
            let fits = |reg: &Reg| match info.operands.get(i) {
                Some(Operand::Read(ty)) => reg.ty() == *ty,
                Some(Operand::Write(ty)) => reg.ty() == *ty && reg.writable(),
                Some(Operand::WriteComponent) => reg.ty() == Type::Vector && reg.writable(),
                Some(Operand::Number) | None => reg.0 == 0,
            };
            let candidates: Vec<Reg> = Reg::all().filter(fits).collect();
            candidates[usize::from(picks[i]) % candidates.len()]
        });
        let constant = if info.op == Op::Load { f32::from_bits(bits) } else { 0.0 };
        let instr = Instr {
            op: info.op,
            regs,
            constant,
        };
        // Compared as words: a NaN constant is not equal to itself.
        let words = instr.pack();
        assert_eq!(
            Instr::unpack(words).map(|read| read.pack()),
            Ok(words),
            "{instr:?} is valid bytecode"
        );
        instr
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_valid_programs_validate(program in proptest::collection::vec(valid_instruction(), 0..40)) {
        check_wgsl("a random program", &program);
        check_glsl("a random program", &program);
    }

    #[test]
    fn random_instructions_of_any_fields_validate(program in proptest::collection::vec(any_instruction(), 1..40)) {
        check_wgsl("a random program", &program);
        check_glsl("a random program", &program);
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering.

/// Every channel of `b` within 1 of `a`; the first differences are named.
fn assert_close(what: &str, a: &Image, b: &Image) {
    assert_eq!((a.width, a.height), (b.width, b.height), "{what}");
    assert_eq!(a.rgba.len(), b.rgba.len(), "{what}");
    let far: Vec<String> = a
        .rgba
        .iter()
        .zip(&b.rgba)
        .enumerate()
        .filter(|(_, (x, y))| x.abs_diff(**y) > 1)
        .map(|(i, (x, y))| {
            let pixel = i / 4;
            let row = pixel / a.width as usize;
            format!(
                "x {} y {} channel {}: {x} and {y}",
                pixel % a.width as usize,
                a.height as usize - 1 - row,
                i % 4
            )
        })
        .collect();
    assert!(
        far.is_empty(),
        "{what}: {} channels differ by more than 1, first: {:?}",
        far.len(),
        &far[..far.len().min(8)]
    );
}

fn frame(width: u32, height: u32, time: f32) -> Frame {
    Frame { width, height, time }
}

/// Renders `program` natively, by the interpreter and on the CPU, and holds the native
/// picture to both; returns it.
fn agree(
    what: &str,
    gpu: &GpuRenderer,
    pipeline: &NativePipeline,
    program: &[Instr],
    frame: &Frame,
    alpha: Alpha,
) -> Image {
    let native = gpu
        .render_native(pipeline, frame, alpha)
        .unwrap_or_else(|e| panic!("{what}, native: {e}"));
    let interpreted = gpu
        .render(program, frame, alpha)
        .unwrap_or_else(|e| panic!("{what}, interpreted: {e}"));
    assert_close(&format!("{what}: interpreter and native"), &interpreted, &native);
    let cpu = exec::render_naive(program, frame, alpha);
    assert_close(&format!("{what}: CPU and native"), &cpu, &native);
    native
}

#[test]
fn every_example_and_corpus_program_renders_natively_as_interpreted() {
    let Some(gpu) = gpu() else { return };
    for (name, program) in programs() {
        let pipeline = gpu.native(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(pipeline.instructions(), program.len());
        for (frame, alpha) in [
            (frame(64, 36, 0.0), Alpha::Opaque),
            (frame(37, 23, 1.25), Alpha::Keep),
            (frame(160, 90, 7.5), Alpha::Opaque),
        ] {
            agree(
                &format!("{name} {}x{} at {} {alpha:?}", frame.width, frame.height, frame.time),
                gpu,
                &pipeline,
                &program,
                &frame,
                alpha,
            );
        }
    }
}

#[test]
fn odd_constants_render_natively_as_on_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let program = odd_constants_program();
    let pipeline = gpu.native(&program).expect("builds");
    let frame = frame(ODD_CONSTANTS.len() as u32, 4, 0.0);
    let image = agree("odd constants", gpu, &pipeline, &program, &frame, Alpha::Keep);
    // Worked out from the definition; rows 0 and 3 differ only in the last column's red
    // (0.5 times 0.125 and 0.875).
    let want: [[u8; 4]; 9] = [
        [0, 128, 0, 0],      // NaN: NaN, sign 0, NaN, NaN
        [0, 128, 0, 0],      // -NaN
        [255, 255, 0, 255],  // inf: inf, 1, 0, inf
        [0, 0, 0, 0],        // -inf: -inf, -1, -0, -inf
        [0, 128, 0, 64],     // -0: -0, sign 0, -inf, 0.25
        [0, 255, 255, 64],   // 1e-45: 0, 1, inf, 0.25
        [0, 0, 0, 64],       // -1.1754942e-38: below 0, -1, -8.5e37, 0.25
        [255, 255, 0, 255],  // f32::MAX: huge, 1, a subnormal, huge
        [16, 255, 255, 191], // 0.5: 0.0625, 1, 2, 0.75
    ];
    for (x, want) in want.into_iter().enumerate() {
        assert_eq!(image.pixel_from_bottom(x as u32, 0), want, "column {x}");
    }
    assert_eq!(image.pixel_from_bottom(8, 3), [112, 255, 255, 191]);
    assert_eq!(image.pixel_from_bottom(7, 3), want[7]);
}

/// `(a + M) - M` with M = 1.5 * 2^23 rounds `a` to a whole number (examples/shader/checker.sasm
/// relies on it); a compiler that saw the constants would fold it to `a`.
#[test]
fn arithmetic_is_computed_as_written() {
    let Some(gpu) = gpu() else { return };
    let program = [
        instr(Op::GetComponent0, [16, 0, 0], 0.0),
        instr(Op::Load, [1, 0, 0], 0.25),
        instr(Op::Multiply, [0, 1, 0], 0.0), // s0 = (x + 0.5) / 4
        instr(Op::Load, [7, 0, 0], 12_582_912.0),
        instr(Op::Negate, [7, 6, 0], 0.0),
        instr(Op::Add, [0, 7, 2], 0.0),
        instr(Op::Add, [2, 6, 2], 0.0), // s2 = round(s0)
        instr(Op::SetComponent1, [19, 2, 0], 0.0),
        instr(Op::Negate, [2, 3, 0], 0.0),
        instr(Op::Add, [0, 3, 3], 0.0), // s3 = s0 - round(s0)
        instr(Op::SetComponent0, [19, 3, 0], 0.0),
    ];
    let pipeline = gpu.native(&program).expect("builds");
    let image = agree("rounding", gpu, &pipeline, &program, &frame(4, 1, 0.0), Alpha::Opaque);
    // Folded, red would be 0 and green s0 (32, 96, 159, 223).
    let want = [[32, 0, 0, 255], [96, 0, 0, 255], [0, 255, 0, 255], [0, 255, 0, 255]];
    for (x, want) in want.into_iter().enumerate() {
        assert_eq!(image.pixel_from_bottom(x as u32, 0), want, "x {x}");
    }
}

#[test]
fn a_native_pipeline_is_built_on_one_thread_and_rendered_on_another() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<NativePipeline>();
    let Some(gpu) = gpu() else { return };
    let program = assemble_text(include_str!("../../../examples/shader/uv.sasm")).expect("uv");
    let pipeline = std::thread::spawn(move || gpu.native(&program).expect("builds"))
        .join()
        .expect("the thread ends");
    let image = std::thread::spawn(move || {
        gpu.render_native(&pipeline, &frame(256, 256, 0.0), Alpha::Opaque)
            .expect("renders")
    })
    .join()
    .expect("the thread ends");
    assert_eq!(image.pixel_from_bottom(0, 0), [0, 0, 0, 255]);
    assert_eq!(image.pixel_from_bottom(255, 255), [255, 255, 0, 255]);
    assert_eq!(image.pixel_from_bottom(255, 0), [255, 0, 0, 255]);
}

#[test]
fn native_pipelines_refuse_what_the_interpreter_refuses() {
    let Some(gpu) = gpu() else { return };
    let too_long = vec![instr(Op::Move, [0, 1, 0], 0.0); MAX_INSTRUCTIONS + 1];
    assert_eq!(
        gpu.native(&too_long).map(|_| ()),
        Err(GpuError::ProgramTooLong {
            len: MAX_INSTRUCTIONS + 1
        })
    );
    // Writing the input `pc` is no valid instruction.
    let invalid = [instr(Op::Move, [0, 16, 0], 0.0)];
    assert!(matches!(
        gpu.native(&invalid),
        Err(GpuError::Instruction { index: 0, .. })
    ));
    let pipeline = gpu.native(&[]).expect("an empty program");
    let black = gpu
        .render_native(&pipeline, &frame(3, 2, 0.0), Alpha::Keep)
        .expect("renders");
    assert_eq!(black.rgba, [0; 3 * 2 * 4]);
    let empty = gpu
        .render_native(&pipeline, &frame(0, 5, 0.0), Alpha::Opaque)
        .expect("renders");
    assert!(empty.rgba.is_empty());
    assert!(matches!(
        gpu.render_native(&pipeline, &frame(u32::MAX, 2, 0.0), Alpha::Opaque),
        Err(GpuError::TooLarge { .. })
    ));
}

#[test]
fn a_pipeline_renders_only_on_the_renderer_that_built_it() {
    let Some(gpu) = gpu() else { return };
    let other = GpuRenderer::new().expect("a second renderer on the same adapter");
    let program = [
        instr(Op::Load, [0, 0, 0], 1.0),
        instr(Op::SetComponent2, [19, 0, 0], 0.0),
    ];
    let pipeline = other.native(&program).expect("builds");
    assert_eq!(
        gpu.render_native(&pipeline, &frame(2, 2, 0.0), Alpha::Opaque)
            .map(|_| ()),
        Err(GpuError::OtherRenderer)
    );
    let image = other
        .render_native(&pipeline, &frame(2, 2, 0.0), Alpha::Opaque)
        .expect("renders");
    assert_eq!(image.pixel_from_bottom(1, 1), [0, 0, 255, 255]);
    // Dropping pipelines and the renderer that built them leaves the others working.
    drop(pipeline);
    drop(other);
    let again = gpu.native(&program).expect("builds");
    let image = gpu
        .render_native(&again, &frame(2, 2, 0.0), Alpha::Opaque)
        .expect("renders");
    assert_eq!(image.pixel_from_bottom(0, 0), [0, 0, 255, 255]);
}

#[test]
fn native_and_interpreted_frames_interleave() {
    let Some(gpu) = gpu() else { return };
    let uv = assemble_text(include_str!("../../../examples/shader/uv.sasm")).expect("uv");
    let red = [
        instr(Op::Load, [0, 0, 0], 1.0),
        instr(Op::SetComponent0, [19, 0, 0], 0.0),
    ];
    let native_red = gpu.native(&red).expect("builds");
    for size in [(8, 8), (300, 200), (8, 8)] {
        let frame = frame(size.0, size.1, 0.0);
        let a = gpu.render(&uv, &frame, Alpha::Opaque).expect("renders");
        let b = gpu.render_native(&native_red, &frame, Alpha::Opaque).expect("renders");
        assert_close(
            "uv between native frames",
            &exec::render_naive(&uv, &frame, Alpha::Opaque),
            &a,
        );
        assert!(b.rgba.chunks(4).all(|p| p == [255, 0, 0, 255]));
    }
}
