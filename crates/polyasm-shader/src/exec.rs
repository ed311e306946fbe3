//! What a program means for one pixel, stated as simply as possible: the definition the CPU
//! renderer and the GPU interpreter are held to, and the per-pixel loop they are measured
//! against.

use crate::ops::{COLOR, COMPONENTS, Instr, MEMORY_CELLS, Op, PC, REGISTERS, Reg, SIZE, TIME, pick, sign};

/// What one frame gives every pixel: the image size and the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The image's width in pixels.
    pub width: u32,
    /// The image's height in pixels.
    pub height: u32,
    /// `t`, in seconds.
    pub time: f32,
}

/// How the alpha channel of the picture is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Alpha {
    /// 255: the picture is opaque whatever `c.w` holds.
    #[default]
    Opaque,
    /// `c.w`, converted like the colour channels.
    Keep,
}

pub use polyasm_core::picture::{Image, channel};

/// The register file of one pixel: every register a vector; a scalar register uses lane 0.
pub type Registers = [[f32; 4]; REGISTERS as usize];

/// The registers at the start of the pixel in column `x`, row `y` from the bottom: all 0 but
/// the inputs.
pub fn start(frame: &Frame, x: u32, y: u32) -> Registers {
    let mut regs = [[0.0; 4]; REGISTERS as usize];
    regs[PC.0 as usize] = [x as f32 + 0.5, y as f32 + 0.5, 0.0, 0.0];
    regs[TIME.0 as usize][0] = frame.time;
    regs[SIZE.0 as usize] = [frame.width as f32, frame.height as f32, 0.0, 0.0];
    regs
}

/// Runs `program` on `regs`, one instruction after another (IEEE f32 arithmetic). v2's
/// memory starts at 0 here, once per pixel: nothing but `c` outlives the program.
pub fn run(program: &[Instr], regs: &mut Registers) {
    let mut memory = [0.0f32; MEMORY_CELLS];
    for instr in program {
        let [a, b, c] = instr.regs.map(|Reg(n)| n as usize);
        match instr.op {
            Op::GetComponent => {
                regs[b][0] = pick(regs[c][0], COMPONENTS).map_or(0.0, |lane| regs[a][lane]);
            }
            Op::SetComponent => {
                if let Some(lane) = pick(regs[c][0], COMPONENTS) {
                    regs[a][lane] = regs[b][0];
                }
            }
            Op::Sign => regs[b][0] = sign(regs[a][0]),
            Op::ReadMemory => regs[a][0] = pick(regs[b][0], MEMORY_CELLS).map_or(0.0, |cell| memory[cell]),
            Op::WriteMemory => {
                if let Some(cell) = pick(regs[b][0], MEMORY_CELLS) {
                    memory[cell] = regs[a][0];
                }
            }
            Op::Add => regs[c][0] = regs[a][0] + regs[b][0],
            Op::Multiply => regs[c][0] = regs[a][0] * regs[b][0],
            Op::Negate => regs[b][0] = -regs[a][0],
            Op::Reciprocal => regs[b][0] = 1.0 / regs[a][0],
            Op::Move => regs[b][0] = regs[a][0],
            Op::Load => regs[a][0] = instr.constant,
            op => {
                let lane = op.component().expect("the other ops are component ops");
                if matches!(
                    op,
                    Op::GetComponent0 | Op::GetComponent1 | Op::GetComponent2 | Op::GetComponent3
                ) {
                    regs[b][0] = regs[a][lane];
                } else {
                    regs[a][lane] = regs[b][0];
                }
            }
        }
    }
}

/// The colour of a pixel whose program ended with `regs`.
pub fn color(regs: &Registers, alpha: Alpha) -> [u8; 4] {
    let c = regs[COLOR.0 as usize];
    let a = match alpha {
        Alpha::Opaque => 255,
        Alpha::Keep => channel(c[3]),
    };
    [channel(c[0]), channel(c[1]), channel(c[2]), a]
}

/// The colour of one pixel (column `x`, row `y` from the bottom).
pub fn pixel(program: &[Instr], frame: &Frame, x: u32, y: u32, alpha: Alpha) -> [u8; 4] {
    let mut regs = start(frame, x, y);
    run(program, &mut regs);
    color(&regs, alpha)
}

