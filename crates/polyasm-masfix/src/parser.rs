//! Lines of tokens to statements. A line's joined tokens are first gathered into *atoms* (one
//! name, number, character, string or `:`, as written without spaces; the brackets of token
//! lists join the pieces they hold, so `o(ut)(c)` is the name `outc`); chumsky then parses the
//! atoms of each line: an optional label definition `:name`, then an optional instruction name
//! with its immediates. Whether a name is a valid instruction or label, and what an immediate is
//! worth, is the encoder's business.

use std::ops::Range;

use chumsky::input::ValueInput;
use chumsky::prelude::*;
use polyasm_core::Span;
use polyasm_core::front::{Labels, SyntaxError};

use crate::error::MxError;
use crate::lexer::{Tok, Token};

/// What an atom is, for the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKind {
    /// Anything written as one word: `ldamt`, `str&m>`, `loop_2`, `ld7`, `_x`.
    Name,
    /// Digits only: `42`.
    Number,
    /// `'a'`.
    Char,
    /// `"text"`.
    Str,
    /// `:`.
    Colon,
    /// `,`.
    Comma,
}

impl std::fmt::Display for AtomKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AtomKind::Name => "a name",
            AtomKind::Number => "a number",
            AtomKind::Char => "a character",
            AtomKind::Str => "a string",
            AtomKind::Colon => "`:`",
            AtomKind::Comma => "`,`",
        })
    }
}

/// One atom: its kind, its text with the brackets left out, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// What the atom is for the grammar.
    pub kind: AtomKind,
    /// Its text with brackets left out: `outc` for `o(ut)(c)`; a character literal or string
    /// keeps its quotes when it stands alone.
    pub text: String,
    /// From its first token to its last, brackets included.
    pub span: Span,
    /// `text` is exactly the source under `span` (no brackets were left out), so a part of the
    /// text can be pointed at.
    pub exact: bool,
    /// Written right after the atom before it, with no space between.
    pub joined: bool,
    /// The macro expansion it came out of ([`crate::lexer::Token::origin`]).
    pub origin: u32,
}

impl Atom {
    /// The span of `text[range]`, or of the whole atom when the text is not the source's.
    pub fn sub_span(&self, range: Range<usize>) -> Span {
        if self.exact && range.end <= self.text.len() {
            Span::new(
                self.span.source,
                self.span.start as usize + range.start,
                self.span.start as usize + range.end,
            )
        } else {
            self.span
        }
    }
}

/// Gathers a line's tokens (without its line break) into atoms, appended to `atoms`.
pub fn atoms(tokens: &[Token], text_of: impl Fn(&Token) -> String, atoms: &mut Vec<Atom>) {
    let mut i = 0;
    while i < tokens.len() {
        let first = tokens[i];
        let single = |kind: AtomKind| Atom {
            kind,
            text: text_of(&first),
            span: first.span,
            exact: true,
            joined: first.joined,
            origin: first.origin,
        };
        match first.tok {
            Tok::Colon => {
                atoms.push(single(AtomKind::Colon));
                i += 1;
                continue;
            }
            Tok::Comma => {
                atoms.push(single(AtomKind::Comma));
                i += 1;
                continue;
            }
            _ => {}
        }
        // A run of joined tokens, up to a `:` or `,`; inside a token list opened within the
        // run, spaces join too (`outu( r )` is `outur`). A list that starts a run is a group of
        // its own (`{ str 0 }` from an argument is `str 0`).
        let mut depth = 0usize;
        let mut end = i + 1;
        while end < tokens.len()
            && (depth > 0 || tokens[end].joined)
            && !matches!(tokens[end].tok, Tok::Colon | Tok::Comma)
        {
            match tokens[end].tok {
                Tok::Open(_) => depth += 1,
                Tok::Close(_) => depth = depth.saturating_sub(1),
                _ => {}
            }
            end += 1;
        }
        let run = &tokens[i..end];
        let pieces: Vec<&Token> = run
            .iter()
            .filter(|t| !matches!(t.tok, Tok::Open(_) | Tok::Close(_)))
            .collect();
        // A token list with nothing in it adds nothing.
        if pieces.is_empty() {
            i = end;
            continue;
        }
        let kind = match pieces.as_slice() {
            [only] if only.tok == Tok::Number => AtomKind::Number,
            [only] if only.tok == Tok::Char => AtomKind::Char,
            [only] if only.tok == Tok::Str => AtomKind::Str,
            _ => AtomKind::Name,
        };
        // In a name made of pieces, a character or string stands for what it holds
        // (`out('u')` is `outu`).
        let text: String = if kind == AtomKind::Name {
            pieces
                .iter()
                .map(|t| match t.tok {
                    Tok::Char | Tok::Str => String::from_utf8_lossy(&crate::lexer::unquote(&text_of(t))).into_owned(),
                    _ => text_of(t),
                })
                .collect()
        } else {
            pieces.iter().map(|t| text_of(t)).collect()
        };
        let span = run[0].span.to(run[run.len() - 1].span);
        atoms.push(Atom {
            kind,
            // Made tokens (a compile-time result) have a span that is not their text's.
            exact: pieces.len() == run.len() && run.iter().all(|t| t.text == crate::lexer::SOURCE_TEXT),
            text,
            span,
            joined: first.joined,
            origin: first.origin,
        });
        i = end;
    }
}

