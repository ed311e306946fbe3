//! chumsky parser over one statement of tokens: a label (`name:`), or an instruction, its
//! operations separated by `,`, each an opcode word with an optional `.unit` and operands
//! separated by spaces. An operand is an optional `-`, then a function call (`abs(...)`,
//! `cube(...)`, `normalize(...)`, `bias(...)`) or a term (register, pipeline register, number
//! or name, with an optional `.suffix`) with an optional `+term` offset. Which opcodes, units,
//! modifiers and operands go together is the encoder's business, with the table.
//!
//! Parse results are small and hold no list of their own: operations, operands and the
//! operands inside calls go to the parser's state, an [`Arena`] that chumsky rewinds when it
//! backtracks and that is kept from chunk to chunk, so that reading a statement allocates
//! nothing.

use std::ops::Range;

use chumsky::input::{Checkpoint, Cursor, Input, MapExtra, ValueInput};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;

use polyasm_core::front::{HasSpan, Labels, Run, TextRange};

use super::kind::Kind;
use super::lexer::Tok;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A term, with an optional `+term` offset.
    Term { term: Term, offset: Option<Term> },
    /// `name(operand)`: the operand inside is [`Arena::args`]`[arg]`.
    Call {
        name: TextRange,
        arg: u32,
        close: TextRange,
    },
}

/// One operand as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub kind: Option<Kind>,
}

/// One statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `name:` on its own line.
    Label { name: TextRange },
    /// Operations joined by `,`: a run of [`Arena::ops`].
    Instruction { ops: Run, span: TextRange },
}

/// Where statements put their lists: the parser's state. A statement's operations follow each
/// other in `ops`, an operation's operands in `operands`; the operand inside a call is in
/// `args`, at the index the call holds, so that each operation's operands stay together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arena {
    pub ops: Vec<Op>,
    pub operands: Vec<Operand>,
    pub args: Vec<Operand>,
}

impl Arena {
    /// Empties the arena, keeping its memory for the next statements.
    pub fn clear(&mut self) {
        self.ops.clear();
        self.operands.clear();
        self.args.clear();
    }

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

