//! chumsky parser over one statement of tokens. It knows the shapes (operations joined by `+`,
//! operands with `-`, `c[...]` and `.swizzle`, uniform declarations, macros, `.word`); which
//! names and numbers are valid is the encoder's business, checked against the tables.
//!
//! Parse results are small to move around: they hold only [`TextRange`]s (the encoder reads the
//! text from the source), and operands go to an arena, the parser's [`Operands`] state, which
//! chumsky rewinds when it backtracks.

use std::ops::Range;

use chumsky::input::{MapExtra, ValueInput};
use chumsky::inspector::TruncateState;
use chumsky::prelude::*;
use polyasm_core::front::{Bounded, HasSpan, Labels, Run, SyntaxError, TextRange};

use crate::lexer::Tok;

/// The index inside `c[...]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index {
    /// `c[17]`: the number.
    Absolute(TextRange),
    /// `c[A0+17]`, `c[17+A0]` or `c[A0]`; `register` is what was written for `A0`.
    Relative {
        /// What was written for `A0`.
        register: TextRange,
        /// The number added to `a0.x`; `None` for `c[A0]`.
        offset: Option<TextRange>,
    },
}

/// A register as written, before the encoder resolves the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// `r0`, `v3`, `iPos`, `oD0`, `c12`, `a0`, ...
    Name(TextRange),
    /// `c[...]` (the encoder checks that `base` is `c`).
    Indexed {
        /// The name before the `[`.
        base: TextRange,
        /// What is inside the brackets.
        index: Index,
    },
    /// `#name` or `#name[row]`.
    Uniform {
        /// The name, `#` included.
        name: TextRange,
        /// The number inside the brackets.
        row: Option<TextRange>,
    },
    /// A number where a register belongs (`mov r0, 5`), kept so the encoder can say so.
    Number(TextRange),
}

/// One operand: `-c[A0+4].xyz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The `-`, if any.
    pub negate: Option<TextRange>,
    /// The register.
    pub reg: Reg,
    /// The register's text, without the `-` and the suffix.
    pub reg_span: TextRange,
    /// The swizzle or mask with its dot: `.xyz`.
    pub suffix: Option<TextRange>,
}

impl HasSpan for Operand {
    /// From the `-` (or the register) to the end of the suffix (or the register).
    fn span(&self) -> TextRange {
        self.negate
            .unwrap_or(self.reg_span)
            .to(self.suffix.unwrap_or(self.reg_span))
    }
}

/// The parser's state: every operand parsed since the caller last emptied it.
pub type Operands = TruncateState<Operand>;

/// A statement's operands: a run of the [`Operands`] arena.
pub type OperandList = Run;

/// An operation: a mnemonic and its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The mnemonic as written, any case: `mov`, `DP4`.
    pub mnemonic: TextRange,
    /// Its operands, destination first.
    pub operands: OperandList,
    /// From the mnemonic to the last operand.
    pub span: TextRange,
}

impl HasSpan for Operation {
    fn span(&self) -> TextRange {
        self.span
    }
}

/// One parsed statement, or one operation of an instruction: the driver splits instructions at
/// their top-level `+` and parses each operation on its own, so a parse result stays small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// One operation; an instruction joins one to three of them with `+`.
    Operation(Operation),
    /// `#name vector 12` or `#name matrix4 96`.
    Uniform {
        /// The name, `#` included.
        name: TextRange,
        /// The type's name: `vector`, `matrix4`.
        kind: TextRange,
        /// The first constant register's index.
        value: TextRange,
    },
    /// `%matmul4x4 dst src #matrix`, operands separated by spaces (or commas).
    Macro {
        /// The macro's name, `%` included.
        name: TextRange,
        /// Its operands.
        operands: OperandList,
        /// From the name to the last operand.
        span: TextRange,
    },
    /// `.word a, b, c, d`.
    Directive {
        /// The directive, dot included.
        name: TextRange,
        /// The values; past the fourth, only counted and spanned.
        values: Bounded<TextRange, 4>,
    },
}

impl HasSpan for Statement {
    fn span(&self) -> TextRange {
        match self {
            Statement::Operation(operation) => operation.span(),
            Statement::Uniform { name, value, .. } => name.to(*value),
            Statement::Macro { span, .. } => *span,
            Statement::Directive { name, values } => name.to(values.span_from(0).unwrap_or(*name)),
        }
    }
}

