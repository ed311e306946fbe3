//! The language server, in process, over pipes: from a one-character edit of a 5,000-line
//! document to its published diagnostics, per dialect; hover, completion, references and
//! semantic tokens on it; and a new server answering `initialize`. Run with
//! `cargo bench -p polyasm-lsp`.

use std::io::{BufReader, Write};

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::Message;
use polyasm_core::Registry;
use polyasm_lsp::transport::{Frame, read_frame};
use serde_json::{Value, json};

/// A dialect as the bench writes it: its extension, an example, its comment marker, the
/// start of the lines kept once at the top (declarations), and the starts of the lines left
/// out (labels and branches, which would be defined twice, and Lima's `stop`).
struct Dialect {
    ext: &'static str,
    example: &'static str,
    comment: &'static str,
    header: &'static [&'static str],
    dropped: &'static [&'static str],
}

/// The five dialects, with the examples `scripts/assembly-speed` repeats, the same way.
const DIALECTS: &[Dialect] = &[
    Dialect {
        ext: "vu",
        example: include_str!("../../../examples/vu/wave.vu"),
        comment: "//",
        header: &[],
        dropped: &[],
    },
    Dialect {
        ext: "vsh",
        example: include_str!("../../../examples/nv2a/lighting.vsh"),
        comment: "//",
        header: &["#"],
        dropped: &[],
    },
    Dialect {
        ext: "mx",
        example: include_str!("../../../examples/masfix/sieve.mx"),
        comment: ";",
        header: &["%define"],
        dropped: &[":", "b", "jmp"],
    },
    Dialect {
        ext: "sasm",
        example: include_str!("../../../examples/shader/sphere.sasm"),
        comment: "#",
        header: &[],
        dropped: &[],
    },
    Dialect {
        ext: "pp",
        example: include_str!("../../../examples/lima/procedural.pp"),
        comment: "#",
        header: &[],
        dropped: &["stop"],
    },
];

const LINES: usize = 5000;

fn registry() -> &'static Registry {
    polyasm::registry()
}

/// The dialect's example without comments, its declarations once and its other lines
/// repeated, [`LINES`] lines in all.
fn document(dialect: &Dialect) -> String {
    let code = |line: &'static str| line.split(dialect.comment).next().unwrap_or_default().trim_end();
    let lines: Vec<&str> = dialect
        .example
        .lines()
        .map(code)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let starts = |line: &str, with: &[&str]| with.iter().any(|w| line.trim_start().starts_with(w));
    let mut out: Vec<&str> = lines.iter().copied().filter(|l| starts(l, dialect.header)).collect();
    let body: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !starts(l, dialect.header) && !starts(l, dialect.dropped))
        .collect();
    out.extend(body.iter().cycle().take(LINES - out.len()));
    out.join("\n") + "\n"
}

/// A server on a thread, talked to through pipes.
struct Session {
    input: std::io::PipeWriter,
    output: BufReader<std::io::PipeReader>,
    next_id: i64,
}

