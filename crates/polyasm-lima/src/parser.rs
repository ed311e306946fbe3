//! chumsky parser over one statement of tokens: a label (`name:`), or an instruction, its
//! operations separated by `,`, each an opcode word with an optional `.unit` and operands
//! separated by spaces. An operand is an optional `-`, then a function call (`abs(...)`,
//! `cube(...)`, `normalize(...)`, `bias(...)`) or a term (register, pipeline register, number
//! or name, with an optional `.suffix`) with an optional `+term` offset. Which opcodes, units,
//! modifiers and operands go together is the encoder's business, with the table.

use std::ops::Range;

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use polyasm_core::front::{HasSpan, Labels, TextRange};

use crate::lexer::Tok;

/// What a term's first token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// `$N`
    Reg,
    /// `^name`
    Pipe,
    /// A number.
    Number,
    /// A name: a label, `gl_FragCoord`, `inf`.
    Name,
}

/// A value and its optional `.suffix`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub value: Value,
    /// The value's token.
    pub span: TextRange,
    /// The `.suffix` right after it, `.` included.
    pub suffix: Option<TextRange>,
}

impl Term {
    /// From the value to the end of its suffix.
    pub fn full_span(&self) -> TextRange {
        self.suffix.map_or(self.span, |s| self.span.to(s))
    }
}

/// An operand without its `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A term, with an optional `+term` offset.
    Term { term: Term, offset: Option<Term> },
    /// `name(operand)`.
    Call {
        name: TextRange,
        arg: Box<Operand>,
        close: TextRange,
    },
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The `-` before it.
    pub neg: Option<TextRange>,
    pub expr: Expr,
    /// The whole operand.
    pub span: TextRange,
}

impl HasSpan for Operand {
    fn span(&self) -> TextRange {
        self.span
    }
}

/// One operation: `opcode[.unit] operand ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    /// The opcode word with its modifiers (`mul_x2_sat`).
    pub name: TextRange,
    /// The `.unit` right after it.
    pub unit: Option<TextRange>,
    pub operands: Vec<Operand>,
    /// From the opcode to the last operand.
    pub span: TextRange,
}

/// One statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `name:` on its own line.
    Label { name: TextRange },
    /// Operations joined by `,`.
    Instruction { ops: Vec<Op>, span: TextRange },
}

pub type ParseError<'t> = polyasm_core::front::SyntaxError<'t, Tok>;

/// The statement grammar. Generic over the error type, so that valid statements parse with the
/// allocation-free [`chumsky::error::EmptyErr`] and only failing ones again with [`ParseError`].
pub fn statement<'t, I, E>() -> impl Parser<'t, I, Statement, extra::Err<E>>
where
    I: ValueInput<'t, Token = Tok, Span = std::ops::Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    let span = |e: &mut chumsky::input::MapExtra<'t, '_, I, extra::Err<E>>| TextRange::from(e.span());
    let name = just(Tok::Name).map_with(move |_, e| span(e));
    let suffix = just(Tok::Suffix).map_with(move |_, e| span(e));
    let value = select! {
        Tok::Reg => Value::Reg,
        Tok::Pipe => Value::Pipe,
        Tok::Number => Value::Number,
        Tok::Name => Value::Name,
    }
    .map_with(move |value, e| (value, span(e)));
    let term = E::label(value, "an operand")
        .then(suffix.or_not())
        .map(|((value, span), suffix)| Term { value, span, suffix });
    let operand = recursive(|operand| {
        let call = name
            .then_ignore(just(Tok::Open))
            .then(operand)
            .then(just(Tok::Close).map_with(move |_, e| span(e)))
            .map(|((name, arg), close)| Expr::Call {
                name,
                arg: Box::new(arg),
                close,
            });
        let plain = term
            .then(just(Tok::Plus).ignore_then(term).or_not())
            .map(|(term, offset)| Expr::Term { term, offset });
        just(Tok::Minus)
            .map_with(move |_, e| span(e))
            .or_not()
            .then(call.or(plain))
            .map_with(move |(neg, expr), e| Operand {
                neg,
                expr,
                span: span(e),
            })
    });
    let op = E::label(name, "an opcode")
        .then(suffix.or_not())
        .then(operand.repeated().collect::<Vec<_>>())
        .map_with(move |((name, unit), operands), e| Op {
            name,
            unit,
            operands,
            span: span(e),
        });
    let label = name.then_ignore(just(Tok::Colon)).map(|name| Statement::Label { name });
    let instruction = op
        .separated_by(just(Tok::Comma))
        .at_least(1)
        .collect::<Vec<_>>()
        .map_with(move |ops, e| Statement::Instruction { ops, span: span(e) });
    label.or(instruction).then_ignore(end()).boxed()
}

