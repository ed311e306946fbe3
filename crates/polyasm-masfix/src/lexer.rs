//! A hand-written byte-loop lexer for Masfix. Tokens are runs of digits, runs of letters,
//! single punctuation characters, the token-list brackets `( ) [ ] { }`, `,`, `:`, character
//! literals and strings, and line breaks (a statement ends at each). `;` starts a comment to the
//! end of the line. A token written right after the previous one, with no space between, is
//! *joined* to it: `str&m>` is five joined tokens that the parser reads as one name, and `ld7`
//! is one name (not `ld 7`).

use polyasm_core::lines::{line_break_len, line_end};
use polyasm_core::{SourceId, Span};

/// What a token is; its text is read from the source by its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    /// Decimal digits: `65535`.
    Number,
    /// ASCII letters: `ldamt`.
    Letters,
    /// `(`, `[` or `{`: the bracket.
    Open(char),
    /// `)`, `]` or `}`.
    Close(char),
    /// `,`: separates a macro's parameters, and a use's arguments.
    Comma,
    /// `:`: starts a label definition (`:loop`) and separates a namespace path (`%ns:name`).
    Colon,
    /// `'A'`, `'\n'`: the token covers the quotes.
    Char,
    /// `"text"`: the token covers the quotes.
    Str,
    /// The end of a line.
    Newline,
    /// Any other character: `_ & | ^ < > . % !` and the ones no rule allows.
    Punct(char),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Number => f.write_str("a number"),
            Tok::Letters => f.write_str("a name"),
            Tok::Open(c) | Tok::Close(c) | Tok::Punct(c) => write!(f, "`{c}`"),
            Tok::Comma => f.write_str("`,`"),
            Tok::Colon => f.write_str("`:`"),
            Tok::Char => f.write_str("a character"),
            Tok::Str => f.write_str("a string"),
            Tok::Newline => f.write_str("the end of the line"),
        }
    }
}

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub tok: Tok,
    /// Where it was written; a token the macro system made stands where what made it was.
    pub span: Span,
    /// Written right after the previous token, with no space or comment between.
    pub joined: bool,
    /// The macro expansion the token came out of (an index of the expander's table), or
    /// [`NO_EXPANSION`] for a token written in a file.
    pub origin: u32,
    /// For a token the macro system made (a compile-time result), its text's index in the
    /// expander's table; [`SOURCE_TEXT`] when the text is the source's under `span`.
    pub text: u32,
    /// For an opening bracket the lexer read, how many tokens further on its closing bracket
    /// is (0 when it never closes), so that a list is skipped in one step. Valid in a file's
    /// tokens and in any run of them copied whole (a macro body); 0 in made tokens.
    pub close: u32,
}

/// [`Token::origin`] of a token written in a file.
pub const NO_EXPANSION: u32 = u32::MAX;
/// [`Token::text`] of a token whose text is in its source.
pub const SOURCE_TEXT: u32 = u32::MAX;

impl Token {
    /// A token as the lexer finds it in a file.
    pub fn new(tok: Tok, span: Span, joined: bool) -> Token {
        Token {
            tok,
            span,
            joined,
            origin: NO_EXPANSION,
            text: SOURCE_TEXT,
            close: 0,
        }
    }
}

/// The directive names: after `%` each is a directive, anything else a use; no label or
/// definition may take one.
pub const DIRECTIVES: [&str; 5] = ["define", "macro", "namespace", "using", "include"];

