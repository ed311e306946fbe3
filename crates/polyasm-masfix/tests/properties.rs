//! Round trips and robustness: random programs survive bytecode → disassembly → assembly
//! unchanged, and no text or bytes make the assembler or the bytecode reader panic.

use polyasm_masfix::encode::bytecode_bytes;
use polyasm_masfix::ops::{CONDS, CondReg, Instr, KINDS, OPERS, Reg, Shape, Value};
use polyasm_masfix::{assemble_str, decode, print};
use proptest::prelude::*;

fn reg() -> impl Strategy<Value = Reg> {
    prop::sample::select(Reg::ALL.to_vec())
}

fn oper() -> impl Strategy<Value = polyasm_masfix::ops::Oper> {
    prop::sample::select(OPERS.map(|o| o.0).to_vec())
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<u16>().prop_map(Value::Imm),
        reg().prop_map(Value::Reg),
        (reg(), oper(), any::<u16>()).prop_map(|(r, o, i)| Value::RegOp(r, o, i)),
    ]
}

/// Any valid instruction.
fn instr() -> impl Strategy<Value = Instr> {
    let kind = prop::sample::select(KINDS.map(|k| k.op).to_vec());
    let cond = (any::<bool>(), prop::sample::select(CONDS.map(|c| c.0).to_vec()))
        .prop_map(|(m, c)| (if m { CondReg::M } else { CondReg::R }, c));
    (kind, prop::option::of(oper()), cond, value(), any::<bool>()).prop_map(|(kind, modifier, cond, value, m)| {
        let shape = kind.shape();
        Instr {
            kind,
            modifier: modifier.filter(|_| shape == Shape::Basic),
            cond: (shape == Shape::Cond).then_some(cond),
            value: match shape {
                Shape::Bare => Value::None,
                Shape::Input => Value::Reg(if m { Reg::M } else { Reg::R }),
                _ => value,
            },
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn programs_survive_disassembly_and_assembly(program in prop::collection::vec(instr(), 0..40)) {
        for instr in &program {
            prop_assert_eq!(instr.check(), Ok(()));
        }
        let text = print::print_program(&program);
        let bytes = assemble_str(&text).map_err(|d| TestCaseError::fail(format!("{text}\n{d:?}")))?;
        let read = decode::read(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&read.instrs, &program, "{}", text);
        let again = decode::read(&bytecode_bytes(&program, None)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.instrs, program);
    }

    #[test]
    fn any_text_assembles_or_is_diagnosed(text in "[ -~\\n\\t'\"();:,{}\\[\\]\\\\é]{0,200}") {
        match assemble_str(&text) {
            Ok(bytes) => prop_assert!(decode::read(&bytes).is_ok()),
            Err(diagnostics) => prop_assert!(!diagnostics.is_empty()),
        }
    }

    #[test]
    fn any_bytes_read_as_a_program_or_a_reason(bytes in prop::collection::vec(any::<u8>(), 0..200), magic in any::<bool>()) {
        let mut bytes = bytes;
        if magic && bytes.len() >= 8 {
            bytes[..4].copy_from_slice(b"MXBC");
            bytes[4..6].copy_from_slice(&1u16.to_le_bytes());
        }
        match decode::read(&bytes) {
            Ok(program) => prop_assert_eq!(bytecode_bytes(&program.instrs, program.debug.as_ref()), bytes),
            Err(e) => prop_assert!(e.offset <= bytes.len()),
        }
    }
}

#[test]
fn the_65537th_instruction_is_an_error() {
    let fits = "swap\n".repeat(65_536);
    assert!(assemble_str(&fits).is_ok());
    let errors = assemble_str(&format!("{fits}swap\n")).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "MX043");
}
