//! VU sources the reference assembler reads differently from how they look: upper-case number
//! prefixes and zero-padded registers are refused through the binary, with a help line, and
//! nothing is written.

mod common;
use common::*;

/// Assembles `source` as VU into a file that already holds `kept`, in the short error format;
/// returns the output and what the file holds afterwards.
fn assemble_over_existing(source: &str) -> (std::process::Output, Vec<u8>) {
    let dir = temp();
    let input = dir.path().join("prog.vu");
    let out = dir.path().join("prog.bin");
    std::fs::write(&input, source).unwrap();
    std::fs::write(&out, b"kept").unwrap();
    let output = run(&[path_str(&input), "-o", path_str(&out), "--error-format", "short"]);
    let left = std::fs::read(&out).unwrap();
    (output, left)
}

/// The human-readable diagnostics of `source` given as VU on standard input.
fn human_errors(source: &str) -> String {
    let output = run_with_stdin(&["-t", "vu", "-", "-f", "hex", "--color", "never"], source.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    stderr(&output)
}

#[test]
fn an_upper_case_hex_prefix_is_refused_with_the_lower_case_spelling() {
    let (output, left) = assemble_over_existing("ld r0 0\nshf r0 r1 xyzw 0X5\n");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(left, b"kept");
    let err = stderr(&output);
    assert!(
        err.contains("prog.vu:2:16: error[VU011]: invalid number `0X5`"),
        "{err}"
    );
    let err = human_errors("shf r0 r1 xyzw 0X5\n");
    assert!(err.contains("Help: write `0x5`; prefixes are lower case"), "{err}");
}

#[test]
fn upper_case_binary_and_octal_prefixes_are_refused_where_lower_case_ones_assemble() {
    for (upper, lower, word) in [("0B11", "0b11", 0x0000_0c00u32), ("0O7", "0o7", 0x0000_1c00)] {
        let (output, left) = assemble_over_existing(&format!("ld r0 {upper}\n"));
        assert_eq!(output.status.code(), Some(1), "{upper}: {}", stderr(&output));
        assert_eq!(left, b"kept");
        let err = human_errors(&format!("ld r0 {upper}\n"));
        assert!(err.contains(&format!("Help: write `{lower}`")), "{err}");
        // The lower-case spelling is the slot number it reads as: `ld r0 N` has N in bits 10-13.
        let output = run_with_stdin(&["-t", "vu", "-", "-f", "hex"], format!("ld r0 {lower}\n").as_bytes());
        assert!(output.status.success(), "{lower}: {}", stderr(&output));
        let first = stdout(&output)
            .lines()
            .next()
            .map(|l| u32::from_str_radix(l, 16).unwrap());
        assert_eq!(first, Some(word), "{lower}");
    }
}

#[test]
fn a_zero_padded_register_is_refused_with_its_plain_name() {
    let (output, left) = assemble_over_existing("add r01 r1\nmulm r0 r012\n");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(left, b"kept");
    let err = stderr(&output);
    assert!(
        err.contains("prog.vu:1:5: error[VU006]: register `r01` is written with a leading zero"),
        "{err}"
    );
    assert!(err.contains("prog.vu:2:9: error[VU006]: register `r012`"), "{err}");
    let err = human_errors("add r01 r1\n");
    assert!(err.contains("Help: write `r1`"), "{err}");
    // Operands of `st` in the wrong order: the fix spells the register plainly.
    let err = human_errors("st r01 pos\n");
    assert!(err.contains("Help: write `st pos r1`"), "{err}");
    // r0, r1 and r10 (a zero that is not a padding) still assemble.
    let output = run_with_stdin(&["-t", "vu", "-", "-f", "hex"], b"add r0 r1\nadd r10 r1\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "00000403\n00000683\n0000003f\n");
}

#[test]
fn a_stray_byte_is_pointed_at_as_in_every_dialect() {
    let dir = temp();
    let input = dir.path().join("stray.vu");
    std::fs::write(&input, b"ld r0 0\nst pos r0 // na\xefve\n").unwrap();
    let output = run(&[path_str(&input), "-f", "hex", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        format!("{0}:2:16: error[PA002]: {0} is not UTF-8 text\n", input.display())
    );
    let human = run(&[path_str(&input), "-f", "hex", "--color", "never"]);
    let err = stderr(&human);
    assert!(err.contains("byte 0xef (offset 23) is not UTF-8"), "{err}");
    assert!(!err.contains("disasm"), "{err}");
    // Words of a VU program, given to the assembler, are machine code: disasm is the way back.
    std::fs::write(&input, [0x3fu8, 0, 0, 0, 0xc0, 0xff, 0, 0]).unwrap();
    let err = stderr(&run(&[path_str(&input), "-f", "hex", "--color", "never"]));
    assert!(err.contains("use `polyasm disasm`"), "{err}");
}
