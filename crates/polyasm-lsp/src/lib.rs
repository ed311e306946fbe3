//! `polyasm lsp`: one Language Server Protocol server for every target of a [`Registry`]. The
//! server holds nothing dialect-specific: it checks a document with its target's
//! [`assemble`](polyasm_core::Target::assemble), as `polyasm check` does, and reports the
//! diagnostics in the protocol's form.
//!
//! - [`transport`]: the `Content-Length` framing, read defensively.
//! - [`document`]: open documents, their edits, and positions in UTF-16 code units.
//! - `check`: a document's diagnostics, grouped by the file they are in.
//! - [`serve`]: the loop.

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
