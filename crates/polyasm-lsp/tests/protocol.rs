//! The framing and the documents' positions, on made-up input.

use std::io::Cursor;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use polyasm_lsp::document::{Document, Lines};
use polyasm_lsp::transport::{Frame, MAX_BODY_BYTES, MAX_HEADER_LINE, read_frame};

fn frames(input: &[u8]) -> Vec<Result<String, String>> {
    let mut cursor = Cursor::new(input.to_vec());
    let mut out = Vec::new();
    while let Some(frame) = read_frame(&mut cursor).expect("reading memory does not fail") {
        out.push(match frame {
            Frame::Message(m) => Ok(serde_json::to_string(&m).unwrap()),
            Frame::Malformed(why) => Err(why),
            Frame::InvalidRequest(why) => Err(format!("invalid request: {why}")),
        });
    }
    out
}

#[test]
fn frames_are_read_and_bad_ones_skipped() {
    let ok = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    let mut input = format!("Content-Length: {}\r\n\r\n", ok.len()).into_bytes();
    input.extend_from_slice(ok);
    input.extend_from_slice(b"content-length:   3\r\nX-Other: y\r\n\r\nnul");
    input.extend_from_slice(b"Content-Length: -1\r\n\r\n");
    input.extend_from_slice(format!("Content-Length: {}\n\n", ok.len()).as_bytes());
    input.extend_from_slice(ok);
    let read = frames(&input);
    assert_eq!(read.len(), 4, "{read:?}");
    assert!(read[0].is_ok() && read[3].is_ok(), "{read:?}");
    assert!(read[1].as_ref().unwrap_err().contains("not JSON"), "{read:?}");
    assert!(read[2].as_ref().unwrap_err().contains("not a number"), "{read:?}");
}

#[test]
fn a_request_whose_id_is_no_id_is_invalid_not_a_notification() {
    for id in ["null", "1.5", "{\"a\":1}", "123456789012345678901234567890", "[1]"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"exit"}}"#);
        let input = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let read = frames(input.as_bytes());
        assert!(
            read[0].as_ref().is_err_and(|why| why.starts_with("invalid request")),
            "{id}: {read:?}"
        );
    }
    for id in ["7", "\"seven\""] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#);
        let input = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(frames(input.as_bytes())[0].is_ok(), "{id}");
    }
}

#[test]
fn a_huge_length_or_a_long_header_line_costs_no_memory() {
    // A body declared far beyond the limit, then the input ends: nothing is kept.
    let input = format!("Content-Length: {}\r\n\r\nabc", MAX_BODY_BYTES as u64 * 1000);
    assert_eq!(frames(input.as_bytes()), Vec::new());
    // One over the limit, all there: skipped as malformed.
    let mut input = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1).into_bytes();
    input.resize(input.len() + MAX_BODY_BYTES + 1, b' ');
    let read = frames(&input);
    assert!(
        read.len() == 1 && read[0].as_ref().unwrap_err().contains("more than"),
        "{read:?}"
    );
    // A header line a thousand times the longest kept is cut, and the frame still reads.
    let ok = br#"{"jsonrpc":"2.0","method":"x"}"#;
    let mut input = format!(
        "X-Long: {}\r\nContent-Length: {}\r\n\r\n",
        "a".repeat(MAX_HEADER_LINE * 1000),
        ok.len()
    )
    .into_bytes();
    input.extend_from_slice(ok);
    let read = frames(&input);
    assert!(read.len() == 1 && read[0].is_ok(), "{read:?}");
}

#[test]
fn positions_count_utf16_units_and_every_line_ending() {
    let text = "a\r\nb\rc\n\u{1F600}x\u{E9}y";
    let lines = Lines::new(text);
    let at = |line, character| lines.offset(text, Position::new(line, character));
    assert_eq!(at(1, 0), 3);
    assert_eq!(at(2, 0), 5);
    // The emoji is two code units: 2 is the `x` after it, 1 (inside the pair) the emoji.
    assert_eq!(at(3, 2), 11);
    assert_eq!(at(3, 1), 7);
    assert_eq!(at(3, 4), 14);
    // Past the line's end, and past the last line.
    assert_eq!(at(0, 9), 1);
    assert_eq!(at(9, 0), text.len());
    assert_eq!(lines.position(text, 11), Position::new(3, 2));
    assert_eq!(lines.position(text, 14), Position::new(3, 4));
    // Inside a character: its start.
    assert_eq!(lines.position(text, 9), Position::new(3, 0));
    assert_eq!(lines.position(text, 999), Position::new(3, 5));
}

#[test]
fn edits_apply_in_order_and_a_whole_text_replaces() {
    let mut doc = Document::new("one\ntwo\n".to_string(), 1);
    let edit = |range: Option<Range>, text: &str| TextDocumentContentChangeEvent {
        range,
        range_length: None,
        text: text.to_string(),
    };
    let range = |l0, c0, l1, c1| Some(Range::new(Position::new(l0, c0), Position::new(l1, c1)));
    doc.apply(2, vec![edit(range(1, 0, 1, 3), "2"), edit(range(0, 0, 0, 3), "1")]);
    assert_eq!(doc.text, "1\n2\n");
    assert_eq!(doc.version, 2);
    // An end before the start is read as an empty range at the start.
    doc.apply(3, vec![edit(range(1, 1, 0, 0), "!")]);
    assert_eq!(doc.text, "1\n2!\n");
    doc.apply(4, vec![edit(None, "new")]);
    assert_eq!(
        (doc.text.as_str(), doc.lines.position(&doc.text, 3)),
        ("new", Position::new(0, 3))
    );
}