/// A parsed line: atom indices (of the line's atoms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `:name`: the `:`, and the name if one follows.
    pub label: Option<(usize, Option<usize>)>,
    /// The instruction name and its immediates.
    pub instruction: Option<(usize, Vec<usize>)>,
}

/// What a line becomes in the reading stage, in the order the encoder takes them.
pub enum Parsed {
    /// `:name`: a label definition, the atom its name.
    Label(Atom),
    /// An instruction: its name (`ldamt`), then its immediates in order.
    Instruction(Atom, Vec<Atom>),
    /// An error, with the expansion it arose in.
    Error(MxError, u32),
}

/// What the line grammar rejects, with its span in atom indices: the atom found (or the end
/// of the line), and the kinds of atom expected there.
pub type ParseError<'t> = SyntaxError<'t, AtomKind>;

/// The line grammar, over atom kinds whose spans are atom indices; generic over the error type
/// as every dialect's grammar is (see `polyasm_core::front::parse_statements`).
pub fn line<'t, I, E>() -> impl Parser<'t, I, Line, extra::Full<E, (), ()>>
where
    I: ValueInput<'t, Token = AtomKind, Span = Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    let index = |_: (), e: &mut chumsky::input::MapExtra<'t, '_, I, extra::Full<E, (), ()>>| e.span().start;
    let name = E::label(just(AtomKind::Name).ignored().map_with(index), "a name");
    let immediate = E::label(
        select! {
            AtomKind::Name => (),
            AtomKind::Number => (),
            AtomKind::Char => (),
        }
        .or(just(AtomKind::Str).ignored())
        .map_with(index),
        "an immediate",
    );
    let label = just(AtomKind::Colon).ignored().map_with(index).then(name.or_not());
    let instruction = E::label(name, "an instruction").then(immediate.repeated().collect::<Vec<_>>());
    label
        .or_not()
        .then(instruction.or_not())
        .then_ignore(E::label(end(), "the end of the line"))
        .map(|(label, instruction)| Line { label, instruction })
}

/// The atom kinds of a line as the grammar reads them: each with its index as its span.
pub fn grammar_input<'a>(atoms: impl IntoIterator<Item = &'a Atom>) -> Vec<(AtomKind, Range<usize>)> {
    atoms.into_iter().enumerate().map(|(i, a)| (a.kind, i..i + 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use polyasm_core::SourceMap;

    fn line_atoms(text: &str) -> Vec<Atom> {
        let mut sources = SourceMap::new();
        let file = sources.add("t.mx", text);
        let (tokens, _) = lex(file, text, usize::MAX);
        let mut out = Vec::new();
        atoms(&tokens, |t| text[t.span.range()].to_string(), &mut out);
        out
    }

    fn parse(text: &str) -> Result<(Line, Vec<String>), String> {
        let atoms = line_atoms(text);
        let input = grammar_input(&atoms);
        let mut result = None;
        let whole = 0..input.len();
        polyasm_core::front::parse_statements(
            &line(),
            &line(),
            &input,
            std::slice::from_ref(&whole),
            &mut (),
            |_, _, r| result = Some(r.map_err(|e| format!("{e:?}"))),
        );
        match result {
            None => Ok((
                Line {
                    label: None,
                    instruction: None,
                },
                Vec::new(),
            )),
            Some(r) => r.map(|line| (line, atoms.iter().map(|a| a.text.clone()).collect())),
        }
    }

    #[test]
    fn atoms_join_what_is_written_together() {
        let atoms = line_atoms(":loop_2 str&m> 'x' o(ut)(c) 12");
        let shown: Vec<(AtomKind, &str, bool)> = atoms.iter().map(|a| (a.kind, a.text.as_str(), a.exact)).collect();
        assert_eq!(
            shown,
            [
                (AtomKind::Colon, ":", true),
                (AtomKind::Name, "loop_2", true),
                (AtomKind::Name, "str&m>", true),
                (AtomKind::Char, "'x'", true),
                (AtomKind::Name, "outc", false),
                (AtomKind::Number, "12", true),
            ]
        );
        assert!(atoms[1].joined && !atoms[2].joined);
    }

    #[test]
    fn a_line_is_a_label_then_an_instruction_with_immediates() {
        let (line, _) = parse(":top ldamt 2").unwrap();
        assert_eq!(line.label, Some((0, Some(1))));
        assert_eq!(line.instruction, Some((2, vec![3])));
        let (line, _) = parse(": top").unwrap();
        assert_eq!(line.label, Some((0, Some(1))));
        let (line, _) = parse("ld 1 2 \"s\"").unwrap();
        assert_eq!(line.instruction, Some((0, vec![1, 2, 3])));
        let (line, _) = parse(":").unwrap();
        assert_eq!(line.label, Some((0, None)));
    }

    #[test]
    fn stray_colons_and_commas_are_syntax_errors() {
        assert!(parse("label: ld 1").is_err());
        assert!(parse(":a :b").is_err());
        assert!(parse("ld 1, 2").is_err());
        assert!(parse("5").is_err());
    }
}
