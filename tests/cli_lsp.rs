//! `polyasm lsp`, driven as an editor drives it: JSON-RPC over the process's standard input and
//! output.

mod common;

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use common::lsp::*;
use common::*;

#[test]
fn every_dialect_gets_the_diagnostics_of_check_and_an_edit_clears_them() {
    let dir = temp();
    let mut client = Client::initialized();
    let cases = [
        ("a.vsh", "; ok\nbogus 1 2\n", "NV2A001"),
        ("a.vu", "// ok\nbogus r1\n", "VU002"),
        ("a.mx", "; ok\nbogus\n", "MX022"),
        ("a.sasm", "# ok\nbogus(1)\n", "SH002"),
        ("a.pp", "# ok\nbogus.v0 $0 $1\n", "PP002"),
    ];
    for (name, text, code) in cases {
        let uri = file_uri(&dir.path().join(name));
        client.open(&uri, text);
        let published = client.diagnostics(&uri);
        let found = codes(&published);
        assert_eq!(found.len(), 1, "{name}: {published}");
        assert_eq!((found[0].0.as_str(), found[0].1), (code, 1), "{name}: {published}");
        assert_eq!(published["version"], 1, "{name}");
        let first = &published["diagnostics"][0];
        assert_eq!(first["severity"], 1, "{name}: an error");
        assert_eq!(first["source"], "polyasm");
        // Deleting the second line leaves a comment, which is a valid program.
        let change = json!({ "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 2, "character": 0 } }, "text": "" });
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [change] }),
        );
        let cleared = client.diagnostics(&uri);
        assert_eq!(cleared["diagnostics"], json!([]), "{name}: {cleared}");
        assert_eq!(cleared["version"], 2, "{name}");
    }
    let (status, stderr) = client.finish();
    assert!(status.success(), "{status:?}: {stderr}");
}

#[test]
fn positions_count_utf16_code_units_and_warnings_notes_and_help_come_through() {
    let dir = temp();
    let mut client = Client::initialized();
    // Two 4-byte characters: the first is the error, two UTF-16 code units wide.
    let uri = file_uri(&dir.path().join("emoji.vu"));
    client.open(&uri, "\u{1F600}\u{1F600} bogus\n");
    let published = client.diagnostics(&uri);
    let range = &published["diagnostics"][0]["range"];
    assert_eq!(range["start"], json!({ "line": 0, "character": 0 }), "{published}");
    assert_eq!(range["end"], json!({ "line": 0, "character": 2 }), "{published}");
    // A warning (an unallocated register) with its help line.
    let uri = file_uri(&dir.path().join("warn.pp"));
    client.open(&uri, "mov.v0 $9 $1, stop\n");
    let published = client.diagnostics(&uri);
    let first = &published["diagnostics"][0];
    assert_eq!(first["code"], "PP008", "{published}");
    assert_eq!(first["severity"], 2, "a warning: {published}");
    let message = first["message"].as_str().unwrap();
    assert!(message.contains("\nnote: Mesa's compiler uses only $0-$5"), "{message}");
    client.finish();
}

#[test]
fn a_file_of_no_target_gets_one_warning_and_a_closed_one_is_cleared() {
    let dir = temp();
    let mut client = Client::initialized();
    let uri = file_uri(&dir.path().join("notes.txt"));
    client.open(&uri, "hello\n");
    let published = client.diagnostics(&uri);
    assert_eq!(codes(&published), [("PA008".to_string(), 0, 0)], "{published}");
    let uri = file_uri(&dir.path().join("a.vu"));
    client.open(&uri, "bogus\n");
    assert_eq!(codes(&client.diagnostics(&uri)).len(), 1);
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    let cleared = client.diagnostics(&uri);
    assert_eq!(cleared["diagnostics"], json!([]), "{cleared}");
    client.finish();
}

#[test]
fn an_error_in_an_included_file_is_published_for_that_file() {
    let dir = temp();
    std::fs::write(dir.path().join("inc.mx"), "; included\nbogus\n").unwrap();
    let main = dir.path().join("main.mx");
    let mut client = Client::initialized();
    let uri = file_uri(&main);
    client.open(&uri, "%include \"inc\"\n");
    let included = client.diagnostics(&file_uri(&dir.path().join("inc.mx")));
    assert_eq!(codes(&included), [("MX022".to_string(), 1, 1)], "{included}");
    let related = &included["diagnostics"][0]["relatedInformation"];
    let from = related
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["message"] == "included from here")
        .unwrap_or_else(|| panic!("{related}"));
    assert_eq!(from["location"]["uri"], uri.as_str());
    let own = client.diagnostics(&uri);
    assert_eq!(own["diagnostics"], json!([]), "{own}");
    client.finish();
}

