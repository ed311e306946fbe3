//! A hand-written byte-loop lexer. Tokens borrow nothing: each is a kind and a byte range of
//! the source. `#` starts a comment to the end of the line; a line break (`\n`, `\r\n` or `\r`)
//! ends a statement, so tokens come one line at a time.

use std::ops::Range;

use polyasm_core::front::{StatementLexer, is_ident_continue, scan_while};
use polyasm_core::lines::{line_break_len, line_end};
use polyasm_core::number::loose_number_end;

/// One token of shader-asm source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    /// An instruction or register name: `[A-Za-z_][A-Za-z0-9_]*`.
    Name,
    /// A number as written: an optional sign, then digits, `.`, letters, `_`, and a sign right
    /// after an `e` or `E`. The encoder checks its form (`1.2.3` is one malformed number).
    Number,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `,`
    Comma,
    /// Any other character; the parser rejects it with a clear message.
    Other(char),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Name => f.write_str("a name"),
            Tok::Number => f.write_str("a number"),
            Tok::Open => f.write_str("`(`"),
            Tok::Close => f.write_str("`)`"),
            Tok::Comma => f.write_str("`,`"),
            Tok::Other(c) => write!(f, "`{}`", c.escape_debug()),
        }
    }
}

/// Lexes `text` on demand, one line of tokens at a time.
pub struct Lexer<'s> {
    text: &'s str,
    pos: usize,
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'s str) -> Lexer<'s> {
        Lexer { text, pos: 0 }
    }
}

impl<'s> StatementLexer<'s> for Lexer<'s> {
    type Token = Tok;
    type Error = std::convert::Infallible;

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Appends the tokens of the next line (without its line break) to `out`.
    fn next_statement(&mut self, out: &mut Vec<(Tok, Range<usize>)>) -> Result<(), Self::Error> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let start = self.pos;
            let (tok, end) = match bytes[start] {
                b'\n' | b'\r' => {
                    self.pos += line_break_len(bytes, start);
                    return Ok(());
                }
                b' ' | b'\t' | b'\x0c' | b'\x0b' => {
                    self.pos += 1;
                    continue;
                }
                b'#' => {
                    self.pos = line_end(bytes, start);
                    continue;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => (Tok::Name, scan_while(bytes, start + 1, is_ident_continue)),
                b'0'..=b'9' | b'.' => (Tok::Number, loose_number_end(bytes, start)),
                b'+' | b'-' if bytes.get(start + 1).is_some_and(|&b| b.is_ascii_digit() || b == b'.') => {
                    (Tok::Number, loose_number_end(bytes, start))
                }
                b'(' => (Tok::Open, start + 1),
                b')' => (Tok::Close, start + 1),
                b',' => (Tok::Comma, start + 1),
                _ => {
                    let c = self.text[start..].chars().next().expect("pos is inside the text");
                    (Tok::Other(c), start + c.len_utf8())
                }
            };
            self.pos = end;
            out.push((tok, start..end));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Vec<(Tok, &str)>> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while !lexer.at_end() {
            let mut line = Vec::new();
            let Ok(()) = lexer.next_statement(&mut line);
            out.push(line.into_iter().map(|(t, r)| (t, &text[r])).collect());
        }
        out
    }

    #[test]
    fn splits_lines_and_drops_comments() {
        let got = lines("add(s0, s1, s2) # c = a + b\n\n  # only a comment\nload ( s0 , -2.5e-3 )");
        assert_eq!(
            got[0],
            [
                (Tok::Name, "add"),
                (Tok::Open, "("),
                (Tok::Name, "s0"),
                (Tok::Comma, ","),
                (Tok::Name, "s1"),
                (Tok::Comma, ","),
                (Tok::Name, "s2"),
                (Tok::Close, ")"),
            ]
        );
        assert!(got[1].is_empty() && got[2].is_empty());
        assert_eq!(got[3][4], (Tok::Number, "-2.5e-3"));
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn numbers_take_signs_fractions_and_exponents() {
        for number in ["1", "-2.5", ".5", "5.", "1e-3", "+4E2", "1.2.3", "0x1f", "1e+", "-.5"] {
            assert_eq!(lines(number), [[(Tok::Number, number)]], "{number}");
        }
        assert_eq!(
            lines("1-2"),
            [[(Tok::Number, "1"), (Tok::Number, "-2")]],
            "a sign starts a number unless it follows an exponent's `e`"
        );
        assert_eq!(lines("- 2")[0][0], (Tok::Other('-'), "-"));
    }

    #[test]
    fn cr_crlf_and_lf_line_breaks_end_lines_alike() {
        let lf = "move(s0, s1) # x\nnegate(s1, s2)\n\nload(s3, 1)";
        let expected = lines(lf);
        for ending in ["\r", "\r\n"] {
            assert_eq!(lines(&lf.replace('\n', ending)), expected, "{ending:?}");
        }
    }

    #[test]
    fn other_characters_are_single_tokens() {
        assert_eq!(lines("é;")[0], [(Tok::Other('é'), "é"), (Tok::Other(';'), ";")]);
    }
}
