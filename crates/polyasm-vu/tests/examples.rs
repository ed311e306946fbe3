//! Every example runs on the emulator and gives the outputs worked out by hand in its header.

use polyasm_vu::{Program, Vec4, assemble_str};

const IDENTITY: [Vec4; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

fn run_example(name: &str, inputs: &[(usize, Vec4)], constants: &[(usize, Vec4)]) -> [Vec4; 4] {
    let path = format!("{}/../../examples/vu/{name}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    let words = assemble_str(&source).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let mut i = [[0.0; 4]; 8];
    for &(slot, v) in inputs {
        i[slot] = v;
    }
    let mut c = [[0.0; 4]; 16];
    c[..4].copy_from_slice(&IDENTITY);
    for &(slot, v) in constants {
        c[slot] = v;
    }
    Program::new(&words).unwrap().run(&i, &c)
}

fn assert_close(got: Vec4, want: Vec4) {
    for lane in 0..4 {
        assert!((got[lane] - want[lane]).abs() < 1e-6, "got {got:?}, want {want:?}");
    }
}

#[test]
fn seed_translates_and_passes_attributes_through() {
    // Column 3 of the matrix is the translation (1, 2, 3).
    let out = run_example(
        "seed.vu",
        &[
            (0, [1.0, 1.0, 1.0, 1.0]),
            (1, [0.5, 0.25, 0.0, 1.0]),
            (2, [1.0, 0.0, 0.0, 1.0]),
            (3, [0.0, 0.1, 0.0, 0.0]),
        ],
        &[(3, [1.0, 2.0, 3.0, 1.0])],
    );
    assert_eq!(
        out,
        [
            [2.0, 3.0, 4.0, 1.0],
            [0.5, 0.25, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 0.1, 0.0, 0.0]
        ]
    );
}

#[test]
fn transform_texcoord_copies_and_scales_unit_one() {
    let out = run_example(
        "transform_texcoord.vu",
        &[(0, [0.0, 0.0, 0.5, 1.0]), (1, [0.25, 0.75, 0.0, 0.0]), (2, [1.0; 4])],
        &[(4, [0.1, 0.2, 0.3, 0.0]), (5, [1.0, 1.0, 2.0, 2.0])],
    );
    assert_eq!(out[0], [0.0, 0.0, 0.5, 1.0]);
    assert_eq!(out[1], [0.25, 0.75, 0.5, 1.5]);
    assert_eq!(out[3], [0.1, 0.2, 0.3, 0.0]);
}

#[test]
fn lighting_adds_ambient_to_the_clamped_diffuse_term() {
    let lit = |normal: Vec4| {
        run_example(
            "lighting.vu",
            &[(0, [0.0, 0.0, 0.0, 1.0]), (1, normal), (3, [1.0, 0.5, 0.5, 1.0])],
            &[
                (4, [0.0, 0.0, 1.0, 0.0]),
                (5, [1.0, 1.0, 1.0, 0.0]),
                (6, [0.25, 0.25, 0.25, 1.0]),
            ],
        )[2]
    };
    // Facing the light: term 1, so colour * (0.25 + 1).
    assert_close(lit([0.0, 0.0, 1.0, 0.0]), [1.25, 0.625, 0.625, 1.0]);
    // Facing away: the term clamps to 0, leaving the ambient part.
    assert_close(lit([0.0, 0.0, -1.0, 0.0]), [0.25, 0.125, 0.125, 1.0]);
    // At 60 degrees: cos = 0.5.
    assert_close(lit([0.0, 0.75f32.sqrt(), 0.5, 0.0]), [0.75, 0.375, 0.375, 1.0]);
}

#[test]
fn color_ramp_interpolates_and_clamps() {
    let ramp = |y: f32| {
        run_example(
            "color_ramp.vu",
            &[(0, [0.0, y, 0.0, 1.0])],
            &[
                (4, [0.0, 0.0, 1.0, 1.0]),
                (5, [1.0, 0.0, 0.0, 1.0]),
                (6, [1.0, 0.5, 0.0, 1.0]),
            ],
        )
    };
    // t = (y - 1) * 0.5
    assert_close(ramp(2.0)[2], [0.5, 0.0, 0.5, 1.0]);
    assert_close(ramp(-5.0)[2], [0.0, 0.0, 1.0, 1.0]);
    assert_close(ramp(9.0)[2], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(ramp(2.0)[0], [0.0, 2.0, 0.0, 1.0]);
}

#[test]
fn wave_displaces_only_y() {
    // x = 0, frequency 1, phase pi/2: sin = 1; amplitude 0.5.
    let out = run_example(
        "wave.vu",
        &[(0, [0.0, 1.0, 2.0, 1.0])],
        &[(4, [1.0, std::f32::consts::FRAC_PI_2, 0.5, 0.0])],
    );
    assert_close(out[0], [0.0, 1.5, 2.0, 1.0]);
}
