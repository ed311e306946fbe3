//! The hand-written byte-loop lexer of the proposed syntax. Tokens borrow nothing: each is a
//! kind and a byte range of the source. `#` starts a comment to the end of the line. A line
//! break ends a statement, except after a trailing `,`: then the instruction goes on over the
//! next lines (blank and comment-only lines included) until a line that does not end in `,`.

use std::ops::Range;

use polyasm_core::front::{StatementLexer, is_ident_continue, scan_while};
use polyasm_core::lines::{line_break_len, line_end};
use polyasm_core::number::{number_end, starts_number};

/// One token of the proposed syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    /// An opcode, label or name: `[A-Za-z_][A-Za-z0-9_]*`.
    Name,
    /// `.` and the letters, digits and `_` right after it: a unit (`.v0`), a swizzle or a write
    /// mask (`.xyz`, `.none`).
    Suffix,
    /// `$` and its digits: a general register.
    Reg,
    /// `^` and the name after it: a pipeline register.
    Pipe,
    /// A number as written: an optional sign, digits, a fraction, an exponent, and any letters
    /// and digits glued to it (`0x7e00`, or a malformed `12ab` the encoder rejects).
    Number,
    /// `-` not followed by a digit: a source's negation.
    Minus,
    /// `+` not followed by a digit: an index offset (`0+$1.x`).
    Plus,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// Any other character; the parser rejects it.
    Other(char),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Name => f.write_str("a name"),
            Tok::Suffix => f.write_str("a `.` suffix"),
            Tok::Reg => f.write_str("a register"),
            Tok::Pipe => f.write_str("a pipeline register"),
            Tok::Number => f.write_str("a number"),
            Tok::Minus => f.write_str("`-`"),
            Tok::Plus => f.write_str("`+`"),
            Tok::Open => f.write_str("`(`"),
            Tok::Close => f.write_str("`)`"),
            Tok::Comma => f.write_str("`,`"),
            Tok::Colon => f.write_str("`:`"),
            Tok::Other(c) => write!(f, "`{}`", c.escape_debug()),
        }
    }
}

/// The deepest nesting of `(` a statement may have (`normalize(-abs($1))` is 2): a deeper
/// `(` lexes as [`Tok::Other`], which the parser rejects, so that the recursive grammar never
/// recurses deeper than this.
pub const MAX_NESTING: u32 = 4;

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
}

impl<'s> StatementLexer<'s> for Lexer<'s> {
    type Token = Tok;
    type Error = std::convert::Infallible;

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Appends the tokens of the next statement (one line, or several joined by trailing
    /// commas) to `out`.
    fn next_statement(&mut self, out: &mut Vec<(Tok, Range<usize>)>) -> Result<(), Self::Error> {
        let bytes = self.text.as_bytes();
        let first = out.len();
        let mut depth = 0u32;
        while self.pos < bytes.len() {
            let start = self.pos;
            let (tok, end) = match bytes[start] {
                b'\n' | b'\r' => {
                    self.pos += line_break_len(bytes, start);
                    if out.len() > first && out.last().is_some_and(|(t, _)| *t == Tok::Comma) {
                        continue;
                    }
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
                b'.' if bytes
                    .get(start + 1)
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') =>
                {
                    (Tok::Suffix, scan_while(bytes, start + 1, is_ident_continue))
                }
                b'$' if bytes.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                    (Tok::Reg, scan_while(bytes, start + 1, is_ident_continue))
                }
                b'^' if bytes.get(start + 1).is_some_and(|b| is_ident_continue(*b)) => {
                    (Tok::Pipe, scan_while(bytes, start + 1, is_ident_continue))
                }
                b'+' | b'-' if starts_number(bytes, start + 1) => (Tok::Number, number_end(bytes, start)),
                // `+-1`, `++1`: one number with two signs, refused as such where a number goes.
                b'+' if matches!(bytes.get(start + 1), Some(b'+' | b'-')) && starts_number(bytes, start + 2) => {
                    (Tok::Number, number_end(bytes, start + 1))
                }
                _ if starts_number(bytes, start) => (Tok::Number, number_end(bytes, start)),
                b'-' => (Tok::Minus, start + 1),
                b'+' => (Tok::Plus, start + 1),
                b'(' if depth < MAX_NESTING => {
                    depth += 1;
                    (Tok::Open, start + 1)
                }
                b'(' => (Tok::Other('('), start + 1),
                b')' => {
                    depth = depth.saturating_sub(1);
                    (Tok::Close, start + 1)
                }
                b',' => (Tok::Comma, start + 1),
                b':' => (Tok::Colon, start + 1),
                _ => {
                    let c = self.text[start..]
                        .chars()
                        .next()
                        .expect("invariant: pos is inside the text");
                    (Tok::Other(c), start + c.len_utf8())
                }
            };
            self.pos = end;
            out.push((tok, start..end));
        }
        Ok(())
    }
}