#[test]
fn bad_messages_get_errors_and_the_server_keeps_serving() {
    let mut client = Client::start();
    // A request before `initialize`.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    let answer = client.request("initialize", json!({ "capabilities": {} }));
    assert!(answer["result"]["capabilities"].is_object(), "{answer}");
    // Not JSON, JSON that is no message, a frame without a length, and a body that is not
    // UTF-8: each a parse error with a null id.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    client.send_raw(b"Content-Length: 2\r\n\r\n[]");
    client.send_raw(b"Content-Type: x\r\n\r\n");
    client.send_raw(b"Content-Length: 2\r\n\r\n\xff\xfe");
    for _ in 0..4 {
        let error = client.wait_for(|m| m["error"]["code"] == -32700);
        assert_eq!(error["id"], Value::Null, "{error}");
    }
    // An unknown method, a change to a document that is not open, a second `initialize`.
    let unknown = client.request("polyasm/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///nowhere.vu", "version": 2 }, "contentChanges": [] }),
    );
    let again = client.request("initialize", json!({ "capabilities": {} }));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    // Positions past the end of the document and of a line are clamped.
    let uri = "file:///tmp/polyasm-lsp-clamp.vu";
    client.open(uri, "end\n");
    assert_eq!(client.diagnostics(uri)["diagnostics"], json!([]));
    let change = json!({ "range": { "start": { "line": 0, "character": 99 }, "end": { "line": 40, "character": 7 } }, "text": "\nbogus" });
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [change] }),
    );
    let published = client.diagnostics(uri);
    assert_eq!(codes(&published), [("VU002".to_string(), 1, 0)], "{published}");
    let (status, stderr) = client.finish();
    assert!(status.success(), "{status:?}");
    assert!(stderr.contains("polyasm lsp: skipped a malformed message"), "{stderr}");
    assert!(stderr.contains("which is not open"), "{stderr}");
}

#[test]
fn exit_without_shutdown_or_the_input_ending_ends_with_status_1() {
    let mut client = Client::initialized();
    client.notify("exit", Value::Null);
    let (status, _) = client.end();
    assert_eq!(status.code(), Some(1));
    let client = Client::initialized();
    let (status, _) = client.end();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn many_edits_end_in_the_diagnostics_of_the_last_text() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-many.vu";
    client.open(uri, "");
    client.diagnostics(uri);
    let mut batch = Vec::new();
    for version in 2..=200 {
        // Odd versions end in an error, even ones do not; the last is 200.
        let text = if version % 2 == 1 { "bogus\n" } else { "end\n" };
        let change = json!({ "text": text });
        let body = json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] } }).to_string();
        batch.extend_from_slice(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }
    client.send_raw(&batch);
    let last = client.wait_for(|m| m["params"]["uri"] == uri && m["params"]["version"] == 200);
    assert_eq!(last["params"]["diagnostics"], json!([]), "{last}");
    client.finish();
}

#[cfg(unix)]
#[test]
fn a_full_disk_or_a_closed_output_ends_the_server_with_status_1() {
    for output in ["/dev/full", "closed"] {
        let mut command = polyasm();
        command.arg("lsp").stdin(Stdio::piped()).stderr(Stdio::piped());
        if output == "closed" {
            use std::os::unix::process::CommandExt;
            // SAFETY: close(2) is async-signal-safe, as pre_exec requires.
            unsafe {
                command.pre_exec(|| {
                    libc::close(libc::STDOUT_FILENO);
                    Ok(())
                });
            }
        } else {
            command.stdout(std::fs::File::create(output).expect("/dev/full opens"));
        }
        let mut child = command.spawn().expect("polyasm starts");
        let stderr = drain(child.stderr.take().expect("piped"));
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } });
        let body = body.to_string();
        let mut stdin = child.stdin.take().expect("piped");
        stdin
            .write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
            .unwrap();
        let status = wait_bounded(&mut child, "polyasm lsp");
        drop(stdin);
        let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
        assert_eq!(status.code(), Some(1), "{output}: {stderr}");
        assert!(
            stderr.contains("polyasm lsp: cannot write to the client"),
            "{output}: {stderr}"
        );
    }
}