impl Session {
    fn start() -> Session {
        let (server_in, input) = std::io::pipe().expect("a pipe");
        let (output, server_out) = std::io::pipe().expect("a pipe");
        std::thread::spawn(move || polyasm_lsp::serve(registry(), BufReader::new(server_in), server_out));
        Session {
            input,
            output: BufReader::new(output),
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
    }

    /// Reads messages until one that `wanted` accepts.
    fn until(&mut self, wanted: impl Fn(&Message) -> bool) -> Message {
        loop {
            match read_frame(&mut self.output).expect("the server writes") {
                Some(Frame::Message(m)) if wanted(&m) => return m,
                Some(_) => {}
                None => panic!("the server stopped"),
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Message {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.until(|m| matches!(m, Message::Response(r) if r.id == (id as i32).into()))
    }

    fn initialized() -> Session {
        let mut session = Session::start();
        session.request("initialize", json!({ "capabilities": {} }));
        session
    }

    fn diagnostics(&mut self) -> Message {
        self.until(|m| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics"))
    }
}

fn edit_to_diagnostics(c: &mut Criterion) {
    let mut group = c.benchmark_group("edit to diagnostics, 5000 lines");
    for dialect in DIALECTS {
        let (mut session, uri) = opened(dialect);
        let mut version = 1;
        group.bench_function(dialect.ext, |b| {
            b.iter(|| {
                // Insert a space at the start of the last line, then take it out again, in turns.
                version += 1;
                let (range, text) = if version % 2 == 0 {
                    (json!({ "start": { "line": LINES - 1, "character": 0 }, "end": { "line": LINES - 1, "character": 0 } }), " ")
                } else {
                    (json!({ "start": { "line": LINES - 1, "character": 0 }, "end": { "line": LINES - 1, "character": 1 } }), "")
                };
                let change = json!({ "range": range, "text": text });
                let params = json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] });
                session.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": params }));
                session.diagnostics()
            })
        });
    }
    group.finish();
}

/// Where each bench document's requests point: the first line's mnemonic, and a name used
/// in an operand (a constant for Masfix, a uniform for nv2a, a register elsewhere).
const MNEMONIC_AT: (u32, u32) = (0, 1);
fn name_at(ext: &str) -> (u32, u32) {
    match ext {
        "mx" => (5, 10),   // `%COUNT` in `mov %COUNT`
        "vsh" => (9, 16),  // `#light_dir` in `dp3 r2.x, r0, #light_dir`
        "vu" => (0, 4),    // `r0` in `ld r0 0`
        "sasm" => (0, 17), // `s0` in `getComponent0(s, s0)`
        _ => (0, 8),       // `$1` in `load.v $1.xy 0.xy`
    }
}

/// Opens the dialect's bench document in a new server.
fn opened(dialect: &Dialect) -> (Session, String) {
    let mut session = Session::initialized();
    let ext = dialect.ext;
    let uri = format!("file:///bench/doc.{ext}");
    let item = json!({ "uri": uri, "languageId": ext, "version": 1, "text": document(dialect) });
    session.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": item } }));
    session.diagnostics();
    (session, uri)
}

/// Hover, completion, references and the semantic tokens of the whole document, per dialect.
fn requests(c: &mut Criterion) {
    let mut group = c.benchmark_group("requests, 5000 lines");
    group.measurement_time(std::time::Duration::from_secs(2));
    group.warm_up_time(std::time::Duration::from_secs(1));
    for dialect in DIALECTS {
        let (mut session, uri) = opened(dialect);
        let ext = dialect.ext;
        let at = |(line, character): (u32, u32)| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        group.bench_function(format!("hover {ext}"), |b| {
            b.iter(|| session.request("textDocument/hover", at(MNEMONIC_AT)))
        });
        group.bench_function(format!("completion {ext}"), |b| {
            b.iter(|| session.request("textDocument/completion", at(name_at(ext))))
        });
        let mut references = at(name_at(ext));
        references["context"] = json!({ "includeDeclaration": true });
        group.bench_function(format!("references {ext}"), |b| {
            b.iter(|| session.request("textDocument/references", references.clone()))
        });
        let whole = json!({ "textDocument": { "uri": uri } });
        group.bench_function(format!("semantic tokens {ext}"), |b| {
            b.iter(|| session.request("textDocument/semanticTokens/full", whole.clone()))
        });
        // What an editor shows: 100 lines in the middle.
        let mut shown = whole.clone();
        shown["range"] = json!({ "start": { "line": 2500, "character": 0 }, "end": { "line": 2599, "character": 0 } });
        group.bench_function(format!("semantic tokens of 100 lines {ext}"), |b| {
            b.iter(|| session.request("textDocument/semanticTokens/range", shown.clone()))
        });
    }
    group.finish();
}

fn start_up(c: &mut Criterion) {
    c.bench_function("new server to initialize answered", |b| b.iter(Session::initialized));
}

criterion_group!(benches, edit_to_diagnostics, requests, start_up);
criterion_main!(benches);
