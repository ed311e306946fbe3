//! nv2a's two stages of [`front::assemble`]: the reader splits each statement into its
//! operations at the top-level `+`, parses them (the quick reader first, the grammar when it
//! gives up) into a compact [`ParsedChunk`], and the encoder takes the chunks in order.

use std::ops::Range;

use polyasm_core::front::{self, HasSpan, Spanned, TextRange, UnterminatedComment};
use polyasm_core::{Object, Outcome, SourceId, Span};

use crate::encode::Encoder;
use crate::error::Nv2aError;
use crate::lexer::{Lexer, Tok};
use crate::ops::MAX_PAIRED;
use crate::parser;

/// A chunk of statements, lexed and parsed: what the encoder needs of them, in order.
#[derive(Default)]
pub(crate) struct ParsedChunk {
    statements: Vec<Parsed>,
    /// The operations of the chunk's instructions, each instruction a run of them.
    operations: Vec<parser::Operation>,
    /// The operands of every operation and macro of the chunk.
    operands: Vec<parser::Operand>,
    /// Lexing and syntax errors.
    errors: Vec<Nv2aError>,
}

/// One statement of a [`ParsedChunk`].
pub(crate) enum Parsed {
    /// Operations joined by `+` (a run of [`ParsedChunk::operations`]); `extra` counts and
    /// spans those past [`MAX_PAIRED`].
    Instruction {
        operations: Range<u32>,
        extra: Option<(usize, TextRange)>,
    },
    /// A uniform declaration, macro or directive.
    Declaration(parser::Statement),
    /// An instruction that did not parse; it still counts towards the length limit.
    Failed(TextRange),
}

/// The reading stage: lexes and parses a source into [`ParsedChunk`]s.
pub(crate) struct Reader<'s> {
    file: SourceId,
    text: &'s str,
    /// An instruction's operations, as token ranges; reused from statement to statement.
    pieces: Vec<Range<usize>>,
    /// The `+`s with no operation on one side.
    dangling: Vec<Range<usize>>,
}

impl<'s> Reader<'s> {
    pub(crate) fn new(file: SourceId, text: &'s str) -> Reader<'s> {
        Reader {
            file,
            text,
            pieces: Vec::new(),
            dangling: Vec::new(),
        }
    }
}

impl<'s> front::Reader<'s> for Reader<'s> {
    type Lexer = Lexer<'s>;
    type Chunk = ParsedChunk;

    fn parallel(&self) -> bool {
        self.text.len() >= front::PIPELINE_MIN_BYTES
    }

    fn lexer(&self) -> Lexer<'s> {
        Lexer::new(self.text)
    }

    fn parse(
        &mut self,
        tokens: &[Spanned<Tok>],
        statements: &[Range<usize>],
        unterminated: Vec<UnterminatedComment>,
    ) -> ParsedChunk {
        let (file, text) = (self.file, self.text);
        let (pieces, dangling) = (&mut self.pieces, &mut self.dangling);
        let fast = parser::statement();
        let rich = parser::statement();
        let mut chunk = ParsedChunk {
            statements: Vec::with_capacity(statements.len()),
            operations: Vec::with_capacity(statements.len() * 2),
            ..ParsedChunk::default()
        };
        let mut arena = parser::Operands::from(Vec::with_capacity(statements.len() * 4));
        for e in unterminated {
            chunk.errors.push(Nv2aError::UnterminatedComment {
                span: Span::new(file, e.open.start, e.open.end),
            });
        }
        for statement in statements {
            // An instruction is parsed one operation at a time: split it at its top-level `+`.
            pieces.clear();
            dangling.clear();
            parser::split_operations(tokens, statement.clone(), pieces, dangling);
            for plus in dangling.iter() {
                chunk.errors.push(Nv2aError::Unexpected {
                    span: Span::new(file, plus.start, plus.end),
                    found: "`+`".into(),
                    expected: "an operation on both sides".into(),
                });
            }
            let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
                continue;
            };
            let span = TextRange::new(tokens[first.start].1.start, tokens[last.end - 1].1.end);
            let alone = pieces.len() == 1;
            let mut failed = !dangling.is_empty();
            let first_operation = chunk.operations.len();
            // Operations past MAX_PAIRED: how many in all, and their span.
            let mut extra: Option<(usize, TextRange)> = None;
            let mut declaration = None;
            let mut each = |parsed: Result<parser::Statement, Vec<parser::ParseError>>| match parsed {
                Ok(parser::Statement::Operation(operation))
                    if chunk.operations.len() - first_operation < MAX_PAIRED =>
                {
                    chunk.operations.push(operation)
                }
                Ok(parser::Statement::Operation(operation)) => {
                    let (count, span) = extra.get_or_insert((MAX_PAIRED, operation.span()));
                    *count += 1;
                    *span = span.to(operation.span());
                }
                Ok(statement) if alone => declaration = Some(statement),
                Ok(_) => {
                    failed = true;
                    chunk.errors.push(Nv2aError::PairedNonOperation {
                        span: span.in_source(file),
                    });
                }
                Err(errors) => {
                    failed = true;
                    for e in errors {
                        let (span, found, expected) = front::describe_syntax_error(&e, text);
                        chunk.errors.push(Nv2aError::Unexpected {
                            span: Span::new(file, span.start, span.end),
                            found,
                            expected,
                        });
                    }
                }
            };
            for piece in pieces.iter() {
                match parser::quick_operation(&tokens[piece.clone()], &mut arena) {
                    Some(operation) => each(Ok(parser::Statement::Operation(operation))),
                    None => front::parse_statements(
                        &fast,
                        &rich,
                        tokens,
                        std::slice::from_ref(piece),
                        &mut arena,
                        |_, _, parsed| each(parsed),
                    ),
                }
            }
            if let Some(declaration) = declaration {
                chunk.statements.push(Parsed::Declaration(declaration));
            }
            if failed {
                chunk.operations.truncate(first_operation);
                chunk.statements.push(Parsed::Failed(span));
            } else if chunk.operations.len() > first_operation {
                chunk.statements.push(Parsed::Instruction {
                    operations: first_operation as u32..chunk.operations.len() as u32,
                    extra,
                });
            }
        }
        chunk.operands = arena.0;
        chunk
    }
}

impl front::Encode<ParsedChunk> for Encoder<'_> {
    type Output = Outcome<Object>;

    fn encode(&mut self, chunk: ParsedChunk) {
        for error in chunk.errors {
            self.error(error);
        }
        for statement in &chunk.statements {
            match statement {
                Parsed::Instruction { operations, extra } => self.instruction_statement(
                    &chunk.operations[operations.start as usize..operations.end as usize],
                    &chunk.operands,
                    *extra,
                ),
                Parsed::Declaration(declaration) => self.statement(declaration, &chunk.operands),
                Parsed::Failed(span) => self.failed_instruction(*span),
            }
        }
    }

    fn finish(self) -> Outcome<Object> {
        Encoder::finish(self)
    }
}