#[test]
fn hover_shows_a_mnemonics_row_and_completion_offers_the_mnemonics() {
    let dir = temp();
    let mut client = Client::initialized();
    // The file, its text, a place inside the mnemonic, the row it names, and a mnemonic the
    // completions hold.
    let cases = [
        ("h.vu", "add r1 r2\n", 1, "add", "mulm"),
        ("h.vsh", "MOV oPos, v0\n", 1, "mov", "dp4"),
        ("h.mx", "ld 2\n", 1, "ld", "str"),
        ("h.sasm", "getComponent0(pc, s0)\n", 5, "getComponent0", "reciprocal"),
        ("h.pp", "max_pos.v1 $0 $1 $2\n", 8, "max.v1", "sum4.v1"),
    ];
    for (name, text, character, row, offered) in cases {
        let uri = file_uri(&dir.path().join(name));
        client.open(&uri, text);
        let position = json!({ "line": 0, "character": character });
        let hover = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": position }),
        );
        let value = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {hover}"));
        assert!(
            value.to_lowercase().starts_with(&format!("`{}`: ", row.to_lowercase())),
            "{name}: {value}"
        );
        assert!(value.contains("\n- "), "{name}: the docs table's cells: {value}");
        assert_eq!(hover["result"]["range"]["start"]["character"], 0, "{name}: {hover}");
        // On the empty line after the text there is no word: no hover.
        let position = json!({ "line": 1, "character": 0 });
        let none = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": position }),
        );
        assert_eq!(none["result"], Value::Null, "{name}: {none}");
        let completion = client.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 0 } }),
        );
        let labels: Vec<&str> = completion["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {completion}"))
            .iter()
            .map(|item| item["label"].as_str().unwrap())
            .collect();
        assert!(
            labels.iter().any(|l| l.eq_ignore_ascii_case(offered)),
            "{name}: {labels:?}"
        );
    }
    // A document that is not open gets no hover, and bad parameters an error.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere.vu" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let bad = client.request("textDocument/hover", json!({ "position": "here" }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    client.finish();
}

#[test]
fn labels_and_uniforms_are_symbols_with_a_definition_and_a_hover() {
    let dir = temp();
    let mut client = Client::initialized();
    // The file, its text, the place of a use, the name (nv2a's with its `#`), its kind and the
    // line declaring it.
    let cases = [
        (
            "s.pp",
            "top:\nload.v $0.x 0.x\nbranch_lt $0.x $0.y top\nstop\n",
            (2, 21),
            "top",
            "label",
            0,
        ),
        (
            "s.mx",
            "ld 2\n:again\n    ld 3\n    bmne again\n",
            (3, 10),
            "again",
            "label",
            1,
        ),
        (
            "s.vsh",
            "#mvp matrix4 96\n#tint vector 100\nmov oD0, #tint\n",
            (2, 11),
            "#tint",
            "vector",
            1,
        ),
    ];
    for (name, text, (line, character), symbol, kind, declared_on) in cases {
        let uri = file_uri(&dir.path().join(name));
        client.open(&uri, text);
        let published = client.diagnostics(&uri);
        assert!(codes(&published).iter().all(|(c, ..)| !c.is_empty()), "{published}");
        let symbols = client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        let listed = symbols["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {symbols}"));
        let found = listed
            .iter()
            .find(|s| s["name"] == symbol)
            .unwrap_or_else(|| panic!("{name}: {symbols}"));
        assert_eq!(found["containerName"], kind, "{name}: {found}");
        assert_eq!(
            found["location"]["range"]["start"]["line"], declared_on,
            "{name}: {found}"
        );
        let at = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        let definition = client.request("textDocument/definition", at.clone());
        assert_eq!(definition["result"]["uri"], uri.as_str(), "{name}: {definition}");
        assert_eq!(
            definition["result"]["range"]["start"]["line"], declared_on,
            "{name}: {definition}"
        );
        let hover = client.request("textDocument/hover", at);
        let value = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {hover}"));
        assert!(
            value.starts_with(&format!("{kind} `{symbol}`: "))
                && value.ends_with(&format!("defined on line {}", declared_on + 1)),
            "{name}: {value}"
        );
        // The name is offered where a label or uniform goes.
        let completion = client.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }),
        );
        let offered = completion["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {completion}"));
        let item = offered
            .iter()
            .find(|item| item["label"] == symbol)
            .unwrap_or_else(|| panic!("{name}: {completion}"));
        assert!(
            item["detail"].as_str().unwrap().starts_with(&format!("{kind} ")),
            "{name}: {item}"
        );
        // A word that is no declared name has no definition.
        let at = json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 200 } });
        let none = client.request("textDocument/definition", at);
        assert_eq!(none["result"], Value::Null, "{name}: {none}");
    }
    client.finish();
}

