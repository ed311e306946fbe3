//! Properties: random valid instructions (single, paired, double-output, relative constants)
//! round-trip through the disassembler to the same words; arbitrary text and words never panic,
//! and whatever the disassembler prints assembles.

use polyasm_nv2a::encode::{Dest, DestReg, Operation, Source, SrcReg};
use polyasm_nv2a::ops::{CONSTANTS, InputSlot, OPS, OUTPUTS, Op};
use polyasm_nv2a::print::write_operation;
use polyasm_nv2a::{AssembleOptions, ExecOptions, Program, assemble_str, disassemble};
use proptest::prelude::*;

/// The registers one instruction may read: any temp, its one v index, its one c index.
#[derive(Clone, Copy, Debug)]
struct Shared {
    input: u8,
    constant: u8,
    relative: bool,
}

fn shared() -> impl Strategy<Value = Shared> {
    (0u8..16, 0..CONSTANTS as u8, any::<bool>()).prop_map(|(input, constant, relative)| Shared {
        input,
        constant,
        relative,
    })
}

fn source(shared: Shared, uniform_swizzle: bool) -> impl Strategy<Value = Source> {
    let reg = prop_oneof![
        (0u8..=12).prop_map(SrcReg::Temp),
        Just(SrcReg::Input(shared.input)),
        Just(SrcReg::Const {
            index: shared.constant,
            relative: shared.relative,
        }),
    ];
    let swizzle = if uniform_swizzle {
        (0u8..4).prop_map(|l| [l; 4]).boxed()
    } else {
        [0u8..4, 0u8..4, 0u8..4, 0u8..4].boxed()
    };
    (reg, swizzle, any::<bool>()).prop_map(|(reg, swizzle, negate)| Source { reg, swizzle, negate })
}

fn mask() -> impl Strategy<Value = u8> {
    1u8..16
}

fn out_reg() -> impl Strategy<Value = DestReg> {
    prop_oneof![
        prop::sample::select(OUTPUTS.iter().map(|o| o.address).collect::<Vec<_>>()).prop_map(DestReg::Output),
        (0..CONSTANTS as u8).prop_map(DestReg::Const),
    ]
}

fn temp_reg() -> impl Strategy<Value = DestReg> {
    (0u8..12).prop_map(DestReg::Temp)
}

fn ops_where(pred: fn(&polyasm_nv2a::ops::OpInfo) -> bool) -> Vec<Op> {
    OPS.iter().filter(|r| pred(r)).map(|r| r.op).collect()
}

/// An operation with `sources` as its inputs, writing `reg` with `mask`.
fn operation(op: Op, reg: DestReg, mask: u8, sources: [Source; 3]) -> Operation {
    let reg = if op == Op::Arl { DestReg::Address } else { reg };
    Operation {
        op,
        dest: Dest {
            reg,
            mask: if op == Op::Arl { 0xf } else { mask },
        },
        sources,
    }
}

/// The C input of a MAC operation as encoded (SUB negates it), if it reads one.
fn slot_c(op: Op, sources: &[Source; 3]) -> Option<Source> {
    let info = op.info();
    let index = info.mac_slots.iter().position(|&s| s == InputSlot::C)?;
    let mut c = sources[index];
    c.negate ^= info.negate_c;
    Some(c)
}

