//! chumsky parser over one statement of tokens: a label (`name:`), or an instruction, its
//! operations separated by `,`, each an opcode word with an optional `.unit` and operands
//! separated by spaces. An operand is an optional `-`, then a function call (`abs(...)`,
//! `cube(...)`, `normalize(...)`, `bias(...)`) or a term (register, pipeline register, number
//! or name, with an optional `.suffix`) with an optional `+term` offset. Which opcodes, units,
//! modifiers and operands go together is the encoder's business, with the table.
//!
//! Parse results are small and hold no list of their own: operations, operands and the
//! operands inside calls go to the parser's state, an [`Arena`] that chumsky rewinds when it
//! backtracks and that holds a whole chunk's lists, so that reading a statement allocates
//! nothing.

use std::ops::Range;

use chumsky::input::{Checkpoint, Cursor, Input, MapExtra, ValueInput};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;

use polyasm_core::front::{HasSpan, Labels, Run, TextRange};

use super::lexer::Tok;
use crate::syntax::operation::Operation;

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
    /// What the value's token is.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A term, with an optional `+term` offset.
    Term {
        /// The term, such as `2.y` in `2.y+$1.x`.
        term: Term,
        /// The term after the `+`, such as `$1.x`.
        offset: Option<Term>,
    },
    /// `name(operand)`, such as `abs($1)`.
    Call {
        /// The function's name.
        name: TextRange,
        /// The operand inside: [`Arena::args`]`[arg]`.
        arg: u32,
        /// The closing `)`.
        close: TextRange,
    },
}

/// One operand as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The `-` before it.
    pub neg: Option<TextRange>,
    /// The operand after the `-`.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// The opcode word with its modifiers (`mul_x2_sat`).
    pub name: TextRange,
    /// The `.unit` right after it.
    pub unit: Option<TextRange>,
    /// Its operands, a run of [`Arena::operands`].
    pub operands: Run,
    /// From the opcode to the last operand.
    pub span: TextRange,
    /// What it is, when its opcode word reads without a diagnostic: set once the statement is
    /// parsed (see `plain_kind`), so that the encoding stage need not read the word again.
    pub kind: Option<Operation>,
}

/// One statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `name:` on its own line.
    Label {
        /// The name, without the `:`.
        name: TextRange,
    },
    /// Operations joined by `,`.
    Instruction {
        /// The operations, a run of [`Arena::ops`].
        ops: Run,
        /// From the first operation to the last.
        span: TextRange,
    },
}

/// Where statements put their lists: the parser's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arena {
    /// Every statement's operations, each statement's one after the other.
    pub ops: Vec<Op>,
    /// Every operation's operands, each operation's one after the other.
    pub operands: Vec<Operand>,
    /// The operands inside calls, at the index the call holds, so that `operands` stays a run.
    pub args: Vec<Operand>,
}

impl Arena {
    /// The lengths of the three lists, to go back to with [`Arena::truncate`].
    fn mark(&self) -> [usize; 3] {
        [self.ops.len(), self.operands.len(), self.args.len()]
    }

    fn truncate(&mut self, [ops, operands, args]: [usize; 3]) {
        self.ops.truncate(ops);
        self.operands.truncate(operands);
        self.args.truncate(args);
    }

    /// Appends the operand inside a call; its index for [`Expr::Call`].
    fn push_arg(&mut self, arg: Operand) -> u32 {
        self.args.push(arg);
        (self.args.len() - 1) as u32
    }
}

/// chumsky rewinds the arena to what it held when it saved its place.
impl<'t, I: Input<'t>> Inspector<'t, I> for Arena {
    type Checkpoint = [usize; 3];

    fn on_token(&mut self, _: &I::Token) {}

    fn on_save<'p>(&self, _: &Cursor<'t, 'p, I>) -> [usize; 3] {
        self.mark()
    }

    fn on_rewind<'p>(&mut self, marker: &Checkpoint<'t, 'p, I, [usize; 3]>) {
        self.truncate(*marker.inspector());
    }
}

/// The error type failing statements are parsed again with, to say what was expected.
pub type ParseError<'t> = polyasm_core::front::SyntaxError<'t, Tok>;

