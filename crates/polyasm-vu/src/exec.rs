//! The VU emulator: runs a program once per vertex, as the console's vertex shader does.
//!
//! Faithful to the runtime's interpreter: a program occupies a zero-filled 64-word memory
//! (so a program without `end` runs on into `ld r0 0` words), fields are read from every word
//! whatever the assembler would accept (`ld` masks its slot to 3 bits, `st` its output to 2),
//! opcodes 25–62 do nothing, and `end` stops. Where the console is undefined polyasm picks
//! zero: registers and outputs start at 0, and `mulm` reads 0 for columns past r15.

use crate::ops::{CONSTANT_SLOTS, INPUT_SLOTS, MAX_WORDS, Op, REGISTERS, field};

pub use polyasm_core::vertex_io::Vec4;

/// Outputs in slot order: pos, tex, col, ocol.
pub type Outputs = [Vec4; 4];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    op: Option<Op>,
    dst: usize,
    src: usize,
    swizzle: [usize; 4],
    mask: [bool; 4],
}

/// A program decoded once, ready to run on many vertices.
#[derive(Clone, Debug)]
pub struct Program {
    steps: Vec<Step>,
}

/// A program of more words than the VU holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramTooLong(pub usize);

impl std::fmt::Display for ProgramTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the program has {} words; the VU holds {MAX_WORDS}", self.0)
    }
}

impl std::error::Error for ProgramTooLong {}

impl Program {
    /// Loads words as the console does: into a zero-filled 64-word memory.
    pub fn new(words: &[u32]) -> Result<Program, ProgramTooLong> {
        if words.len() > MAX_WORDS {
            return Err(ProgramTooLong(words.len()));
        }
        let mut steps = Vec::with_capacity(MAX_WORDS);
        for i in 0..MAX_WORDS {
            let (opcode, [dst, src, swizzle, mask]) = field::split(words.get(i).copied().unwrap_or(0));
            let op = Op::from_opcode(opcode);
            steps.push(Step {
                op,
                dst: dst as usize,
                src: src as usize,
                swizzle: field::swizzle_lanes(swizzle).map(usize::from),
                mask: [0, 1, 2, 3].map(|lane| mask >> lane & 1 == 1),
            });
            if op == Some(Op::End) {
                break;
            }
        }
        Ok(Program { steps })
    }

    /// Runs the program on one vertex.
    pub fn run(&self, inputs: &[Vec4; INPUT_SLOTS as usize], constants: &[Vec4; CONSTANT_SLOTS as usize]) -> Outputs {
        let mut reg = [[0.0f32; 4]; REGISTERS as usize];
        let mut out: Outputs = [[0.0; 4]; 4];
        for step in &self.steps {
            let Some(op) = step.op else { continue };
            let (d, s) = (step.dst, step.src);
            let a = reg[d];
            let b = reg[s];
            reg[d] = match op {
                Op::Ld => inputs[s & 7],
                Op::St => {
                    out[d & 3] = b;
                    continue;
                }
                Op::Ldc => constants[s],
                Op::Add => lanes2(a, b, |x, y| x + y),
                Op::Sub => lanes2(a, b, |x, y| x - y),
                Op::Mul => lanes2(a, b, |x, y| x * y),
                Op::Div => lanes2(a, b, |x, y| x / y),
                Op::Dot => [a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], 0.0, 0.0, 0.0],
                Op::Abs => b.map(f32::abs),
                Op::Sign => b.map(glsl_sign),
                Op::Sqrt => b.map(f32::sqrt),
                Op::Pow => lanes2(a, b, f32::powf),
                Op::Exp => b.map(f32::exp),
                Op::Log => b.map(f32::ln),
                Op::Min => lanes2(a, b, |x, y| if y < x { y } else { x }),
                Op::Max => lanes2(a, b, |x, y| if x < y { y } else { x }),
                Op::Sin => b.map(f32::sin),
                Op::Cos => b.map(f32::cos),
                Op::Tan => b.map(f32::tan),
                Op::Asin => b.map(f32::asin),
                Op::Acos => b.map(f32::acos),
                Op::Atan => b.map(f32::atan),
                Op::Atan2 => lanes2(a, b, f32::atan2),
                Op::Shf => [0, 1, 2, 3].map(|i| if step.mask[i] { b[step.swizzle[i]] } else { a[i] }),
                Op::Mulm => {
                    let column = |i: usize| reg.get(s + i).copied().unwrap_or([0.0; 4]);
                    let mut r = [0.0f32; 4];
                    for (i, &weight) in a.iter().enumerate() {
                        let c = column(i);
                        for lane in 0..4 {
                            r[lane] += c[lane] * weight;
                        }
                    }
                    r
                }
                Op::End => break,
            };
        }
        out
    }
}

