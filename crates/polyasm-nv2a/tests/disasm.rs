//! Disassembler vectors: words (from nv2avsh, other compilers and game dumps) decode to
//! source that reassembles to an instruction with the same meaning as the words and as the
//! listed source. Words with another compiler's values in unused fields come back with
//! nv2avsh's values there; nv2avsh's own words come back bit for bit.

use polyasm_nv2a::decode::{Decoded, decode};
use polyasm_nv2a::print::write_decoded;
use polyasm_nv2a::{AssembleOptions, Operation, Slot, assemble_str};

const APPEND_FINAL: AssembleOptions = AssembleOptions {
    max_instructions: Some(136),
    explicit_final: true,
    names: None,
};

/// The first instruction `text` assembles to, FINAL left clear.
fn first_instruction(text: &str) -> [u32; 4] {
    let w = assemble_str(text, APPEND_FINAL).unwrap_or_else(|d| panic!("{text:?} failed: {d:#?}"));
    [w[0], w[1], w[2], w[3]]
}

/// Decodes one instruction as part of a program: FINAL set means it is the last one.
fn print_one(words: [u32; 4]) -> String {
    let is_final = words[3] & 1 == 1;
    let decoded = decode(Slot(words), 0, if is_final { 1 } else { 2 });
    assert!(matches!(decoded, Decoded::Operations(_)), "{words:08x?} stayed raw");
    let mut out = String::new();
    write_decoded(&mut out, &decoded);
    out
}

/// What an instruction does: its decoded operations, with the lanes a scalar ILU operation
/// ignores (all but x) set to x.
fn meaning(words: [u32; 4]) -> Vec<Operation> {
    let Decoded::Operations(mut operations) = decode(Slot([words[0], words[1], words[2], words[3] & !1]), 0, 2) else {
        panic!("{words:08x?} stayed raw");
    };
    for operation in &mut operations {
        if operation.op.info().scalar {
            operation.sources[0].swizzle = [operation.sources[0].swizzle[0]; 4];
        }
    }
    operations
}

/// The disassembly means what the words and the listed source mean. `exact`: the words are
/// nv2avsh's, so the listed source and the disassembly assemble to them bit for bit.
fn check(cases: &[(&str, [u32; 4], bool)]) {
    for &(source, words, exact) in cases {
        let printed = print_one(words);
        let reassembled = first_instruction(&printed);
        let listed = first_instruction(source);
        assert_eq!(meaning(reassembled), meaning(listed), "{source}: printed as {printed}");
        assert_eq!(meaning(reassembled), meaning(words), "{source}: printed as {printed}");
        if exact {
            let words = [words[0], words[1], words[2], words[3] & !1];
            assert_eq!(listed, words, "{source}");
            assert_eq!(reassembled, words, "{source}: printed as {printed}");
        }
    }
}