/// The statement grammar. Generic over the error type, so that valid statements parse with the
/// allocation-free [`chumsky::error::EmptyErr`] and only failing ones again with [`ParseError`].
pub fn statement<'t, I, E>() -> impl Parser<'t, I, Statement, extra::Full<E, Arena, ()>>
where
    I: ValueInput<'t, Token = Tok, Span = std::ops::Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    type Extra<E> = extra::Full<E, Arena, ()>;
    let span = |e: &mut MapExtra<'t, '_, I, Extra<E>>| TextRange::from(e.span());
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
            .then(operand.map_with(|arg, e: &mut MapExtra<'t, '_, I, Extra<E>>| e.state().push_arg(arg)))
            .then(just(Tok::Close).map_with(move |_, e| span(e)))
            .map(|((name, arg), close)| Expr::Call { name, arg, close });
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
    let operands = operand
        .map_with(|operand, e: &mut MapExtra<'t, '_, I, Extra<E>>| e.state().operands.push(operand))
        .repeated()
        .count()
        .map_with(|len, e| Run::last(&e.state().operands, len));
    let op = E::label(name, "an opcode")
        .then(suffix.or_not())
        .then(operands)
        .map_with(move |((name, unit), operands), e| Op {
            name,
            unit,
            operands,
            span: span(e),
            kind: None,
        });
    let label = name.then_ignore(just(Tok::Colon)).map(|name| Statement::Label { name });
    let instruction = op
        .map_with(|op, e: &mut MapExtra<'t, '_, I, Extra<E>>| e.state().ops.push(op))
        .separated_by(just(Tok::Comma))
        .at_least(1)
        .count()
        .map_with(move |len, e| Statement::Instruction {
            ops: Run::last(&e.state().ops, len),
            span: span(e),
        });
    label.or(instruction).then_ignore(end()).boxed()
}

/// Reads a statement that [`statement`] accepts without chumsky, giving the same
/// [`Statement`] and appending the same lists to `arena`; `None`, with `arena` as it was, for
/// anything else (chumsky then reads it again, and reports the error when there is one; a
/// proptest holds the two to that). Valid statements, nearly every line of a big program, take
/// this path.
pub fn quick_statement(tokens: &[(Tok, Range<usize>)], arena: &mut Arena) -> Option<Statement> {
    if let [(Tok::Name, name), (Tok::Colon, _)] = tokens {
        return Some(Statement::Label {
            name: TextRange::from(name.clone()),
        });
    }
    let mark = arena.mark();
    let statement = Quick { tokens, at: 0, arena }.instruction();
    if statement.is_none() {
        arena.truncate(mark);
    }
    statement
}

/// The state of [`quick_statement`]: the tokens, the next one, and where lists go.
struct Quick<'t, 'a> {
    tokens: &'t [(Tok, Range<usize>)],
    at: usize,
    arena: &'a mut Arena,
}

impl Quick<'_, '_> {
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

    /// Takes the next token when it is `tok`, giving its range.
    fn eat(&mut self, tok: Tok) -> Option<TextRange> {
        (self.peek() == Some(tok)).then(|| {
            self.at += 1;
            self.token(self.at - 1)
        })
    }

    fn instruction(&mut self) -> Option<Statement> {
        let first = self.arena.ops.len();
        loop {
            let op = self.op()?;
            self.arena.ops.push(op);
            match self.peek() {
                None => break,
                Some(Tok::Comma) => self.at += 1,
                Some(_) => return None,
            }
        }
        Some(Statement::Instruction {
            ops: Run::new(first..self.arena.ops.len()),
            span: self.range(0, self.tokens.len()),
        })
    }

    fn op(&mut self) -> Option<Op> {
        let first = self.at;
        let name = self.eat(Tok::Name)?;
        let unit = self.eat(Tok::Suffix);
        let start = self.arena.operands.len();
        while matches!(
            self.peek(),
            Some(Tok::Minus | Tok::Reg | Tok::Pipe | Tok::Number | Tok::Name)
        ) {
            let operand = self.operand()?;
            self.arena.operands.push(operand);
        }
        Some(Op {
            name,
            unit,
            operands: Run::new(start..self.arena.operands.len()),
            span: self.range(first, self.at),
            kind: None,
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
        let suffix = self.eat(Tok::Suffix);
        Some(Term { value, span, suffix })
    }

    fn operand(&mut self) -> Option<Operand> {
        let first = self.at;
        let neg = self.eat(Tok::Minus);
        let at_call =
            self.peek() == Some(Tok::Name) && self.tokens.get(self.at + 1).map(|(t, _)| *t) == Some(Tok::Open);
        let expr = if at_call {
            let name = self.token(self.at);
            self.at += 2;
            let arg = self.operand()?;
            let close = self.eat(Tok::Close)?;
            Expr::Call {
                name,
                arg: self.arena.push_arg(arg),
                close,
            }
        } else {
            let term = self.term()?;
            let offset = match self.eat(Tok::Plus) {
                Some(_) => Some(self.term()?),
                None => None,
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