/// The error type failing statements are parsed again with, to say what was expected.
pub type ParseError<'t, 's> = SyntaxError<'t, Tok>;

/// The statement grammar, generic over the error type: assembling parses with
/// [`chumsky::error::EmptyErr`] first (no allocation per failed alternative) and only parses
/// a statement again with [`ParseError`] when it fails, for the message.
pub fn statement<'t, 's: 't, I, E>() -> impl Parser<'t, I, Statement, extra::Full<E, Operands, ()>>
where
    I: ValueInput<'t, Token = Tok, Span = Range<usize>>,
    E: chumsky::error::Error<'t, I> + Labels<'t, I> + 't,
{
    type Extra<E> = extra::Full<E, Operands, ()>;
    let at = |_, e: &mut MapExtra<'t, '_, I, Extra<E>>| TextRange::from(e.span());
    // The last `len` operands pushed are the list just parsed.
    let list = |len: usize, e: &mut MapExtra<'t, '_, I, Extra<E>>| Run::last(e.state(), len);
    let ident = select! { Tok::Ident => () }.map_with(at);
    let int = E::label(select! { Tok::Int => () }.map_with(at), "a number");
    let a0 = E::label(ident, "A0");

    let index = choice((
        a0.then(just(Tok::Punct('+')).ignore_then(int).or_not())
            .map(|(register, offset)| Index::Relative { register, offset }),
        int.then(just(Tok::Punct('+')).ignore_then(a0).or_not())
            .map(|(offset, register)| match register {
                Some(register) => Index::Relative {
                    register,
                    offset: Some(offset),
                },
                None => Index::Absolute(offset),
            }),
    ))
    .delimited_by(just(Tok::Punct('[')), just(Tok::Punct(']')));

    let row = int.delimited_by(just(Tok::Punct('[')), just(Tok::Punct(']')));
    let uniform_name = select! { Tok::Uniform => () }.map_with(at);

    let reg = E::label(
        choice((
            ident.then(index.or_not()).map(|(base, index)| match index {
                Some(index) => Reg::Indexed { base, index },
                None => Reg::Name(base),
            }),
            uniform_name
                .then(row.or_not())
                .map(|(name, row)| Reg::Uniform { name, row }),
            select! { Tok::Int => () }.map_with(at).map(Reg::Number),
        ))
        .map_with(|reg, e| (reg, TextRange::from(e.span()))),
        "a register",
    );

    let operand = E::label(
        just(Tok::Punct('-'))
            .ignored()
            .map_with(at)
            .or_not()
            .then(reg)
            .then(select! { Tok::Dotted => () }.map_with(at).or_not())
            .map(|((negate, (reg, reg_span)), suffix)| Operand {
                negate,
                reg,
                reg_span,
                suffix,
            }),
        "an operand",
    )
    .map_with(|operand, e| e.state().push(operand));

    let operation = E::label(ident, "a mnemonic")
        .then(operand.separated_by(just(Tok::Punct(','))).count().map_with(list))
        .map_with(|(mnemonic, operands), e| {
            Statement::Operation(Operation {
                mnemonic,
                operands,
                span: e.span().into(),
            })
        });

    let uniform = uniform_name
        .then(E::label(ident, "`vector` or `matrix4`"))
        .then(int)
        .map(|((name, kind), value)| Statement::Uniform { name, kind, value });

    let macro_call = select! { Tok::Macro => () }
        .map_with(at)
        .then(
            operand
                .separated_by(just(Tok::Punct(',')).or_not())
                .count()
                .map_with(list),
        )
        .map_with(|(name, operands), e| Statement::Macro {
            name,
            operands,
            span: e.span().into(),
        });

    let directive = select! { Tok::Dotted => () }
        .map_with(at)
        .then(int.separated_by(just(Tok::Punct(','))).collect::<Bounded<_, 4>>())
        .map(|(name, values)| Statement::Directive { name, values });

    choice((operation, uniform, macro_call, directive)).then_ignore(E::label(end(), "the end of the statement"))
}