/// Whether `name` can name a label, a macro, a constant or a parameter:
/// `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_label_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// What can be wrong in the characters of a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexError {
    /// A closing bracket with no list open.
    UnopenedClose {
        /// The closing bracket.
        at: Span,
    },
    /// A closing bracket of another kind than the open list's.
    MismatchedClose {
        /// The closing bracket.
        at: Span,
        /// The opening bracket of the list it would close.
        open: Span,
    },
    /// A list still open at the end of the file.
    UnclosedList {
        /// The list's opening bracket.
        open: Span,
    },
    /// `\` followed by a letter that is no escape.
    BadEscape {
        /// The `\` and the character after it.
        at: Span,
    },
    /// A character literal or string with no closing quote on its line.
    Unterminated {
        /// The opening quote.
        open: Span,
    },
    /// A character literal that is not exactly one byte: `''`, `'ab'`, `'é'`.
    BadCharValue {
        /// The whole literal, quotes included.
        at: Span,
    },
    /// The file holds more than `limit` tokens; lexing stopped at `at`.
    TooManyTokens {
        /// The first token past the limit.
        at: Span,
        /// The most tokens allowed.
        limit: usize,
    },
}

/// The escapes of character literals and strings: the letter after `\` and the byte it means.
pub const ESCAPES: [(u8, u8); 7] = [
    (b'n', b'\n'),
    (b't', b'\t'),
    (b'r', b'\r'),
    (b'\\', b'\\'),
    (b'"', b'"'),
    (b'\'', b'\''),
    (b'0', 0),
];

/// The byte an escape letter stands for.
pub fn escape(letter: u8) -> Option<u8> {
    ESCAPES.iter().find(|e| e.0 == letter).map(|e| e.1)
}

