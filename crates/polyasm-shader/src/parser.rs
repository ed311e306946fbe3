//! chumsky parser over one line of tokens: `name(operand, operand, ...)`, and whatever follows
//! the `)` kept aside so that the encoder can say what it is. Which names and operands an
//! instruction takes is checked by the encoder against the table.

use chumsky::error::RichPattern;
use chumsky::input::ValueInput;
use chumsky::prelude::*;

use polyasm_core::front::{self, Bounded, HasSpan, Labels, Spanned, TextRange};
use polyasm_core::{SourceId, Span};

use crate::error::ShError;
use crate::lexer::{Lexer, Tok};

/// What an operand is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OperandKind {
    /// A register name (or a name that is no register).
    #[default]
    Name,
    /// A number literal, checked by the encoder.
    Number,
}

/// An operand as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Operand {
    /// Whether it is written as a name or a number.
    pub kind: OperandKind,
    /// Where it is written.
    pub span: TextRange,
}

impl HasSpan for Operand {
    fn span(&self) -> TextRange {
        self.span
    }
}

/// The most operands any instruction takes (`add`, `multiply`).
pub const MAX_OPERANDS: usize = 3;

/// A call's operands; those past [`MAX_OPERANDS`] are only counted and spanned.
pub type Operands = Bounded<Operand, MAX_OPERANDS>;

/// What follows the `)` of a line's call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trailing {
    /// Another call (`move(s0, s1) negate(s1, s2)`, also after a `;`).
    Call(TextRange),
    /// Anything else.
    Text(TextRange),
}

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The instruction's name as written, before the `(`.
    pub name: TextRange,
    /// The operands between the parentheses.
    pub operands: Operands,
    /// The closing `)`.
    pub close: TextRange,
    /// What follows the `)` on the line, besides a comment.
    pub trailing: Option<Trailing>,
}

impl Statement {
    /// From the name to the `)`.
    pub fn span(&self) -> TextRange {
        self.name.to(self.close)
    }
}

/// What a statement becomes in the reading stage: parsed, or an error in it.
pub enum Parsed {
    /// A line the grammar reads.
    Statement(Statement),
    /// A line it refuses, with the error.
    Error(ShError),
}

/// The reading stage of [`front::assemble`]: lexes and parses a source into chunks of
/// [`Parsed`] statements.
pub struct Reader<'s> {
    file: SourceId,
    text: &'s str,
}

impl<'s> Reader<'s> {
    /// A reader of `text`, source `file` of its map.
    pub fn new(file: SourceId, text: &'s str) -> Reader<'s> {
        Reader { file, text }
    }
}

impl<'s> front::Reader<'s> for Reader<'s> {
    type Lexer = Lexer<'s>;
    type Chunk = Vec<Parsed>;

    fn parallel(&self) -> bool {
        self.text.len() >= front::PIPELINE_MIN_BYTES
    }

    fn lexer(&self) -> Lexer<'s> {
        Lexer::new(self.text)
    }

    fn parse(
        &mut self,
        tokens: &[Spanned<Tok>],
        statements: &[std::ops::Range<usize>],
        _no_errors: Vec<std::convert::Infallible>,
    ) -> Vec<Parsed> {
        let mut chunk = Vec::with_capacity(statements.len());
        front::parse_statements(
            &statement(),
            &statement(),
            tokens,
            statements,
            &mut (),
            |index, _, parsed| match parsed {
                Ok(statement) => chunk.push(Parsed::Statement(statement)),
                Err(errors) => {
                    let line = &tokens[statements[index].clone()];
                    chunk.extend(
                        errors
                            .iter()
                            .map(|e| Parsed::Error(syntax_error(e, line, self.text, self.file))),
                    );
                }
            },
        );
        chunk
    }
}

/// A line the grammar rejects, in the language's words.
fn syntax_error(error: &ParseError, line: &[Spanned<Tok>], text: &str, file: SourceId) -> ShError {
    let span = Span::new(file, error.span().start, error.span().end);
    let first = line.first().map_or(0..0, |(_, range)| range.clone());
    match classify(error, line) {
        SyntaxProblem::MissingOpen => ShError::MissingOpen {
            span,
            name: text[first].to_string(),
        },
        SyntaxProblem::MissingClose => ShError::MissingClose {
            span,
            head: Span::new(file, first.start, first.end),
        },
        SyntaxProblem::Unexpected => {
            let (_, found, expected) = front::describe_syntax_error(error, text);
            ShError::Unexpected {
                span,
                found: polyasm_core::text::escape_controls(&found).into_owned(),
                expected,
            }
        }
    }
}

/// A syntax error of the line grammar, over the lexer's tokens.
pub type ParseError<'t> = polyasm_core::front::SyntaxError<'t, Tok>;

