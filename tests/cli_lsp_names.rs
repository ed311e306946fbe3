//! `polyasm lsp` on the names a program defines: go to definition, references and rename of
//! labels, Masfix's constants, macros and namespaces (across included files) and nv2a's
//! uniforms; the outline; and the colours and folds of a document.

mod common;

use serde_json::{Value, json};

use common::lsp::*;

/// A position in a request.
fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// The (line, character) of each location, sorted, for those in `uri`.
fn places(locations: &Value, uri: &str) -> Vec<(u64, u64)> {
    let mut found: Vec<(u64, u64)> = locations
        .as_array()
        .unwrap_or_else(|| panic!("a list: {locations}"))
        .iter()
        .filter(|l| l["uri"] == uri)
        .map(|l| {
            let start = &l["range"]["start"];
            (start["line"].as_u64().unwrap(), start["character"].as_u64().unwrap())
        })
        .collect();
    found.sort();
    found
}

/// The edits of a rename for `uri`: (line, character, new text), sorted.
fn edits(answer: &Value, uri: &str) -> Vec<(u64, u64, String)> {
    let mut found: Vec<(u64, u64, String)> = answer["result"]["changes"][uri]
        .as_array()
        .unwrap_or_else(|| panic!("edits for {uri}: {answer}"))
        .iter()
        .map(|e| {
            let start = &e["range"]["start"];
            (
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    found
}

const MASFIX_LIB: &str = "\
%namespace util {
  %define STEP 2
  %macro bump(n) {
    add %n
  }
}
";

const MASFIX_MAIN: &str = "\
%include \"lib\"
%define LIMIT 10
:top
  %util:bump(%util:STEP)
  ld %LIMIT
  jmp top
";

#[test]
fn masfix_names_go_to_their_definitions_across_an_include_and_rename_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lib.mx"), MASFIX_LIB).unwrap();
    let main = file_uri(&dir.path().join("main.mx"));
    let lib = file_uri(&dir.path().join("lib.mx"));
    let mut client = Client::initialized();
    client.open(&main, MASFIX_MAIN);
    let published = client.diagnostics(&main);
    assert_eq!(published["diagnostics"], json!([]), "{published}");

    // `bump` in `%util:bump` is defined in lib.mx, line 3 (index 2), after `%macro `.
    let definition = client.request("textDocument/definition", at(&main, 3, 10));
    assert_eq!(definition["result"]["uri"], lib.as_str(), "{definition}");
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({ "line": 2, "character": 9 }),
        "{definition}"
    );
    // `util` in the same use is the namespace.
    let definition = client.request("textDocument/definition", at(&main, 3, 4));
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({ "line": 0, "character": 11 }),
        "{definition}"
    );
    // A constant, its hover and its uses.
    let hover = client.request("textDocument/hover", at(&main, 4, 7));
    let value = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        value.starts_with("constant `LIMIT`: 10") && value.ends_with("defined on line 2"),
        "{hover}"
    );
    let references = client.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": main }, "position": { "line": 3, "character": 22 }, "context": { "includeDeclaration": true } }),
    );
    assert_eq!(places(&references["result"], &lib), [(1, 10)], "{references}");
    assert_eq!(places(&references["result"], &main), [(3, 19)], "{references}");
    // The label: without its declaration, only the use.
    let references = client.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": main }, "position": { "line": 5, "character": 7 }, "context": { "includeDeclaration": false } }),
    );
    assert_eq!(places(&references["result"], &main), [(5, 6)], "{references}");

    // Renaming the namespace changes its definition in lib.mx and both uses in main.mx.
    let prepared = client.request("textDocument/prepareRename", at(&main, 3, 5));
    assert_eq!(
        prepared["result"]["start"],
        json!({ "line": 3, "character": 3 }),
        "{prepared}"
    );
    let mut params = at(&main, 3, 5);
    params["newName"] = json!("tools");
    let renamed = client.request("textDocument/rename", params);
    assert_eq!(edits(&renamed, &lib), [(0, 11, "tools".to_string())], "{renamed}");
    assert_eq!(
        edits(&renamed, &main),
        [(3, 3, "tools".to_string()), (3, 14, "tools".to_string())],
        "{renamed}"
    );
    // Not to a mnemonic, nor to what is no name; nothing to rename on a mnemonic.
    for bad in ["ld", "2x", "a b", ""] {
        let mut params = at(&main, 2, 2);
        params["newName"] = json!(bad);
        let refused = client.request("textDocument/rename", params);
        assert_eq!(refused["error"]["code"], -32803, "{bad}: {refused}");
    }
    let refused = client.request("textDocument/prepareRename", at(&main, 4, 3));
    assert_eq!(refused["error"]["code"], -32803, "{refused}");

    // The outline: the names main.mx defines, not lib.mx's.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": main } }),
    );
    let mut names: Vec<(String, String)> = symbols["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["containerName"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("LIMIT".to_string(), "constant".to_string()),
            ("top".to_string(), "label".to_string())
        ],
        "{symbols}"
    );
    client.finish();
}