    /// Takes a `.suffix` when one comes next.
    fn suffix(&mut self) -> Option<TextRange> {
        (self.peek() == Some(Tok::Suffix)).then(|| {
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
        if self.peek() != Some(Tok::Name) {
            return None;
        }
        self.at += 1;
        let name = self.token(first);
        let unit = self.suffix();
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
                arg: self.arena.push_arg(arg),
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
    use super::super::lexer::Lexer;
    use super::*;
    use polyasm_core::front::StatementLexer;
    use proptest::prelude::*;

    fn tokens(text: &str) -> Vec<(Tok, Range<usize>)> {
        let mut tokens = Vec::new();
        let Ok(()) = Lexer::new(text).next_statement(&mut tokens);
        tokens
    }

    /// What the grammar gives for one statement of tokens, and the lists it appended.
    fn grammar(text: &str, tokens: &[(Tok, Range<usize>)]) -> Result<(Statement, Arena), Vec<String>> {
        let mut out = None;
        let whole_line = std::iter::once(0..tokens.len()).collect::<Vec<_>>();
        let mut arena = Arena::default();
        polyasm_core::front::parse_statements(
            &statement(),
            &statement(),
            tokens,
            &whole_line,
            &mut arena,
            |_, arena, r| {
                out = Some(r.map(|s| (s, arena.clone())).map_err(|e| {
                    e.iter()
                        .map(|e| {
                            let (_, found, expected) = polyasm_core::front::describe_syntax_error(e, text);
                            format!("found {found}, expected {expected}")
                        })
                        .collect()
                }))
            },
        );
        out.expect("one non-empty line")
    }

    fn parse(text: &str) -> Result<(Statement, Arena), Vec<String>> {
        grammar(text, &tokens(text))
    }

    /// What the quick reader gives, into an arena that already holds an operation, an operand
    /// and an argument.
    fn quick(tokens: &[(Tok, Range<usize>)]) -> Option<(Statement, Arena)> {
        let before = parse("stop, mov.v0 $0 abs($1)").expect("valid").1;
        let mut arena = before.clone();
        let Some(statement) = quick_statement(tokens, &mut arena) else {
            assert_eq!(arena, before, "a failed quick read leaves the arena as it was");
            return None;
        };
        // Move the lists to the front, as the grammar, starting empty, puts them.
        let shift = |run: Run, by: usize| Run::new(run.start() - by..run.start() - by + run.len());
        let [ops, operands, args] = before.mark();
        let mut rebased = Arena::default();
        for op in &arena.ops[ops..] {
            rebased.ops.push(Op {
                operands: shift(op.operands, operands),
                ..*op
            });
        }
        let rebase_operand = |o: &Operand| match o.expr {
            Expr::Call { name, arg, close } => Operand {
                expr: Expr::Call {
                    name,
                    arg: arg - args as u32,
                    close,
                },
                ..*o
            },
            Expr::Term { .. } => *o,
        };
        rebased.operands = arena.operands[operands..].iter().map(rebase_operand).collect();
        rebased.args = arena.args[args..].iter().map(rebase_operand).collect();
        let statement = match statement {
            Statement::Instruction { ops: run, span } => Statement::Instruction {
                ops: shift(run, ops),
                span,
            },
            label => label,
        };
        Some((statement, rebased))
    }

    #[test]
    fn parses_operations_and_operands() {
        let Ok((Statement::Instruction { ops, span }, arena)) =
            parse("load.v $1 0.xy+$2.z, mov.v0 $0 -abs(^texture.x), stop")
        else {
            panic!("an instruction")
        };
        assert_eq!(span, TextRange::new(0, 53));
        let ops = ops.of(&arena.ops);
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].name, TextRange::new(0, 4));
        assert_eq!(ops[0].unit, Some(TextRange::new(4, 6)));
        let Expr::Term { term, offset } = &ops[0].operands.of(&arena.operands)[1].expr else {
            panic!("a term")
        };
        assert_eq!(term.value, Value::Number);
        assert_eq!(term.suffix, Some(TextRange::new(11, 14)));
        assert_eq!(offset.map(|o| o.value), Some(Value::Reg));
        let source = &ops[1].operands.of(&arena.operands)[1];
        assert_eq!(source.neg, Some(TextRange::new(31, 32)));
        let Expr::Call { name, arg, .. } = source.expr else {
            panic!("a call")
        };
        assert_eq!(name, TextRange::new(32, 35));
        assert!(matches!(
            arena.args[arg as usize].expr,
            Expr::Term {
                term: Term { value: Value::Pipe, .. },
                offset: None
            }
        ));
        assert!(ops[2].operands.is_empty() && ops[2].unit.is_none());
        // Each operation's operands are together; the one inside the call is apart.
        assert_eq!(arena.operands.len(), 4);
        assert_eq!(arena.args.len(), 1);
    }

    #[test]
    fn parses_labels_and_nested_calls() {
        assert_eq!(
            parse("L1:").map(|(s, _)| s),
            Ok(Statement::Label {
                name: TextRange::new(0, 2)
            })
        );
        let Ok((Statement::Instruction { ops, .. }, arena)) = parse("load.v $1 normalize(-abs($2.xyz))") else {
            panic!("an instruction")
        };
        let op = ops.of(&arena.ops)[0];
        let Expr::Call { arg, .. } = op.operands.of(&arena.operands)[1].expr else {
            panic!("a call")
        };
        let arg = arena.args[arg as usize];
        assert!(arg.neg.is_some() && matches!(arg.expr, Expr::Call { .. }));
    }

    const VALID: [&str; 6] = [
        "L1:",
        "stop",
        "load.v $1 0.xy+$2.z, mov.v0 $0 -abs(^texture.x), stop",
        "load.v $1 normalize(-abs($2.xyz)), texld 3+$1.x $2.y bias(-1.5)",
        "const0 1.0 -0.0 inf 0x7e00, branch_lt $0.x $1.y L2, branch -4",
        "mul_x2_sat.v0 $0.xyz -$1 abs(abs(abs(abs($0)))), nop",
    ];

    const MALFORMED: [&str; 11] = [
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

    #[test]
    fn the_quick_reader_agrees_with_the_grammar() {
        for line in VALID {
            let tokens = tokens(line);
            assert_eq!(quick(&tokens).ok_or(()), parse(line).map_err(|_| ()), "{line}");
        }
        for line in MALFORMED {
            assert!(parse(line).is_err(), "{line}");
            assert_eq!(quick(&tokens(line)), None, "{line}");
        }
    }

    /// Pieces of statements, valid and not, glued in any order.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "mov", ".v0", "$1", "^texture", "0.5", "-", "+", "(", ")", ",", ":", "abs", ".xy", "L", " ", ";", "3",
        ])
    }

    proptest! {
        #[test]
        fn the_quick_reader_and_the_grammar_read_any_tokens_alike(pieces in prop::collection::vec(piece(), 1..14)) {
            let text = pieces.join(" ");
            let tokens = tokens(&text);
            prop_assume!(!tokens.is_empty());
            prop_assert_eq!(quick(&tokens).ok_or(()), grammar(&text, &tokens).map_err(|_| ()), "{}", text);
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
