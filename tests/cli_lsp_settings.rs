//! `polyasm lsp` with a `polyasm.toml` (the same settings as `polyasm check`), and what it
//! knows of each dialect's registers, includes and numbers.

mod common;

use serde_json::{Value, json};

use common::lsp::*;
use common::*;

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// The codes of the diagnostics published, in order.
fn published_codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("{params}"))
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn polyasm_toml_gives_the_target_the_warnings_and_the_options_that_check_uses() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("polyasm.toml"),
        "warnings = [\"no-PP008\"]\n[extensions]\nasm = \"vu\"\n[lima]\nsyntax = \"proposed\"\n",
    )
    .unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    let vu = root.join("sub/prog.asm");
    let vu_text = "ld r0 0\nsqr r1 r0\n";
    std::fs::write(&vu, vu_text).unwrap();
    let pp = root.join("sub/wide.pp");
    let pp_text = "mov.v0 $7 $1\n";
    std::fs::write(&pp, pp_text).unwrap();

    // The command line and the server agree: VU002 in the `.asm` file, PP008 silenced.
    let check = polyasm().arg("check").arg(&vu).arg(&pp).output().unwrap();
    let said = stderr(&check);
    assert!(said.contains("VU002") && !said.contains("PP008"), "{said}");

    let mut client = Client::initialized();
    let (vu_uri, pp_uri) = (file_uri(&vu), file_uri(&pp));
    client.open(&vu_uri, vu_text);
    assert_eq!(published_codes(&client.diagnostics(&vu_uri)), ["VU002"]);
    client.open(&pp_uri, pp_text);
    assert_eq!(published_codes(&client.diagnostics(&pp_uri)), Vec::<String>::new());

    // A polyasm.toml that does not read: its diagnostic is published for it, and the
    // document is checked as if there were none (PP008 is back).
    std::fs::write(root.join("polyasm.toml"), "warnigns = []\n").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": pp_uri, "version": 2 }, "contentChanges": [{ "text": pp_text }] }),
    );
    let toml_uri = file_uri(&root.join("polyasm.toml"));
    let on_toml = client.diagnostics(&toml_uri);
    assert_eq!(published_codes(&on_toml), ["PA027"], "{on_toml}");
    assert!(on_toml.to_string().contains("did you mean `warnings`?"), "{on_toml}");
    assert_eq!(published_codes(&client.diagnostics(&pp_uri)), ["PP008"]);
    client.finish();
}