/// Reads the common shape of an operation without chumsky: a mnemonic and operands, each an
/// optional `-`, a register (`r0`, `c[A0+4]`, `#m[2]`, a number) and an optional suffix, with
/// nothing else after. On `None` the caller parses the tokens with [`statement`], which knows
/// every other shape and says what is wrong; on `Some` the result, and the operands appended to
/// `arena`, are what [`statement`] gives (a proptest holds the two to that). Most lines of a
/// program are such operations, and this is several times faster than the combinators.
pub fn quick_operation(tokens: &[(Tok, Range<usize>)], arena: &mut Vec<Operand>) -> Option<Operation> {
    let start = arena.len();
    let operation = quick_operation_into(tokens, arena);
    if operation.is_none() {
        arena.truncate(start);
    }
    operation
}

fn quick_operation_into(tokens: &[(Tok, Range<usize>)], arena: &mut Vec<Operand>) -> Option<Operation> {
    let range = |i: usize| TextRange::from(tokens[i].1.clone());
    let kind = |i: usize| tokens.get(i).map(|t| t.0);
    let (Tok::Ident, mnemonic) = tokens.first()? else {
        return None;
    };
    let start = arena.len();
    let mut i = 1;
    // Operands separated by commas; none at all is a (wrong) operation too.
    while i < tokens.len() {
        if i > 1 {
            if kind(i) != Some(Tok::Punct(',')) {
                return None;
            }
            i += 1;
        }
        let negate = (kind(i) == Some(Tok::Punct('-'))).then(|| range(i));
        i += usize::from(negate.is_some());
        let reg_start = i;
        let reg = match kind(i)? {
            Tok::Ident if kind(i + 1) == Some(Tok::Punct('[')) => {
                let (index, next) = quick_index(tokens, i + 2)?;
                let reg = Reg::Indexed { base: range(i), index };
                i = next;
                reg
            }
            Tok::Ident => {
                i += 1;
                Reg::Name(range(i - 1))
            }
            Tok::Uniform if kind(i + 1) == Some(Tok::Punct('[')) => {
                if (kind(i + 2), kind(i + 3)) != (Some(Tok::Int), Some(Tok::Punct(']'))) {
                    return None;
                }
                i += 4;
                Reg::Uniform {
                    name: range(i - 4),
                    row: Some(range(i - 2)),
                }
            }
            Tok::Uniform => {
                i += 1;
                Reg::Uniform {
                    name: range(i - 1),
                    row: None,
                }
            }
            Tok::Int => {
                i += 1;
                Reg::Number(range(i - 1))
            }
            _ => return None,
        };
        let reg_span = range(reg_start).to(range(i - 1));
        let suffix = (kind(i) == Some(Tok::Dotted)).then(|| range(i));
        i += usize::from(suffix.is_some());
        arena.push(Operand {
            negate,
            reg,
            reg_span,
            suffix,
        });
    }
    Some(Operation {
        mnemonic: TextRange::from(mnemonic.clone()),
        operands: Run::new(start..arena.len()),
        span: TextRange::from(mnemonic.clone()).to(range(tokens.len() - 1)),
    })
}

/// The inside of `c[...]` from token `i` on, and the token after the `]`.
fn quick_index(tokens: &[(Tok, Range<usize>)], i: usize) -> Option<(Index, usize)> {
    let range = |i: usize| TextRange::from(tokens[i].1.clone());
    let kind = |i: usize| tokens.get(i).map(|t| t.0);
    let plus = kind(i + 1) == Some(Tok::Punct('+'));
    let (index, after) = match (kind(i)?, plus, kind(i + 2)) {
        (Tok::Ident, false, _) => (
            Index::Relative {
                register: range(i),
                offset: None,
            },
            i + 1,
        ),
        (Tok::Ident, true, Some(Tok::Int)) => (
            Index::Relative {
                register: range(i),
                offset: Some(range(i + 2)),
            },
            i + 3,
        ),
        (Tok::Int, false, _) => (Index::Absolute(range(i)), i + 1),
        (Tok::Int, true, Some(Tok::Ident)) => (
            Index::Relative {
                register: range(i + 2),
                offset: Some(range(i)),
            },
            i + 3,
        ),
        _ => return None,
    };
    (kind(after) == Some(Tok::Punct(']'))).then_some((index, after + 1))
}