fn lanes2(a: Vec4, b: Vec4, f: impl Fn(f32, f32) -> f32) -> Vec4 {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// GLSL `sign`: -1, 0 or 1 (NaN gives 0).
fn glsl_sign(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Instruction;

    fn word(op: Op, dst: u8, src: u8) -> u32 {
        Instruction {
            op,
            dst,
            src,
            swizzle: [0; 4],
            mask: 0,
        }
        .encode()
    }

    fn run(words: &[u32], inputs: &[Vec4], constants: &[Vec4]) -> Outputs {
        let mut i = [[0.0; 4]; 8];
        i[..inputs.len()].copy_from_slice(inputs);
        let mut c = [[0.0; 4]; 16];
        c[..constants.len()].copy_from_slice(constants);
        Program::new(words).unwrap().run(&i, &c)
    }

    #[test]
    fn dot_writes_x_and_zeroes_the_rest() {
        let p = [
            word(Op::Ld, 0, 0),
            word(Op::Ldc, 1, 0),
            word(Op::Dot, 0, 1),
            word(Op::St, 0, 0),
            0x3f,
        ];
        let out = run(&p, &[[1.0, 2.0, 3.0, 4.0]], &[[5.0, 6.0, 7.0, 8.0]]);
        assert_eq!(out[0], [70.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn mulm_is_column_major() {
        // Columns r1..r4 of a translation by (10, 20, 30); position (1, 2, 3, 1).
        let p = [
            word(Op::Ld, 0, 0),
            word(Op::Ldc, 1, 0),
            word(Op::Ldc, 2, 1),
            word(Op::Ldc, 3, 2),
            word(Op::Ldc, 4, 3),
            word(Op::Mulm, 0, 1),
            word(Op::St, 0, 0),
            0x3f,
        ];
        let columns = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [10.0, 20.0, 30.0, 1.0],
        ];
        assert_eq!(run(&p, &[[1.0, 2.0, 3.0, 1.0]], &columns)[0], [11.0, 22.0, 33.0, 1.0]);
    }

    #[test]
    fn shf_writes_only_masked_lanes_and_atan2_takes_dst_as_y() {
        let shf = Instruction {
            op: Op::Shf,
            dst: 0,
            src: 1,
            swizzle: [3, 3, 0, 0],
            mask: 0b0011,
        }
        .encode();
        let p = [
            word(Op::Ld, 0, 0),
            word(Op::Ld, 1, 1),
            shf,
            word(Op::St, 0, 0),
            word(Op::Atan2, 1, 2),
            word(Op::St, 1, 1),
            0x3f,
        ];
        let out = run(&p, &[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], &[]);
        assert_eq!(out[0], [8.0, 8.0, 3.0, 4.0]);
        // r2 is zero: atan2(y, 0) = pi/2 for y > 0.
        assert_eq!(out[1][0], std::f32::consts::FRAC_PI_2);
    }

    #[test]
    fn programs_without_end_run_into_zero_words_and_end_stops() {
        // `st pos r0` then nothing: the zero words after it are `ld r0 0` and change no output.
        let out = run(&[word(Op::Ld, 0, 1), word(Op::St, 0, 0)], &[[9.0; 4], [1.0; 4]], &[]);
        assert_eq!(out[0], [1.0; 4]);
        let out = run(&[0x3f, word(Op::Ld, 0, 0), word(Op::St, 0, 0)], &[[9.0; 4]], &[]);
        assert_eq!(out[0], [0.0; 4]);
        assert_eq!(Program::new(&[0; 65]).unwrap_err(), ProgramTooLong(65));
    }

    #[test]
    fn mulm_past_r15_reads_zero() {
        let p = [
            word(Op::Ldc, 15, 0),
            word(Op::Ld, 0, 0),
            word(Op::Mulm, 0, 15),
            word(Op::St, 0, 0),
            0x3f,
        ];
        assert_eq!(
            run(&p, &[[2.0, 1.0, 1.0, 1.0]], &[[1.0, 2.0, 3.0, 4.0]])[0],
            [2.0, 4.0, 6.0, 8.0]
        );
    }
}