/// One instruction's operations, as source text will write them.
fn instruction() -> impl Strategy<Value = Vec<Operation>> {
    let any_op = prop::sample::select(ops_where(|_| true));
    let mac_only = prop::sample::select(ops_where(|r| r.ilu.is_none()));
    let ilu_only = prop::sample::select(ops_where(|r| r.mac.is_none()));
    let single = (shared(), any_op, prop_oneof![temp_reg(), out_reg()], mask()).prop_flat_map(|(s, op, reg, mask)| {
        let scalar = op.info().scalar;
        [source(s, scalar), source(s, scalar), source(s, scalar)]
            .prop_map(move |sources| vec![operation(op, reg, mask, sources)])
    });
    let double = (shared(), prop_oneof![mac_only.clone(), ilu_only.clone(), Just(Op::Mov)])
        .prop_filter("arl writes only a0", |(_, op)| *op != Op::Arl)
        .prop_flat_map(|(s, op)| {
            let scalar = op.info().scalar;
            (
                [source(s, scalar), source(s, scalar), source(s, scalar)],
                temp_reg(),
                mask(),
                out_reg(),
                mask(),
            )
                .prop_map(move |(sources, temp, temp_mask, out, out_mask)| {
                    vec![
                        operation(op, temp, temp_mask, sources),
                        operation(op, out, out_mask, sources),
                    ]
                })
        });
    // A MAC operation (or a MOV, which then runs on the MAC) with an ILU operation.
    let paired = (
        shared(),
        prop_oneof![mac_only, Just(Op::Mov)],
        ilu_only,
        any::<bool>(),
        mask(),
        mask(),
    )
        .prop_flat_map(|(s, mac, ilu, mac_writes_out, mac_mask, ilu_mask)| {
            let scalar = ilu.info().scalar;
            (
                [source(s, scalar), source(s, scalar), source(s, scalar)],
                source(s, scalar),
                prop_oneof![temp_reg(), out_reg()],
                out_reg(),
            )
                .prop_map(move |(mac_sources, ilu_source, mac_temp_or_out, out)| {
                    // One o/c port: the MAC writes a temp or an o/c register, the ILU the other.
                    let (mac_reg, ilu_reg) = match (mac_writes_out, mac_temp_or_out) {
                        (true, _) => (out, DestReg::Temp(1)),
                        (false, DestReg::Temp(r)) => (DestReg::Temp(r), out),
                        (false, other) => (other, DestReg::Temp(1)),
                    };
                    let ilu_source = slot_c(mac, &mac_sources).unwrap_or(ilu_source);
                    vec![
                        operation(mac, mac_reg, mac_mask, mac_sources),
                        operation(ilu, ilu_reg, ilu_mask, [ilu_source; 3]),
                    ]
                })
        });
    prop_oneof![single, double, paired]
}

fn print(instructions: &[Vec<Operation>]) -> String {
    let mut text = String::new();
    for operations in instructions {
        for (i, operation) in operations.iter().enumerate() {
            if i > 0 {
                text.push_str(" + ");
            }
            write_operation(&mut text, operation);
        }
        text.push('\n');
    }
    text
}

fn unlimited() -> AssembleOptions {
    AssembleOptions {
        max_instructions: None,
        ..AssembleOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_instructions_round_trip(instructions in prop::collection::vec(instruction(), 1..20)) {
        let text = print(&instructions);
        let words = assemble_str(&text, unlimited())
            .unwrap_or_else(|d| panic!("generated source must assemble cleanly:\n{text}{d:#?}"));
        let disassembled = disassemble(&words).expect("whole instructions");
        let again = assemble_str(&disassembled, unlimited())
            .unwrap_or_else(|d| panic!("disassembly must assemble:\n{disassembled}{d:#?}"));
        prop_assert_eq!(again, words, "source:\n{}disassembly:\n{}", text, disassembled);
    }

    #[test]
    fn arbitrary_words_disassemble_to_source_that_assembles(
        words in prop::collection::vec((any::<u32>(), 0u32..0x1000_0000, any::<u32>(), any::<u32>(), 0u8..8), 0..12),
        partial in 0usize..4,
    ) {
        // Mostly well-formed slots (d0 = 0, d1's top nibble 0), sometimes raw noise in d0.
        let mut flat: Vec<u32> = words
            .iter()
            .flat_map(|&(d0, d1, d2, d3, noise)| [if noise == 0 { d0 } else { 0 }, d1, d2, d3])
            .collect();
        let Ok(text) = disassemble(&flat) else { unreachable!("whole instructions") };
        let once = assemble_str(&text, unlimited())
            .unwrap_or_else(|d| panic!("disassembly must assemble:\n{text}{d:#?}"));
        let twice = assemble_str(&disassemble(&once).expect("whole instructions"), unlimited())
            .expect("canonical source assembles");
        prop_assert_eq!(twice, once);
        flat.extend(std::iter::repeat_n(7, partial));
        prop_assert_eq!(disassemble(&flat).is_err(), partial != 0);
        if let Ok(program) = Program::new(&flat) {
            let mut constants = [[1.5; 4]; 192];
            let _ = program.run(&[[0.5; 4]; 16], &mut constants, ExecOptions { arl_bias: true });
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[ -~\\n\\t#%\\[\\]+,.;/*é-]{0,200}") {
        let _ = assemble_str(&text, AssembleOptions::default());
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(vec![
        "mov", "MAD", "rcp", "arl", "%matmul4x4", "%norm3", "#m", "#v", "matrix4", "vector", "r0", "r1", "r12",
        "R13", "v0", "v1", "iPos", "c5", "c", "c191", "c192", "a0", "A0", "oPos", "oD0", "oFog", ".xyz", ".w",
        ".xyzwx", ".word", "[", "]", "+", "-", ",", "0", "1", "95", "0x1f", "\n", "/*", "*/", "//", ";",
    ]), 0..60)) {
        let _ = assemble_str(&tokens.join(" "), AssembleOptions::default());
    }
}
