//! What the macros expand to: the program's words as a `[u32; N]`, or one `compile_error!`
//! per error, spanned on the tokens the error points at.

use std::fmt::Write as _;
use std::path::PathBuf;

use polyasm_core::diagnostic::{Limit, within_limit};
use polyasm_core::explain::Code;
use polyasm_core::fs::{ReadError, read_regular_file_within};
use polyasm_core::{Diagnostic, SourceMap};
use polyasm_vu::AssembleOptions;
use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

use crate::tokens::Source;

/// The largest file `vu_asm_file!` reads. A VU program is at most 64 statements; the room
/// is for comments.
pub const MAX_FILE_LEN: u64 = 16 << 20;

/// The most errors one call reports, as the command line's `--max-errors` default: past it
/// they are counted, and the count is one more error, so that a call of a million mistakes
/// costs the compiler the same as one of a hundred.
pub const MAX_ERRORS: usize = 100;

/// Assembles source `id` with at most [`MAX_ERRORS`] errors kept; gives the words, or the
/// errors and how many more there were.
fn assemble(sources: &SourceMap, id: polyasm_core::SourceId) -> Result<Vec<u32>, (Vec<Diagnostic>, usize)> {
    let limit = Limit {
        errors: Some(MAX_ERRORS),
        ..Limit::default()
    };
    let (outcome, hidden) = within_limit(limit, || {
        polyasm_vu::assemble_with_listing(sources, id, AssembleOptions::default(), false)
    });
    match outcome.value {
        Some(object) if !outcome.has_errors() => Ok(object.words().collect()),
        _ => Err((
            outcome.diagnostics.into_iter().filter(Diagnostic::is_error).collect(),
            hidden.errors,
        )),
    }
}

/// The error that counts the errors not reported.
fn more_errors(hidden: usize) -> Option<(Span, Span, String)> {
    (hidden > 0).then(|| {
        let span = Span::call_site();
        let plural = if hidden == 1 { "" } else { "s" };
        (span, span, format!("{hidden} more error{plural} not shown"))
    })
}

/// `vu_asm! { ... }`.
pub fn inline(input: TokenStream) -> TokenStream {
    let source = Source::new(input);
    let mut sources = SourceMap::new();
    let file = sources.add("vu_asm!", source.text.clone());
    match assemble(&sources, file) {
        Ok(found) => words(found.into_iter()),
        Err((errors, hidden)) => compile_errors(
            errors
                .iter()
                .map(|d| {
                    let (start, end) = d
                        .primary_label()
                        .and_then(|label| source.spans(label.span.range()))
                        .unwrap_or((Span::call_site(), Span::call_site()));
                    (start, end, message(d, None))
                })
                .chain(more_errors(hidden)),
        ),
    }
}

