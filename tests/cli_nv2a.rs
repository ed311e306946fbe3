//! The command line on nv2a programs: binary and vshinc output, JSON symbols, line endings,
//! nv2a's own options, the errors nv2avsh would silently miscompile, and `run`.

mod common;
use common::*;

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn mvp_words(options: polyasm_nv2a::AssembleOptions) -> Vec<u32> {
    polyasm_nv2a::assemble_str(&std::fs::read_to_string(MVP).unwrap(), options).unwrap()
}

#[test]
fn nv2a_assembles_to_binary_and_vshinc() {
    let dir = temp();
    let out = dir.path().join("out.bin");
    let output = run(&["-t", "nv2a", MVP, "-o", path_str(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let words = mvp_words(Default::default());
    assert_eq!(std::fs::read(&out).unwrap(), le_bytes(&words));
    assert_eq!(words.len() % 4, 0);

    let output = run(&[MVP, "-f", "vshinc"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        words.len() / 2,
        "a comment line and a word line per instruction"
    );
    assert_eq!(lines[0], "/* dp4 oPos.x, v0, c96 */");
    let expected: Vec<String> = words
        .chunks(4)
        .map(|w| format!("0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x},", w[0], w[1], w[2], w[3]))
        .collect();
    let word_lines: Vec<&str> = lines.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(word_lines, expected);
    assert!(text.ends_with(",\n"));

    // The vshinc text reads back through the disassembler and reassembles to the same words.
    let inc = dir.path().join("mvp.vshinc");
    std::fs::write(&inc, &text).unwrap();
    let source = run(&["disasm", "-t", "nv2a", path_str(&inc)]);
    assert!(source.status.success(), "{}", stderr(&source));
    let again = run_with_stdin(&["-t", "nv2a", "-", "-f", "hex"], &source.stdout);
    let hex: Vec<String> = words.iter().map(|w| format!("{w:08x}")).collect();
    assert_eq!(stdout(&again), hex.join("\n") + "\n");
}

#[test]
fn nv2a_json_symbols_are_the_uniforms() {
    let dir = temp();
    let input = dir.path().join("u.vsh");
    std::fs::write(
        &input,
        "; uniforms\n#mvp MATRIX4 96\n#light vector 20 // sun\n%matmul4x4 oPos, iPos, #mvp\nmov oD0, #light\n",
    )
    .unwrap();
    let output = run(&[path_str(&input), "-f", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        json["symbols"],
        serde_json::json!([
            {"name": "#mvp", "value": 96, "size": 4, "kind": "matrix4", "line": 2, "source": "#mvp MATRIX4 96"},
            {"name": "#light", "value": 20, "size": 1, "kind": "vector", "line": 3, "source": "#light vector 20 // sun"},
        ])
    );
}

#[test]
fn nv2a_and_vu_read_cr_only_and_crlf_files_like_lf_ones() {
    let dir = temp();
    for (name, lf, error_line) in [
        (
            "a.vsh",
            "mov oD0, v3 ; c\n+ rcp r1.w, r1.w\n\nmov r0, v16\n",
            "a.vsh:4:9: error[NV2A006]",
        ),
        ("a.vu", "ld r0 0 // c\nldc r4 0\n\nld r0 9 9\n", "a.vu:4:"),
    ] {
        let valid: String = lf.lines().take(2).map(|l| format!("{l}\n")).collect();
        let path = dir.path().join(name);
        std::fs::write(&path, &valid).unwrap();
        let expected = stdout(&run(&[path_str(&path), "-f", "hex"]));
        assert!(!expected.is_empty());
        for ending in ["\r", "\r\n"] {
            std::fs::write(&path, valid.replace('\n', ending)).unwrap();
            let output = run(&[path_str(&path), "-f", "hex"]);
            assert_eq!(stdout(&output), expected, "{name} {ending:?}: {}", stderr(&output));
            std::fs::write(&path, lf.replace('\n', ending)).unwrap();
            let output = run(&[path_str(&path), "-f", "hex", "--error-format", "short"]);
            assert_eq!(output.status.code(), Some(1));
            assert!(
                stderr(&output).contains(error_line),
                "{name} {ending:?}: {}",
                stderr(&output)
            );
        }
    }
}

#[test]
fn nv2a_explicit_final_appends_the_marker_and_is_nv2a_only() {
    let output = run(&[MVP, "-f", "hex", "--explicit-final"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let explicit = mvp_words(polyasm_nv2a::AssembleOptions {
        explicit_final: true,
        ..Default::default()
    });
    assert_eq!(&explicit[explicit.len() - 4..], [0, 0, 0, 1]);
    let hex: Vec<String> = explicit.iter().map(|w| format!("{w:08x}")).collect();
    assert_eq!(stdout(&output), hex.join("\n") + "\n");
    let output = run(&[SEED, "-f", "hex", "--explicit-final"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("target vu does not take `--explicit-final`"));
}

#[test]
fn nv2a_silent_miscompiles_of_nv2avsh_are_errors_and_write_nothing() {
    let dir = temp();
    for (source, code) in [
        ("add r0, v0, v1\n", "NV2A015"),
        ("mov oT0, v0 + rcp r1.x, v1.x\n", "NV2A015"),
        ("mul r0, c[A0+5], c5\n", "NV2A017"),
        ("dp4 oPos.x, v0, c0 + rcp oFog.x, v0.x\n", "NV2A018"),
        ("mul r0, c1, c2\n", "NV2A016"),
    ] {
        let input = dir.path().join("bad.vsh");
        std::fs::write(&input, source).unwrap();
        let out = dir.path().join("bad.bin");
        let output = run(&[path_str(&input), "-o", path_str(&out), "--error-format", "short"]);
        assert_eq!(output.status.code(), Some(1), "{source}");
        assert!(
            stderr(&output).contains(&format!("error[{code}]")),
            "{source}: {}",
            stderr(&output)
        );
        assert!(!out.exists(), "{source}: no output on error");
    }
}

#[test]
fn nv2a_paired_ilu_warning_is_fatal_under_werror() {
    let dir = temp();
    let input = dir.path().join("w.vsh");
    std::fs::write(&input, "dp4 oPos.x, r6, c96 + rsq r10.x, r2.x\n").unwrap();
    let output = run(&[path_str(&input), "-f", "hex"]);
    assert!(output.status.success());
    assert!(stderr(&output).contains("warning[NV2A022]"));
    assert_eq!(stdout(&output), "00000000\n08ec001b\n64361800\n90188801\n");
    let output = run(&[path_str(&input), "-f", "hex", "-W", "error"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).is_empty());
}

#[test]
fn nv2a_run_transforms_a_vertex() {
    // mvp.vsh: oPos = (dp4(v0, c96), dp4(v0, c97), dp4(v0, c98), dp4(v0, c99)).
    let output = run(&[
        "run",
        MVP,
        "-i",
        "v0=1,2,3",
        "-c",
        "c96=2,0,0,1",
        "-c",
        "97=0,3,0,0",
        "-c",
        "98=0,0,1,1",
        "-c",
        "99=0,0,0,1",
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // x = 1*2 + 1*1 = 3, y = 2*3 = 6, z = 3 + 1 = 4, w = 1
    assert_eq!(json["vertices"][0]["oPos"], serde_json::json!([3.0, 6.0, 4.0, 1.0]));
    let output = run(&["run", MVP, "--arl-bias"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["run", SEED, "--arl-bias"]);
    assert_eq!(output.status.code(), Some(2));
}
