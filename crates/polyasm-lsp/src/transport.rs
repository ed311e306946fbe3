//! The Language Server Protocol's framing over a byte stream: `Content-Length` headers, then a
//! JSON body. Reading is defensive: a header block or a body that is not a message is reported
//! and skipped, a body over [`MAX_BODY_BYTES`] is read past without being kept, and a header
//! line over [`MAX_HEADER_LINE`] bytes is cut, so that no input makes the server hold more than
//! one body's worth of memory.

use std::io::{self, BufRead, Read, Write};

use lsp_server::Message;

/// The largest message body read (a document of some 200 MB, escaped).
pub const MAX_BODY_BYTES: usize = 256 << 20;

/// The longest header line kept; the rest of a longer line is skipped.
pub const MAX_HEADER_LINE: usize = 1024;

/// What one frame of the input held.
#[derive(Debug)]
pub enum Frame {
    /// A JSON-RPC message.
    Message(Message),
    /// A frame that is not one, and why: bad headers, a body too large, not UTF-8, not JSON,
    /// or JSON that is no message. The server answers a parse error and goes on.
    Malformed(String),
    /// A request whose `id` is neither a whole number nor a string (`null`, `1.5`, an
    /// object), and why. The server answers that it is an invalid request and goes on.
    InvalidRequest(String),
}

/// Reads the next frame; `None` at the end of the input.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut any_header = false;
    loop {
        let Some(line) = read_header_line(input)? else {
            return Ok(None);
        };
        if line.is_empty() {
            if any_header {
                break;
            }
            // Blank lines between frames are tolerated.
            continue;
        }
        any_header = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| format!("`Content-Length` is not a number: `{}`", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                problem.get_or_insert_with(|| format!("not a header line: `{}`", shorten(&line)));
            }
        }
    }
    let length = match length {
        Some(Ok(length)) => length,
        Some(Err(e)) => return Ok(Some(Frame::Malformed(e))),
        None => {
            let why = problem.unwrap_or_else(|| "no `Content-Length` header".to_string());
            return Ok(Some(Frame::Malformed(why)));
        }
    };
    if length > MAX_BODY_BYTES {
        // Read past the body without keeping it.
        let skipped = io::copy(&mut input.take(length as u64), &mut io::sink())?;
        if (skipped as usize) < length {
            return Ok(None);
        }
        return Ok(Some(Frame::Malformed(format!(
            "a body of {length} bytes, more than the {MAX_BODY_BYTES} read"
        ))));
    }
    let mut body = Vec::new();
    input.take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(None);
    }
    let Ok(text) = String::from_utf8(body) else {
        return Ok(Some(Frame::Malformed("the body is not UTF-8".to_string())));
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(e) => return Ok(Some(Frame::Malformed(format!("the body is not JSON: {e}")))),
    };
    // A message with a method and an id that is no id would read as a notification.
    if let Some(id) = value.get("id")
        && value.get("method").is_some()
        && !(id.is_string() || id.as_i64().is_some_and(|n| i32::try_from(n).is_ok()))
    {
        return Ok(Some(Frame::InvalidRequest(format!(
            "`{}` is no request id",
            shorten(&id.to_string())
        ))));
    }
    Ok(Some(match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Malformed(format!("the body is not a JSON-RPC message: {e}")),
    }))
}

/// One header line without its line break, cut to [`MAX_HEADER_LINE`] bytes; `None` at the end
/// of the input.
fn read_header_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut seen_any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(seen_any.then(|| String::from_utf8_lossy(&line).into_owned()));
        }
        seen_any = true;
        let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let room = MAX_HEADER_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..taken.min(room)]);
        input.consume(taken);
        if done {
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            return Ok(Some(String::from_utf8_lossy(&line).into_owned()));
        }
    }
}

/// A text cut to 80 characters, for a log line.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// Writes one message with its header and flushes.
pub fn write_message(output: &mut impl Write, message: Message) -> io::Result<()> {
    message.write(output)?;
    output.flush()
}

/// Writes the JSON-RPC parse error (-32700) with a null id, the answer to a malformed frame.
pub fn write_parse_error(output: &mut impl Write, why: &str) -> io::Result<()> {
    write_null_id_error(output, -32700, why)
}

/// Writes the JSON-RPC error `code` with a null id: the answer to a frame that is no message
/// (-32700) or to a request with no valid id (-32600).
pub fn write_null_id_error(output: &mut impl Write, code: i32, why: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": why },
    })
    .to_string();
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}
