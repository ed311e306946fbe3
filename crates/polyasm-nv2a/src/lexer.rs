//! A hand-written byte-loop lexer. Tokens borrow from the source; comments (`//`, `;` and
//! `/* */`) and whitespace vanish. A line break (`\n`, `\r\n` or `\r`) ends a statement unless
//! the statement is being paired: the line ends with `+` or the next line that has code starts
//! with `+`.

use std::ops::Range;

use polyasm_core::front::{StatementLexer, UnterminatedComment, block_comment_end, is_ident_continue, scan_while};
use polyasm_core::lines::{line_break_len, line_end};

/// One token of nv2a source: its kind only, 4 bytes, since the parser needs no more; the
/// encoder reads a token's text from the source by its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    /// A mnemonic, register or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
    Ident,
    /// A number as written: a digit followed by letters, digits and `_` (`12`, `0x1b`).
    Int,
    /// A `.` and the identifier after it: a swizzle or mask (`.xyz`) or a directive (`.word`).
    Dotted,
    /// A uniform name with its `#`: `#model_matrix`.
    Uniform,
    /// An operation macro with its `%`: `%matmul4x4`.
    Macro,
    /// Any other character: `,` `[` `]` `+` `-`, or one the parser rejects.
    Punct(char),
}

/// How a token kind reads in "expected ..." (a found token is quoted from the source instead).
impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident => f.write_str("a name"),
            Tok::Int => f.write_str("a number"),
            Tok::Dotted => f.write_str("a `.` suffix"),
            Tok::Uniform => f.write_str("a uniform"),
            Tok::Macro => f.write_str("a macro"),
            Tok::Punct(c) => write!(f, "`{c}`"),
        }
    }
}

/// Lexes `text` on demand, one statement of tokens at a time.
pub struct Lexer<'s> {
    text: &'s str,
    pos: usize,
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'s str) -> Lexer<'s> {
        Lexer { text, pos: 0 }
    }

    /// Whether the next byte that is not whitespace or comment is a `+`, i.e. the statement
    /// goes on in a pairing. Looks ahead without consuming anything.
    fn continues_with_plus(&self) -> bool {
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        while i < bytes.len() {
            match bytes[i] {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' => i += 1,
                b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
                b';' => i = line_end(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'*') => match block_comment_end(bytes, i) {
                    Some(end) => i = end,
                    None => return false,
                },
                b => return b == b'+',
            }
        }
        false
    }
}

