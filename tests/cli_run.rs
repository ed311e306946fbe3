//! `polyasm run` option values and data files, and the listing, by running the built binary.

use std::path::Path;

mod common;
use common::*;

#[test]
fn bad_run_option_values_are_usage_errors() {
    for (target, input, option, value) in [
        ("vu", SEED, "--format", "xml"),
        ("vu", SEED, "-i", "0"),
        ("vu", SEED, "-i", "0=a,b"),
        ("vu", SEED, "-c", "16=1"),
        ("nv2a", MVP, "-c", "c192=1"),
        ("nv2a", MVP, "-i", "iPos=1e39"),
    ] {
        let output = run(&["run", "-t", target, input, option, value, "--color", "never"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{option} {value}: {err}");
        assert!(err.contains("error[PA006]"), "{option} {value}: {err}");
        assert!(err.contains("help:"), "{option} {value}: {err}");
        assert!(!err.contains("did not run"), "{option} {value}: {err}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn a_bad_option_value_is_reported_before_the_program_is_assembled() {
    let broken = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/vu/err_three_mistakes.vu");
    let output = run(&["run", broken, "-c", "0=1,2,x", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(!stderr(&output).contains("[VU"), "{}", stderr(&output));
    assert!(stderr(&output).contains("--const 0=1,2,x"));
}

#[test]
fn a_usage_error_leaves_the_output_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "old").unwrap();
    let output = run(&["run", SEED, "-i", "9=1", "-o", path_str(&out)]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// mvp.vsh writes `oPos = (dp4(v0, c96), dp4(v0, c97), dp4(v0, c98), dp4(v0, c99))`.
fn mvp_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["run", MVP, "-f", "json"];
    all.extend_from_slice(args);
    let output = run(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

#[test]
fn a_constant_fills_the_lanes_it_leaves_out_with_zero_and_an_input_w_with_one() {
    // v0 = (1, 2, 3, 1); c99 = (0, 0, 0, 0) + the given x, so oPos.w = 5 * 1 = 5 and not 5 + 1.
    let json = mvp_json(&["-i", "v0=1,2,3", "-c", "c96=1,0,0", "-c", "c99=0,0,0,5", "-c", "c98=7"]);
    assert_eq!(json["vertices"][0]["oPos"], serde_json::json!([1.0, 0.0, 7.0, 5.0]));
}

#[test]
fn numbers_take_underscores_and_print_as_f32() {
    let json = mvp_json(&["-i", "v0=1_000.5,0.1", "-c", "c96=1", "-c", "c97=0,1"]);
    let text = json["vertices"][0]["oPos"].to_string();
    assert_eq!(text, "[1000.5,0.1,0.0,0.0]");
}

#[test]
fn the_table_stays_aligned_for_long_numbers() {
    let output = run(&[
        "run",
        MVP,
        "-i",
        "v0=1e30,-1.1754944e-38,123456789,-0.000001",
        "-c",
        "c96=1",
        "-c",
        "c97=0,1",
        "-c",
        "c98=0,0,1",
        "-c",
        "c99=0,0,0,1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{table}");
    let cells: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(cells, ["0", "oPos", "1e30", "-1.1754944e-38", "123456790", "-0.000001"]);
}

fn write_data(dir: &Path, text: &str) -> String {
    let path = dir.join("data.json");
    std::fs::write(&path, text).unwrap();
    path_str(&path).to_string()
}

#[test]
fn data_file_errors_point_into_the_file_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for (text, line, column, message) in [
        (
            "{\"vertices\": [\n  {\"v0\": [1]},\n  {\"v0\": [1e39]}]}",
            3,
            14,
            "too large for a 32-bit float",
        ),
        (
            "{\"vertices\": [{\"v0\": [1]},\n {\"v16\": [1]}]}",
            2,
            7,
            "`v16` names no input slot",
        ),
        ("{\"constants\": {\"c0\": [1, 2, 3, 4, 5]}}", 1, 36, "at most 4 lanes"),
        ("{\"colours\": []}", 1, 10, "unknown key `colours`"),
    ] {
        let data = write_data(dir.path(), text);
        let output = run(&["run", MVP, "--data", &data, "--error-format", "short"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{text}: {err}");
        assert!(
            err.starts_with(&format!("{data}:{line}:{column}: error[PA006]")),
            "{text}: {err}"
        );
        assert!(err.contains(message), "{text}: {err}");
    }
}

#[test]
fn a_data_file_error_after_some_vertices_leaves_the_output_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let data = write_data(
        dir.path(),
        "{\"vertices\": [{\"0\": [1]}, {\"0\": [2]}, {\"99\": [3]}]}",
    );
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "old").unwrap();
    let output = run(&["run", SEED, "--data", &data, "-o", path_str(&out)]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("did not run"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_data_file_streams_many_vertices_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let vertices: Vec<String> = (0..5000).map(|i| format!("{{\"iPos\": [{i}, 1, 2]}}")).collect();
    // The constants may come after the vertices.
    let text = format!(
        "{{\"vertices\": [{}],\n\"constants\": {{\"c96\": [1], \"c99\": [0, 0, 0, 1]}}}}",
        vertices.join(",")
    );
    let data = write_data(dir.path(), &text);
    let out = dir.path().join("out.json");
    let output = run(&["run", MVP, "--data", &data, "-f", "json", "-o", path_str(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let list = json["vertices"].as_array().unwrap();
    assert_eq!(list.len(), 5000);
    assert_eq!(list[4321]["oPos"], serde_json::json!([4321.0, 0.0, 0.0, 1.0]));
}

/// Where each column of a listing row starts: the header's titles and the rows' fields.
fn column_starts(row: &str) -> Vec<usize> {
    let bytes = row.as_bytes();
    (1..bytes.len())
        .filter(|&i| bytes[i] != b' ' && bytes[i - 1] == b' ')
        .collect()
}

#[test]
fn the_listing_shows_every_line_with_an_aligned_header() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("all.vsh");
    let text = "// head comment\n#u vector 3\n\nmov oPos, v0\nmul r0, v0, #u +\n  rcp r1.w, v0.w\n; tail comment\n";
    std::fs::write(&source, text).unwrap();
    let output = run(&[path_str(&source), "-f", "listing", "--explicit-final"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = stdout(&output);
    let lines: Vec<&str> = listing.lines().collect();
    // Every source line, in order, once.
    let texts: Vec<&str> = text.lines().collect();
    let mut found = lines[2..]
        .iter()
        .filter_map(|l| texts.iter().position(|t| !t.is_empty() && l.ends_with(t)));
    for expected in [0, 1, 3, 4, 5, 6] {
        assert_eq!(found.next(), Some(expected), "{listing}");
    }
    assert!(
        lines.iter().any(|l| l.trim() == "3"),
        "the blank line 3 is listed: {listing}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("-  ; final marker appended by --explicit-final"),
        "{listing}"
    );
    // The header's titles start where the columns do: addr, words, line (right-aligned), source.
    let header = lines[1];
    let row = lines.iter().find(|l| l.contains("mov oPos, v0")).unwrap();
    let titles = column_starts(header);
    let fields = column_starts(row);
    assert!(
        header.starts_with("; addr") && row.starts_with("0000 "),
        "addr\n{header}\n{row}"
    );
    assert_eq!(titles[1], fields[0], "words\n{header}\n{row}");
    assert_eq!(
        header.find("line").unwrap() + 4,
        row.find("  mov oPos").unwrap(),
        "{header}\n{row}"
    );
    assert_eq!(
        header.find("source").unwrap(),
        row.find("mov oPos").unwrap(),
        "{header}\n{row}"
    );
}

#[test]
fn the_vu_listing_keeps_comments_and_the_appended_end() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("p.vu");
    std::fs::write(&source, "// one\n\nld r0 0 // load\n/* two */\nst pos r0\n// last\n").unwrap();
    let output = run(&[path_str(&source), "-f", "listing"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = stdout(&output);
    let body: Vec<&str> = listing.lines().skip(2).collect();
    assert_eq!(
        body,
        [
            "                     1  // one",
            "                     2",
            "0000    00000000     3  ld r0 0 // load",
            "                     4  /* two */",
            "0001    00000001     5  st pos r0",
            "                     6  // last",
            "0002    0000003f     -  ; end appended by the assembler",
        ]
    );
    let header = listing.lines().nth(1).unwrap();
    assert_eq!(header, "; addr  words     line  source");
}

#[test]
fn formats_without_a_listing_assemble_without_one() {
    let registry = polyasm::registry();
    for (name, text) in [
        (
            "p.vsh",
            "#m matrix4 96\n%matmul4x4 oPos iPos #m\nmov oD0, v3 + rcp r1.w, v3.w\ndp4 oPos.x, r6, c96 + rsq r10.x, r2.x\n",
        ),
        ("p.vu", "ld r0 0\nst pos r0\nmulm r0 r13\n"),
    ] {
        let target = registry.by_path(name).unwrap();
        let mut sources = polyasm_core::SourceMap::new();
        let file = sources.add(name, text);
        let listed = target.assemble(
            &mut sources,
            file,
            &polyasm_core::TargetOptions::default(),
            &mut std::io::sink(),
        );
        let skipped = polyasm_core::TargetOptions {
            skip_listing: true,
            ..Default::default()
        };
        let unlisted = target.assemble(&mut sources, file, &skipped, &mut std::io::sink());
        assert!(!listed.diagnostics.is_empty(), "{name} has a warning");
        assert_eq!(listed.diagnostics, unlisted.diagnostics, "{name}");
        let (listed, unlisted) = (listed.value.unwrap(), unlisted.value.unwrap());
        assert_eq!(listed.bytes, unlisted.bytes, "{name}");
        assert!(!listed.listing.is_empty(), "{name}");
        assert!(unlisted.listing.is_empty(), "{name}");
    }
    // The CLI still lists for the formats that print the listing.
    let json = run(&[SEED, "-f", "json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["listing"].as_array().unwrap().len(), 14);
}

#[test]
fn a_data_file_may_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write_data(dir.path(), "{\"vertices\": [{\"v0\": [1, 2, 3, 1]}]}");
    let marked = dir.path().join("marked.json");
    std::fs::write(&marked, "\u{feff}{\"vertices\": [{\"v0\": [1, 2, 3, 1]}]}").unwrap();
    let expected = run(&["run", MVP, "--data", &plain]);
    assert_eq!(expected.status.code(), Some(0), "{}", stderr(&expected));
    let output = run(&["run", MVP, "--data", path_str(&marked)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), stdout(&expected));

    // Positions in such a file count from the character after the mark.
    let bad = "{\"vertices\": [{\"v16\": [1]}]}";
    let plain = write_data(dir.path(), bad);
    std::fs::write(&marked, format!("\u{feff}{bad}")).unwrap();
    let position = |path: &str| {
        let output = run(&["run", MVP, "--data", path, "--error-format", "short"]);
        let err = stderr(&output);
        let at = err.find(".json:").expect("the error names the data file") + ".json:".len();
        err[at..].split(": ").next().unwrap().to_string()
    };
    assert_eq!(position(path_str(&marked)), position(&plain));
    assert_eq!(position(&plain), "1:20");
}

#[test]
fn slot_messages_name_the_kind_and_range() {
    let output = run(&["run", SEED, "-c", "x=1", "--color", "never"]);
    assert!(
        stderr(&output).contains("`x` names no constant slot"),
        "{}",
        stderr(&output)
    );
    let output = run(&["run", SEED, "-c", "16=1", "--color", "never"]);
    assert!(
        stderr(&output).contains("out of range (0 to 15)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_output_may_not_be_the_data_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = "{\"vertices\": [{\"v0\": [1, 2, 3, 1]}]}";
    let data = write_data(dir.path(), text);
    let output = run(&["run", MVP, "--data", &data, "-o", &data]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("PA014"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
}

#[test]
fn a_long_option_value_is_cut_in_the_message_and_the_reason_kept() {
    let lanes = format!("0={}", vec!["1"; 10_000].join(","));
    let output = run(&["run", "-t", "vu", SEED, "-i", &lanes, "--error-format", "short"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    // Two quotes, each cut, and the reason.
    assert!(err.len() < 2 * polyasm_core::render::MAX_QUOTED_CHARS + 150, "{err}");
    assert!(err.contains("has 10000 lanes; a vec4 has at most 4"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_run_that_cannot_write_says_where_as_every_command_does() {
    let full = polyasm()
        .args(["run", SEED, "--color", "never"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(1));
    assert_eq!(
        stderr(&full),
        "error[PA003]: cannot write standard output: No space left on device\n\n"
    );
    let output = run(&["run", SEED, "-o", "/dev/full", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error[PA003]: cannot write /dev/full: No space left on device\n"
    );
}

#[test]
fn an_empty_vertex_list_runs_no_vertex() {
    let dir = tempfile::tempdir().unwrap();
    let data = write_data(dir.path(), "{\"vertices\": []}");
    let output = run(&["run", MVP, "--data", &data, "-f", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["vertices"], serde_json::json!([]));
    let output = run(&["run", MVP, "--data", &data]);
    assert_eq!(stdout(&output), "");
    // The list is there, so -i is refused with it as with any other list.
    let output = run(&["run", MVP, "--data", &data, "-i", "0=1,2,3"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}
