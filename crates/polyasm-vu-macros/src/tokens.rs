//! The tokens of a `vu_asm!` call as VU source text: one statement per line, each token's
//! text at a known place, so that a diagnostic's byte range leads back to the tokens it
//! covers.
//!
//! Rust tokens carry no line breaks the macro may rely on, and the reference macro ignores
//! them: a statement is a mnemonic and as many operands as the instruction table gives it. A
//! line therefore starts at a known mnemonic, after a statement that has all its operands, or
//! at the first token; anything else joins the line before it, where the assembler reports it.

use std::ops::Range;

use polyasm_vu::ops::Op;
use proc_macro2::{Delimiter, Literal, Span, TokenStream, TokenTree};

/// The integer type suffixes the VU dialect reads (`15u32`).
const INT_SUFFIXES: [&str; 12] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// The text of a macro call and where each token of it lies.
pub struct Source {
    /// The statements, one per line.
    pub text: String,
    /// Each token's byte range in `text` and its span in the Rust source, in text order.
    placed: Vec<(Range<usize>, Span)>,
}

impl Source {
    /// Lays out `input` as source text.
    pub fn new(input: TokenStream) -> Source {
        let mut flat = Vec::new();
        flatten(input, &mut flat);
        let mut source = Source {
            text: String::new(),
            placed: Vec::new(),
        };
        // The tokens of the line, and those of them that may be operands: a stray comma
        // between operands is reported where it stands, not as the start of a statement.
        let (mut line_len, mut filled) = (0, 0);
        let mut arity = None;
        for tree in flat {
            let mnemonic = match &tree {
                TokenTree::Ident(ident) => Op::from_mnemonic(&ident.to_string()),
                _ => None,
            };
            let complete = arity.is_some_and(|n| filled == n + 1);
            if line_len > 0 && (mnemonic.is_some() || complete) {
                source.text.push('\n');
                (line_len, filled) = (0, 0);
            }
            if line_len == 0 {
                arity = mnemonic.map(|op| op.info().operands.len());
            }
            if !matches!(tree, TokenTree::Punct(_)) {
                filled += 1;
            }
            source.push_tree(tree, line_len > 0);
            line_len += 1;
        }
        source
    }

    /// The spans of the first and the last token that `range` of the text covers; for an
    /// empty range, the token it touches or the one before it. `None` when there are no
    /// tokens.
    pub fn spans(&self, range: Range<usize>) -> Option<(Span, Span)> {
        self.covered(range)
            .map(|(first, last)| (self.placed[first].1, self.placed[last].1))
    }

    /// The indices of the first and the last token of [`Source::spans`]. The tokens lie in
    /// text order without overlapping, so both are found by binary search.
    fn covered(&self, range: Range<usize>) -> Option<(usize, usize)> {
        let end = range.end.max(range.start + 1);
        let first = self.placed.partition_point(|(r, _)| r.end <= range.start);
        let after = self.placed.partition_point(|(r, _)| r.start < end);
        if first < after {
            return Some((first, after - 1));
        }
        let before = self.placed.partition_point(|(r, _)| r.start <= range.start);
        match before {
            0 if self.placed.is_empty() => None,
            0 => Some((0, 0)),
            n => Some((n - 1, n - 1)),
        }
    }

    fn push_tree(&mut self, tree: TokenTree, spaced: bool) {
        if spaced {
            self.text.push(' ');
        }
        match tree {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                self.push_text(open, group.span_open());
                let mut inner = Vec::new();
                flatten(group.stream(), &mut inner);
                for tree in inner {
                    self.push_tree(tree, true);
                }
                if !close.is_empty() {
                    self.text.push(' ');
                }
                self.push_text(close, group.span_close());
            }
            TokenTree::Ident(ident) => self.push_text(&ident.to_string(), ident.span()),
            TokenTree::Punct(punct) => self.push_text(&punct.as_char().to_string(), punct.span()),
            TokenTree::Literal(literal) => self.push_text(&literal_text(&literal), literal.span()),
        }
    }

    fn push_text(&mut self, text: &str, span: Span) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.placed.push((start..self.text.len(), span));
    }
}

