//! The proposed syntax's lexer and parser: tokens with their text, statements with their
//! operations and operands, and the quick reader that agrees with the grammar on any tokens.

use std::ops::Range;

use polyasm_core::front::{Run, StatementLexer, TextRange};
use polyasm_lima::syntax::proposed::lexer::{Lexer, MAX_NESTING, Tok};
use polyasm_lima::syntax::proposed::parser::{
    Arena, Expr, Op, Operand, Statement, Term, Value, quick_statement, statement,
};
use proptest::prelude::*;

// ---- The lexer ----

fn lines(text: &str) -> Vec<Vec<(Tok, &str)>> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    while !lexer.at_end() {
        let mut line = Vec::new();
        let Ok(()) = lexer.next_statement(&mut line);
        out.push(line.into_iter().map(|(t, r)| (t, &text[r])).collect());
    }
    out
}

#[test]
fn lexes_every_token_kind() {
    let got = lines("mul_x2_sat.v0 $0.xyz -abs(^const0.wzyx) 1.y+$1.z, L1: # comment\n");
    assert_eq!(
        got[0],
        [
            (Tok::Name, "mul_x2_sat"),
            (Tok::Suffix, ".v0"),
            (Tok::Reg, "$0"),
            (Tok::Suffix, ".xyz"),
            (Tok::Minus, "-"),
            (Tok::Name, "abs"),
            (Tok::Open, "("),
            (Tok::Pipe, "^const0"),
            (Tok::Suffix, ".wzyx"),
            (Tok::Close, ")"),
            (Tok::Number, "1"),
            (Tok::Suffix, ".y"),
            (Tok::Plus, "+"),
            (Tok::Reg, "$1"),
            (Tok::Suffix, ".z"),
            (Tok::Comma, ","),
            (Tok::Name, "L1"),
            (Tok::Colon, ":"),
        ]
    );
}

#[test]
fn numbers_take_signs_fractions_and_exponents_but_not_suffixes() {
    for number in [
        "1", "-2.5", ".5", "5.", "1e-3", "+4E2", "0x7e00", "-0.0", "65504", "12ab",
    ] {
        assert_eq!(lines(number), [[(Tok::Number, number)]], "{number}");
    }
    assert_eq!(lines("0.xy"), [[(Tok::Number, "0"), (Tok::Suffix, ".xy")]]);
    assert_eq!(lines("3.w"), [[(Tok::Number, "3"), (Tok::Suffix, ".w")]]);
    assert_eq!(lines("- 2")[0], [(Tok::Minus, "-"), (Tok::Number, "2")]);
    assert_eq!(lines("+$1")[0], [(Tok::Plus, "+"), (Tok::Reg, "$1")]);
}

#[test]
fn a_trailing_comma_continues_the_instruction() {
    let got = lines("load.v $1 0,\n  # between\n\n  mov.v0 $0 $1\nstop\n");
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].len(), 9);
    assert_eq!(got[0][4], (Tok::Comma, ","));
    assert_eq!(got[0][5], (Tok::Name, "mov"));
    assert_eq!(got[1], [(Tok::Name, "stop")]);
    // CR and CRLF end lines like LF.
    assert_eq!(lines("stop,\r\nsync\rnop").len(), 2);
}

#[test]
fn parentheses_nest_at_most_four_deep() {
    let got = lines("abs(abs(abs(abs(abs($0)))))");
    let opens = got[0].iter().filter(|(t, _)| *t == Tok::Open).count();
    assert_eq!(opens, MAX_NESTING as usize);
    assert!(got[0].contains(&(Tok::Other('('), "(")));
    // Closing brings the depth down again.
    let opens = lines("abs($0) abs($0) abs($0) abs($0) abs($0)")[0]
        .iter()
        .filter(|(t, _)| *t == Tok::Open)
        .count();
    assert_eq!(opens, 5);
}

#[test]
fn stray_characters_are_single_tokens() {
    assert_eq!(
        lines("$ ^ é;")[0],
        [
            (Tok::Other('$'), "$"),
            (Tok::Other('^'), "^"),
            (Tok::Other('é'), "é"),
            (Tok::Other(';'), ";")
        ]
    );
}

// ---- The parser ----

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
    let [ops, operands, args] = [before.ops.len(), before.operands.len(), before.args.len()];
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