/// The bytes a character literal or string stands for, its quotes removed and escapes read.
/// The lexer has checked the escapes; a bad one is kept as written.
pub fn unquote(quoted: &str) -> Vec<u8> {
    let inner = quoted
        .as_bytes()
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default();
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        match (inner[i], inner.get(i + 1).copied().and_then(escape)) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 2;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// Whether a quoted literal holds an escape that is none (the lexer reported it: MX004).
pub fn has_bad_escape(quoted: &str) -> bool {
    let inner = quoted
        .as_bytes()
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default();
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\\' {
            if inner.get(i + 1).copied().and_then(escape).is_none() {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// Lexes a whole source: its tokens, and what was wrong. Lexing stops with
/// [`LexError::TooManyTokens`] after `limit` tokens: an assembly gives the most tokens
/// expansion may make in all, so that a huge file costs no more memory than the largest
/// program that can be assembled.
pub fn lex(file: SourceId, text: &str, limit: usize) -> (Vec<Token>, Vec<LexError>) {
    let bytes = text.as_bytes();
    let span = |start: usize, end: usize| Span::new(file, start, end);
    let mut tokens: Vec<Token> = Vec::with_capacity((text.len() / 3).min(limit));
    let mut errors = Vec::new();
    // The open lists: the bracket, where it is, and its token's index.
    let mut open: Vec<(char, Span, usize)> = Vec::new();
    let mut pos = 0;
    let mut joined = false;
    while pos < bytes.len() {
        let start = pos;
        let b = bytes[pos];
        if tokens.len() == limit && !matches!(b, b' ' | b'\t' | b'\x0c' | b';') {
            let end = text[pos..].chars().next().map_or(pos, |c| pos + c.len_utf8());
            errors.push(LexError::TooManyTokens {
                at: span(pos, end),
                limit,
            });
            return (tokens, errors);
        }
        let tok = match b {
            b' ' | b'\t' | b'\x0c' => {
                pos += 1;
                joined = false;
                continue;
            }
            b';' => {
                pos = line_end(bytes, pos);
                joined = false;
                continue;
            }
            b'\n' | b'\r' => {
                pos += line_break_len(bytes, pos);
                tokens.push(Token::new(Tok::Newline, span(start, start), false));
                joined = false;
                continue;
            }
            b'0'..=b'9' => {
                pos = scan(bytes, pos, |b| b.is_ascii_digit());
                Tok::Number
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                pos = scan(bytes, pos, |b| b.is_ascii_alphabetic());
                Tok::Letters
            }
            b'(' | b'[' | b'{' => {
                pos += 1;
                open.push((char::from(b), span(start, pos), tokens.len()));
                Tok::Open(char::from(b))
            }
            b')' | b']' | b'}' => {
                pos += 1;
                let at = span(start, pos);
                if let Some((opened, open_span, index)) = open.pop() {
                    tokens[index].close = (tokens.len() - index) as u32;
                    if closer(opened) != char::from(b) {
                        errors.push(LexError::MismatchedClose { at, open: open_span });
                    }
                } else {
                    errors.push(LexError::UnopenedClose { at });
                }
                Tok::Close(char::from(b))
            }
            b',' => {
                pos += 1;
                Tok::Comma
            }
            b':' => {
                pos += 1;
                Tok::Colon
            }
            b'\'' | b'"' => {
                let (end, problem) = quoted(bytes, pos, file);
                pos = end;
                if let Some(problem) = problem {
                    errors.push(problem);
                } else if b == b'\'' && unquote(&text[start..end]).len() != 1 {
                    errors.push(LexError::BadCharValue { at: span(start, end) });
                }
                if b == b'\'' { Tok::Char } else { Tok::Str }
            }
            _ => {
                let c = text[pos..]
                    .chars()
                    .next()
                    .expect("pos is on a char boundary inside the text");
                pos += c.len_utf8();
                Tok::Punct(c)
            }
        };
        tokens.push(Token::new(tok, span(start, pos), joined));
        joined = true;
    }
    for (_, open_span, _) in open {
        errors.push(LexError::UnclosedList { open: open_span });
    }
    (tokens, errors)
}

fn scan(bytes: &[u8], from: usize, pred: impl Fn(u8) -> bool) -> usize {
    from + bytes[from..].iter().take_while(|&&b| pred(b)).count()
}

/// The bracket that closes `open`.
pub fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// The end of the character literal or string opening at `start`, and what is wrong with it:
/// it ends at its closing quote, or unterminated at the end of the line.
fn quoted(bytes: &[u8], start: usize, file: SourceId) -> (usize, Option<LexError>) {
    let quote = bytes[start];
    let mut problem = None;
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' | b'\r' => break,
            b if b == quote => return (i + 1, problem),
            b'\\' => {
                let letter = bytes.get(i + 1).copied();
                if letter.and_then(escape).is_none() && problem.is_none() {
                    let len = match letter {
                        Some(b'\n' | b'\r') | None => 1,
                        Some(l) => 1 + utf8_len(l),
                    };
                    problem = Some(LexError::BadEscape {
                        at: Span::new(file, i, (i + len).min(bytes.len())),
                    });
                }
                i += match letter {
                    Some(b'\n' | b'\r') | None => 1,
                    // A multi-byte character after `\` is skipped whole.
                    Some(l) => 1 + utf8_len(l),
                };
            }
            b => i += utf8_len(b),
        }
    }
    let i = i.min(bytes.len());
    (
        i,
        Some(LexError::Unterminated {
            open: Span::new(file, start, start + 1),
        }),
    )
}

/// The length of the UTF-8 sequence a byte starts (1 for a continuation byte, so a scan
/// always advances).
fn utf8_len(b: u8) -> usize {
    match b {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyasm_core::SourceMap;

    fn lexed(text: &str) -> (Vec<(Tok, String, bool)>, Vec<LexError>) {
        let mut sources = SourceMap::new();
        let file = sources.add("t.mx", text);
        let (tokens, errors) = lex(file, text, usize::MAX);
        (
            tokens
                .into_iter()
                .map(|t| (t.tok, text[t.span.range()].to_string(), t.joined))
                .collect(),
            errors,
        )
    }

    #[test]
    fn an_opening_bracket_knows_where_its_list_closes() {
        let text = "(a [b] {c (d)}) (e";
        let mut sources = SourceMap::new();
        let file = sources.add("t.mx", text);
        let (tokens, _) = lex(file, text, usize::MAX);
        for (i, token) in tokens.iter().enumerate() {
            if let Tok::Open(_) = token.tok {
                // The same close as counting depth from the bracket finds.
                let mut depth = 0usize;
                let found = tokens[i..].iter().position(|t| {
                    match t.tok {
                        Tok::Open(_) => depth += 1,
                        Tok::Close(_) => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                });
                assert_eq!(token.close as usize, found.unwrap_or(0), "bracket {i}");
            } else {
                assert_eq!(token.close, 0);
            }
        }
        assert_eq!(tokens[0].close, 11);
        assert_eq!(tokens[12].close, 0, "`(e` never closes");
    }

    #[test]
    fn label_names_are_identifiers() {
        assert!(is_label_name("_loop2") && is_label_name("Top"));
        assert!(!is_label_name("2x") && !is_label_name("a-b") && !is_label_name(""));
    }

    #[test]
    fn lexing_stops_after_the_token_limit() {
        let text = "a b\nc d";
        let mut sources = SourceMap::new();
        let file = sources.add("t.mx", text);
        let (tokens, errors) = lex(file, text, 3);
        assert_eq!(tokens.len(), 3);
        assert_eq!(
            errors,
            [LexError::TooManyTokens {
                at: Span::new(file, 4, 5),
                limit: 3
            }]
        );
        let (tokens, errors) = lex(file, text, 5);
        assert_eq!((tokens.len(), errors.len()), (5, 0));
    }

    #[test]
    fn joined_tokens_make_one_name_and_spaces_separate_them() {
        let (tokens, errors) = lexed("str&m> 10 ; comment\nld7\n");
        assert!(errors.is_empty());
        let shown: Vec<(Tok, &str, bool)> = tokens.iter().map(|(t, s, j)| (*t, s.as_str(), *j)).collect();
        assert_eq!(
            shown,
            [
                (Tok::Letters, "str", false),
                (Tok::Punct('&'), "&", true),
                (Tok::Letters, "m", true),
                (Tok::Punct('>'), ">", true),
                (Tok::Number, "10", false),
                (Tok::Newline, "", false),
                (Tok::Letters, "ld", false),
                (Tok::Number, "7", true),
                (Tok::Newline, "", false),
            ]
        );
    }

    #[test]
    fn quotes_hold_semicolons_and_escapes() {
        let (tokens, errors) = lexed(r#"ld ';' "a;b\n" '\''"#);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(tokens[1].0, Tok::Char);
        assert_eq!(tokens[2], (Tok::Str, r#""a;b\n""#.into(), false));
        assert_eq!(unquote(&tokens[2].1), b"a;b\n");
        assert_eq!(unquote(&tokens[3].1), b"'");
    }

    #[test]
    fn lists_must_match_and_close() {
        let (_, errors) = lexed("(a]\n)\n{");
        assert!(matches!(errors[0], LexError::MismatchedClose { .. }));
        assert!(matches!(errors[1], LexError::UnopenedClose { .. }));
        assert!(matches!(errors[2], LexError::UnclosedList { .. }));
        assert_eq!(errors.len(), 3);
    }

    #[test]
    fn bad_literals_are_reported_and_lexing_goes_on() {
        let (tokens, errors) = lexed("ld '\\q'\nld 'ab'\nld 'x\nld ''\nld 'é'\nld '\\é'\nld 1");
        assert!(matches!(errors[0], LexError::BadEscape { .. }));
        assert!(matches!(errors[1], LexError::BadCharValue { .. }));
        assert!(matches!(errors[2], LexError::Unterminated { .. }));
        assert!(matches!(errors[3], LexError::BadCharValue { .. }));
        assert!(matches!(errors[4], LexError::BadCharValue { .. }));
        assert!(matches!(errors[5], LexError::BadEscape { at } if at.range() == (40..43)));
        assert_eq!(errors.len(), 6);
        assert_eq!(tokens.last().map(|t| t.0), Some(Tok::Number));
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        for text in ["a\nb", "a\r\nb", "a\rb"] {
            let (tokens, _) = lexed(text);
            let kinds: Vec<Tok> = tokens.iter().map(|t| t.0).collect();
            assert_eq!(kinds, [Tok::Letters, Tok::Newline, Tok::Letters], "{text:?}");
        }
    }
}