/// The whole picture, one pixel after another: the plain definition, slow on purpose.
pub fn render_naive(program: &[Instr], frame: &Frame, alpha: Alpha) -> Image {
    let mut rgba = Vec::with_capacity(frame.width as usize * frame.height as usize * 4);
    for row in 0..frame.height {
        let y = frame.height - 1 - row;
        for x in 0..frame.width {
            rgba.extend(pixel(program, frame, x, y, alpha));
        }
    }
    Image {
        width: frame.width,
        height: frame.height,
        rgba,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registers after `program` ran at the only pixel of a 1x1 frame at time 0.
    fn one_pixel(program: &[Instr]) -> Registers {
        let frame = Frame {
            width: 1,
            height: 1,
            time: 0.0,
        };
        let mut regs = start(&frame, 0, 0);
        run(program, &mut regs);
        regs
    }

    fn instr(op: Op, regs: [u8; 3], constant: f32) -> Instr {
        Instr {
            op,
            regs: regs.map(Reg),
            constant,
        }
    }

    #[test]
    fn the_uv_program_is_black_at_the_bottom_left_and_yellow_at_the_top_right() {
        let program = [
            instr(Op::GetComponent0, [16, 0, 0], 0.0),
            instr(Op::GetComponent1, [16, 1, 0], 0.0),
            instr(Op::GetComponent0, [18, 3, 0], 0.0),
            instr(Op::Reciprocal, [3, 2, 0], 0.0),
            instr(Op::GetComponent1, [18, 4, 0], 0.0),
            instr(Op::Reciprocal, [4, 3, 0], 0.0),
            instr(Op::Multiply, [0, 2, 0], 0.0),
            instr(Op::Multiply, [1, 3, 1], 0.0),
            instr(Op::SetComponent0, [19, 0, 0], 0.0),
            instr(Op::SetComponent1, [19, 1, 0], 0.0),
        ];
        let frame = Frame {
            width: 4,
            height: 2,
            time: 0.0,
        };
        let image = render_naive(&program, &frame, Alpha::Opaque);
        // (0.5 / 4, 0.5 / 2) and (3.5 / 4, 1.5 / 2).
        assert_eq!(image.pixel_from_bottom(0, 0), [channel(0.125), channel(0.25), 0, 255]);
        assert_eq!(image.pixel_from_bottom(3, 1), [channel(0.875), channel(0.75), 0, 255]);
        assert_eq!(
            &image.rgba[..4],
            &image.pixel_from_bottom(0, 1),
            "the first row stored is the top one"
        );
        assert_eq!(
            render_naive(&program, &frame, Alpha::Keep).pixel_from_bottom(0, 0)[3],
            0
        );
    }

    #[test]
    fn channels_clamp_round_and_send_nan_to_zero() {
        assert_eq!(channel(f32::NAN), 0);
        assert_eq!(channel(-1.0), 0);
        assert_eq!(channel(f32::INFINITY), 255);
        assert_eq!(channel(0.5), 128);
        assert_eq!(channel(1.0 / 255.0 * 0.49), 0);
    }

    #[test]
    fn arithmetic_is_ieee() {
        let program = [
            instr(Op::Reciprocal, [0, 1, 0], 0.0),
            instr(Op::Load, [2, 0, 0], -2.5e-3),
            instr(Op::Negate, [2, 3, 0], 0.0),
            instr(Op::Add, [3, 3, 4], 0.0),
            instr(Op::SetComponent3, [8, 4, 0], 0.0),
            instr(Op::GetComponent3, [8, 5, 0], 0.0),
        ];
        let regs = one_pixel(&program);
        assert_eq!(regs[1][0], f32::INFINITY);
        assert_eq!(regs[5][0], 5e-3);
        assert_eq!(regs[8], [0.0, 0.0, 0.0, 5e-3]);
    }

    #[test]
    fn v2_indexes_pick_floor_in_range_and_nothing_outside() {
        // v0 = (1, 2, 3, 4) through setComponent with indexes 0, 1.5, 2.99 and 3.
        let mut program = Vec::new();
        for (lane, index) in [0.0, 1.5, 2.99, 3.0].into_iter().enumerate() {
            program.push(instr(Op::Load, [0, 0, 0], lane as f32 + 1.0));
            program.push(instr(Op::Load, [1, 0, 0], index));
            program.push(instr(Op::SetComponent, [8, 0, 1], 0.0));
        }
        // Out of range: 4, -0.5, NaN; none writes.
        for index in [4.0, -0.5, f32::NAN] {
            program.push(instr(Op::Load, [1, 0, 0], index));
            program.push(instr(Op::SetComponent, [8, 0, 1], 0.0));
        }
        // Reads: -0 picks x, 3.5 picks w, 4 and NaN read 0.
        for (index, into) in [(-0.0, 2), (3.5, 3), (4.0, 4), (f32::NAN, 5)] {
            program.push(instr(Op::Load, [1, 0, 0], index));
            program.push(instr(Op::GetComponent, [8, into, 1], 0.0));
        }
        let regs = one_pixel(&program);
        assert_eq!(regs[8], [1.0, 2.0, 3.0, 4.0]);
        assert_eq!([regs[2][0], regs[3][0], regs[4][0], regs[5][0]], [1.0, 4.0, 0.0, 0.0]);
    }

    #[test]
    fn v2_memory_starts_at_zero_and_keeps_64_cells() {
        let program = [
            instr(Op::Load, [0, 0, 0], 5.0),
            instr(Op::Load, [1, 0, 0], 63.5),
            instr(Op::WriteMemory, [0, 1, 0], 0.0), // memory[63] = 5
            instr(Op::Load, [2, 0, 0], 64.0),
            instr(Op::WriteMemory, [0, 2, 0], 0.0), // out of range: nothing
            instr(Op::ReadMemory, [3, 1, 0], 0.0),  // 5
            instr(Op::ReadMemory, [4, 2, 0], 0.0),  // 0
            instr(Op::ReadMemory, [5, 20, 0], 0.0), // memory[z] = memory[0] = 0
        ];
        let regs = one_pixel(&program);
        assert_eq!([regs[3][0], regs[4][0], regs[5][0]], [5.0, 0.0, 0.0]);
        // A second pixel starts with memory at 0 again.
        assert_eq!(one_pixel(&program[5..6])[3][0], 0.0);
    }

    #[test]
    fn v2_sign_is_one_minus_one_or_positive_zero() {
        for (value, expected) in [
            (2.5f32, 1.0f32),
            (-1e-30, -1.0),
            (f32::INFINITY, 1.0),
            (f32::NEG_INFINITY, -1.0),
            (0.0, 0.0),
            (-0.0, 0.0),
            (f32::NAN, 0.0),
            (f32::from_bits(1), 1.0),
        ] {
            assert_eq!(crate::ops::sign(value).to_bits(), expected.to_bits(), "{value}");
        }
    }
}
