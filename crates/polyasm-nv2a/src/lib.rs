//! nv2a (original Xbox) vertex programs: assembler, disassembler and emulator.
//!
//! The words match nv2avsh (nv2a_vsh_asm) bit for bit, unused fields included.

pub mod encode;
pub mod error;
pub mod lexer;
pub mod ops;
pub mod parser;

use polyasm_core::front;
use polyasm_core::{Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

pub use encode::AssembleOptions;

use crate::error::Nv2aError;
use crate::lexer::Lexer;

/// Assembles source `file` of `sources`.
pub fn assemble(sources: &SourceMap, file: SourceId, options: AssembleOptions) -> Outcome<Object> {
    let text = sources.get(file).text();
    let mut encoder = encode::Encoder::new(file, text, options);
    front::lex_in_chunks(&mut Lexer::new(text), |tokens, statements, unterminated| {
        for e in unterminated {
            encoder.error(Nv2aError::UnterminatedComment {
                span: Span::new(file, e.open.start, e.open.end),
            });
        }
        front::parse_statements(&parser::statement(), tokens, statements, |parsed| match parsed {
            Ok(statement) => encoder.statement(&statement),
            Err(errors) => {
                for e in errors {
                    let (span, found, expected) = front::describe_syntax_error(&e);
                    encoder.error(Nv2aError::Unexpected {
                        span: Span::new(file, span.start, span.end),
                        found,
                        expected,
                    });
                }
            }
        });
    });
    encoder.finish()
}

/// Assembles a string with `options` and returns its words, or the diagnostics.
pub fn assemble_str(text: &str, options: AssembleOptions) -> Result<Vec<u32>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble(&sources, file, options);
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(object.words().collect()),
        _ => Err(outcome.diagnostics),
    }
}
