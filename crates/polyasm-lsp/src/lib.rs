//! `polyasm lsp`: one Language Server Protocol server for every target of a [`Registry`]. The
//! server holds nothing dialect-specific: it checks a document with its target's
//! [`assemble`](polyasm_core::Target::assemble), as `polyasm check` does, and reports the
//! diagnostics in the protocol's form.
//!
//! - [`transport`]: the `Content-Length` framing, read defensively.
//! - [`document`]: open documents, their edits, and positions in UTF-16 code units.
//! - `check`: a document's diagnostics, grouped by the file they are in.
//! - [`serve`]: the loop.
//!
//! A whole session on in-memory streams: the client opens a VU file with an unknown mnemonic,
//! and the server publishes its diagnostic.
//!
//! ```
//! use std::io::Cursor;
//!
//! fn frame(body: &str) -> String {
//!     format!("Content-Length: {}\r\n\r\n{body}", body.len())
//! }
//!
//! let uri = "file:///tmp/demo.vu";
//! let open = format!(
//!     r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{uri}","languageId":"vu","version":1,"text":"lod r0 0\n"}}}}}}"#
//! );
//! let input = [
//!     frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#),
//!     frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
//!     frame(&open),
//!     frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
//!     frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
//! ]
//! .concat();
//!
//! let mut output = Vec::new();
//! let ended = polyasm_lsp::serve(polyasm::registry(), Cursor::new(input), &mut output).unwrap();
//! assert_eq!(ended, polyasm_lsp::Ended::Exit);
//! let output = String::from_utf8(output).unwrap();
//! assert!(output.contains("textDocument/publishDiagnostics"));
//! assert!(output.contains(r#""code":"VU002""#));
//! ```

#![warn(missing_docs)]

mod check;
pub mod document;
mod features;
mod index;
mod server;
pub mod transport;
mod uri;

use polyasm_core::Registry;

pub use server::{Ended, serve};

/// Serves standard input and output until `exit`; the process's exit status follows
/// (0 after `shutdown`, 1 otherwise or when standard output is gone).
pub fn serve_stdio(registry: &Registry) -> std::process::ExitCode {
    let input = std::io::BufReader::new(std::io::stdin());
    match serve(registry, input, std::io::stdout().lock()) {
        Ok(Ended::Exit) => std::process::ExitCode::SUCCESS,
        Ok(Ended::Abrupt) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("polyasm lsp: cannot write to the client: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
