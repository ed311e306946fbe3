//! `polyasm lsp` against what a careless or hostile client sends: positions past the end,
//! settings files with thousands of mistakes, included files open beside their includers,
//! URIs spelled another way, renames that would break the program, ids that are no ids.

mod common;

use serde_json::{Value, json};

use common::lsp::*;

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

fn change(client: &mut Client, uri: &str, version: i32, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
    );
}

#[test]
fn completion_past_the_end_of_an_unfinished_include_answers() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-hostile.mx";
    client.open(uri, "%include \"st");
    client.diagnostics(uri);
    for (line, character) in [(5, 0), (0, 100), (0, 12), (0, 9)] {
        let answer = client.request("textDocument/completion", at(uri, line, character));
        assert!(answer["result"].is_array(), "{line}:{character}: {answer}");
        for item in answer["result"].as_array().unwrap() {
            let range = &item["textEdit"]["range"];
            assert!(
                range["start"]["character"].as_u64() <= range["end"]["character"].as_u64(),
                "{item}"
            );
            assert!(range["end"]["character"].as_u64() <= Some(12), "{item}");
        }
    }
    // Inside a string that is not an include, nothing is offered.
    change(&mut client, uri, 2, "ld \"abc");
    client.diagnostics(uri);
    let answer = client.request("textDocument/completion", at(uri, 0, 7));
    assert_eq!(answer["result"], json!([]), "{answer}");
    let (status, _) = client.finish();
    assert!(status.success());
}

#[test]
fn a_settings_file_with_thousands_of_mistakes_gets_a_bounded_list_in_its_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let folders: Vec<String> = (0..1100).map(|i| format!("\"missing{i}\"")).collect();
    std::fs::write(
        dir.path().join("polyasm.toml"),
        format!("include = [{}]\n", folders.join(",")),
    )
    .unwrap();
    let mut client = Client::initialized();
    let toml = file_uri(&dir.path().join("polyasm.toml"));
    // A document of no target still shows why: the settings file's diagnostics are published.
    let asm = file_uri(&dir.path().join("p.asm"));
    client.open(&asm, "nop\n");
    let published = client.diagnostics(&toml);
    let list = published["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1001, "1000 and their count");
    assert_eq!(list[0]["code"], "PA027", "{}", list[0]);
    assert_eq!(list[1000]["message"], "100 more errors not shown");
    let on_document = client.diagnostics(&asm);
    assert_eq!(on_document["diagnostics"][0]["code"], "PA008", "{on_document}");

    // One that is not UTF-8 is reported on itself, not on the document.
    std::fs::write(dir.path().join("polyasm.toml"), b"target = \"\xff\"\n").unwrap();
    let vu = file_uri(&dir.path().join("p.vu"));
    client.open(&vu, "nop\n");
    let published = client.diagnostics(&toml);
    assert_eq!(published["diagnostics"][0]["code"], "PA002", "{published}");
    let on_document = client.diagnostics(&vu);
    assert!(!on_document.to_string().contains("PA002"), "{on_document}");
    client.finish();
}

#[test]
fn an_open_included_file_keeps_its_own_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.mx"), "%include \"b\"\nld 1\n").unwrap();
    std::fs::write(dir.path().join("b.mx"), "bogus\n").unwrap();
    let (a, b) = (file_uri(&dir.path().join("a.mx")), file_uri(&dir.path().join("b.mx")));
    let mut client = Client::initialized();
    client.open(&b, "bogus\n");
    let own = client.diagnostics(&b);
    assert_eq!(own["diagnostics"].as_array().unwrap().len(), 1, "{own}");
    // Fixed in the editor, not saved: the file on disk still has the mistake.
    change(&mut client, &b, 2, "ld 2\n");
    assert_eq!(client.diagnostics(&b)["diagnostics"], json!([]));
    client.open(&a, "%include \"b\"\nld 1\n");
    client.diagnostics(&a);
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": a } }));
    client.diagnostics(&a);
    // Neither a's check nor its closing published anything for b: b's last word stands.
    let answer = client.request("textDocument/hover", at(&b, 0, 0));
    assert!(answer.get("result").is_some());
    let for_b: Vec<&Value> = client
        .pending
        .iter()
        .filter(|m| m["params"]["uri"] == b.as_str())
        .collect();
    assert!(for_b.is_empty(), "{for_b:?}");
    client.finish();
}

#[test]
fn an_included_file_is_named_by_the_uri_the_client_gave_it() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("x y+z");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("lib.mx"), "%define STEP 2\n").unwrap();
    std::fs::write(folder.join("main.mx"), "%include \"lib\"\nld %STEP\n").unwrap();
    // The client escapes the space and leaves `+` as it is.
    let spelled = |name: &str| format!("file://{}/{name}", folder.display()).replace(' ', "%20");
    let (main, lib) = (spelled("main.mx"), spelled("lib.mx"));
    let mut client = Client::initialized();
    client.open(&lib, "%define STEP 2\n");
    client.diagnostics(&lib);
    client.open(&main, "%include \"lib\"\nld %STEP\n");
    client.diagnostics(&main);
    let mut params = at(&main, 1, 5);
    params["newName"] = json!("STRIDE");
    let renamed = client.request("textDocument/rename", params);
    let changes = renamed["result"]["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{renamed}"));
    let mut files: Vec<&String> = changes.keys().collect();
    files.sort();
    assert_eq!(files, [&lib, &main], "{renamed}");
    client.finish();
}