/// The labels of a completion's items.
fn labels(answer: &Value) -> Vec<String> {
    answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|item| item["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn registers_have_a_hover_and_are_offered_where_they_may_be_written_or_read() {
    let mut client = Client::initialized();
    // Each case: the text, a register's place and what its hover names; then, for dialects
    // that write the destination first, at the destination and at a source, a register
    // offered there and one not.
    let cases = [
        (
            "r.vsh",
            "mov oPos, v0\n",
            (0, 5),
            "oPos",
            Some((((0, 4), "oPos", "v0"), ((0, 10), "v0", "oPos"))),
        ),
        (
            "r.vu",
            "st pos r0\n",
            (0, 4),
            "pos",
            Some((((0, 3), "pos", "r16"), ((0, 7), "r15", "pos"))),
        ),
        (
            "r.pp",
            "mov.v0 $0 ^const0\n",
            (0, 11),
            "^const0",
            Some((((0, 7), "$11", "^const0"), ((0, 10), "^const0", "^discard"))),
        ),
        ("r.sasm", "add(s0, s1, s2)\n", (0, 5), "s0", None),
    ];
    for (name, text, hover_at, register, roles) in cases {
        let uri = format!("file:///tmp/polyasm-lsp-{name}");
        client.open(&uri, text);
        client.diagnostics(&uri);
        let hover = client.request("textDocument/hover", at(&uri, hover_at.0, hover_at.1));
        let value = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
        let family = register.trim_end_matches(char::is_numeric);
        assert!(value.starts_with(&format!("register `{family}")), "{name}: {hover}");
        let Some((destination, source)) = roles else {
            let offered = labels(&client.request("textDocument/completion", at(&uri, 0, 8)));
            assert!(
                offered.iter().any(|l| l == "s7") && offered.iter().any(|l| l == "pc"),
                "{name}: {offered:?}"
            );
            continue;
        };
        for ((line, character), offered_here, not_here) in [destination, source] {
            let offered = labels(&client.request("textDocument/completion", at(&uri, line, character)));
            assert!(
                offered.iter().any(|l| l == offered_here),
                "{name} {character}: {offered_here} in {offered:?}"
            );
            assert!(
                !offered.iter().any(|l| l == not_here),
                "{name} {character}: {not_here} in {offered:?}"
            );
        }
    }
    client.finish();
}

#[test]
fn an_include_completes_with_the_files_it_may_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("lib")).unwrap();
    std::fs::write(root.join("lib/util.mx"), "ld 1\n").unwrap();
    std::fs::write(root.join("notes.txt"), "").unwrap();
    let main = root.join("main.mx");
    let uri = file_uri(&main);
    let mut client = Client::initialized();
    client.open(&uri, "%include \"\n");
    client.diagnostics(&uri);
    let offered = labels(&client.request("textDocument/completion", at(&uri, 0, 10)));
    assert!(offered.contains(&"lib/".to_string()), "{offered:?}");
    assert!(offered.contains(&"std/".to_string()), "{offered:?}");
    assert!(!offered.iter().any(|l| l.contains("notes")), "{offered:?}");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": "%include \"lib/u\n" }] }),
    );
    let answer = client.request("textDocument/completion", at(&uri, 0, 15));
    assert_eq!(labels(&answer), ["util"], "{answer}");
    // The item replaces what is typed after the folder.
    assert_eq!(
        answer["result"][0]["textEdit"]["range"]["start"]["character"], 14,
        "{answer}"
    );
    let answer = client.request("textDocument/completion", at(&uri, 0, 14));
    assert_eq!(labels(&answer), ["util"], "{answer}");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": "%include \"std/\n" }] }),
    );
    let offered = labels(&client.request("textDocument/completion", at(&uri, 0, 14)));
    assert!(
        offered.contains(&"all".to_string()) && offered.contains(&"stack".to_string()),
        "{offered:?}"
    );
    client.finish();
}

#[test]
fn a_lima_number_shows_the_half_float_it_is_stored_as() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-half.pp";
    client.open(uri, "const0 0.1 1 2 3\n");
    client.diagnostics(uri);
    let hover = client.request("textDocument/hover", at(uri, 0, 8));
    let value = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.starts_with("`0.1` = 0.1 as f32 (bits 0x3dcccccd)"), "{hover}");
    assert!(value.ends_with("stored as fp16: 0.099975586 (bits 0x2e66)"), "{hover}");
    // A dialect of f32 constants shows no fp16.
    let uri = "file:///tmp/polyasm-lsp-half.sasm";
    client.open(uri, "load(s0, 0.1)\n");
    client.diagnostics(uri);
    let hover = client.request("textDocument/hover", at(uri, 0, 10));
    assert!(!hover.to_string().contains("fp16"), "{hover}");
    client.finish();
}

#[test]
fn turning_inlay_hints_on_asks_a_client_that_can_to_fetch_them_again() {
    for refresh_support in [true, false] {
        let mut client = Client::start();
        let capabilities = json!({ "workspace": { "inlayHint": { "refreshSupport": refresh_support } } });
        client.request("initialize", json!({ "capabilities": capabilities }));
        client.notify("initialized", json!({}));
        let settings = json!({ "settings": { "polyasm": { "inlayHints": true } } });
        client.notify("workspace/didChangeConfiguration", settings);
        // A request after it: its answer comes after any refresh the change asked for.
        let answer = client.request("textDocument/hover", at("file:///tmp/none.vu", 0, 0));
        assert_eq!(answer["result"], Value::Null, "{answer}");
        let refreshes = client
            .pending
            .iter()
            .filter(|m| m["method"] == "workspace/inlayHint/refresh" && m["id"].is_string())
            .count();
        assert_eq!(refreshes, usize::from(refresh_support), "{:?}", client.pending);
        client.finish();
    }
}

