//! The lima target through the built binary: Mesa's text assembled (with `--syntax mesa` and
//! with its `@N: ` prefix detected), every output format, MBS1 out and back in, disassembly
//! printing Mesa's text byte for byte, warnings for bits the text cannot show, errors and exit
//! codes, and output files left alone on errors.

use std::path::{Path, PathBuf};

mod common;
use common::*;

/// Mesa's clear program: its text as Mesa's standalone disassembler prints it, and its words.
const CLEAR_TEXT: &str = "@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop\n";
const CLEAR_WORDS: [u32; 5] = [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5];

/// Mesa's tile-reload program.
const RELOAD_TEXT: &str = "@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n";
const RELOAD_WORDS: [u32; 6] = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];

/// A program over several lines with a branch (cross-check vector E).
const BRANCH_TEXT: &str = "@     0: branch.lt $0.x $1.y 4\n@     4: mov.s0 $0.x $1.x, stop\n@     6: discard, stop\n";
const BRANCH_WORDS: [u32; 10] = [
    0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003, 0x00000000,
    0x00000000,
];

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn hex_lines(words: &[u32]) -> String {
    words.iter().map(|w| format!("{w:08x}\n")).collect()
}

/// The text without the `@N: ` prefixes.
fn bare(text: &str) -> String {
    text.lines().map(|l| format!("{}\n", &l[9..])).collect()
}

fn ok(args: &[&str]) -> std::process::Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

#[test]
fn mesas_programs_assemble_to_their_words_with_the_prefix_detected() {
    let dir = temp();
    for (name, text, words) in [
        ("clear", CLEAR_TEXT, &CLEAR_WORDS[..]),
        ("reload", RELOAD_TEXT, &RELOAD_WORDS[..]),
        ("branch", BRANCH_TEXT, &BRANCH_WORDS[..]),
    ] {
        let source = write(dir.path(), &format!("{name}.pp"), text.as_bytes());
        let out = dir.path().join(format!("{name}.bin"));
        ok(&[path_str(&source), "-o", path_str(&out)]);
        assert_eq!(std::fs::read(&out).unwrap(), le_bytes(words), "{name}");
        // From standard input, by the target's name and its aliases.
        for target in ["lima", "mali400", "pp"] {
            let out = run_with_stdin(&["-t", target, "-", "-f", "hex"], text.as_bytes());
            assert!(out.status.success(), "{}", stderr(&out));
            assert_eq!(stdout(&out), hex_lines(words), "{name} -t {target}");
        }
    }
}

#[test]
fn mesas_text_without_the_prefix_needs_syntax_mesa() {
    for (text, words) in [
        (CLEAR_TEXT, &CLEAR_WORDS[..]),
        (RELOAD_TEXT, &RELOAD_WORDS[..]),
        (BRANCH_TEXT, &BRANCH_WORDS[..]),
    ] {
        let text = bare(text);
        let out = run_with_stdin(&["-t", "lima", "--syntax", "mesa", "-", "-f", "hex"], text.as_bytes());
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), hex_lines(words));
        // Without the option, bare lines are the proposed syntax, in which Mesa's lines are
        // errors.
        let out = run_with_stdin(
            &["-t", "lima", "-", "-f", "hex", "--error-format", "short"],
            text.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("error[PP0"), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // `--syntax mesa` reads prefixed lines too.
    let out = run_with_stdin(
        &["-t", "lima", "--syntax", "mesa", "-", "-f", "hex"],
        RELOAD_TEXT.as_bytes(),
    );
    assert_eq!(stdout(&out), hex_lines(&RELOAD_WORDS));
}