#[test]
fn nv2avsh_disassembler_tests() {
    check(&[
        (
            "MOV oT2.xyzw, v11",
            [0x00000000, 0x0020161B, 0x0836106C, 0x2070F858],
            true,
        ),
        (
            "MAD oPos.xyz, R12, R1.x, c[59]",
            [0x00000000, 0x0087601B, 0xC400286C, 0x3070E801],
            true,
        ),
        (
            "DP4 oPos.z, v0, c[100]",
            [0x00000000, 0x00EC801B, 0x0836186C, 0x20702800],
            true,
        ),
        (
            "MAD R0.z, R0.z, c[117].z, -c[117].w",
            [0x00000000, 0x008EA0AA, 0x05541FFC, 0x32000FF8],
            true,
        ),
        (
            "MAD R0.z, R0.z, c[117].z, -c[117].w",
            [0x00000000, 0x008EA0AA, 0x0554BFFD, 0x72000000],
            false,
        ),
        ("ARL A0, R0.x", [0x00000000, 0x01A00000, 0x0436106C, 0x20700FF8], true),
        (
            "ADD R0.xy, c[A0+121].zw, -c[A0+121].xy",
            [0x00000000, 0x006F20BF, 0x9C001456, 0x7C000002],
            false,
        ),
        (
            "RCP oFog.xyzw, v0.w",
            [0x00000000, 0x0400001B, 0x083613FC, 0x2070F82C],
            true,
        ),
        (
            "MUL oPos.xyz, R12.xyz, c[58].xyz",
            [0x00000000, 0x0047401A, 0xC434186C, 0x2070E800],
            true,
        ),
        (
            "MUL R2.xyzw, R1, c[0] + MOV oD1.xyzw, v4",
            [0x00000000, 0x0240081B, 0x1436186C, 0x2F20F824],
            true,
        ),
        (
            "MOV oD0.xyzw, v3 + RCP R1.w, R1.w",
            [0x00000000, 0x0420061B, 0x083613FC, 0x5011F818],
            true,
        ),
        (
            "DP4 oPos.x, R6, c[96] + RSQ R1.x, R2.x",
            [0x00000000, 0x08EC001B, 0x64361800, 0x90A88800],
            false,
        ),
        (
            "DP4 oPos.z, R6, c[98] + DP4 R0.x, R6, c[98]",
            [0x00000000, 0x00EC401B, 0x64365800, 0x28002800],
            false,
        ),
        (
            "MAD oPos.xyz, R12.xyz, R1.x, c[1].xyz + MAD R11.xy, R12.xyz, R1.x, c[1].xyz",
            [0x00000000, 0x0080201A, 0xC4002868, 0x3CB0E800],
            true,
        ),
        (
            "ADD oPos.xyz, R12, v4 + ADD R0.xyz, R12, v4",
            [0x00000000, 0x0060081B, 0xC436106C, 0x2E00E800],
            true,
        ),
        (
            "RCP oPos.x, R12.x + RCP R1.x, R12.x",
            [0x00000000, 0x0400001B, 0x08361003, 0x10188804],
            true,
        ),
        (
            "MOV R0.x, R12.x + RCP oPos.x, R12.x + RCP R1.x, R12.x",
            [0x00000000, 0x04200000, 0xC4361003, 0x18088804],
            true,
        ),
        (
            "DPH c[15].xy, v4, c[10]",
            [0x00000000, 0x00C1481B, 0x0836186C, 0x2070C078],
            true,
        ),
    ]);
}

#[test]
/// The last four read input C lane x only (RCP is scalar), as the CPU emulator parses them.
fn nv2a_vsh_cpu_disassembler_tests() {
    check(&[
        (
            "MOV oT2.xyzw, v11",
            [0x00000000, 0x0020161B, 0x0836106C, 0x2070F859],
            true,
        ),
        (
            "DP4 R11.y, R5, c[113] + MOV oT2.xyz, R2",
            [0, 49160219, 1412831340, 2494621788],
            false,
        ),
        ("rcp r3, r2.x", [0x00000000, 0x0400001b, 0x0836106c, 0x903f0ff8], false),
        ("rcp r4, r3.x", [0x00000000, 0x0400001b, 0x0836106c, 0xd04f0ff8], false),
        ("rcp r5, r11.x", [0x00000000, 0x0400001b, 0x0836106e, 0xd05f0ff8], false),
        ("rcp r6, r12.x", [0x00000000, 0x0400001b, 0x0836106f, 0x106f0ff8], false),
    ]);
}