/// `stream`'s tokens, with the invisible groups that `macro_rules!` fragments arrive in
/// opened up.
fn flatten(stream: TokenStream, out: &mut Vec<TokenTree>) {
    for tree in stream {
        match tree {
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => flatten(group.stream(), out),
            tree => out.push(tree),
        }
    }
}

/// A literal as the VU dialect should read it. An integer keeps its spelling where the
/// dialect reads it as Rust does; where Rust reads it otherwise (`0X5` is `0` with the suffix
/// `X5`, `7px` is `7` with the suffix `px`) it becomes the decimal value Rust gives it, as the
/// reference macro reads it. Any other literal keeps its spelling, with line breaks and
/// slashes blanked out so that it stays on its line and starts no comment: the assembler
/// rejects it where an operand should be.
fn literal_text(literal: &Literal) -> String {
    let text = literal.to_string();
    match syn::Lit::new(literal.clone()) {
        syn::Lit::Int(int) => {
            let suffix = int.suffix();
            let upper_prefix = ["0X", "0B", "0O"].iter().any(|p| text.starts_with(p));
            if (suffix.is_empty() || INT_SUFFIXES.contains(&suffix)) && !upper_prefix {
                text
            } else {
                int.base10_digits().to_string()
            }
        }
        _ => text.replace(['\n', '\r', '/'], " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(tokens: &str) -> String {
        Source::new(tokens.parse().unwrap()).text
    }

    #[test]
    fn statements_are_split_by_mnemonic_and_operand_count() {
        assert_eq!(
            text("ld r0 0 ldc r4 3 mulm r0 r4 st pos r0 end end"),
            "ld r0 0\nldc r4 3\nmulm r0 r4\nst pos r0\nend\nend"
        );
        assert_eq!(
            text("shf r1 r1 xyxy 0b1100 add r0 r1"),
            "shf r1 r1 xyxy 0b1100\nadd r0 r1"
        );
    }

    #[test]
    fn a_short_or_long_statement_keeps_its_tokens_on_its_line() {
        assert_eq!(text("ld r0 st pos r0"), "ld r0\nst pos r0");
        assert_eq!(text("foo r0 r1 r2 ld r0 0"), "foo r0 r1 r2\nld r0 0");
        // A complete statement ends its line; what follows starts the next one.
        assert_eq!(text("add r0 r1 r2 r3"), "add r0 r1\nr2 r3");
        assert_eq!(text("ld r0, 0 st pos, r0"), "ld r0 , 0\nst pos , r0");
    }

    #[test]
    fn integers_read_as_rust_reads_them() {
        assert_eq!(text("ld r0 0x7"), "ld r0 0x7");
        assert_eq!(text("ld r0 7u8"), "ld r0 7u8");
        assert_eq!(text("shf r0 r1 xyzw 0X5"), "shf r0 r1 xyzw 0");
        assert_eq!(text("ld r0 0b11px"), "ld r0 3");
        assert_eq!(text("ld r0 1_0"), "ld r0 1_0");
    }

    #[test]
    fn other_literals_and_groups_stay_on_their_line() {
        assert_eq!(text("ld r0 \"a\n//b\""), "ld r0 \"a   b\"");
        assert_eq!(text("ld r0 1.5"), "ld r0 1.5");
        assert_eq!(text("ld (r0 ld) 0"), "ld ( r0 ld ) 0");
    }

    #[test]
    fn a_range_finds_the_tokens_it_covers() {
        let source = Source::new("ld r0 0 st pos r0".parse().unwrap());
        assert_eq!(source.text, "ld r0 0\nst pos r0");
        assert_eq!(source.covered(3..5), Some((1, 1)));
        assert_eq!(source.covered(4..4), Some((1, 1)));
        assert_eq!(source.covered(0..7), Some((0, 2)));
        // The line break between two statements: the token before it.
        assert_eq!(source.covered(7..7), Some((2, 2)));
        assert_eq!(source.covered(8..8), Some((3, 3)));
        assert_eq!(source.covered(100..100), Some((5, 5)));
        assert_eq!(Source::new(TokenStream::new()).covered(0..0), None);
    }
}