#[test]
fn disasm_syntax_mesa_prints_mesas_lines_byte_for_byte() {
    let dir = temp();
    for (name, text, words) in [
        ("clear", CLEAR_TEXT, &CLEAR_WORDS[..]),
        ("reload", RELOAD_TEXT, &RELOAD_WORDS[..]),
        ("branch", BRANCH_TEXT, &BRANCH_WORDS[..]),
    ] {
        let bin = write(dir.path(), &format!("{name}.bin"), &le_bytes(words));
        let out = ok(&["disasm", "-t", "lima", "--syntax", "mesa", path_str(&bin)]);
        assert_eq!(out.stdout, text.as_bytes(), "{name}");
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        // Hex words on standard input read the same.
        let out = run_with_stdin(
            &["disasm", "-t", "lima", "--syntax", "mesa"],
            hex_lines(words).as_bytes(),
        );
        assert_eq!(stdout(&out), text, "{name} from hex");
    }
    // A lone one-source vector op ends its line with a space, as Mesa prints it.
    let words = run_with_stdin(&["-t", "lima", "--syntax", "mesa", "-", "-o", "-"], b"mov.v0 $0 $1\n").stdout;
    let out = run_with_stdin(
        &["disasm", "-t", "lima", "--syntax", "mesa", "--input-format", "bin"],
        &words,
    );
    assert_eq!(stdout(&out), "@     0: mov.v0 $0 $1 \n");
}

#[test]
fn disassembly_reassembles_to_the_same_words() {
    let dir = temp();
    let bin = write(dir.path(), "branch.bin", &le_bytes(&BRANCH_WORDS));
    // The default syntax and Mesa's both read back.
    for args in [
        &["disasm", "-t", "lima"][..],
        &["disasm", "-t", "lima", "--syntax", "mesa"],
    ] {
        let text = ok(&[args, &[path_str(&bin)]].concat()).stdout;
        let again = run_with_stdin(&["-t", "lima", "-", "-o", "-"], &text);
        assert!(again.status.success(), "{}", stderr(&again));
        assert_eq!(again.stdout, le_bytes(&BRANCH_WORDS));
    }
}

