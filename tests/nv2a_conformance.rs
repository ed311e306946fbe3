//! nv2a through the binary: forms nv2avsh assembles (mixed `xyzw`/`rgba` letters, a mask on
//! a0, `#m[0]` in `%matmul4x4`) give its words with a warning where they mislead; a paired MAC
//! write to r1 is warned about; and a source that is not UTF-8 is pointed at by line and column.

mod common;
use common::*;

/// Assembles nv2a `source` from standard input to hex words, in the short error format.
fn hex(source: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["-t", "nv2a", "-", "-f", "hex", "--error-format", "short"];
    args.extend_from_slice(extra);
    run_with_stdin(&args, source.as_bytes())
}

fn words(output: &std::process::Output) -> Vec<u32> {
    stdout(output)
        .lines()
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect()
}

#[test]
fn a_mask_mixing_xyzw_and_rgba_gives_nv2avshs_words_with_a_warning() {
    let output = hex("MOV r6.xyA, r0\n", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The mask is x|y|w (0b1101 in the MAC mask field, bits 24-27 of d3).
    assert_eq!(words(&output), [0x00000000, 0x0020001B, 0x0436106C, 0x2D600FF9]);
    assert_eq!(words(&output), words(&hex("mov r6.xyw, r0\n", &[])));
    assert_eq!(
        stderr(&output),
        "<stdin>:1:7: warning[NV2A030]: mask `.xyA` mixes `xyzw` and `rgba` letters\n"
    );
    // The fix is in the help line; `-W error` refuses the mix and writes nothing.
    let human = run_with_stdin(
        &["-t", "nv2a", "-", "-f", "hex", "--color", "never"],
        b"mov oT0.xy, v0.bw\n",
    );
    assert!(stderr(&human).contains("Help: write `.zw`"), "{}", stderr(&human));
    let strict = hex("MOV r6.xyA, r0\n", &["-W", "error"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(strict.stdout.is_empty());
}

#[test]
fn a_mask_on_a0_is_ignored_as_nv2avsh_ignores_it() {
    let output = hex("ARL A0.w, r2\n", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(words(&output), words(&hex("arl a0, r2\n", &[])));
    assert_eq!(words(&output), [0x00000000, 0x01A0001B, 0x2436106C, 0x20700FF9]);
    assert!(
        stderr(&output).contains("<stdin>:1:7: warning[NV2A031]: a0 has only an x lane; the mask `.w` is ignored"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_explicit_row_0_in_matmul4x4_is_the_whole_matrix() {
    let whole = hex("#m matrix4 14\n%matmul4x4 r0 iPos #m\n", &[]);
    let row0 = hex("#m matrix4 14\n%matmul4x4 r0 iPos #m[0]\n", &[]);
    assert_eq!(row0.status.code(), Some(0), "{}", stderr(&row0));
    assert!(stderr(&row0).is_empty(), "{}", stderr(&row0));
    assert_eq!(words(&row0), words(&whole));
    // Four dp4s reading c14 to c17 (the Const field, d1 bits 13-20).
    let consts: Vec<u32> = words(&row0).chunks(4).map(|w| (w[1] >> 13) & 0xff).collect();
    assert_eq!(consts, [14, 15, 16, 17]);
    let row1 = hex("#m matrix4 14\n%matmul4x4 r0 iPos #m[1]\n", &[]);
    assert_eq!(row1.status.code(), Some(1));
    assert!(stderr(&row1).contains("error[NV2A025]"), "{}", stderr(&row1));
}

#[test]
fn a_pair_whose_mac_and_ilu_both_write_r1_is_warned_about() {
    let output = hex("mul r1, v0, c0 + rcp r1.x, v0.x\n", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "<stdin>:1:5: warning[NV2A032]: the MAC and the ILU both write r1\n"
    );
    let human = run_with_stdin(
        &["-t", "nv2a", "-", "-f", "hex", "--color", "never"],
        b"mul r1, v0, c0 + rcp r1.x, v0.x\n",
    );
    assert!(
        stderr(&human).contains("xemu drops the MAC's write to r1"),
        "{}",
        stderr(&human)
    );
    // The words are what was written: OUT_R 1 (d3 bits 20-23), MAC mask xyzw, ILU mask x.
    let d3 = words(&output)[3];
    assert_eq!(((d3 >> 20) & 0xf, (d3 >> 24) & 0xf, (d3 >> 16) & 0xf), (1, 0xf, 0x8));
    // The MAC writing another temporary is no such case.
    let other = hex("mul r2, v0, c0 + rcp r1.x, v0.x\n", &[]);
    assert!(stderr(&other).is_empty(), "{}", stderr(&other));
}

#[test]
fn a_stray_byte_in_a_comment_is_pointed_at_without_suggesting_disasm() {
    let dir = temp();
    let input = dir.path().join("stray.vsh");
    let out = dir.path().join("stray.bin");
    std::fs::write(&input, b"mov oPos, v0\n// caf\xe9 au lait\nmov oD0, v3\n").unwrap();
    std::fs::write(&out, b"kept").unwrap();
    let output = run(&[path_str(&input), "-o", path_str(&out), "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"kept");
    let err = stderr(&output);
    assert_eq!(
        err,
        format!("{0}:2:7: error[PA002]: {0} is not UTF-8 text\n", input.display()),
    );
    let human = run(&[path_str(&input), "-f", "hex", "--color", "never"]);
    let err = stderr(&human);
    assert!(err.contains("byte 0xe9 (offset 19) is not UTF-8"), "{err}");
    assert!(err.contains("save the file as UTF-8"), "{err}");
    assert!(!err.contains("disasm"), "{err}");
}

#[test]
fn machine_code_given_to_the_assembler_gets_the_disasm_help() {
    let dir = temp();
    let input = dir.path().join("words.vsh");
    let bytes: Vec<u8> = [0x00000000u32, 0x0020001B, 0x0436106C, 0x2D600FF9]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    std::fs::write(&input, &bytes).unwrap();
    let output = run(&[path_str(&input), "-f", "hex", "--color", "never"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("error[PA002]"), "{err}");
    assert!(err.contains("words.vsh:1:"), "{err}");
    assert!(err.contains("use `polyasm disasm`"), "{err}");
}
