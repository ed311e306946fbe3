//! Golden vectors: programs and the words the console's own encoder gives for them.

use polyasm_vu::{assemble_str, disassemble};

/// (source, words) pairs; sources as the reference assembler accepts them.
const GOLDEN: &[(&str, &[u32])] = &[
    // The runtime's default program (shf written with a swizzle instead of lane numbers).
    (
        "ld r0 0\nld r1 1\nld r2 2\nld r3 3\nshf r1 r1 xyxy 0b1111\nst pos r0\nst tex r1\nst col r2\nst ocol r3\nend",
        &[
            0x0000_0000,
            0x0000_0440,
            0x0000_0880,
            0x0000_0CC0,
            0x03D1_0457,
            0x0000_0001,
            0x0000_0441,
            0x0000_0881,
            0x0000_0CC1,
            0x0000_003F,
            0x0000_003F,
        ],
    ),
    // The example of the assembler's documentation: `end` appended.
    (
        "ld r0 0\nld r1 1\nld r2 2\nld r3 3\nldc r4 0\nldc r5 1\nldc r6 2\nldc r7 3\nmulm r0 r4\nst pos r0\nst tex r1\nst col r2\nst ocol r3",
        &[
            0x000, 0x440, 0x880, 0xCC0, 0x102, 0x542, 0x982, 0xDC2, 0x1018, 0x001, 0x441, 0x881, 0xCC1, 0x03F,
        ],
    ),
    // rgba letters mean xyzw; masks in any base.
    ("shf r1 r1 rgrg 15", &[0x03D1_0457, 0x3F]),
    ("shf r1 r1 xyxy 0xf", &[0x03D1_0457, 0x3F]),
    (
        "shf r0 r1 xyzw 0b0011",
        &[23 | 1 << 10 | 0b1110_0100 << 14 | 0b0011 << 22, 0x3F],
    ),
    ("atan2 r15 r14", &[22 | 15 << 6 | 14 << 10, 0x3F]),
    ("ldc r3 15", &[2 | 3 << 6 | 15 << 10, 0x3F]),
    ("st ocol r9", &[1 | 3 << 6 | 9 << 10, 0x3F]),
    ("", &[0x3F]),
    // Rust integer suffixes, which the reference assembler reads as part of its literals.
    ("ld r0 1u32\nshf r1 r1 xyxy 0b1111_u8", &[1 << 10, 0x03D1_0457, 0x3F]),
];

#[test]
fn golden_programs_assemble_to_the_console_words() {
    for (source, words) in GOLDEN {
        assert_eq!(assemble_str(source).unwrap(), *words, "{source:?}");
    }
}

#[test]
fn golden_words_disassemble_and_reassemble() {
    for (_, words) in GOLDEN {
        assert_eq!(assemble_str(&disassemble(words)).unwrap(), *words);
    }
}

#[test]
fn a_program_of_64_instructions_gets_no_end_and_65_is_an_error() {
    let full = "add r0 r1\n".repeat(64);
    assert_eq!(assemble_str(&full).unwrap().len(), 64);
    let too_long = "add r0 r1\n".repeat(65);
    let errors = assemble_str(&too_long).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "VU010");
    // It points at the 65th instruction: line 65.
    assert_eq!(errors[0].labels[0].span.start as usize, 64 * 10);
}