/// Reads a statement that [`statement`] accepts without chumsky, giving the same
/// [`Statement`]; `None` for anything else (chumsky then reads it again, and reports the error
/// when there is one). Valid statements, nearly every line of a big program, take this path.
pub fn quick_statement(tokens: &[(Tok, Range<usize>)]) -> Option<Statement> {
    let mut reader = Quick { tokens, at: 0 };
    if let [(Tok::Name, name), (Tok::Colon, _)] = tokens {
        return Some(Statement::Label {
            name: TextRange::from(name.clone()),
        });
    }
    let mut ops = Vec::with_capacity(4);
    loop {
        ops.push(reader.op()?);
        match reader.peek() {
            None => break,
            Some(Tok::Comma) => reader.at += 1,
            Some(_) => return None,
        }
    }
    let span = reader.range(0, tokens.len());
    Some(Statement::Instruction { ops, span })
}

/// The state of [`quick_statement`]: the tokens and the next one.
struct Quick<'t> {
    tokens: &'t [(Tok, Range<usize>)],
    at: usize,
}

impl Quick<'_> {
    fn peek(&self) -> Option<Tok> {
        self.tokens.get(self.at).map(|(t, _)| *t)
    }

    /// The range of one token.
    fn token(&self, i: usize) -> TextRange {
        TextRange::from(self.tokens[i].1.clone())
    }

    /// From the start of token `first` to the end of the token before `end`.
    fn range(&self, first: usize, end: usize) -> TextRange {
        self.token(first).to(self.token(end - 1))
    }

    /// Takes a `.suffix` when one comes next.
    fn suffix(&mut self) -> Option<TextRange> {
        (self.peek() == Some(Tok::Suffix)).then(|| {
            self.at += 1;
            self.token(self.at - 1)
        })
    }

    fn op(&mut self) -> Option<Op> {
        let first = self.at;
        if self.peek() != Some(Tok::Name) {
            return None;
        }
        self.at += 1;
        let name = self.token(first);
        let unit = self.suffix();
        let mut operands = Vec::new();
        while matches!(
            self.peek(),
            Some(Tok::Minus | Tok::Reg | Tok::Pipe | Tok::Number | Tok::Name)
        ) {
            operands.push(self.operand()?);
        }
        Some(Op {
            name,
            unit,
            operands,
            span: self.range(first, self.at),
        })
    }

    fn term(&mut self) -> Option<Term> {
        let value = match self.peek()? {
            Tok::Reg => Value::Reg,
            Tok::Pipe => Value::Pipe,
            Tok::Number => Value::Number,
            Tok::Name => Value::Name,
            _ => return None,
        };
        self.at += 1;
        let span = self.token(self.at - 1);
        let suffix = self.suffix();
        Some(Term { value, span, suffix })
    }

    fn operand(&mut self) -> Option<Operand> {
        let first = self.at;
        let neg = (self.peek() == Some(Tok::Minus)).then(|| {
            self.at += 1;
            self.token(first)
        });
        let at_call =
            self.peek() == Some(Tok::Name) && self.tokens.get(self.at + 1).map(|(t, _)| *t) == Some(Tok::Open);
        let expr = if at_call {
            let name = self.token(self.at);
            self.at += 2;
            let arg = self.operand()?;
            if self.peek() != Some(Tok::Close) {
                return None;
            }
            self.at += 1;
            Expr::Call {
                name,
                arg: Box::new(arg),
                close: self.token(self.at - 1),
            }
        } else {
            let term = self.term()?;
            let offset = if self.peek() == Some(Tok::Plus) {
                self.at += 1;
                Some(self.term()?)
            } else {
                None
            };
            Expr::Term { term, offset }
        };
        Some(Operand {
            neg,
            expr,
            span: self.range(first, self.at),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Lexer;
    use polyasm_core::front::StatementLexer;

    fn parse(text: &str) -> Result<Statement, Vec<String>> {
        let mut tokens = Vec::new();
        let Ok(()) = Lexer::new(text).next_statement(&mut tokens);
        let mut out = None;
        let whole_line = std::iter::once(0..tokens.len()).collect::<Vec<_>>();
        polyasm_core::front::parse_statements(&statement(), &statement(), &tokens, &whole_line, &mut (), |_, _, r| {
            out = Some(r.map_err(|e| {
                e.iter()
                    .map(|e| {
                        let (_, found, expected) = polyasm_core::front::describe_syntax_error(e, text);
                        format!("found {found}, expected {expected}")
                    })
                    .collect()
            }))
        });
        out.expect("one non-empty line")
    }

    #[test]
    fn parses_operations_and_operands() {
        let Ok(Statement::Instruction { ops, span }) = parse("load.v $1 0.xy+$2.z, mov.v0 $0 -abs(^texture.x), stop")
        else {
            panic!("an instruction")
        };
        assert_eq!(span, TextRange::new(0, 53));
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].name, TextRange::new(0, 4));
        assert_eq!(ops[0].unit, Some(TextRange::new(4, 6)));
        let Expr::Term { term, offset } = &ops[0].operands[1].expr else {
            panic!("a term")
        };
        assert_eq!(term.value, Value::Number);
        assert_eq!(term.suffix, Some(TextRange::new(11, 14)));
        assert_eq!(offset.map(|o| o.value), Some(Value::Reg));
        let source = &ops[1].operands[1];
        assert_eq!(source.neg, Some(TextRange::new(31, 32)));
        let Expr::Call { name, arg, .. } = &source.expr else {
            panic!("a call")
        };
        assert_eq!(*name, TextRange::new(32, 35));
        assert!(matches!(
            arg.expr,
            Expr::Term {
                term: Term { value: Value::Pipe, .. },
                offset: None
            }
        ));
        assert!(ops[2].operands.is_empty() && ops[2].unit.is_none());
    }

    #[test]
    fn parses_labels_and_nested_calls() {
        assert_eq!(
            parse("L1:"),
            Ok(Statement::Label {
                name: TextRange::new(0, 2)
            })
        );
        let Ok(Statement::Instruction { ops, .. }) = parse("load.v $1 normalize(-abs($2.xyz))") else {
            panic!("an instruction")
        };
        let Expr::Call { arg, .. } = &ops[0].operands[1].expr else {
            panic!("a call")
        };
        assert!(arg.neg.is_some() && matches!(arg.expr, Expr::Call { .. }));
    }

    #[test]
    fn the_quick_reader_agrees_with_the_grammar() {
        let lines = [
            "L1:",
            "stop",
            "load.v $1 0.xy+$2.z, mov.v0 $0 -abs(^texture.x), stop",
            "load.v $1 normalize(-abs($2.xyz)), texld 3+$1.x $2.y bias(-1.5)",
            "const0 1.0 -0.0 inf 0x7e00, branch_lt $0.x $1.y L2, branch -4",
            "mul_x2_sat.v0 $0.xyz -$1 abs(abs(abs(abs($0)))), nop",
        ];
        for line in lines {
            let mut tokens = Vec::new();
            let Ok(()) = Lexer::new(line).next_statement(&mut tokens);
            assert_eq!(
                quick_statement(&tokens).ok_or(()),
                parse(line).map_err(|_| ()),
                "{line}"
            );
        }
        let malformed = [
            "L1: stop",
            "mov.v0 $0 abs($1",
            "stop,",
            ", stop",
            "mov.v0 $0 ;",
            "1 2",
            "mov.v0 $0 1+",
            "mov.v0 - - $1",
            "abs(abs(abs(abs(abs($0)))))",
            "a:b",
            "mov.v0 $0 f(1 2)",
        ];
        for line in malformed {
            let mut tokens = Vec::new();
            let Ok(()) = Lexer::new(line).next_statement(&mut tokens);
            assert!(parse(line).is_err(), "{line}");
            assert_eq!(quick_statement(&tokens), None, "{line}");
        }
    }

    #[test]
    fn rejects_malformed_statements() {
        for text in ["L1: stop", "mov.v0 $0 abs($1", "stop,", ", stop", "mov.v0 $0 ;", "1 2"] {
            assert!(parse(text).is_err(), "{text}");
        }
        assert_eq!(
            parse("mov.v0 $0 abs($1"),
            Err(vec!["found end of line, expected `)`, `+` or a `.` suffix".to_string()])
        );
    }
}