/// The line grammar: `name ( [operand {, operand}] )`, then anything, kept as [`Trailing`].
/// Generic over the error type, so valid lines parse with the allocation-free
/// [`chumsky::error::EmptyErr`] (and no labels) and only failing ones again with [`ParseError`].
pub fn statement<'t, I, E>() -> impl Parser<'t, I, Statement, extra::Err<E>>
where
    I: ValueInput<'t, Token = Tok, Span = std::ops::Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    let span = |e: &mut chumsky::input::MapExtra<'t, '_, I, extra::Err<E>>| TextRange::from(e.span());
    let name = just(Tok::Name).map_with(move |_, e| span(e));
    let operand = E::label(
        select! {
            Tok::Name => OperandKind::Name,
            Tok::Number => OperandKind::Number,
        }
        .map_with(move |kind, e| Operand { kind, span: span(e) }),
        "an operand",
    );
    let call = E::label(name, "an instruction name")
        .then_ignore(just(Tok::Open))
        .then(operand.separated_by(just(Tok::Comma)).collect::<Operands>())
        .then(just(Tok::Close).map_with(move |_, e| span(e)));
    let second_call = just(Tok::Other(';'))
        .or_not()
        .then(name)
        .then(just(Tok::Open))
        .then(any().repeated())
        .map_with(move |_, e| Trailing::Call(span(e)));
    let text = any()
        .repeated()
        .at_least(1)
        .map_with(move |_, e| Trailing::Text(span(e)));
    call.then(second_call.or(text).or_not())
        .then_ignore(end())
        .map(|(((name, operands), close), trailing)| Statement {
            name,
            operands,
            close,
            trailing,
        })
        .boxed()
}

/// What a syntax error is, in the words of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxProblem {
    /// The name is not followed by `(`.
    MissingOpen,
    /// The line ends before the `)`.
    MissingClose,
    /// Anything else.
    Unexpected,
}

/// Sorts a syntax error of `line` into [`SyntaxProblem`]s: `(` is expected only right after
/// the name, and a line that ends inside an open call, with no `)`, lacks it.
pub fn classify(error: &ParseError, line: &[Spanned<Tok>]) -> SyntaxProblem {
    let expects = |tok: Tok| {
        error
            .expected()
            .any(|pattern| matches!(pattern, RichPattern::Token(t) if **t == tok))
    };
    if expects(Tok::Open) {
        SyntaxProblem::MissingOpen
    } else if error.found().is_none() && line.iter().all(|(t, _)| *t != Tok::Close) {
        SyntaxProblem::MissingClose
    } else {
        SyntaxProblem::Unexpected
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Lexer;
    use polyasm_core::front::StatementLexer;

    fn parse(text: &str) -> Result<Statement, Vec<SyntaxProblem>> {
        let mut tokens = Vec::new();
        let Ok(()) = Lexer::new(text).next_statement(&mut tokens);
        let mut out = None;
        let whole_line = std::iter::once(0..tokens.len()).collect::<Vec<_>>();
        polyasm_core::front::parse_statements(&statement(), &statement(), &tokens, &whole_line, &mut (), |_, _, r| {
            out = Some(r.map_err(|e| e.iter().map(|e| classify(e, &tokens)).collect()))
        });
        out.expect("one non-empty line")
    }

    #[test]
    fn parses_a_call_and_its_operands() {
        let s = parse("multiply ( s0 ,1.5, v2 ) # c").unwrap();
        assert_eq!(s.name, TextRange::new(0, 8));
        let kinds: Vec<OperandKind> = s.operands.as_slice().iter().map(|o| o.kind).collect();
        assert_eq!(kinds, [OperandKind::Name, OperandKind::Number, OperandKind::Name]);
        assert_eq!(s.operands.as_slice()[1].span, TextRange::new(15, 18));
        assert_eq!(s.span(), TextRange::new(0, 24));
        assert_eq!(s.trailing, None);
        assert_eq!(parse("move()").unwrap().operands.count(), 0);
    }

    #[test]
    fn counts_operands_past_the_third() {
        let s = parse("add(s0, s1, s2, s3, s4)").unwrap();
        assert_eq!(s.operands.count(), 5);
        assert_eq!(s.operands.overflow, Some(TextRange::new(16, 22)));
    }

    #[test]
    fn keeps_what_follows_the_call() {
        let s = parse("move(s0, s1) negate(s1, s2)").unwrap();
        assert_eq!(s.trailing, Some(Trailing::Call(TextRange::new(13, 27))));
        let s = parse("move(s0, s1); negate(s1, s2)").unwrap();
        assert_eq!(s.trailing, Some(Trailing::Call(TextRange::new(12, 28))));
        let s = parse("move(s0, s1) s2").unwrap();
        assert_eq!(s.trailing, Some(Trailing::Text(TextRange::new(13, 15))));
    }

    #[test]
    fn sorts_syntax_errors() {
        assert_eq!(parse("add s0, s1, s2"), Err(vec![SyntaxProblem::MissingOpen]));
        assert_eq!(parse("add"), Err(vec![SyntaxProblem::MissingOpen]));
        assert_eq!(parse("add(s0, s1, s2"), Err(vec![SyntaxProblem::MissingClose]));
        assert_eq!(parse("add(s0 s1)"), Err(vec![SyntaxProblem::Unexpected]));
        assert_eq!(parse("add(s0,)"), Err(vec![SyntaxProblem::Unexpected]));
        assert_eq!(parse("(s0)"), Err(vec![SyntaxProblem::Unexpected]));
        assert_eq!(parse("add(s0,"), Err(vec![SyntaxProblem::MissingClose]));
    }
}