#[test]
fn a_rename_that_would_break_the_program_is_refused() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-hostile-rename.mx";
    client.open(uri, "%define ROWS 24\n%define COLUMNS 80\nld %ROWS\nld %COLUMNS\n");
    client.diagnostics(uri);
    let mut params = at(uri, 0, 9);
    params["newName"] = json!("COLUMNS");
    let refused = client.request("textDocument/rename", params.clone());
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("defined already"),
        "{refused}"
    );
    params["newName"] = json!("x".repeat(100_000));
    let refused = client.request("textDocument/rename", params.clone());
    assert_eq!(refused["error"]["code"], -32803);
    assert!(refused.to_string().len() < 1000, "the reason is short");
    // A line with an error that mentions the name: its use there may not have been found.
    change(
        &mut client,
        uri,
        2,
        "%define ROWS 24\n%define COLUMNS 80\nld %ROWS %ROWS\nld %COLUMNS\n",
    );
    let published = client.diagnostics(uri);
    assert!(!published["diagnostics"].as_array().unwrap().is_empty(), "{published}");
    params["newName"] = json!("LINES");
    let refused = client.request("textDocument/rename", params);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("a line with an error"),
        "{refused}"
    );
    client.finish();
}

#[test]
fn a_request_with_an_id_that_is_no_id_gets_invalid_request_and_exit_with_one_ends_nothing() {
    let mut client = Client::initialized();
    for id in [json!(null), json!(1.5), json!({ "a": 1 })] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "exit" }));
        let answer = client.wait_for(|m| m["error"]["code"] == -32600);
        assert_eq!(answer["id"], Value::Null, "{answer}");
    }
    let (status, stderr) = client.finish();
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr.matches("no request id").count(), 3, "{stderr}");
}

#[test]
fn diagnostics_quote_a_huge_word_cut_and_quick_fixes_are_only_polyasms() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-hostile-long.mx";
    client.open(uri, &format!("x{}\n", "y".repeat(200_000)));
    let published = client.diagnostics(uri);
    let message = published["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.len() < 2000, "{} bytes", message.len());
    // Another server's diagnostic with a fix for another file is no quick fix of polyasm's.
    let foreign = json!({
        "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } },
        "message": "m", "source": "other",
        "data": { "fix": { "uri": "file:///etc/passwd", "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "newText": "x" } },
    });
    let mut ours = foreign.clone();
    ours["source"] = json!("polyasm");
    let range = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } });
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [foreign, ours] } }),
    );
    assert_eq!(actions["result"], json!([]), "{actions}");
    client.finish();
}

#[test]
fn a_settings_file_that_changes_checks_the_open_documents_again() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("polyasm.toml");
    std::fs::write(&toml, "").unwrap();
    let mut client = Client::start();
    let capabilities = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    client.request("initialize", json!({ "capabilities": capabilities }));
    client.notify("initialized", json!({}));
    let registration = client.wait_for(|m| m["method"] == "client/registerCapability");
    assert_eq!(
        registration["params"]["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/polyasm.toml"
    );
    let pp = file_uri(&dir.path().join("w.pp"));
    client.open(&pp, "mov.v0 $7 $1\n");
    assert_eq!(client.diagnostics(&pp)["diagnostics"][0]["code"], "PP008");
    std::fs::write(&toml, "warnings = [\"no-PP008\"]\n").unwrap();
    let event = json!({ "changes": [{ "uri": file_uri(&toml), "type": 2 }] });
    client.notify("workspace/didChangeWatchedFiles", event);
    assert_eq!(client.diagnostics(&pp)["diagnostics"], json!([]));
    client.finish();
}

/// The quick fixes a code action offers for the diagnostics published for `uri`.
fn fixes(client: &mut Client, uri: &str, published: &Value) -> Value {
    let range = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 9, "character": 0 } });
    let context = json!({ "diagnostics": published["diagnostics"] });
    client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": context }),
    )
}

#[test]
fn a_fix_is_offered_only_where_it_writes_over_the_mistake_alone_and_for_the_text_it_was_made_for() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-hostile-fix.mx";
    // `b(ex)` is one name built from pieces, and `%c` stands in a macro's body: a fix writing
    // `eq` there would take the brackets along, or change every use of the macro.
    client.open(uri, ":done\nb(ex) done\n%macro br(c) { b%c done }\n%br(ex)\n");
    let published = client.diagnostics(uri);
    assert_eq!(published["diagnostics"].as_array().unwrap().len(), 2, "{published}");
    assert_eq!(fixes(&mut client, uri, &published)["result"], json!([]), "{published}");
    // A fix for the text as published is offered, with the version it is for; after an edit
    // it is not.
    change(&mut client, uri, 2, ":loop\njmp lop\n");
    let published = client.diagnostics(uri);
    let offered = fixes(&mut client, uri, &published);
    assert_eq!(offered["result"][0]["title"], "Replace with `loop`", "{offered}");
    assert_eq!(
        offered["result"][0]["edit"]["documentChanges"][0]["textDocument"]["version"],
        2
    );
    change(&mut client, uri, 3, ":loop\n    jmp lop\n");
    client.diagnostics(uri);
    assert_eq!(fixes(&mut client, uri, &published)["result"], json!([]));
    client.finish();
}

