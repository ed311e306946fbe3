//! The shaders in `examples/nv2a`: each assembles cleanly and round-trips through the
//! disassembler, and each runs on the emulator to the outputs worked out by hand below.

use polyasm_core::SourceMap;
use polyasm_nv2a::{AssembleOptions, ExecOptions, Outputs, Program, Vec4, assemble, assemble_str, disassemble};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/nv2a");

/// The vertex engine holds at most 136 instructions of four words.
const MAX_WORDS: usize = 136 * 4;

// Indices into the emulator's outputs (`ops::OUTPUTS` order).
const O_POS: usize = 0;
const O_D0: usize = 1;
const O_D1: usize = 2;
const O_FOG: usize = 3;
const O_T0: usize = 7;

// Input registers the examples read.
const V_POS: usize = 0;
const V_NORMAL: usize = 2;
const V_DIFFUSE: usize = 3;
const V_TEX0: usize = 9;

const IDENTITY: [Vec4; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

fn read_example(name: &str) -> String {
    let path = format!("{EXAMPLES}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Assembles `name` and runs one vertex; `inputs` and `constants` are (register, value) pairs,
/// everything else is zero.
fn run_example(name: &str, inputs: &[(usize, Vec4)], constants: &[(usize, Vec4)]) -> Outputs {
    let words =
        assemble_str(&read_example(name), AssembleOptions::default()).unwrap_or_else(|d| panic!("{name}: {d:#?}"));
    let mut v = [[0.0; 4]; 16];
    for &(register, value) in inputs {
        v[register] = value;
    }
    let mut c = [[0.0; 4]; 192];
    for &(register, value) in constants {
        c[register] = value;
    }
    Program::new(&words)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .run(&v, &mut c, ExecOptions::default())
}

/// The four rows of a matrix4 uniform at `base`.
fn matrix_at(base: usize, rows: [Vec4; 4]) -> [(usize, Vec4); 4] {
    [
        (base, rows[0]),
        (base + 1, rows[1]),
        (base + 2, rows[2]),
        (base + 3, rows[3]),
    ]
}

#[track_caller]
fn assert_close(got: Vec4, want: Vec4) {
    for lane in 0..4 {
        assert!(
            (got[lane] - want[lane]).abs() < 1e-5,
            "lane {lane}: got {got:?}, want {want:?}"
        );
    }
}

#[track_caller]
fn assert_close1(got: f32, want: f32) {
    assert!((got - want).abs() < 1e-5, "got {got}, want {want}");
}

#[test]
fn every_example_assembles_cleanly_and_round_trips() {
    let mut names: Vec<String> = std::fs::read_dir(EXAMPLES)
        .expect("examples/nv2a exists")
        .map(|entry| {
            entry
                .expect("readable directory entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name")
        })
        .filter(|name| name.ends_with(".vsh"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "expected at least 4 examples, found {names:?}");

    for name in &names {
        let text = read_example(name);
        let mut sources = SourceMap::new();
        let file = sources.add(name.as_str(), text.as_str());
        let outcome = assemble(&sources, file, AssembleOptions::default());
        assert!(
            outcome.diagnostics.is_empty(),
            "{name}: expected no diagnostics, got {:#?}",
            outcome.diagnostics
        );
        let object = outcome.value.unwrap_or_else(|| panic!("{name}: no object"));
        let words: Vec<u32> = object.words().collect();

        assert!(!words.is_empty(), "{name}: no instructions");
        assert_eq!(words.len() % 4, 0, "{name}: {} words", words.len());
        assert!(words.len() <= MAX_WORDS, "{name}: {} words", words.len());

        // FINAL is bit 0 of d3, set on the last instruction only.
        let instructions: Vec<&[u32]> = words.chunks(4).collect();
        let last = instructions.len() - 1;
        for (index, instruction) in instructions.iter().enumerate() {
            assert_eq!(
                instruction[3] & 1 == 1,
                index == last,
                "{name}: instruction {index} of {} has FINAL = {}",
                instructions.len(),
                instruction[3] & 1
            );
        }

        let listing = disassemble(&words).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = assemble_str(&listing, AssembleOptions::default())
            .unwrap_or_else(|d| panic!("{name}: the disassembly does not assemble: {d:#?}\n{listing}"));
        assert_eq!(again, words, "{name}: disassembly round trip differs:\n{listing}");
    }
}

#[test]
fn passthrough_copies_position_colour_and_texcoord() {
    let out = run_example(
        "passthrough.vsh",
        &[
            (V_POS, [1.5, -2.0, 0.25, 1.0]),
            (V_DIFFUSE, [0.1, 0.2, 0.3, 0.4]),
            (V_TEX0, [0.75, 0.5, 0.0, 1.0]),
        ],
        &[],
    );
    assert_eq!(out[O_POS], [1.5, -2.0, 0.25, 1.0]);
    assert_eq!(out[O_D0], [0.1, 0.2, 0.3, 0.4]);
    assert_eq!(out[O_T0], [0.75, 0.5, 0.0, 1.0]);
    // Nothing else is written, so the rest stay at their initial zero.
    assert_eq!(out[O_D1], [0.0; 4]);
    assert_eq!(out[O_FOG], [0.0; 4]);
}

#[test]
fn mvp_transforms_by_matrix_rows_and_passes_attributes_through() {
    // Row N of the matrix (c96 + N) gives lane N of oPos.
    let mvp = [
        [2.0, 0.5, 0.0, -1.0],
        [0.25, 3.0, -1.0, 2.0],
        [0.0, 0.0, 1.5, -1.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    let out = run_example(
        "mvp.vsh",
        &[
            (V_POS, [1.0, 2.0, 4.0, 1.0]),
            (V_DIFFUSE, [1.0, 0.5, 0.25, 0.75]),
            (V_TEX0, [0.125, 0.875, 0.0, 1.0]),
        ],
        &matrix_at(96, mvp),
    );
    // Position (1, 2, 4, 1):
    //   x = 2*1    + 0.5*2 + 0*4    + -1*1 = 2 + 1 + 0 - 1  = 2
    //   y = 0.25*1 + 3*2   + -1*4   + 2*1  = 0.25 + 6 - 4 + 2 = 4.25
    //   z = 0*1    + 0*2   + 1.5*4  + -1*1 = 6 - 1          = 5
    //   w = 0*1    + 0*2   + 1*4    + 0*1  = 4
    // Every product and sum is exact in f32.
    assert_eq!(out[O_POS], [2.0, 4.25, 5.0, 4.0]);
    assert_eq!(out[O_D0], [1.0, 0.5, 0.25, 0.75]);
    assert_eq!(out[O_T0], [0.125, 0.875, 0.0, 1.0]);
}

/// Runs lighting.vsh with the identity MVP and these lights and materials:
///   L = (0.6, 0, 0.8), H = (0, 0.6, 0.8), power 2,
///   diffuse (0.5, 1, 0.25, 0.5), specular (1, 0.5, 0.25, 0), ambient (0.1, 0.1, 0.1).
fn light(normal: Vec4) -> Outputs {
    let mut constants = matrix_at(96, IDENTITY).to_vec();
    constants.extend([
        (100, [0.6, 0.0, 0.8, 0.0]),
        (101, [0.0, 0.6, 0.8, 0.0]),
        (102, [0.0, 0.0, 0.0, 2.0]),
        (103, [0.5, 1.0, 0.25, 0.5]),
        (104, [1.0, 0.5, 0.25, 0.0]),
        (105, [0.1, 0.1, 0.1, 0.0]),
    ]);
    run_example(
        "lighting.vsh",
        &[
            (V_POS, [3.0, -1.0, 2.0, 1.0]),
            (V_NORMAL, normal),
            (V_TEX0, [0.25, 0.5, 0.0, 1.0]),
        ],
        &constants,
    )
}

#[test]
fn lighting_straight_on_normal_of_length_two() {
    // N = (0, 0, 2) / 2 = (0, 0, 1)
    // N . L = 0.8, N . H = 0.8, so LIT gives (1, 0.8, 0.8^2 = 0.64, 1).
    let out = light([0.0, 0.0, 2.0, 0.0]);
    // oD0.rgb = 0.1 + 0.8 * (0.5, 1, 0.25) = (0.1 + 0.4, 0.1 + 0.8, 0.1 + 0.2) = (0.5, 0.9, 0.3)
    // oD0.a   = diffuse alpha 0.5
    assert_close(out[O_D0], [0.5, 0.9, 0.3, 0.5]);
    // oD1 = 0.64 * (1, 0.5, 0.25, 0) = (0.64, 0.32, 0.16, 0)
    assert_close(out[O_D1], [0.64, 0.32, 0.16, 0.0]);
    // The identity matrix leaves the position alone; the paired mov passes oT0 through.
    assert_close(out[O_POS], [3.0, -1.0, 2.0, 1.0]);
    assert_eq!(out[O_T0], [0.25, 0.5, 0.0, 1.0]);
}

#[test]
fn lighting_normal_along_the_half_vector() {
    // N = (0, 3, 4) / sqrt(9 + 16) = (0, 3, 4) / 5 = (0, 0.6, 0.8)
    // N . L = 0*0.6 + 0.6*0 + 0.8*0.8 = 0.64
    // N . H = 0*0 + 0.6*0.6 + 0.8*0.8 = 0.36 + 0.64 = 1, so spec = 1^2 = 1.
    let out = light([0.0, 3.0, 4.0, 0.0]);
    // oD0.rgb = 0.1 + 0.64 * (0.5, 1, 0.25) = (0.1 + 0.32, 0.1 + 0.64, 0.1 + 0.16) = (0.42, 0.74, 0.26)
    assert_close(out[O_D0], [0.42, 0.74, 0.26, 0.5]);
    // oD1 = 1 * specular
    assert_close(out[O_D1], [1.0, 0.5, 0.25, 0.0]);
}

#[test]
fn lighting_without_specular_when_the_half_vector_is_perpendicular() {
    // N = (5, 0, 0) / 5 = (1, 0, 0)
    // N . L = 0.6 > 0, but N . H = 0, so LIT gives (1, 0.6, 0, 1).
    let out = light([5.0, 0.0, 0.0, 0.0]);
    // oD0.rgb = 0.1 + 0.6 * (0.5, 1, 0.25) = (0.1 + 0.3, 0.1 + 0.6, 0.1 + 0.15) = (0.4, 0.7, 0.25)
    assert_close(out[O_D0], [0.4, 0.7, 0.25, 0.5]);
    assert_close(out[O_D1], [0.0; 4]);
}

#[test]
fn lighting_from_behind_leaves_only_ambient() {
    // N = (0, 0, -3) / 3 = (0, 0, -1)
    // N . L = -0.8 and N . H = -0.8: LIT gives (1, 0, 0, 1).
    let out = light([0.0, 0.0, -3.0, 0.0]);
    // oD0.rgb = ambient (0.1, 0.1, 0.1); alpha is still the material's 0.5.
    assert_close(out[O_D0], [0.1, 0.1, 0.1, 0.5]);
    assert_close(out[O_D1], [0.0; 4]);
}

/// Runs fog.vsh with the identity MVP, the eye 10 units back along z (depth d = z + 10) and
/// fog from start 18 to end 50: scale = 1 / (50 - 18) = 1 / 32 = 0.03125.
fn fog(position: Vec4) -> Outputs {
    let mut constants = matrix_at(96, IDENTITY).to_vec();
    constants.extend([(100, [0.0, 0.0, 1.0, 10.0]), (101, [50.0, 0.03125, 0.0, 1.0])]);
    run_example(
        "fog.vsh",
        &[
            (V_POS, position),
            (V_DIFFUSE, [0.2, 0.4, 0.6, 0.8]),
            (V_TEX0, [1.0, 0.0, 0.5, 1.0]),
        ],
        &constants,
    )
}

#[test]
fn fog_is_linear_between_start_and_end() {
    // z = 20: d = 20 + 10 = 30, f = (50 - 30) / 32 = 20 / 32 = 0.625
    let out = fog([1.0, 2.0, 20.0, 1.0]);
    assert_close1(out[O_FOG][0], 0.625);
    assert_eq!(out[O_POS], [1.0, 2.0, 20.0, 1.0]);
    assert_eq!(out[O_D0], [0.2, 0.4, 0.6, 0.8]);
    assert_eq!(out[O_T0], [1.0, 0.0, 0.5, 1.0]);

    // z = 32: d = 42, f = (50 - 42) / 32 = 8 / 32 = 0.25
    assert_close1(fog([0.0, 0.0, 32.0, 1.0])[O_FOG][0], 0.25);
    // z = 8: d = 18 = start, f = 32 / 32 = 1
    assert_close1(fog([0.0, 0.0, 8.0, 1.0])[O_FOG][0], 1.0);
}

#[test]
fn fog_clamps_to_zero_and_one() {
    // z = -6: d = 4, (50 - 4) / 32 = 46 / 32 = 1.4375, clamped to 1.
    assert_close1(fog([0.0, 0.0, -6.0, 1.0])[O_FOG][0], 1.0);
    // z = 56: d = 66, (50 - 66) / 32 = -16 / 32 = -0.5, clamped to 0.
    assert_close1(fog([0.0, 0.0, 56.0, 1.0])[O_FOG][0], 0.0);
}