#[test]
fn each_diagnostic_links_to_the_explanation_of_its_code() {
    let mut client = Client::initialized();
    let cases = [
        ("file:///tmp/polyasm-lsp-code.vu", "sqr r1 r0\n", "vu.md", "VU002"),
        ("file:///tmp/polyasm-lsp-code.pp", "mov.v0 $7 $1\n", "lima.md", "PP008"),
        ("file:///tmp/polyasm-lsp-code.s", "nop\n", "core.md", "PA008"),
    ];
    for (uri, text, file, code) in cases {
        client.open(uri, text);
        let published = client.diagnostics(uri);
        let d = &published["diagnostics"][0];
        assert_eq!(d["code"], code, "{published}");
        let href = d["codeDescription"]["href"]
            .as_str()
            .unwrap_or_else(|| panic!("{published}"));
        let (page, anchor) = href.split_once('#').unwrap();
        assert!(page.ends_with(&format!("/blob/main/docs/codes/{file}")), "{href}");
        // The anchor is the one the page's heading for the code gets.
        let docs = std::fs::read_to_string(format!("{}/docs/codes/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let heading = docs.lines().find(|l| l.starts_with(&format!("## {code}: "))).unwrap();
        let slug: String = heading[3..]
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c.to_ascii_lowercase() })
            .collect();
        assert_eq!(anchor, slug, "{href}");
    }
    client.finish();
}

#[test]
fn completion_grows_the_word_typed_with_modifiers_and_glued_letters() {
    let mut client = Client::initialized();
    let pp = "file:///tmp/polyasm-lsp-glued.pp";
    client.open(pp, "max_\n");
    client.diagnostics(pp);
    let offered = labels(&client.request("textDocument/completion", at(pp, 0, 4)));
    for form in ["max_pos.v1", "max_sat.v0", "max_int.v1"] {
        assert!(offered.iter().any(|l| l == form), "{form} in {offered:?}");
    }
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": pp, "version": 2 }, "contentChanges": [{ "text": "branch_\n" }] }),
    );
    let offered = labels(&client.request("textDocument/completion", at(pp, 0, 7)));
    assert!(
        offered.iter().any(|l| l == "branch_lt") && offered.iter().any(|l| l == "branch_ge"),
        "{offered:?}"
    );

    let mx = "file:///tmp/polyasm-lsp-glued.mx";
    client.open(mx, "ld\n");
    client.diagnostics(mx);
    let offered = labels(&client.request("textDocument/completion", at(mx, 0, 2)));
    assert!(
        offered.iter().any(|l| l == "ldm") && offered.iter().any(|l| l == "ldh"),
        "{offered:?}"
    );
    assert!(!offered.iter().any(|l| l == "ldz"), "{offered:?}");
    client.finish();
}

#[test]
fn in_lima_the_operands_are_counted_from_the_operation_being_written() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-operations.pp";
    client.open(uri, "stop, mov.v0 \n");
    client.diagnostics(uri);
    // The destination of the second operation: written registers only.
    let offered = labels(&client.request("textDocument/completion", at(uri, 0, 13)));
    assert!(offered.iter().any(|l| l == "^discard"), "{offered:?}");
    assert!(!offered.iter().any(|l| l == "^const0"), "{offered:?}");
    // Right after the separator, an operation begins: mnemonics first.
    let answer = client.request("textDocument/completion", at(uri, 0, 6));
    let first = answer["result"]
        .as_array()
        .unwrap()
        .iter()
        .min_by_key(|item| item["sortText"].as_str().unwrap_or_default().to_string())
        .cloned()
        .unwrap();
    assert_eq!(first["kind"], 14, "a keyword first: {first}");
    client.finish();
}
