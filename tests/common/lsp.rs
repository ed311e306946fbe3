//! A client of `polyasm lsp` for the tests: JSON-RPC over the process's standard input and
//! output, as an editor speaks it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

use super::{drain, polyasm, wait_bounded};

/// How long any one answer may take before the test fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running `polyasm lsp` and what it has sent that the test has not looked at yet.
pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    pub messages: Receiver<Value>,
    pub pending: VecDeque<Value>,
    pub next_id: i64,
    pub stderr: std::thread::JoinHandle<Vec<u8>>,
    /// What the server answered to `initialize` that it can do.
    pub capabilities: Value,
}

impl Client {
    pub fn start() -> Client {
        let mut child = polyasm()
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("polyasm starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = drain(child.stderr.take().expect("piped"));
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            pending: VecDeque::new(),
            next_id: 1,
            stderr,
            capabilities: Value::Null,
        }
    }

    /// Starts a server and initializes it.
    pub fn initialized() -> Client {
        let mut client = Client::start();
        let answer = client.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(answer["result"]["serverInfo"]["name"], "polyasm", "{answer}");
        client.capabilities = answer["result"]["capabilities"].clone();
        client.notify("initialized", json!({}));
        client
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|m| m["id"] == id && m.get("method").is_none())
    }

    /// The first message, sent or still to come, that `wanted` accepts.
    pub fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.pending.iter().position(&wanted) {
            return self.pending.remove(at).expect("found");
        }
        loop {
            match self.messages.recv_timeout(PATIENCE) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.pending.push_back(message),
                Err(RecvTimeoutError::Timeout) => panic!("no answer in {PATIENCE:?}; got {:?}", self.pending),
                Err(RecvTimeoutError::Disconnected) => panic!("the server stopped; got {:?}", self.pending),
            }
        }
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Value {
        let message = self.wait_for(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri);
        message["params"].clone()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        let item = json!({ "uri": uri, "languageId": "asm", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": item }));
    }

    /// Sends `shutdown` and `exit` and waits for the server to end.
    pub fn finish(mut self) -> (ExitStatus, String) {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        self.end()
    }

    pub fn end(mut self) -> (ExitStatus, String) {
        drop(self.stdin);
        let status = wait_bounded(&mut self.child, "polyasm lsp");
        let stderr = String::from_utf8_lossy(&self.stderr.join().expect("drained")).into_owned();
        (status, stderr)
    }
}

/// One framed message of the server's output; `None` at its end.
pub fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = Some(value.parse::<usize>().expect("a length"));
        }
    }
    let mut body = vec![0; length.expect("a Content-Length header")];
    reader.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("the server sends JSON"))
}

pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The codes of published diagnostics, with the line and character each starts at.
pub fn codes(params: &Value) -> Vec<(String, u64, u64)> {
    let list = params["diagnostics"].as_array().expect("a list");
    list.iter()
        .map(|d| {
            let start = &d["range"]["start"];
            let code = d["code"].as_str().unwrap_or_default().to_string();
            (
                code,
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
            )
        })
        .collect()
}