#[test]
fn an_include_shared_by_two_documents_keeps_its_diagnostics_while_one_of_them_is_open() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.mx"), "bogus\n").unwrap();
    let uri = |name: &str| file_uri(&dir.path().join(name));
    let mut client = Client::initialized();
    for name in ["a.mx", "c.mx"] {
        client.open(&uri(name), "%include \"b\"\nld 1\n");
        client.diagnostics(&uri(name));
        let on_b = client.diagnostics(&uri("b.mx"));
        assert_eq!(on_b["diagnostics"].as_array().unwrap().len(), 1, "{on_b}");
    }
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri("a.mx") } }),
    );
    client.diagnostics(&uri("a.mx"));
    client.request("textDocument/hover", at(&uri("c.mx"), 0, 0));
    let cleared = client
        .pending
        .iter()
        .any(|m| m["params"]["uri"] == uri("b.mx").as_str());
    assert!(!cleared, "{:?}", client.pending);
    client.finish();
}

#[test]
fn a_rename_across_a_file_with_unsaved_changes_or_to_a_directive_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lib.mx"), "%define LIMIT 5\n").unwrap();
    std::fs::write(dir.path().join("main.mx"), "%include \"lib\"\nld %LIMIT\n").unwrap();
    let (main, lib) = (
        file_uri(&dir.path().join("main.mx")),
        file_uri(&dir.path().join("lib.mx")),
    );
    let mut client = Client::initialized();
    client.open(&main, "%include \"lib\"\nld %LIMIT\n");
    client.diagnostics(&main);
    let mut params = at(&main, 1, 5);
    params["newName"] = json!("define");
    let refused = client.request("textDocument/rename", params.clone());
    assert!(
        refused["error"]["message"].as_str().unwrap().contains("directive"),
        "{refused}"
    );
    // lib.mx open with two lines added and not saved: its places on disk are not its text's.
    client.open(&lib, "; one\n; two\n%define LIMIT 5\n");
    client.diagnostics(&lib);
    params["newName"] = json!("MAX");
    let refused = client.request("textDocument/rename", params.clone());
    assert!(
        refused["error"]["message"].as_str().unwrap().contains("not saved"),
        "{refused}"
    );
    // Saved, the rename goes through both files.
    std::fs::write(dir.path().join("lib.mx"), "; one\n; two\n%define LIMIT 5\n").unwrap();
    change(&mut client, &main, 2, "%include \"lib\"\nld %LIMIT\n");
    client.diagnostics(&main);
    let renamed = client.request("textDocument/rename", params);
    let changes = renamed["result"]["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{renamed}"));
    assert_eq!(
        changes[&lib][0]["range"]["start"],
        json!({ "line": 2, "character": 8 }),
        "{renamed}"
    );
    client.finish();
}

#[test]
fn names_that_read_like_mnemonics_and_comments_above_a_range_keep_their_colours() {
    let mut client = Client::initialized();
    let pp = "file:///tmp/polyasm-lsp-hostile-colours.pp";
    let text = "branch_lt $0.x $1.x stop_here\nmov.v0 $0 $1\nstop_here:\nstop\n";
    client.open(pp, text);
    client.diagnostics(pp);
    let answer = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": pp } }),
    );
    let types = client.capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let data: Vec<u64> = answer["result"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let (mut line, mut character, mut labels) = (0, 0, Vec::new());
    for t in data.chunks(5) {
        if t[0] > 0 {
            character = 0;
        }
        line += t[0];
        character += t[1];
        if types[t[3] as usize] == "function" {
            labels.push((line, character));
        }
    }
    assert_eq!(labels, [(0, 20), (2, 0)], "{answer}");
    // A block comment that began above the lines asked for colours their part of it.
    let vu = "file:///tmp/polyasm-lsp-hostile-colours.vu";
    client.open(vu, "/* a block\n comment over\n three lines */ ld r0 0\n");
    client.diagnostics(vu);
    let range = json!({ "start": { "line": 1, "character": 0 }, "end": { "line": 2, "character": 0 } });
    let answer = client.request(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": { "uri": vu }, "range": range }),
    );
    let data = answer["result"]["data"].as_array().unwrap();
    // Line 1 whole, then line 2's part of the comment and its three words.
    assert_eq!(data.len(), 5 * 5, "{answer}");
    assert_eq!((data[0].as_u64(), data[2].as_u64()), (Some(1), Some(13)), "{answer}");
    client.finish();
}