#[test]
fn inlay_hints_show_each_statements_address_and_words_when_turned_on() {
    let dir = temp();
    let path = dir.path().join("hints.vu");
    let text = "add r1 r2\nend\n";
    std::fs::write(&path, text).unwrap();
    let hex = stdout(&run(&[path_str(&path), "-f", "hex", "-o", "-"]));
    let words: Vec<String> = hex.lines().map(|w| format!("0x{w}")).collect();
    let uri = file_uri(&path);
    let whole = json!({ "textDocument": { "uri": uri }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 9, "character": 0 } } });
    // Off by default.
    let mut client = Client::initialized();
    client.open(&uri, text);
    client.diagnostics(&uri);
    let hints = client.request("textDocument/inlayHint", whole.clone());
    assert_eq!(hints["result"], json!([]), "{hints}");
    // Turned on by the settings.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "polyasm": { "inlayHints": true } } }),
    );
    let hints = client.request("textDocument/inlayHint", whole.clone());
    let found: Vec<(u64, u64, String)> = hints["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{hints}"))
        .iter()
        .map(|h| {
            let at = &h["position"];
            (
                at["line"].as_u64().unwrap(),
                at["character"].as_u64().unwrap(),
                h["label"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [(0, 9, format!("@0: {}", words[0])), (1, 3, format!("@1: {}", words[1]))],
        "{hints}"
    );
    // Only the lines asked for.
    let first = json!({ "textDocument": { "uri": uri }, "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 3 } } });
    let hints = client.request("textDocument/inlayHint", first);
    assert_eq!(hints["result"].as_array().map(Vec::len), Some(1), "{hints}");
    client.finish();
    // Or by the initialization options.
    let mut client = Client::start();
    client.request(
        "initialize",
        json!({ "capabilities": {}, "initializationOptions": { "inlayHints": true } }),
    );
    client.open(&uri, text);
    let hints = client.request("textDocument/inlayHint", whole);
    assert_eq!(hints["result"].as_array().map(Vec::len), Some(2), "{hints}");
    client.finish();
}

#[test]
fn hover_on_a_number_gives_its_value() {
    let mut client = Client::initialized();
    let uri = "file:///tmp/polyasm-lsp-numbers.mx";
    client.open(uri, "ld 0x2a\nld 42\n");
    client.diagnostics(uri);
    let at = |line: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": 4 } });
    let hex = client.request("textDocument/hover", at(0));
    assert_eq!(
        hex["result"]["contents"]["value"], "`0x2a` = 42 = 0x2a = 0b101010",
        "{hex}"
    );
    let decimal = client.request("textDocument/hover", at(1));
    assert_eq!(
        decimal["result"]["contents"]["value"], "`42` = 42 = 0x2a = 0b101010",
        "{decimal}"
    );
    let uri = "file:///tmp/polyasm-lsp-numbers.sasm";
    client.open(uri, "load(s0, 1.5)\n");
    client.diagnostics(uri);
    let float = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 10 } }),
    );
    assert_eq!(
        float["result"]["contents"]["value"], "`1.5` = 1.5 as f32 (bits 0x3fc00000)",
        "{float}"
    );
    client.finish();
}

#[test]
fn a_did_you_mean_is_a_quick_fix_that_writes_the_suggestion_over_the_word() {
    let dir = temp();
    let mut client = Client::initialized();
    let cases = [
        ("f.vu", "ad r1 r2\n"),
        ("f.vsh", "movv r0, v0\n"),
        ("f.mx", "xld 2\n"),
        ("f.sasm", "ad(s0, s1)\n"),
        ("f.pp", "movv.v0 $0 $1, stop\n"),
    ];
    for (name, text) in cases {
        let uri = file_uri(&dir.path().join(name));
        client.open(&uri, text);
        let published = client.diagnostics(&uri);
        let diagnostic = published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["message"].as_str().unwrap().contains("did you mean"))
            .unwrap_or_else(|| panic!("{name}: {published}"))
            .clone();
        let message = diagnostic["message"].as_str().unwrap();
        let suggested = message
            .split("did you mean `")
            .nth(1)
            .unwrap()
            .split('`')
            .next()
            .unwrap()
            .to_string();
        let range = diagnostic["range"].clone();
        let actions = client.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [diagnostic] } }),
        );
        let action = &actions["result"][0];
        assert_eq!(action["kind"], "quickfix", "{name}: {actions}");
        assert_eq!(
            action["title"],
            format!("Replace with `{suggested}`"),
            "{name}: {actions}"
        );
        let change = &action["edit"]["documentChanges"][0];
        assert_eq!(change["textDocument"]["uri"], uri.as_str(), "{name}: {actions}");
        assert_eq!(change["edits"][0]["range"], range, "{name}: {actions}");
        assert_eq!(change["edits"][0]["newText"], suggested.as_str(), "{name}: {actions}");
        // Applied, the word is the suggestion and its error is gone.
        let edit = json!({ "range": range, "text": suggested });
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [edit] }),
        );
        let after = client.diagnostics(&uri);
        let codes_after: Vec<String> = codes(&after).into_iter().map(|(c, ..)| c).collect();
        let code_before = diagnostic["code"].as_str().unwrap();
        assert!(!codes_after.iter().any(|c| c == code_before), "{name}: {after}");
    }
    // A diagnostic without a fix gets no action.
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": "file:///x.vu" }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "context": { "diagnostics": [{ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "message": "m" }] } }),
    );
    assert_eq!(actions["result"], json!([]), "{actions}");
    client.finish();
}
