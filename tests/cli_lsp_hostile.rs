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
