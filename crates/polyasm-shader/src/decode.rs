//! Bytecode files back to instructions (docs/formats/shader-bytecode.md). Any bytes give a
//! program or every problem found, each with the byte offset it is about; nothing panics, and
//! nothing is allocated before the count is checked against the input's length.

use polyasm_core::container::{Reader, Truncated};

use crate::encode::{FLAG_V2, FORMAT, HEADER_BYTES, V2_MAX_NUMBER};
use crate::error::{BytecodeError, BytecodeProblem};
use crate::ops::{Dialect, INSTRUCTION_BYTES, Instr, Op};

/// Reads a whole bytecode file. A broken header is one error; past the header, every bad
/// instruction is reported, then a wrong length.
pub fn read(bytes: &[u8]) -> Result<Vec<Instr>, Vec<BytecodeError>> {
    read_program(bytes).map(|(_, instrs)| instrs)
}

/// Whether `value` is a number v2's `load` takes: a whole number from 0 to 16777215 (not -0).
pub fn is_v2_number(value: f32) -> bool {
    value.is_sign_positive() && value <= V2_MAX_NUMBER as f32 && value.fract() == 0.0
}

/// [`read`], with the dialect the header's flags give the program.
pub fn read_program(bytes: &[u8]) -> Result<(Dialect, Vec<Instr>), Vec<BytecodeError>> {
    let header = FORMAT.read_header(&mut Reader::new(bytes)).map_err(|e| {
        vec![BytecodeError {
            offset: e.offset,
            problem: BytecodeProblem::Header(e.problem),
        }]
    })?;
    let dialect = if header.flags & FLAG_V2 != 0 {
        Dialect::V2
    } else {
        Dialect::V1
    };
    let count = header.count;
    let needed = count * INSTRUCTION_BYTES;
    let body = &bytes[HEADER_BYTES..];
    let mut errors = Vec::new();
    let whole = body.len() / INSTRUCTION_BYTES;
    let mut instrs = Vec::with_capacity(count.min(whole));
    // Forms of the other dialect than the flags say (and v1's numbers under the v2 flag),
    // reported unless the v2 flag is set on a program with no v2 form at all: then the flag
    // is what is wrong.
    let mut dialect_errors = Vec::new();
    let mut uses_v2 = false;
    for (index, chunk) in body.chunks_exact(INSTRUCTION_BYTES).take(count).enumerate() {
        let offset = HEADER_BYTES + index * INSTRUCTION_BYTES;
        let words = [
            u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
            u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]),
        ];
        match Instr::unpack(words) {
            Ok(instr) if instr.op == Op::Load && !instr.constant.is_finite() => errors.push(BytecodeError {
                offset: offset + 4,
                problem: BytecodeProblem::NotFinite { index, bits: words[1] },
            }),
            Ok(instr) if !instr.op.info().dialects.has(dialect) => {
                uses_v2 |= instr.uses_only(Dialect::V2);
                dialect_errors.push(BytecodeError {
                    offset,
                    problem: BytecodeProblem::OpOfOtherDialect {
                        index,
                        op: instr.op,
                        file: dialect,
                    },
                });
            }
            Ok(instr) if let Some(reg) = instr.registers().find(|reg| !reg.dialects().has(dialect)) => {
                uses_v2 |= instr.uses_only(Dialect::V2);
                dialect_errors.push(BytecodeError {
                    offset,
                    problem: BytecodeProblem::RegisterOfOtherDialect {
                        index,
                        reg,
                        file: dialect,
                    },
                });
            }
            Ok(instr) if dialect == Dialect::V2 && instr.op == Op::Load && !is_v2_number(instr.constant) => {
                dialect_errors.push(BytecodeError {
                    offset: offset + 4,
                    problem: BytecodeProblem::NotWhole { index, bits: words[1] },
                })
            }
            Ok(instr) => {
                uses_v2 |= instr.uses_only(Dialect::V2);
                instrs.push(instr);
            }
            Err(error) => errors.push(BytecodeError {
                offset,
                problem: BytecodeProblem::Instruction { index, words, error },
            }),
        }
    }
    if body.len() < needed {
        let offset = HEADER_BYTES + whole * INSTRUCTION_BYTES;
        errors.push(BytecodeError {
            offset,
            problem: BytecodeProblem::Truncated(Truncated {
                offset,
                what: "the instructions",
                needed: needed - whole * INSTRUCTION_BYTES,
                left: bytes.len() - offset,
            }),
        });
    } else if body.len() > needed {
        errors.push(BytecodeError {
            offset: HEADER_BYTES + needed,
            problem: BytecodeProblem::Trailing(body.len() - needed),
        });
    }
    if dialect == Dialect::V2 && !uses_v2 {
        errors.insert(
            0,
            BytecodeError {
                offset: 6,
                problem: BytecodeProblem::NoV2Form,
            },
        );
    } else if !dialect_errors.is_empty() {
        errors.extend(dialect_errors);
        errors.sort_by_key(|e| e.offset);
    }
    if errors.is_empty() {
        Ok((dialect, instrs))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::bytecode_bytes;
    use crate::ops::{Dialect, Reg, UnpackError};
    use polyasm_core::container::HeaderProblem;

    fn program() -> Vec<Instr> {
        vec![
            Instr {
                op: Op::Load,
                regs: [Reg(1), Reg(0), Reg(0)],
                constant: -0.5,
            },
            Instr {
                op: Op::SetComponent2,
                regs: [crate::ops::COLOR, Reg(1), Reg(0)],
                constant: 0.0,
            },
        ]
    }

    fn problems(bytes: &[u8]) -> Vec<(usize, BytecodeProblem)> {
        read(bytes)
            .unwrap_err()
            .into_iter()
            .map(|e| (e.offset, e.problem))
            .collect()
    }

    #[test]
    fn a_written_file_reads_back() {
        let bytes = bytecode_bytes(&program());
        assert_eq!(bytes.len(), HEADER_BYTES + 2 * INSTRUCTION_BYTES);
        assert_eq!(read(&bytes), Ok(program()));
        assert_eq!(read(&bytecode_bytes(&[])), Ok(vec![]));
    }

    #[test]
    fn every_header_problem_has_its_offset() {
        let good = bytecode_bytes(&program());
        let header = |offset, problem| (offset, BytecodeProblem::Header(problem));
        assert_eq!(problems(b"ELF\x7f1234"), [header(0, HeaderProblem::Magic)]);
        let mut bad = good.clone();
        bad[4] = 2;
        assert_eq!(problems(&bad), [header(4, HeaderProblem::Version(2))]);
        let mut bad = good.clone();
        bad[7] = 1;
        assert_eq!(problems(&bad), [header(6, HeaderProblem::Flags(0x100))]);
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(problems(&bad), [header(8, HeaderProblem::Count(u32::MAX))]);
        assert_eq!(
            problems(&good[..6]),
            [header(
                6,
                HeaderProblem::Truncated(Truncated {
                    offset: 6,
                    what: "the flags",
                    needed: 2,
                    left: 0
                })
            )]
        );
    }

    #[test]
    fn every_bad_instruction_and_the_length_are_reported() {
        let mut bad = bytecode_bytes(&program());
        bad[12] = 99; // opcode of instruction 0
        bad[20 + 4..20 + 8].copy_from_slice(&1u32.to_le_bytes()); // constant of setComponent2
        bad.push(0);
        let got = problems(&bad);
        assert_eq!(got.len(), 3);
        assert!(matches!(
            got[0],
            (
                12,
                BytecodeProblem::Instruction {
                    index: 0,
                    error: UnpackError::Opcode(99),
                    ..
                }
            )
        ));
        assert!(matches!(
            got[1],
            (
                20,
                BytecodeProblem::Instruction {
                    index: 1,
                    error: UnpackError::Constant,
                    ..
                }
            )
        ));
        assert_eq!(got[2], (28, BytecodeProblem::Trailing(1)));
        let good = bytecode_bytes(&program());
        assert_eq!(
            problems(&good[..good.len() - 3]),
            [(
                20,
                BytecodeProblem::Truncated(Truncated {
                    offset: 20,
                    what: "the instructions",
                    needed: 8,
                    left: 5
                })
            )]
        );
    }

    #[test]
    fn infinite_constants_are_refused() {
        let mut bad = bytecode_bytes(&program());
        bad[16..20].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
        assert!(matches!(
            problems(&bad)[..],
            [(16, BytecodeProblem::NotFinite { index: 0, .. })]
        ));
    }

    #[test]
    fn every_truncation_and_every_flipped_bit_is_an_error_or_a_program() {
        let bytes = bytecode_bytes(&program());
        for len in 0..bytes.len() {
            let errors = read(&bytes[..len]).unwrap_err();
            assert!(errors.iter().all(|e| e.offset <= len), "{len}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                if let Ok(instrs) = read(&flipped) {
                    assert_eq!(bytecode_bytes(&instrs), flipped);
                }
            }
        }
    }

    #[test]
    fn v2_files_read_back_with_their_dialect() {
        let program = [
            Instr {
                op: Op::Load,
                regs: [Reg(5), Reg(0), Reg(0)],
                constant: 3.0,
            },
            Instr {
                op: Op::GetComponent,
                regs: [crate::ops::PC, Reg(0), Reg(5)],
                constant: 0.0,
            },
        ];
        let bytes = bytecode_bytes(&program);
        assert_eq!(read_program(&bytes), Ok((Dialect::V2, program.to_vec())));
        // A fraction has no v2 literal.
        let mut bad = bytes.clone();
        bad[16..20].copy_from_slice(&2.5f32.to_bits().to_le_bytes());
        assert!(matches!(
            problems(&bad)[..],
            [(16, BytecodeProblem::NotWhole { index: 0, .. })]
        ));
        let mut bad = bytes.clone();
        bad[16..20].copy_from_slice(&(-0.0f32).to_bits().to_le_bytes());
        assert!(matches!(
            problems(&bad)[..],
            [(16, BytecodeProblem::NotWhole { index: 0, .. })]
        ));
        // Without the flag, getComponent is of the other dialect.
        let mut bad = bytes.clone();
        bad[6] = 0;
        assert!(matches!(
            problems(&bad)[..],
            [(
                20,
                BytecodeProblem::OpOfOtherDialect {
                    index: 1,
                    op: Op::GetComponent,
                    file: Dialect::V1
                }
            )]
        ));
        // The flag on a v1 program: the flag is wrong.
        let mut bad = bytecode_bytes(&super::tests::program());
        bad[6] = 1;
        assert_eq!(problems(&bad), [(6, BytecodeProblem::NoV2Form)]);
        // s7 in a v2 file.
        let mut bad = bytes;
        bad[13] = 7;
        assert!(matches!(
            problems(&bad)[..],
            [(
                12,
                BytecodeProblem::RegisterOfOtherDialect {
                    index: 0,
                    reg: Reg(7),
                    file: Dialect::V2
                }
            )]
        ));
    }
}