impl<'s> StatementLexer<'s> for Lexer<'s> {
    type Token = Tok;
    type Error = UnterminatedComment;

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn next_statement(&mut self, out: &mut Vec<(Tok, Range<usize>)>) -> Result<(), UnterminatedComment> {
        let bytes = self.text.as_bytes();
        let first = out.len();
        while self.pos < bytes.len() {
            let start = self.pos;
            let b = bytes[start];
            // Spaces are the most common byte between tokens: skip them before the dispatch.
            if b == b' ' {
                self.pos += 1;
                continue;
            }
            let token = match b {
                b'\n' | b'\r' => {
                    self.pos += line_break_len(bytes, start);
                    let pairing = out.len() > first
                        && (matches!(out.last(), Some((Tok::Punct('+'), _))) || self.continues_with_plus());
                    if pairing {
                        continue;
                    }
                    return Ok(());
                }
                b' ' | b'\t' | b'\x0c' => {
                    self.pos += 1;
                    continue;
                }
                b'/' if bytes.get(start + 1) == Some(&b'/') => {
                    self.pos = line_end(bytes, start);
                    continue;
                }
                b';' => {
                    self.pos = line_end(bytes, start);
                    continue;
                }
                b'/' if bytes.get(start + 1) == Some(&b'*') => match block_comment_end(bytes, start) {
                    Some(end) => {
                        self.pos = end;
                        continue;
                    }
                    None => {
                        self.pos = bytes.len();
                        return Err(UnterminatedComment { open: start..start + 2 });
                    }
                },
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    self.pos = scan_while(bytes, start + 1, is_ident_continue);
                    Tok::Ident
                }
                b'0'..=b'9' => {
                    self.pos = scan_while(bytes, start + 1, is_ident_continue);
                    Tok::Int
                }
                b'.' | b'#' | b'%' if bytes.get(start + 1).copied().is_some_and(is_ident_continue) => {
                    self.pos = scan_while(bytes, start + 1, is_ident_continue);
                    match b {
                        b'.' => Tok::Dotted,
                        b'#' => Tok::Uniform,
                        _ => Tok::Macro,
                    }
                }
                _ if b.is_ascii() => {
                    self.pos += 1;
                    Tok::Punct(char::from(b))
                }
                _ => {
                    let c = self.text[start..]
                        .chars()
                        .next()
                        .expect("pos is on a char boundary inside the text");
                    self.pos += c.len_utf8();
                    Tok::Punct(c)
                }
            };
            out.push((token, start..self.pos));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each statement's tokens, as kinds with their text.
    fn statements(text: &str) -> Vec<Vec<(Tok, &str)>> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while !lexer.at_end() {
            let mut tokens = Vec::new();
            lexer.next_statement(&mut tokens).unwrap();
            if !tokens.is_empty() {
                out.push(tokens.into_iter().map(|(t, span)| (t, &text[span])).collect());
            }
        }
        out
    }

    #[test]
    fn lexes_registers_swizzles_uniforms_and_macros() {
        let got = statements("mad r0, iPos.x, #m[0], -c[A0+60] ; c\n%norm3 r0 v2 r1 // c\n");
        use Tok::*;
        assert_eq!(
            got[0],
            [
                (Ident, "mad"),
                (Ident, "r0"),
                (Punct(','), ","),
                (Ident, "iPos"),
                (Dotted, ".x"),
                (Punct(','), ","),
                (Uniform, "#m"),
                (Punct('['), "["),
                (Int, "0"),
                (Punct(']'), "]"),
                (Punct(','), ","),
                (Punct('-'), "-"),
                (Ident, "c"),
                (Punct('['), "["),
                (Ident, "A0"),
                (Punct('+'), "+"),
                (Int, "60"),
                (Punct(']'), "]"),
            ]
        );
        assert_eq!(got[1], [(Macro, "%norm3"), (Ident, "r0"), (Ident, "v2"), (Ident, "r1")]);
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn a_plus_at_either_end_of_a_line_joins_the_lines() {
        let got =
            statements("mov oD0, v3\n\n// comment\n+ rcp r1.w, r1.w\nmov r0, v0 +\n  rcp r1.x, v0.x\nmov r2, v0\n");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].len(), 11);
        assert_eq!(got[1][4], (Tok::Punct('+'), "+"));
        assert_eq!(got[2][0], (Tok::Ident, "mov"));
    }

    #[test]
    fn cr_crlf_and_lf_line_breaks_end_statements_alike() {
        let lf = "mov oD0, v3 // c\n\n; c\n+ rcp r1.w, r1.w\nmov r0, v0 +\n  rcp r1.x, v0.x\nmov r2, v0\n";
        let expected = statements(lf);
        assert_eq!(expected.len(), 3);
        for ending in ["\r", "\r\n"] {
            assert_eq!(statements(&lf.replace('\n', ending)), expected, "{ending:?}");
        }
        let mixed = "mov oD0, v3 // c\r\r\n; c\n+ rcp r1.w, r1.w\rmov r0, v0 +\r\n  rcp r1.x, v0.x\rmov r2, v0";
        assert_eq!(statements(mixed), expected);
    }

    #[test]
    fn block_comments_do_not_nest_and_must_close() {
        assert_eq!(
            statements("/* a /* b */ mov r0, v0"),
            [statements("mov r0, v0")[0].clone()]
        );
        let mut lexer = Lexer::new("mov /* open");
        let mut tokens = Vec::new();
        assert_eq!(
            lexer.next_statement(&mut tokens),
            Err(UnterminatedComment { open: 4..6 })
        );
        assert!(lexer.at_end());
    }

    #[test]
    fn stray_characters_are_single_punct_tokens() {
        let mut lexer = Lexer::new("é# .");
        let mut tokens = Vec::new();
        lexer.next_statement(&mut tokens).unwrap();
        assert_eq!(
            tokens,
            [
                (Tok::Punct('é'), 0..2),
                (Tok::Punct('#'), 2..3),
                (Tok::Punct('.'), 4..5)
            ]
        );
    }
}
