//! Property tests: any program survives bytecode and source round trips bit for bit, and no
//! text or bytes make the assembler or the decoder panic.

use proptest::prelude::*;

use polyasm_shader::ops::{Dialect, FIRST_VECTOR, Instr, OPS, Operand, REGISTERS, Reg, SCALARS, Type};
use polyasm_shader::{DialectChoice, assemble_text, assemble_text_in, bytecode_bytes, decode, print};

/// Any register of `dialect` of type `ty`, writable ones only when `writable`.
fn register(ty: Type, writable: bool, dialect: Dialect) -> impl Strategy<Value = Reg> {
    let candidates: Vec<Reg> = (0..REGISTERS)
        .map(Reg)
        .filter(|r| r.ty() == ty && (!writable || r.writable()) && r.dialects().has(dialect))
        .collect();
    proptest::sample::select(candidates)
}

/// Any number v2's `load` takes, the ends of its range drawn often.
fn whole_number() -> impl Strategy<Value = f32> {
    prop_oneof![
        (0u32..=0xff_ffff).prop_map(|n| n as f32),
        proptest::sample::select(vec![0.0, 1.0, 2.0, 3.0, 4.0, 63.0, 64.0, 16_777_215.0]),
    ]
}

/// Any finite f32, with the edge cases drawn often: zeros of both signs, subnormals, the
/// largest magnitudes.
fn constant() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>()
            .prop_map(f32::from_bits)
            .prop_filter("finite", |f| f.is_finite()),
        proptest::sample::select(vec![
            0.0,
            -0.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            -f32::from_bits(1),
            f32::from_bits(0x007f_ffff),
            0.1,
            1e-5,
            1e16,
            16_777_217.0,
        ]),
    ]
}

fn instruction(dialect: Dialect) -> impl Strategy<Value = Instr> {
    let ops: Vec<usize> = (0..OPS.len()).filter(|&i| OPS[i].dialects.has(dialect)).collect();
    proptest::sample::select(ops).prop_flat_map(move |index| {
        let info = &OPS[index];
        let operand = |i: usize| -> BoxedStrategy<Reg> {
            match info.operands.get(i) {
                Some(Operand::Read(ty)) => register(*ty, false, dialect).boxed(),
                Some(Operand::Write(ty)) => register(*ty, true, dialect).boxed(),
                Some(Operand::WriteComponent) => register(Type::Vector, true, dialect).boxed(),
                Some(Operand::Number) | None => Just(Reg(0)).boxed(),
            }
        };
        let has_constant = info.operands.contains(&Operand::Number);
        let value = match (has_constant, dialect) {
            (true, Dialect::V1) => constant().boxed(),
            (true, Dialect::V2) => whole_number().boxed(),
            (false, _) => Just(0.0f32).boxed(),
        };
        (operand(0), operand(1), operand(2), value).prop_map(move |(a, b, c, constant)| Instr {
            op: info.op,
            regs: [a, b, c],
            constant,
        })
    })
}

/// A program of one dialect or the other.
fn program() -> impl Strategy<Value = Vec<Instr>> {
    prop_oneof![program_in(Dialect::V1), program_in(Dialect::V2)]
}

fn program_in(dialect: Dialect) -> impl Strategy<Value = Vec<Instr>> {
    proptest::collection::vec(instruction(dialect), 0..64)
}

/// Text near the language: its names, registers, numbers and punctuation in any order.
fn near_source() -> impl Strategy<Value = String> {
    let pieces = proptest::sample::select(vec![
        "add",
        "multiply",
        "load",
        "getComponent0",
        "setComponent3",
        "getComponent",
        "setComponent",
        "sign",
        "readMemory",
        "writeMemory",
        "z",
        "v5",
        "Add",
        "s0",
        "s7",
        "s8",
        "v0",
        "pc",
        "t",
        "s",
        "c",
        "(",
        ")",
        ",",
        " ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        "#",
        "1",
        "-2.5",
        ".5",
        "1e-3",
        "1e39",
        "0x1",
        "1.2.3",
        "+",
        "-",
        ";",
        "é",
        "\u{feff}",
        "inf",
    ]);
    proptest::collection::vec(pieces, 0..48).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn bytecode_then_decode_is_the_identity(program in program()) {
        let bytes = bytecode_bytes(&program);
        let read = decode::read(&bytes).expect("bytecode the crate wrote");
        prop_assert_eq!(bytecode_bytes(&read), bytes);
    }

    #[test]
    fn print_then_assemble_is_the_identity(program in program()) {
        let text = print::print_program(&program);
        let assembled = assemble_text(&text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
        let (want, got) = (bytecode_bytes(&program), bytecode_bytes(&assembled));
        prop_assert_eq!(got, want, "{}", text);
    }

    #[test]
    fn a_program_prints_as_text_its_own_dialect_reads_back(program in program_in(Dialect::V2)) {
        let text = print::print_program(&program);
        let assembled = assemble_text_in(&text, DialectChoice::Named(Dialect::V2))
            .unwrap_or_else(|e| panic!("{text}\n{e:?}"));
        prop_assert_eq!(&assembled, &program, "{}", text);
    }

    #[test]
    fn constants_print_as_text_that_reads_back_exactly(value in constant()) {
        let text = print::format_number(value);
        prop_assert_eq!(polyasm_shader::encode::parse_number(&text).map(f32::to_bits), Ok(value.to_bits()), "{}", text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = assemble_text(&text);
    }

    #[test]
    fn text_near_the_language_never_panics_and_errors_point_inside_it(text in near_source()) {
        if let Err(diagnostics) = assemble_text(&text) {
            for d in diagnostics {
                let span = d.primary_label().expect("source errors have a span").span;
                prop_assert!(span.end as usize <= text.len() && text.is_char_boundary(span.start as usize));
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode::read(&bytes);
    }

    #[test]
    fn bytes_after_a_good_header_never_panic(count in 0u32..8, body in proptest::collection::vec(any::<u8>(), 0..96)) {
        let mut bytes = b"SHBC\x01\x00\x00\x00".to_vec();
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&body);
        if let Ok(instrs) = decode::read(&bytes) {
            prop_assert_eq!(bytecode_bytes(&instrs), bytes);
        }
    }
}

#[test]
fn registers_cover_every_field_value_below_twenty_one() {
    assert_eq!(REGISTERS, 21);
    assert_eq!(FIRST_VECTOR, SCALARS);
    assert!(Reg::all().all(|r| Reg::from_name(&r.name()) == Some(r)));
}