/// `vu_asm_file!("path")`.
pub fn file(input: TokenStream) -> TokenStream {
    let literal: syn::LitStr = match syn::parse2(input.clone()) {
        Ok(literal) => literal,
        Err(error) => {
            let span = input.into_iter().next().map_or(Span::call_site(), |t| t.span());
            let text = format!(
                "[{}] {}\nhelp: write the path of a .vu file as one string literal: vu_asm_file!(\"shaders/program.vu\")",
                Code::InvalidArguments.as_str(),
                error
            );
            return compile_errors([(span, span, text)].into_iter());
        }
    };
    let span = literal.span();
    let fail = |diagnostic: &Diagnostic, sources: &SourceMap| {
        compile_errors(std::iter::once((span, span, message(diagnostic, Some(sources)))))
    };
    let name = literal.value();
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let path = base.join(&name);
    let mut sources = SourceMap::new();
    let bytes = match read_regular_file_within(&path, MAX_FILE_LEN) {
        Ok(bytes) => bytes,
        Err(error) => {
            let diagnostic = match error {
                ReadError::TooLarge => Diagnostic::error(
                    Code::FileTooLarge,
                    format!("cannot read {name}: it is larger than {} MiB", MAX_FILE_LEN >> 20),
                ),
                ReadError::Io(error) => Diagnostic::error(
                    Code::CannotReadInput,
                    format!("cannot read {name}: {}", polyasm_core::fs::reason(&error)),
                )
                .with_help("the path is relative to the folder of the crate's Cargo.toml"),
            };
            return fail(&diagnostic, &sources);
        }
    };
    let text = match polyasm_core::text::source_text(&mut sources, &name, bytes) {
        Ok(text) => text,
        Err(diagnostic) => return fail(&diagnostic, &sources),
    };
    let id = sources.add(name, text);
    let found = match assemble(&sources, id) {
        Ok(found) => found,
        Err((errors, hidden)) => {
            return compile_errors(
                errors
                    .iter()
                    .map(|d| (span, span, message(d, Some(&sources))))
                    .chain(more_errors(hidden)),
            );
        }
    };
    let words = words(found.into_iter());
    // Cargo rebuilds a crate when a file that `include_bytes!` read changes. The constant is
    // never used, so the bytes stay out of the program.
    match path.to_str().filter(|_| path.is_absolute()) {
        Some(tracked) => quote!({
            const _: &[u8] = ::core::include_bytes!(#tracked);
            #words
        }),
        None => words,
    }
}

/// `[w0u32, w1u32, ...]`, the expansion of the reference macro.
fn words(words: impl Iterator<Item = u32>) -> TokenStream {
    let words = words.map(Literal::u32_suffixed);
    quote!([#(#words),*])
}

/// One `compile_error!` per (first span, last span, message), in a block whose value is the
/// last one, so that the call's type raises no further error.
fn compile_errors(errors: impl Iterator<Item = (Span, Span, String)>) -> TokenStream {
    let calls = errors.map(|(start, end, message)| {
        // The path takes the first span and the arguments the last: the compiler reports the
        // error over both.
        let mut text = Literal::string(&message);
        text.set_span(end);
        let mut arguments = Group::new(Delimiter::Parenthesis, TokenTree::from(text).into());
        arguments.set_span(end);
        let mut call = quote_spanned!(start=> ::core::compile_error!);
        call.extend([TokenTree::from(arguments)]);
        call
    });
    quote!({ #(#calls);* })
}

/// A diagnostic as one compile error's text: `[CODE] message: label`, then a line for each
/// other label, note and the help. With `sources`, places are written `file:line:col`.
fn message(diagnostic: &Diagnostic, sources: Option<&SourceMap>) -> String {
    let place = |label: &polyasm_core::Label| match sources {
        Some(sources) => {
            let source = sources.get(label.span.source);
            format!("{}:{}: ", source.name(), source.line_col(label.span.start as usize))
        }
        None => String::new(),
    };
    let mut text = format!("[{}] ", diagnostic.code);
    match diagnostic.primary_label() {
        Some(label) => {
            text.push_str(&place(label));
            text.push_str(&diagnostic.message);
            if !label.message.is_empty() {
                let _ = write!(text, ": {}", label.message);
            }
        }
        None => text.push_str(&diagnostic.message),
    }
    for label in diagnostic.labels.iter().filter(|l| !l.primary && !l.message.is_empty()) {
        let _ = write!(text, "\nnote: {}{}", place(label), label.message);
    }
    for note in &diagnostic.notes {
        let _ = write!(text, "\nnote: {note}");
    }
    if let Some(help) = &diagnostic.help {
        let _ = write!(text, "\nhelp: {help}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages of the `compile_error!`s in an expansion, in order.
    fn errors(expansion: &TokenStream) -> Vec<String> {
        let mut found = Vec::new();
        let mut trees = expansion.clone().into_iter().peekable();
        let Some(TokenTree::Group(block)) = trees.next() else {
            return found;
        };
        let mut last_ident = String::new();
        for tree in block.stream() {
            match tree {
                TokenTree::Ident(ident) => last_ident = ident.to_string(),
                TokenTree::Group(group) if last_ident == "compile_error" => {
                    let literal: syn::LitStr = syn::parse2(group.stream()).expect("a string");
                    found.push(literal.value());
                }
                _ => {}
            }
        }
        found
    }

    #[test]
    fn a_file_assembles_to_its_words_and_is_tracked() {
        let expansion = file(quote!("tests/files/transform.vu")).to_string();
        assert!(expansion.contains("include_bytes"), "{expansion}");
        assert!(expansion.contains("tests/files/transform.vu"), "{expansion}");
        assert!(
            expansion
                .contains("[0u32 , 2112u32 , 258u32 , 1346u32 , 2434u32 , 3522u32 , 4120u32 , 1u32 , 1153u32 , 63u32]"),
            "{expansion}"
        );
    }

    #[test]
    fn every_mistake_in_a_file_is_an_error_with_its_line_and_column() {
        let found = errors(&file(quote!("tests/files/mistakes.vu")));
        assert_eq!(
            found,
            [
                "[VU006] tests/files/mistakes.vu:3:8: register `r01` is written with a leading zero: leading zero\n\
                 help: write `r1`: register names have no leading zeros, as in the reference assembler",
                "[VU008] tests/files/mistakes.vu:4:16: mask 16 does not fit in 4 bits: at most 0b1111\n\
                 help: the mask has one bit per lane: 0b0001 = x, 0b0010 = y, 0b0100 = z, 0b1000 = w",
            ]
        );
    }

    #[test]
    fn a_binary_file_is_pa002_at_its_first_invalid_byte() {
        let found = errors(&file(quote!("tests/files/binary.vu")));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("[PA002] tests/files/binary.vu:1:7: tests/files/binary.vu is not UTF-8 text"),
            "{found:?}"
        );
    }

    #[test]
    fn a_missing_file_or_a_folder_is_pa001_with_the_reason() {
        let found = errors(&file(quote!("tests/files/none.vu")));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("[PA001] cannot read tests/files/none.vu: "),
            "{found:?}"
        );
        assert!(found[0].ends_with("help: the path is relative to the folder of the crate's Cargo.toml"));
        let found = errors(&file(quote!("tests")));
        assert!(found[0].starts_with("[PA001] cannot read tests: "), "{found:?}");
        let found = errors(&file(quote!("")));
        assert!(found[0].starts_with("[PA001] cannot read : "), "{found:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("polyasm-vu-macros-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("program.vu");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let path = fifo.to_str().unwrap();
        let found = errors(&file(quote!(#path)));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("it is not a regular file"), "{found:?}");
    }

    #[test]
    fn anything_but_one_string_literal_is_pa015() {
        for input in [quote!(), quote!(x), quote!("a.vu", "b.vu"), quote!(b"a.vu")] {
            let found = errors(&file(input.clone()));
            assert_eq!(found.len(), 1, "{input}: {found:?}");
            assert!(found[0].starts_with("[PA015] "), "{input}: {found:?}");
        }
    }

    #[test]
    fn inline_errors_carry_the_command_line_text() {
        let found = errors(&inline(quote!(ld r0 9 st pos r0 st)));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("[VU007] input slot 9 is out of range"),
            "{found:?}"
        );
        assert!(found[1].starts_with("[VU004] `st` is missing"), "{found:?}");
        assert_eq!(inline(quote!()).to_string(), "[63u32]");
    }

    #[test]
    fn past_a_hundred_errors_the_rest_are_counted() {
        let mut tokens = TokenStream::new();
        for _ in 0..250 {
            tokens.extend(quote!(ld r0 9));
        }
        let found = errors(&inline(tokens));
        assert_eq!(found.len(), MAX_ERRORS + 1);
        // In the order of the source: 64 slot errors, the 65th instruction too many, 35 more.
        assert!(found[64].starts_with("[VU010] "), "{}", found[64]);
        let slots = found[..MAX_ERRORS].iter().filter(|e| e.starts_with("[VU007] ")).count();
        assert_eq!(slots, MAX_ERRORS - 1);
        assert_eq!(found[MAX_ERRORS], "151 more errors not shown");
    }
}