#[test]
fn load_sources_1_and_2_and_store_alignment_3_print_as_mesa_and_reassemble() {
    // Words worked out by hand from the field layouts (docs/lima.md): load source 1, vec4
    // index 5; a store of $1 with alignment 3 to index 9 (2.y); then load source 2 and a
    // store of $2 with alignment 3 to 7.w plus $0.x.
    const TEXT: &str = "@     0: load..u1 5, store.t 2.y $1\n@     4: load..u2 3.zw, store.t 7.w+$0.x $2, stop\n";
    const WORDS: [u32; 8] = [
        0x02208204, 0x0a000801, 0x00188600, 0x00000024, 0x00008224, 0x0e000402, 0x00190600, 0x0000007e,
    ];
    let dir = temp();
    let bin = write(dir.path(), "rare.bin", &le_bytes(&WORDS));
    // Mesa's text, byte for byte, with no warning: the text shows every bit.
    let out = ok(&["disasm", "-t", "lima", "--syntax", "mesa", path_str(&bin)]);
    assert_eq!(stdout(&out), TEXT);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let again = run_with_stdin(&["-t", "lima", "-", "-o", "-"], TEXT.as_bytes());
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(again.stdout, le_bytes(&WORDS));
    assert!(again.stderr.is_empty(), "{}", stderr(&again));
    // The proposed syntax reads back to the same words, with a warning for each form.
    let out = ok(&["disasm", "-t", "lima", path_str(&bin)]);
    let text = stdout(&out);
    assert_eq!(
        text,
        "load.u1 5, store.t 2.y $1\nstop, load.u2 3.zw, store.t 7.w+$0.x $2\n"
    );
    let again = run_with_stdin(
        &["-t", "lima", "-", "-o", "-", "--error-format", "short"],
        text.as_bytes(),
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(again.stdout, le_bytes(&WORDS));
    let warnings = stderr(&again);
    assert_eq!(warnings.matches("warning[PP027]").count(), 4, "{warnings}");
    assert!(
        warnings.contains("<stdin>:1:1: warning[PP027]: `load.u1` is load source 1"),
        "{warnings}"
    );
}

#[test]
fn a_constant_with_two_signs_is_an_error_that_quotes_it_as_written() {
    let dir = temp();
    let source = write(
        dir.path(),
        "signs.pp",
        b"stop, mov.v0 $0 ^const0, const0 --1 -+1 --0x3c00 -0x3c00\n",
    );
    let out_path = dir.path().join("signs.bin");
    let out = run(&[path_str(&source), "-o", path_str(&out_path), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let name = path_str(&source);
    assert_eq!(
        stderr(&out)
            .lines()
            .filter(|l| l.contains("error["))
            .collect::<Vec<_>>(),
        [
            format!("{name}:1:33: error[PP001]: `--1` has two signs"),
            format!("{name}:1:37: error[PP001]: `-+1` has two signs"),
            format!("{name}:1:41: error[PP001]: `--0x3c00` has two signs"),
            format!("{name}:1:50: error[PP011]: `-0x3c00` is not a valid number"),
        ]
    );
    assert!(!out_path.exists());
    // The human format gives the fix.
    let out = run(&[name, "-o", path_str(&out_path), "--color", "never"]);
    let text = stderr(&out);
    for help in [
        "write `1`",
        "write `-1`",
        "write `0x3c00`",
        "the sign is bit 15: write `0xbc00`",
    ] {
        assert!(text.contains(help), "{help}: {text}");
    }
    // Mesa's text never prints two signs either.
    let out = run_with_stdin(
        &["-t", "lima", "--syntax", "mesa", "-", "-f", "hex", "--color", "never"],
        b"mov.v0 $0 ^const0 , const0 -+1.000000 0.000000 0.000000 0.000000, stop\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(
        text.contains("error[PP105]: `-+1.000000` is not a binary16 constant"),
        "{text}"
    );
    assert!(text.contains("a number takes one sign: write `-1.000000`"), "{text}");
}

#[test]
fn a_malformed_index_or_target_in_mesas_text_is_quoted_as_written() {
    for (line, column, found) in [
        (
            "load.u --5, stop",
            8,
            "expected an index such as `3`, `1.xy` or `2.w`, found `--5`",
        ),
        (
            "load.u -+5, stop",
            8,
            "expected an index such as `3`, `1.xy` or `2.w`, found `-+5`",
        ),
        (
            "load..u1 +5, stop",
            10,
            "expected an index such as `3`, `1.xy` or `2.w`, found `+5`",
        ),
        (
            "load.u -, stop",
            8,
            "expected an index such as `3`, `1.xy` or `2.w`, found `-`",
        ),
        (
            "store.t --2.y $1, stop",
            9,
            "expected an index such as `3`, `1.xy` or `2.w`, found `--2.y`",
        ),
        (
            "store.t -+2.y $1, stop",
            9,
            "expected an index such as `3`, `1.xy` or `2.w`, found `-+2.y`",
        ),
        (
            "branch.lt $0.x $1.y --4",
            21,
            "expected a target word offset, found `--4`",
        ),
        (
            "branch.lt $0.x $1.y -+4",
            21,
            "expected a target word offset, found `-+4`",
        ),
        ("branch.lt $0.x $1.y -", 21, "expected a target word offset, found `-`"),
    ] {
        let out = run_with_stdin(
            &[
                "-t",
                "lima",
                "--syntax",
                "mesa",
                "-",
                "-f",
                "hex",
                "--error-format",
                "short",
            ],
            format!("{line}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{line}");
        assert_eq!(
            stderr(&out).lines().next(),
            Some(format!("<stdin>:1:{column}: error[PP102]: {found}").as_str()),
            "{line}"
        );
    }
}

#[test]
fn a_constant_in_mesas_text_with_two_signs_of_any_kind_gets_the_one_sign_fix() {
    for (constant, fix) in [("++1.0", "1.0"), ("+-1.0", "-1.0"), ("-+1.0", "-1.0"), ("--1.0", "1.0")] {
        let out = run_with_stdin(
            &["-t", "lima", "--syntax", "mesa", "-", "-f", "hex", "--color", "never"],
            format!("mov.v0 $0 ^const0 , const0 {constant} 0.0 0.0 0.0, stop\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{constant}");
        let text = stderr(&out);
        assert!(
            text.contains(&format!("error[PP105]: `{constant}` is not a binary16 constant")),
            "{text}"
        );
        assert!(text.contains("two signs"), "{constant}: {text}");
        assert!(
            text.contains(&format!("a number takes one sign: write `{fix}`")),
            "{constant}: {text}"
        );
    }
}

#[test]
fn a_constant_starting_with_a_plus_and_another_sign_is_two_signs_too() {
    let out = run_with_stdin(
        &["-t", "lima", "-", "-f", "hex", "--error-format", "short"],
        b"stop, mov.v0 $0 ^const0, const0 +-1 ++1 +1 0\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).lines().collect::<Vec<_>>(),
        [
            "<stdin>:1:33: error[PP001]: `+-1` has two signs",
            "<stdin>:1:37: error[PP001]: `++1` has two signs",
        ]
    );
    let out = run_with_stdin(
        &["-t", "lima", "-", "-f", "hex", "--color", "never"],
        b"stop, mov.v0 $0 ^const0, const0 +-1 ++1 +1 0\n",
    );
    let text = stderr(&out);
    assert!(text.contains("a number takes one sign: write `-1`"), "{text}");
    assert!(text.contains("a number takes one sign: write `1`"), "{text}");
}

#[test]
fn every_output_format() {
    let dir = temp();
    let source = write(dir.path(), "reload.pp", RELOAD_TEXT.as_bytes());
    let source = path_str(&source);
    assert_eq!(ok(&[source, "-o", "-"]).stdout, le_bytes(&RELOAD_WORDS));
    assert_eq!(stdout(&ok(&[source, "-f", "hex"])), hex_lines(&RELOAD_WORDS));
    let c = stdout(&ok(&[source, "-f", "c"]));
    assert!(c.contains("uint32_t reload[6]") || c.contains("reload[6]"), "{c}");
    assert!(c.contains("0x000005e6, 0xf1003c20, 0x00000000, 0x39001000,"), "{c}");
    let rust = stdout(&ok(&[source, "-f", "rust", "--name", "RELOAD"]));
    assert!(rust.contains("RELOAD: [u32; 6]"), "{rust}");
    assert!(rust.contains("0x00000e4e, 0x000007cf,"), "{rust}");
    let listing = stdout(&ok(&[source, "-f", "listing"]));
    assert!(listing.contains("(target lima)"), "{listing}");
    assert!(
        listing
            .contains("0000    000005e6 f1003c20 00000000 39001000 00000e4e 000007cf     1  @     0: load.v $1 0.xy"),
        "{listing}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&ok(&[source, "-f", "json"]))).unwrap();
    assert_eq!(json["target"], "lima");
    let words: Vec<u64> = json["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();
    assert_eq!(words, RELOAD_WORDS.map(u64::from));
    assert_eq!(json["listing"].as_array().unwrap().len(), 1);
    // The format follows the output's extension, and mbs is binary: not for a terminal, but
    // fine in a pipe.
    let mbs = ok(&[source, "-f", "mbs", "-o", "-"]).stdout;
    assert_eq!(&mbs[..4], b"MBS1");
    assert!(
        stdout(&ok(&["targets"]))
            .lines()
            .any(|l| l.starts_with("lima") && l.contains("mbs"))
    );
}

#[test]
fn the_listing_shows_each_instruction_at_its_word_offset() {
    let out = run_with_stdin(&["-t", "lima", "-", "-f", "listing"], BRANCH_TEXT.as_bytes());
    let listing = stdout(&out);
    let rows: Vec<&str> = listing.lines().skip(2).collect();
    assert_eq!(rows.len(), 3, "{listing}");
    assert!(
        rows[0].starts_with("0000    02110004 00040050 00000800 00000020"),
        "{listing}"
    );
    assert!(rows[1].starts_with("0004    02200822 3e400004"), "{listing}");
    assert!(
        rows[2].starts_with("0006    00010024 007f0003 00000000 00000000"),
        "{listing}"
    );
}

#[test]
fn mbs1_files_go_out_and_come_back_in() {
    let dir = temp();
    let source = write(dir.path(), "branch.pp", BRANCH_TEXT.as_bytes());
    let mbs = dir.path().join("branch.mbs");
    ok(&[path_str(&source), "-o", path_str(&mbs)]);
    let bytes = std::fs::read(&mbs).unwrap();
    assert_eq!(&bytes[..4], b"MBS1");
    assert_eq!(&bytes[8..12], b"CFRA");
    assert_eq!(&bytes[16..20], &7u32.to_le_bytes(), "Mali-400");
    // FDIS: the program has a discard.
    assert_eq!(&bytes[36..48], b"FDIS\x04\x00\x00\x00\x01\x00\x00\x00");
    assert_eq!(&bytes[92..96], b"DBIN");
    assert_eq!(&bytes[100..], le_bytes(&BRANCH_WORDS));
    // Back in: the extension selects the target, the magic the container.
    let out = ok(&["disasm", "--syntax", "mesa", path_str(&mbs)]);
    assert_eq!(stdout(&out), BRANCH_TEXT);
    let out = run_with_stdin(&["disasm", "-t", "lima", "--syntax", "mesa"], &bytes);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), BRANCH_TEXT);
}

#[test]
fn broken_words_and_containers_are_errors_with_their_offsets() {
    let dir = temp();
    // Mesa's clear program is followed by zero padding in Mesa's table: a length of 0.
    let mut padded = CLEAR_WORDS.to_vec();
    padded.extend([0, 0, 0]);
    let bin = write(dir.path(), "padded.bin", &le_bytes(&padded));
    let out = run(&["disasm", "-t", "lima", path_str(&bin), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[PP200]") && err.contains("word 5"), "{err}");
    assert!(err.contains("at byte 20 of the input"), "{err}");
    assert!(out.stdout.is_empty());
    // Cut short: the instruction runs past the end.
    let cut = write(dir.path(), "cut.bin", &le_bytes(&RELOAD_WORDS[..5]));
    let err = stderr(&run(&[
        "disasm",
        "-t",
        "lima",
        path_str(&cut),
        "--error-format",
        "short",
    ]));
    assert!(err.contains("error[PP201]") && err.contains("at byte 0"), "{err}");
    // An MBS1 file whose chunk runs past the end, and one with a vertex shader.
    let mbs = run_with_stdin(&["-t", "lima", "-", "-f", "mbs", "-o", "-"], RELOAD_TEXT.as_bytes()).stdout;
    let truncated = write(dir.path(), "cut.mbs", &mbs[..mbs.len() - 4]);
    let out = run(&["disasm", path_str(&truncated), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error[PP211]") && stderr(&out).contains("byte 0"),
        "{}",
        stderr(&out)
    );
    let mut vertex = mbs.clone();
    vertex[8..12].copy_from_slice(b"CVER");
    let vertex = write(dir.path(), "vertex.mbs", &vertex);
    let err = stderr(&run(&["disasm", path_str(&vertex), "--error-format", "short"]));
    assert!(err.contains("error[PP212]") && err.contains("byte 8"), "{err}");
    // Bad words inside a good container.
    let mut bad = mbs.clone();
    bad[100..104].copy_from_slice(&0u32.to_le_bytes());
    let bad = write(dir.path(), "bad.mbs", &bad);
    let err = stderr(&run(&["disasm", path_str(&bad), "--error-format", "short"]));
    assert!(err.contains("error[PP200]") && err.contains("`DBIN` chunk"), "{err}");
}

#[test]
fn bits_the_text_cannot_show_give_warnings_with_the_word_offset() {
    // Cross-check vector L: the unused second source of mov.v0 holds 0xE4; the decoder
    // reports it, and the disassembly says reassembling changes the word.
    let l = [0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf];
    let mut words = RELOAD_WORDS.to_vec();
    words[0] |= 0x0c << 19 | 1 << 25;
    words.extend(l);
    let out = run_with_stdin(
        &["disasm", "-t", "lima", "--syntax", "mesa", "--error-format", "short"],
        hex_lines(&words).as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("warning[PP204]") && err.contains("word 6: vec4_mul bits 14..27 (arg1)"),
        "{err}"
    );
    assert!(stdout(&out).contains("@     6: load.v ^discard.xy 0.xy, texld.b bias000 2 $1.x"));
    // The sampler's explicit-LOD bit (17) is in the model but not in Mesa's text.
    let mut lod = RELOAD_WORDS;
    lod[2] |= 1 << 19;
    let out = run_with_stdin(
        &["disasm", "-t", "lima", "--syntax", "mesa", "--error-format", "short"],
        hex_lines(&lod).as_bytes(),
    );
    assert!(out.status.success());
    assert!(
        stderr(&out)
            .contains("warning[PP120]: <stdin>: word 0: Mesa's text does not show every bit of the sampler field"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), RELOAD_TEXT);
    // `-W error` makes it an error, and nothing is written.
    let out = run_with_stdin(
        &["disasm", "-t", "lima", "--syntax", "mesa", "-W", "error"],
        hex_lines(&lod).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    // A branch to a word where no instruction starts.
    let mut stray = BRANCH_WORDS;
    stray[2] = (stray[2] & !(0x7f_ffff << 9)) | 3 << 9;
    let out = run_with_stdin(
        &["disasm", "-t", "lima", "--syntax", "mesa", "--error-format", "short"],
        hex_lines(&stray).as_bytes(),
    );
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("warning[PP121]: <stdin>: word 0: the branch goes to word 3"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn errors_in_mesas_text_point_at_the_line_and_column() {
    let dir = temp();
    let text = "@     0: mov.s0 $0.x $1.x\n@     3: mov.s0 $0.x $1.x, stop\n";
    let source = write(dir.path(), "bad.pp", text.as_bytes());
    let out = run(&[path_str(&source), "-f", "hex", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:2:1: error[PP106]: the line says it is at word 3",
            path_str(&source)
        )),
        "{err}"
    );
    // Human diagnostics carry the help.
    let out = run_with_stdin(
        &["-t", "lima", "--syntax", "mesa", "-"],
        b"mov.v0 $0 $1 , load.v $1 0\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[PP101]") && err.contains("`load.v $1 0, mov.v0 $0 $1`"),
        "{err}"
    );
    let out = run_with_stdin(
        &["-t", "lima", "--syntax", "mesa", "-", "--error-format", "short"],
        b"mull.v0 $0 $1 $2\nbranch 7\n",
    );
    let err = stderr(&out);
    assert!(
        err.contains("<stdin>:1:1: error[PP100]: unknown operation `mull.v0`"),
        "{err}"
    );
    // The line with the unknown op hides no other line's errors, but branches wait for a
    // program without errors.
    assert!(!err.contains("PP107"), "{err}");
    for code in ["PP001", "PP100", "PP106", "PP107", "PP120", "PP204"] {
        let out = ok(&["explain", code]);
        assert!(stdout(&out).starts_with(&format!("{code}: ")), "{code}");
    }
}

#[test]
fn bad_option_values_and_foreign_options_are_usage_errors() {
    let out = run_with_stdin(&["-t", "lima", "--syntax", "intel", "-"], RELOAD_TEXT.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value `intel` for `--syntax`"),
        "{}",
        stderr(&out)
    );
    let out = run_with_stdin(&["disasm", "-t", "lima", "--syntax", "att"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run_with_stdin(&["-t", "vu", "--syntax", "mesa", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("target vu does not take `--syntax`"),
        "{}",
        stderr(&out)
    );
    let out = run_with_stdin(&["disasm", "-t", "nv2a", "--syntax", "mesa"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn output_files_are_untouched_on_errors() {
    let dir = temp();
    let out_file = write(dir.path(), "keep.bin", b"previous");
    let bad = write(dir.path(), "bad.pp", b"@     0: load.v $1 64, stop\n");
    let out = run(&[path_str(&bad), "-o", path_str(&out_file)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&out_file).unwrap(), b"previous");
    let mbs_out = write(dir.path(), "keep.mbs", b"previous");
    let out = run(&[path_str(&bad), "-o", path_str(&mbs_out)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&mbs_out).unwrap(), b"previous");
    let new_file = dir.path().join("new.bin");
    run(&[path_str(&bad), "-o", path_str(&new_file)]);
    assert!(!new_file.exists());
    // The disassembler too.
    let text_out = write(dir.path(), "keep.txt", b"previous");
    let zero = write(dir.path(), "zero.bin", &[0, 0, 0, 0]);
    let out = run(&["disasm", "-t", "lima", path_str(&zero), "-o", path_str(&text_out)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&text_out).unwrap(), b"previous");
    // A usage error writes nothing either.
    let out = run(&["-t", "lima", "--syntax", "x", path_str(&bad), "-o", path_str(&out_file)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&out_file).unwrap(), b"previous");
}

#[test]
fn the_default_disassembly_is_the_proposed_syntax_and_reassembles_to_the_same_words() {
    let dir = temp();
    for (name, words) in [
        ("clear", &CLEAR_WORDS[..]),
        ("reload", &RELOAD_WORDS[..]),
        ("branch", &BRANCH_WORDS[..]),
    ] {
        let bin = write(dir.path(), &format!("{name}.bin"), &le_bytes(words));
        let source = dir.path().join(format!("{name}.pp"));
        ok(&["disasm", "-t", "lima", path_str(&bin), "-o", path_str(&source)]);
        let text = std::fs::read_to_string(&source).unwrap();
        // The proposed syntax: `stop` first, no `@` offsets.
        assert!(text.contains("stop, "), "{text}");
        assert!(!text.contains('@'), "{text}");
        let out = ok(&[path_str(&source), "-f", "hex"]);
        assert_eq!(stdout(&out), hex_lines(words), "{name}:\n{text}");
    }
}

#[test]
fn a_constant_read_without_its_field_is_kept_by_mesas_text_and_warned_in_the_proposed() {
    // Mesa's text may read `^const0` in an instruction without a `const0` field (here the
    // constants are a comment); the words keep that read.
    let dir = temp();
    let source = dir.path().join("read.pp");
    std::fs::write(
        &source,
        "@     0: mov.v0 $0 ^const0.xxxx # const0 1.0 0.0 0.0 1.0, stop\n",
    )
    .unwrap();
    let words = dir.path().join("read.hex");
    let out = run(&["-t", "lima", path_str(&source), "-f", "hex", "-o", path_str(&words)]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Mesa's syntax writes them back in text that assembles to the same words, quietly.
    let mesa = run(&["disasm", "-t", "lima", "--syntax", "mesa", path_str(&words)]);
    assert!(mesa.status.success() && stderr(&mesa).is_empty(), "{}", stderr(&mesa));
    let again = dir.path().join("again.pp");
    std::fs::write(&again, stdout(&mesa)).unwrap();
    let out = run(&[
        "-t",
        "lima",
        "--syntax",
        "mesa",
        path_str(&again),
        "-f",
        "hex",
        "-o",
        "-",
    ]);
    assert_eq!(stdout(&out), std::fs::read_to_string(&words).unwrap());
    // The proposed syntax refuses the read (PP022), so its disassembly says so (PP205).
    let proposed = run(&["disasm", "-t", "lima", "--error-format", "short", path_str(&words)]);
    assert!(proposed.status.success(), "{}", stderr(&proposed));
    assert_eq!(stdout(&proposed), "mov.v0 $0 ^const0.xxxx\n");
    let err = stderr(&proposed);
    assert!(
        err.contains("warning[PP205]") && err.contains("word 0: `^const0` is read but the instruction has no `const0`"),
        "{err}"
    );
    std::fs::write(&again, stdout(&proposed)).unwrap();
    let out = run(&["check", "--error-format", "short", path_str(&again)]);
    assert!(stderr(&out).contains("error[PP022]"), "{}", stderr(&out));
}