#[test]
fn nv2a_uniforms_and_lima_labels_are_renamed_with_their_uses() {
    let mut client = Client::initialized();
    let vsh = "file:///tmp/polyasm-lsp-names.vsh";
    client.open(vsh, "#tint vector 100\nmov oD0, #tint\nadd oD1, #tint, v3\n");
    client.diagnostics(vsh);
    let mut params = at(vsh, 2, 11);
    // The sigil is kept when the new name leaves it out.
    params["newName"] = json!("shade");
    let renamed = client.request("textDocument/rename", params);
    assert_eq!(
        edits(&renamed, vsh),
        [
            (0, 0, "#shade".to_string()),
            (1, 9, "#shade".to_string()),
            (2, 9, "#shade".to_string())
        ],
        "{renamed}"
    );
    let hover = client.request("textDocument/hover", at(vsh, 1, 11));
    let value = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.starts_with("vector `#tint`: c100"), "{hover}");

    let pp = "file:///tmp/polyasm-lsp-names.pp";
    client.open(pp, "branch_lt $0.x $1.x done\nmov.v0 $0 $1\ndone:\nstop\n");
    let published = client.diagnostics(pp);
    assert_eq!(published["diagnostics"], json!([]), "{published}");
    let definition = client.request("textDocument/definition", at(pp, 0, 21));
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({ "line": 2, "character": 0 }),
        "{definition}"
    );
    let mut params = at(pp, 2, 1);
    params["newName"] = json!("finish");
    let renamed = client.request("textDocument/rename", params);
    assert_eq!(
        edits(&renamed, pp),
        [(0, 20, "finish".to_string()), (2, 0, "finish".to_string())],
        "{renamed}"
    );
    client.finish();
}

/// The semantic tokens of a document, decoded: (line, character, text, type name).
fn semantic(client: &mut Client, uri: &str, text: &str) -> Vec<(u32, u32, String, String)> {
    let legend = client.capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let answer = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let data: Vec<u32> = answer["result"]["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|n| n.as_u64().unwrap() as u32)
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    let (mut line, mut character) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                character = 0;
            }
            line += t[0];
            character += t[1];
            let word: String = lines[line as usize]
                .chars()
                .skip(character as usize)
                .take(t[2] as usize)
                .collect();
            (
                line,
                character,
                word,
                legend[t[3] as usize].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn semantic_tokens_colour_mnemonics_registers_names_numbers_and_comments() {
    let mut client = Client::initialized();
    let cases = [
        (
            "c.vsh",
            "#tint vector 100 // tint\nmov oD0, #tint\n",
            vec![
                ("mov", "keyword"),
                ("oD0", "variable"),
                ("#tint", "parameter"),
                ("100", "number"),
                ("// tint", "comment"),
            ],
        ),
        (
            "c.mx",
            "%define N 3 ; three\n:top\n  ld %N\n  jmp top\n",
            vec![
                ("ld", "keyword"),
                ("top", "function"),
                ("3", "number"),
                ("; three", "comment"),
            ],
        ),
        (
            "c.pp",
            "mov.v0 $0 $1 # copy\n",
            vec![("mov.v0", "keyword"), ("$0", "variable"), ("# copy", "comment")],
        ),
        (
            "c.vu",
            "ld r0 0 // load\n",
            vec![
                ("ld", "keyword"),
                ("r0", "variable"),
                ("0", "number"),
                ("// load", "comment"),
            ],
        ),
        (
            "c.sasm",
            "add(s0, s1, s2) # sum\n",
            vec![("add", "keyword"), ("s0", "variable"), ("# sum", "comment")],
        ),
    ];
    for (name, text, expected) in cases {
        let uri = format!("file:///tmp/polyasm-lsp-{name}");
        client.open(&uri, text);
        client.diagnostics(&uri);
        let tokens = semantic(&mut client, &uri, text);
        for (word, kind) in expected {
            assert!(
                tokens.iter().any(|(_, _, w, k)| w == word && k == kind),
                "{name}: `{word}` as {kind} in {tokens:?}"
            );
        }
    }
    client.finish();
}

#[test]
fn macro_bodies_and_comment_runs_fold() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-folds.mx";
    let text = "; one\n; two\n%macro twice(x) {\n  add %x\n  add %x\n}\n%macro one() { ld 1 }\n; a brace in a comment {\nld '{'\n";
    client.open(uri, text);
    client.diagnostics(uri);
    let folds = client.request("textDocument/foldingRange", json!({ "textDocument": { "uri": uri } }));
    let ranges: Vec<(u64, u64, Option<String>)> = folds["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{folds}"))
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
                f["kind"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(ranges, [(0, 1, Some("comment".to_string())), (2, 4, None)], "{folds}");
    client.finish();
}

#[test]
fn semantic_tokens_of_a_range_are_those_of_its_lines_from_the_start_of_the_text() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-range.vu";
    let text = "ld r0 0\r\nld r1 1\rmul r0 r1\nst pos r0\n";
    client.open(uri, text);
    client.diagnostics(uri);
    let all = semantic(&mut client, uri, &text.replace("\r\n", "\n").replace('\r', "\n"));
    assert_eq!(all.len(), 12, "{all:?}");
    assert_eq!(all[6], (2, 0, "mul".to_string(), "keyword".to_string()), "{all:?}");
    let range = json!({ "start": { "line": 1, "character": 0 }, "end": { "line": 2, "character": 0 } });
    let answer = client.request(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": { "uri": uri }, "range": range }),
    );
    let data = answer["result"]["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"));
    // Six tokens on lines 1 and 2; the first counted from line 0.
    assert_eq!(data.len(), 30, "{answer}");
    assert_eq!(
        (data[0].as_u64(), data[1].as_u64(), data[2].as_u64()),
        (Some(1), Some(0), Some(2)),
        "{answer}"
    );
    client.finish();
}
