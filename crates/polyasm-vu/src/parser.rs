//! chumsky parser over one line of tokens: a mnemonic or directive, then operands.
//! Which operands an instruction takes is checked by the encoder against the table.

use std::ops::Range;

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use polyasm_core::front::{self, Bounded, HasSpan, Labels, Spanned, TextRange, UnterminatedComment};
use polyasm_core::{SourceId, Span};

use crate::error::VuError;
use crate::lexer::{Lexer, Tok};

/// The first word of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head<'s> {
    /// An instruction's name as written, known or not: `add`.
    Mnemonic(&'s str),
    /// A directive as written, dot included: `.word`.
    Directive(&'s str),
}

/// An operand as written: a name or a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OperandText<'s> {
    /// A register, output or swizzle, or any other name: `r0`, `pos`, `xyzw`.
    Name(&'s str),
    /// A number as written, prefix and suffix included: `0b1111`, `3`.
    Number(&'s str),
    /// No operand: the default of an unused place; a parsed operand is never `Absent`.
    #[default]
    Absent,
}

/// One operand and where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Operand<'s> {
    /// The operand as written.
    pub text: OperandText<'s>,
    /// Its byte range in the source.
    pub span: Range<usize>,
}

/// The most operands any statement takes (`shf`).
pub const MAX_OPERANDS: usize = 4;

/// A statement's operands; those past [`MAX_OPERANDS`] are only counted and spanned.
pub type Operands<'s> = Bounded<Operand<'s>, MAX_OPERANDS>;

impl HasSpan for Operand<'_> {
    fn span(&self) -> TextRange {
        self.span.clone().into()
    }
}

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement<'s> {
    /// The mnemonic or directive.
    pub head: Head<'s>,
    /// The head's byte range in the source.
    pub head_span: Range<usize>,
    /// The operands, in order.
    pub operands: Operands<'s>,
}

impl Statement<'_> {
    /// From the head to the last operand.
    pub fn span(&self) -> Range<usize> {
        let end = self.operands.span_from(0).map_or(self.head_span.end, |r| r.range().end);
        self.head_span.start..end
    }
}

/// What a statement becomes in the reading stage: parsed, or an error in it.
pub enum Parsed<'s> {
    /// A statement that parsed; the encoder checks its operands.
    Statement(Statement<'s>),
    /// A syntax error, or an unterminated block comment.
    Error(VuError),
}

/// The reading stage of [`front::assemble`]: lexes and parses a source into chunks of
/// [`Parsed`] statements.
pub struct Reader<'s> {
    file: SourceId,
    text: &'s str,
}

impl<'s> Reader<'s> {
    /// A reader of `text`, the text of source `file`.
    pub fn new(file: SourceId, text: &'s str) -> Reader<'s> {
        Reader { file, text }
    }
}

impl<'s> front::Reader<'s> for Reader<'s> {
    type Lexer = Lexer<'s>;
    type Chunk = Vec<Parsed<'s>>;

    fn parallel(&self) -> bool {
        self.text.len() >= front::PIPELINE_MIN_BYTES
    }

    fn lexer(&self) -> Lexer<'s> {
        Lexer::new(self.text)
    }

    fn parse(
        &mut self,
        tokens: &[Spanned<Tok<'s>>],
        statements: &[Range<usize>],
        unterminated: Vec<UnterminatedComment>,
    ) -> Vec<Parsed<'s>> {
        let file = self.file;
        let mut chunk = Vec::with_capacity(statements.len() + unterminated.len());
        chunk.extend(unterminated.into_iter().map(|e| {
            Parsed::Error(VuError::UnterminatedComment {
                span: Span::new(file, e.open.start, e.open.end),
            })
        }));
        front::parse_statements(
            &statement(),
            &statement(),
            tokens,
            statements,
            &mut (),
            |_, _, parsed| match parsed {
                Ok(statement) => chunk.push(Parsed::Statement(statement)),
                Err(errors) => chunk.extend(errors.iter().map(|e| {
                    let (span, found, expected) = front::describe_syntax_error(e, self.text);
                    Parsed::Error(VuError::Unexpected {
                        span: Span::new(file, span.start, span.end),
                        found,
                        expected,
                    })
                })),
            },
        );
        chunk
    }
}

/// The error type failing lines are parsed again with, to say what was expected.
pub type ParseError<'t, 's> = polyasm_core::front::SyntaxError<'t, Tok<'s>>;

/// The statement grammar: `head operand*`, nothing else on the line.
/// Generic over the error type, so valid lines parse with the allocation-free
/// [`chumsky::error::EmptyErr`] (and no labels) and only failing ones again with [`ParseError`].
pub fn statement<'t, 's: 't, I, E>() -> impl Parser<'t, I, Statement<'s>, extra::Err<E>>
where
    I: ValueInput<'t, Token = Tok<'s>, Span = Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    let head = E::label(
        select! {
            Tok::Ident(name) => Head::Mnemonic(name),
            Tok::Directive(name) => Head::Directive(name),
        }
        .map_with(|head, e| (head, e.span())),
        "a mnemonic",
    );
    let operand = E::label(
        select! {
            Tok::Ident(name) => OperandText::Name(name),
            Tok::Int(digits) => OperandText::Number(digits),
        }
        .map_with(|text, e| Operand { text, span: e.span() }),
        "an operand",
    );
    head.then(operand.repeated().collect::<Operands>())
        .then_ignore(E::label(end(), "the end of the line"))
        .map(|((head, head_span), operands)| Statement {
            head,
            head_span,
            operands,
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Lexer;
    use polyasm_core::front::StatementLexer;

    fn parse(text: &str) -> Result<Statement<'_>, String> {
        let mut tokens = Vec::new();
        Lexer::new(text).next_statement(&mut tokens).unwrap();
        let mut out = None;
        let whole_line = std::iter::once(0..tokens.len()).collect::<Vec<_>>();
        polyasm_core::front::parse_statements(&statement(), &statement(), &tokens, &whole_line, &mut (), |_, _, r| {
            out = Some(r.map_err(|e| {
                e.iter()
                    .map(|e| format!("found {:?} at {:?}", e.found(), e.span()))
                    .collect::<Vec<_>>()
                    .join("; ")
            }))
        });
        out.expect("one non-empty line")
    }

    #[test]
    fn parses_heads_and_operands() {
        let s = parse("shf r1 r2 xyxy 0b1111 // c").unwrap();
        assert_eq!(s.head, Head::Mnemonic("shf"));
        assert_eq!(s.operands.as_slice().len(), 4);
        assert_eq!(s.operands.as_slice()[3].text, OperandText::Number("0b1111"));
        assert_eq!(s.span(), 0..21);
        assert_eq!(parse(".word 7").unwrap().head, Head::Directive(".word"));
    }

    #[test]
    fn keeps_the_span_of_operands_past_the_fourth() {
        let s = parse("add r0 r1 r2 r3 r4 r5").unwrap();
        assert_eq!(s.operands.overflow, Some(TextRange::new(16, 21)));
        assert_eq!(s.operands.count(), 6);
        assert_eq!(s.operands.span_from(2), Some(TextRange::new(10, 21)));
    }

    #[test]
    fn rejects_punctuation() {
        let err = parse("add r0, r1").unwrap_err();
        assert_eq!(err, "found Some(Punct(',')) at 6..7");
        assert!(parse("7 r0").is_err());
    }
}
