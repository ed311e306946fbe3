//! A hand-written byte-loop lexer. Tokens borrow from the source; comments and whitespace
//! vanish; a line break (`\n`, `\r\n` or `\r`) outside comments ends a statement, so tokens
//! come one line at a time.

use std::ops::Range;

use polyasm_core::front::{StatementLexer, UnterminatedComment, is_ident_continue, scan_while};
use polyasm_core::lines::{line_break_len, line_end};

/// One token of VU source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok<'s> {
    /// A mnemonic, register, output or swizzle: `[A-Za-z_][A-Za-z0-9_]*`.
    Ident(&'s str),
    /// A number as written: a digit followed by letters, digits and `_` (`0b0011`, `12`).
    Int(&'s str),
    /// A `.` followed by an identifier: `.word`.
    Directive(&'s str),
    /// Any other character; the parser rejects it with a clear message.
    Punct(char),
}

impl std::fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Int(s) | Tok::Directive(s) => write!(f, "`{s}`"),
            Tok::Punct(c) => write!(f, "`{c}`"),
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
    type Token = Tok<'s>;
    type Error = UnterminatedComment;

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Appends the tokens of the next line (without its newline) to `out`. Block comments may
    /// span lines; their newlines do not end the statement.
    fn next_statement(&mut self, out: &mut Vec<(Tok<'s>, Range<usize>)>) -> Result<(), UnterminatedComment> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let start = self.pos;
            let b = bytes[start];
            match b {
                b'\n' | b'\r' => {
                    self.pos += line_break_len(bytes, start);
                    return Ok(());
                }
                b' ' | b'\t' | b'\x0c' => self.pos += 1,
                b'/' if bytes.get(start + 1) == Some(&b'/') => {
                    self.pos = line_end(bytes, start);
                }
                b'/' if bytes.get(start + 1) == Some(&b'*') => self.skip_block_comment()?,
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let end = scan_while(bytes, start + 1, is_ident_continue);
                    self.pos = end;
                    out.push((Tok::Ident(&self.text[start..end]), start..end));
                }
                b'0'..=b'9' => {
                    let end = scan_while(bytes, start + 1, is_ident_continue);
                    self.pos = end;
                    out.push((Tok::Int(&self.text[start..end]), start..end));
                }
                b'.' if bytes
                    .get(start + 1)
                    .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_') =>
                {
                    let end = scan_while(bytes, start + 1, is_ident_continue);
                    self.pos = end;
                    out.push((Tok::Directive(&self.text[start..end]), start..end));
                }
                _ => {
                    let c = self.text[start..].chars().next().expect("pos is inside the text");
                    self.pos += c.len_utf8();
                    out.push((Tok::Punct(c), start..self.pos));
                }
            }
        }
        Ok(())
    }
}

impl Lexer<'_> {
    /// Skips a `/* ... */` comment; like Rust's, they nest.
    fn skip_block_comment(&mut self) -> Result<(), UnterminatedComment> {
        let bytes = self.text.as_bytes();
        let open = self.pos;
        let mut depth = 0usize;
        let mut i = self.pos;
        while i < bytes.len() {
            match (bytes[i], bytes.get(i + 1)) {
                (b'/', Some(b'*')) => {
                    depth += 1;
                    i += 2;
                }
                (b'*', Some(b'/')) => {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        self.pos = i;
                        return Ok(());
                    }
                }
                _ => i += 1,
            }
        }
        self.pos = bytes.len();
        Err(UnterminatedComment { open: open..open + 2 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Vec<Tok<'_>>> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while !lexer.at_end() {
            let mut line = Vec::new();
            lexer.next_statement(&mut line).unwrap();
            out.push(line.into_iter().map(|(t, _)| t).collect());
        }
        out
    }

    #[test]
    fn splits_lines_and_drops_comments() {
        let got = lines("ld r0 0 // c\nshf r1 r1 xyxy 0b1111\n/* a\n b */ end, .word 0x3f");
        assert_eq!(got[0], [Tok::Ident("ld"), Tok::Ident("r0"), Tok::Int("0")]);
        assert_eq!(got[1][4], Tok::Int("0b1111"));
        assert_eq!(
            got[2],
            [
                Tok::Ident("end"),
                Tok::Punct(','),
                Tok::Directive(".word"),
                Tok::Int("0x3f")
            ]
        );
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn cr_crlf_and_lf_line_breaks_end_lines_alike() {
        let lf = "ld r0 0 // c\nshf r1 r1 xyxy 0b1111\n/* a\n b */ end, .word 0x3f";
        let expected = lines(lf);
        for ending in ["\r", "\r\n"] {
            assert_eq!(lines(&lf.replace('\n', ending)), expected, "{ending:?}");
        }
        assert_eq!(
            lines("ld r0 0 // c\r\nshf r1 r1 xyxy 0b1111\r/* a\n b */ end, .word 0x3f"),
            expected
        );
        let program = "ld r0 0 // c\nldc r4 0\nmulm r0 r4\nst pos r0\n";
        let words = crate::assemble_str(program).expect("assembles");
        for ending in ["\r", "\r\n"] {
            assert_eq!(crate::assemble_str(&program.replace('\n', ending)), Ok(words.clone()));
        }
    }

    #[test]
    fn block_comments_nest_and_must_close() {
        assert_eq!(lines("/* a /* b */ c */ end"), [[Tok::Ident("end")]]);
        let mut lexer = Lexer::new("end /* open /* inner */");
        let mut line = Vec::new();
        assert_eq!(lexer.next_statement(&mut line), Err(UnterminatedComment { open: 4..6 }));
    }

    #[test]
    fn multibyte_characters_are_single_punct_tokens() {
        let mut lexer = Lexer::new("é1");
        let mut line = Vec::new();
        lexer.next_statement(&mut line).unwrap();
        assert_eq!(line, [(Tok::Punct('é'), 0..2), (Tok::Int("1"), 2..3)]);
    }
}