/// Splits a statement's tokens at its top-level `+` (outside `[...]`) into the operations of
/// an instruction, appending their index ranges to `pieces`. A `+` with no operation on one side
/// is left out of every piece and its byte span goes to `dangling`.
pub fn split_operations(
    tokens: &[(Tok, Range<usize>)],
    statement: Range<usize>,
    pieces: &mut Vec<Range<usize>>,
    dangling: &mut Vec<Range<usize>>,
) {
    let mut depth = 0usize;
    let mut start = statement.start;
    for i in statement.clone() {
        match tokens[i].0 {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => depth = depth.saturating_sub(1),
            Tok::Punct('+') if depth == 0 => {
                if i == start {
                    dangling.push(tokens[i].1.clone());
                } else {
                    pieces.push(start..i);
                }
                if i + 1 == statement.end {
                    dangling.push(tokens[i].1.clone());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < statement.end {
        pieces.push(start..statement.end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Lexer;
    use polyasm_core::front::StatementLexer;
    use proptest::prelude::{ProptestConfig, Strategy, prop, prop_assert, prop_assert_eq, prop_oneof, proptest};
    use proptest::strategy::Just as Always;

    fn tokens(text: &str) -> Vec<(Tok, Range<usize>)> {
        let mut tokens = Vec::new();
        Lexer::new(text).next_statement(&mut tokens).unwrap();
        tokens
    }

    /// Parses each piece of a statement's tokens; each result with the operands it put in the
    /// arena, or its errors in a line.
    fn parse_pieces(
        tokens: &[(Tok, Range<usize>)],
        pieces: &[Range<usize>],
    ) -> Vec<Result<(Statement, Vec<Operand>), String>> {
        let mut out = Vec::new();
        let mut arena = Operands::from(Vec::new());
        polyasm_core::front::parse_statements(&statement(), &statement(), tokens, pieces, &mut arena, |_, arena, r| {
            out.push(r.map(|s| (s, arena.to_vec())).map_err(|e| {
                e.iter()
                    .map(|e| format!("found {:?} at {:?}", e.found(), e.span()))
                    .collect::<Vec<_>>()
                    .join("; ")
            }))
        });
        out
    }

    /// Parses one statement.
    fn parse(text: &str) -> Result<(Statement, Vec<Operand>), String> {
        let tokens = tokens(text);
        let whole: Vec<Range<usize>> = std::iter::once(0..tokens.len()).collect();
        parse_pieces(&tokens, &whole).remove(0)
    }

    /// Each operation's operands, parsed one operation at a time as the driver does.
    fn operations(text: &str) -> Vec<(Operation, Vec<Operand>)> {
        let tokens = tokens(text);
        let (mut pieces, mut dangling) = (Vec::new(), Vec::new());
        split_operations(&tokens, 0..tokens.len(), &mut pieces, &mut dangling);
        assert!(dangling.is_empty());
        parse_pieces(&tokens, &pieces)
            .into_iter()
            .map(|r| match r {
                Ok((Statement::Operation(op), arena)) => (op, op.operands.of(&arena).to_vec()),
                other => panic!("not an operation: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn parses_paired_operations_with_every_operand_shape() {
        let text = "MUL R2.xyzw, -R1, c[A0+60] + mov oD1, #m[1].x\n";
        let at = |range: TextRange| range.text(text);
        let ops = operations(text);
        assert_eq!(ops.len(), 2);
        let [dst, a, b] = ops[0].1.as_slice() else {
            panic!("three operands")
        };
        assert_eq!(dst.suffix.map(at), Some(".xyzw"));
        assert_eq!(a.negate, Some(TextRange::new(13, 14)));
        assert_eq!(at(a.span()), "-R1");
        let Reg::Indexed {
            base,
            index: Index::Relative { register, offset },
        } = b.reg
        else {
            panic!("a relative constant: {:?}", b.reg)
        };
        assert_eq!((at(base), at(register), offset.map(at)), ("c", "A0", Some("60")));
        assert_eq!(register, TextRange::new(20, 22));
        let Reg::Uniform { name, row } = ops[1].1[1].reg else {
            panic!("a uniform")
        };
        assert_eq!((at(name), row), ("#m", Some(TextRange::new(41, 42))));
        assert_eq!(at(ops[1].0.span), "mov oD1, #m[1].x");
        assert_eq!(ops[1].0.span, TextRange::new(29, 45));
    }

    #[test]
    fn accepts_the_offset_before_a0_and_spaces_in_brackets() {
        let text = "MUL R3, v6.x, c[ 60 + A0 ]";
        let ops = operations(text);
        let Reg::Indexed {
            index: Index::Relative {
                offset: Some(offset), ..
            },
            ..
        } = ops[0].1[2].reg
        else {
            panic!("a relative constant")
        };
        assert_eq!(offset.text(text), "60");
    }

    #[test]
    fn parses_declarations_macros_and_words() {
        let text = "#mvp matrix4 96";
        let (Statement::Uniform { name, kind, value }, _) = parse(text).unwrap() else {
            panic!("a uniform declaration")
        };
        assert_eq!([name, kind, value].map(|r| r.text(text)), ["#mvp", "matrix4", "96"]);
        let (Statement::Macro { operands, .. }, arena) = parse("%matmul4x4 r0 iPos #mvp").unwrap() else {
            panic!("a macro")
        };
        assert_eq!(operands.of(&arena).len(), 3);
        let text = ".word 0, 0, 0, 1 ; comment";
        let (statement, _) = parse(text).unwrap();
        assert_eq!(statement.span().text(text), ".word 0, 0, 0, 1");
        let Statement::Directive { values, .. } = statement else {
            panic!("a directive")
        };
        assert_eq!(values.count(), 4);
    }

    #[test]
    fn rejects_missing_commas_and_negative_offsets_and_splits_at_top_level_plus() {
        assert!(parse("mov r0 v0").is_err());
        assert!(parse("mov r0, c[A0-4]").is_err());
        let tokens = tokens("+ mov r0, c[A0+1] +");
        let (mut pieces, mut dangling) = (Vec::new(), Vec::new());
        split_operations(&tokens, 0..tokens.len(), &mut pieces, &mut dangling);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0], 1..10);
        assert_eq!(dangling, [0..1, 18..19]);
    }

    /// Token kinds with made-up spans (each token two bytes on from the last), as the lexer
    /// would give them for some text.
    fn spanned(kinds: &[Tok]) -> Vec<(Tok, Range<usize>)> {
        kinds
            .iter()
            .enumerate()
            .map(|(i, &kind)| (kind, 2 * i..2 * i + 1))
            .collect()
    }

    /// An operation's mnemonic, span and operands (wherever they sit in the arena).
    type Read = (TextRange, TextRange, Vec<Operand>);

    /// What the chumsky grammar gives for one operation's tokens.
    fn chumsky_operation(tokens: &[(Tok, Range<usize>)]) -> Option<Read> {
        match parse_pieces(tokens, std::slice::from_ref(&(0..tokens.len()))).remove(0) {
            Ok((Statement::Operation(op), arena)) => Some((op.mnemonic, op.span, op.operands.of(&arena).to_vec())),
            _ => None,
        }
    }

    /// What the quick reader gives, into an arena that already holds an operand.
    fn quick(tokens: &[(Tok, Range<usize>)]) -> Option<Read> {
        let mut arena = vec![Operand {
            negate: None,
            reg: Reg::Name(TextRange::default()),
            reg_span: TextRange::default(),
            suffix: None,
        }];
        let before = arena.clone();
        let result = quick_operation(tokens, &mut arena);
        if result.is_none() {
            assert_eq!(arena, before, "a failed quick parse leaves the arena as it was");
        }
        result.map(|op| {
            assert_eq!(
                op.operands,
                Run::new(1..arena.len()),
                "the operands follow what the arena held"
            );
            (op.mnemonic, op.span, op.operands.of(&arena).to_vec())
        })
    }

    #[test]
    fn the_quick_reader_takes_every_operand_shape_and_leaves_the_rest_to_chumsky() {
        for text in [
            "mad r0.xy, -v1.zw, c[A0+3].x, #m[1]",
            "mul r1, c[ 4 + a0 ], c[A0]",
            "mov oPos, c17",
            "mov r0, 5",
            "dp4 oPos.x, v0, #mvp",
            "nop",
        ] {
            let tokens = tokens(text);
            let got = quick(&tokens);
            assert!(got.is_some(), "{text}");
            assert_eq!(got, chumsky_operation(&tokens), "{text}");
        }
        for text in [
            "mov r0 v0",
            "mov r0,",
            "mov r0, c[A0-4]",
            "mov -",
            "#m vector 3",
            ".word 1",
            "mov r0, #m[a]",
        ] {
            assert_eq!(quick(&tokens(text)), None, "{text}");
        }
    }

    /// A token kind, most often one that can appear in an operation.
    fn any_tok() -> impl Strategy<Value = Tok> {
        prop_oneof![
            4 => Always(Tok::Ident),
            3 => Always(Tok::Punct(',')),
            2 => Always(Tok::Int),
            2 => Always(Tok::Dotted),
            2 => Always(Tok::Punct('[')),
            2 => Always(Tok::Punct(']')),
            2 => Always(Tok::Punct('+')),
            2 => Always(Tok::Punct('-')),
            1 => Always(Tok::Uniform),
            1 => Always(Tok::Macro),
            1 => Always(Tok::Punct('*')),
        ]
    }

    /// One well-formed operand's token kinds.
    fn operand_toks() -> impl Strategy<Value = Vec<Tok>> {
        use Tok::*;
        let reg = prop_oneof![
            Always(vec![Ident]),
            Always(vec![Int]),
            Always(vec![Uniform]),
            Always(vec![Uniform, Punct('['), Int, Punct(']')]),
            Always(vec![Ident, Punct('['), Int, Punct(']')]),
            Always(vec![Ident, Punct('['), Ident, Punct(']')]),
            Always(vec![Ident, Punct('['), Ident, Punct('+'), Int, Punct(']')]),
            Always(vec![Ident, Punct('['), Int, Punct('+'), Ident, Punct(']')]),
        ];
        (
            proptest::arbitrary::any::<bool>(),
            reg,
            proptest::arbitrary::any::<bool>(),
        )
            .prop_map(|(negate, reg, suffix)| {
                let mut out = Vec::new();
                if negate {
                    out.push(Punct('-'));
                }
                out.extend(reg);
                if suffix {
                    out.push(Dotted);
                }
                out
            })
    }

    /// A well-formed operation's token kinds.
    fn operation_toks() -> impl Strategy<Value = Vec<Tok>> {
        prop::collection::vec(operand_toks(), 0..5).prop_map(|operands| {
            let mut kinds = vec![Tok::Ident];
            for (i, operand) in operands.iter().enumerate() {
                if i > 0 {
                    kinds.push(Tok::Punct(','));
                }
                kinds.extend(operand);
            }
            kinds
        })
    }

    /// An edit of a token list: replace, insert or remove the token at a position.
    #[derive(Clone, Debug)]
    enum Edit {
        Replace(usize, Tok),
        Insert(usize, Tok),
        Remove(usize),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            (0..24usize, any_tok()).prop_map(|(at, tok)| Edit::Replace(at, tok)),
            (0..24usize, any_tok()).prop_map(|(at, tok)| Edit::Insert(at, tok)),
            (0..24usize).prop_map(Edit::Remove),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// On tokens near a well-formed operation, and on token soup, a quick result is
        /// chumsky's result.
        #[test]
        fn the_quick_reader_agrees_with_the_grammar(
            mut kinds in operation_toks(),
            edits in prop::collection::vec(edit(), 1..4),
            soup in prop::collection::vec(any_tok(), 0..14),
        ) {
            for edit in edits {
                match edit {
                    Edit::Replace(at, tok) if at < kinds.len() => kinds[at] = tok,
                    Edit::Insert(at, tok) => kinds.insert(at.min(kinds.len()), tok),
                    Edit::Remove(at) if at < kinds.len() => drop(kinds.remove(at)),
                    _ => {}
                }
            }
            for kinds in [kinds, [vec![Tok::Ident], soup].concat()] {
                let tokens = spanned(&kinds);
                if let Some(got) = quick(&tokens) {
                    prop_assert_eq!(Some(got), chumsky_operation(&tokens), "{:?}", kinds);
                }
            }
        }

        /// Every well-formed operation takes the quick path.
        #[test]
        fn the_quick_reader_takes_every_well_formed_operation(kinds in operation_toks()) {
            let tokens = spanned(&kinds);
            let got = quick(&tokens);
            prop_assert!(got.is_some());
            prop_assert_eq!(got, chumsky_operation(&tokens));
        }
    }
}