/// Tokens from game dumps, built by Microsoft's compiler: other values in unused fields.
#[test]
fn game_tokens_decode_to_the_same_meaning() {
    check(&[
        (
            "MUL oPos.xyz, R12, c[160]",
            [0x00000000, 0x0054001B, 0xC436186C, 0x2070E800],
            false,
        ),
        (
            "MAD oPos.xyz, R12, R1.x, c[161]",
            [0x00000000, 0x0094201B, 0xC400286C, 0x3070E801],
            false,
        ),
        (
            "RCP R1.x, R0.w",
            [0x00000000, 0x0400001B, 0x08361300, 0x101807F8],
            false,
        ),
        (
            "MIN R0.xyzw, R0.x, c[108].wzyx",
            [0x00000000, 0x012D8000, 0x05C8186C, 0x2F0007F8],
            false,
        ),
        (
            "MAX oFog.xyzw, R0.wzyx, c[109].y",
            [0x00000000, 0x014DA0E4, 0x04AA186C, 0x2070F829],
            false,
        ),
        (
            "ARL A0, c[146].x",
            [0x00000000, 0x01B24000, 0x0C36106C, 0x20700FF8],
            false,
        ),
        (
            "MUL oPos.xyz, R12, c[58] + RCC R1.x, R12.w",
            [0x00000000, 0x0647401B, 0xC4361BFF, 0x1078E800],
            false,
        ),
        (
            "ADD oT0.xyzw, c[A0+104], v1",
            [0x00000000, 0x006D021B, 0x0C36106C, 0x2070F84A],
            false,
        ),
        (
            "MAD oPos.xyz, R12.xyz, R1.x, c[1].xyz + MAD R11.xy, R12.xyz, R1.x, c[1].xyz",
            [0x00000000, 0x0080201A, 0xC4002868, 0x7CB0E800],
            false,
        ),
    ]);
}

/// Two MOVs print as the assembler places them (the o/c MOV on the MAC unless the other writes a
/// temporary other than r1; one MOV when they read the same source), so the printed pair
/// assembles to words that print the same.
#[test]
fn paired_movs_print_as_they_reassemble() {
    for (words, printed) in [
        (
            [0x00000000, 0x022f081b, 0xf824186c, 0x2f201437],
            "mov c134.w, v4 + mov r2, v4",
        ),
        // MAC writes r1, ILU writes oD0 (a MOV on each unit, swapped).
        (
            [0x00000000, 0x0220001b, 0x08361000, 0x2f10f81d],
            "mov oD0, v0.x + mov r1, v0",
        ),
        // One source: o/c and r1 on the ILU, r5 on the MAC.
        (
            [0x00000000, 0x0220001b, 0x0836106c, 0x2e5ff81c],
            "mov oD0, v0 + mov r5.xyz, v0 + mov r1, v0",
        ),
    ] {
        assert_eq!(print_one(words), printed, "{words:08x?}");
        let again = assemble_str(printed, AssembleOptions::default()).unwrap();
        let again = print_one([again[0], again[1], again[2], again[3]]);
        assert_eq!(again, printed, "{words:08x?}");
    }
}

#[test]
fn programs_print_final_markers_and_misplaced_final_bits_as_words() {
    let words = assemble_str("mov oPos, v0\nmov oD0, v3\n", APPEND_FINAL).unwrap();
    let text = polyasm_nv2a::disassemble(&words).unwrap();
    assert_eq!(
        text,
        "mov oPos, v0\nmov oD0, v3\n.word 0x00000000, 0x00000000, 0x00000000, 0x00000001  // final marker (as --explicit-final appends)\n"
    );
    assert_eq!(assemble_str(&text, AssembleOptions::default()).unwrap(), words);
    // FINAL on the first of two instructions is not what the assembler writes: keep it raw.
    let mut early = assemble_str("mov oPos, v0\nmov oD0, v3\n", AssembleOptions::default()).unwrap();
    early[3] |= 1;
    early[7] &= !1;
    let text = polyasm_nv2a::disassemble(&early).unwrap();
    assert!(
        text.starts_with(".word 0x00000000, 0x0020001b, 0x0836106c, 0x2070f801\n.word"),
        "{text}"
    );
    assert_eq!(assemble_str(&text, AssembleOptions::default()).unwrap(), early);
}
