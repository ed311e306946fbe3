//! What the VM's and the JIT's tests share: random instructions of every shape.
#![allow(dead_code)]

use polyasm_masfix::ops::{CONDS, Cond, CondReg, Instr, KINDS, OPERS, Oper, Reg, Shape, Value};
use proptest::prelude::*;

pub fn any_oper() -> impl Strategy<Value = Oper> {
    (0..OPERS.len()).prop_map(|i| OPERS[i].0)
}

pub fn any_cond() -> impl Strategy<Value = (CondReg, Cond)> {
    (any::<bool>(), 0..CONDS.len()).prop_map(|(m, i)| (if m { CondReg::M } else { CondReg::R }, CONDS[i].0))
}

/// Immediates near the interesting edges, small numbers (jump targets near the program), or
/// anything.
pub fn any_imm() -> impl Strategy<Value = u16> {
    prop_oneof![
        4 => 0u16..48,
        1 => prop::sample::select(vec![15u16, 16, 31, 32, 33, 255, 256, 32767, 32768, 65534, 65535]),
        2 => any::<u16>(),
    ]
}

pub fn any_value() -> impl Strategy<Value = Value> {
    let reg = (0..4usize).prop_map(|i| Reg::ALL[i]);
    prop_oneof![
        any_imm().prop_map(Value::Imm),
        reg.clone().prop_map(Value::Reg),
        (reg, any_oper(), any_imm()).prop_map(|(r, o, i)| Value::RegOp(r, o, i)),
    ]
}

/// Any instruction the language allows, every shape with every field.
pub fn any_instr() -> impl Strategy<Value = Instr> {
    (
        0..KINDS.len(),
        proptest::option::of(any_oper()),
        any_cond(),
        any_value(),
        any::<bool>(),
    )
        .prop_map(|(k, modifier, cond, value, to_m)| {
            let kind = KINDS[k].op;
            let instr = match kind.shape() {
                Shape::Basic => Instr {
                    kind,
                    modifier,
                    cond: None,
                    value,
                },
                Shape::Cond => Instr {
                    kind,
                    modifier: None,
                    cond: Some(cond),
                    value,
                },
                Shape::Out => Instr {
                    kind,
                    modifier: None,
                    cond: None,
                    value,
                },
                Shape::Input => Instr {
                    value: Value::Reg(if to_m { Reg::M } else { Reg::R }),
                    ..Instr::bare(kind)
                },
                Shape::Bare => Instr::bare(kind),
            };
            assert_eq!(instr.check(), Ok(()));
            instr
        })
}
