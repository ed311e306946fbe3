//! chumsky parser over one statement of tokens. It knows the shapes (operations joined by `+`,
//! operands with `-`, `c[...]` and `.swizzle`, uniform declarations, macros, `.word`); which
//! names and numbers are valid is the encoder's business, checked against the tables.

use std::ops::Range;

use chumsky::input::ValueInput;
use chumsky::prelude::*;
use polyasm_core::front::{Bounded, HasSpan, SyntaxError};

use crate::lexer::Tok;

/// The index inside `c[...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index<'s> {
    /// `c[17]`.
    Absolute(&'s str),
    /// `c[A0+17]`, `c[17+A0]` or `c[A0]`; `register` is what was written for `A0`.
    Relative {
        register: (&'s str, Range<usize>),
        offset: Option<&'s str>,
    },
}

/// A register as written, before the encoder resolves the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reg<'s> {
    /// `r0`, `v3`, `iPos`, `oD0`, `c12`, `a0`, ...
    Name(&'s str),
    /// `c[...]` (the encoder checks that `base` is `c`).
    Indexed { base: &'s str, index: Index<'s> },
    /// `#name` or `#name[row]`.
    Uniform {
        name: &'s str,
        row: Option<(&'s str, Range<usize>)>,
    },
}

/// One operand: `-c[A0+4].xyz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand<'s> {
    /// The `-`, if any.
    pub negate: Option<Range<usize>>,
    pub reg: Reg<'s>,
    pub reg_span: Range<usize>,
    /// The swizzle or mask with its dot: `.xyz`.
    pub suffix: Option<(&'s str, Range<usize>)>,
    pub span: Range<usize>,
}

impl Default for Operand<'_> {
    fn default() -> Self {
        Operand {
            negate: None,
            reg: Reg::Name(""),
            reg_span: 0..0,
            suffix: None,
            span: 0..0,
        }
    }
}

impl HasSpan for Operand<'_> {
    fn span(&self) -> Range<usize> {
        self.span.clone()
    }
}

/// The most operands an operation takes (MAD: a destination and three sources).
pub const MAX_OPERANDS: usize = 4;
/// An operation: a mnemonic and its operands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operation<'s> {
    pub mnemonic: &'s str,
    pub mnemonic_span: Range<usize>,
    pub operands: Bounded<Operand<'s>, MAX_OPERANDS>,
    pub span: Range<usize>,
}

impl HasSpan for Operation<'_> {
    fn span(&self) -> Range<usize> {
        self.span.clone()
    }
}

/// A number as written, with its span.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Number<'s> {
    pub text: &'s str,
    pub span: Range<usize>,
}

impl HasSpan for Number<'_> {
    fn span(&self) -> Range<usize> {
        self.span.clone()
    }
}

/// One parsed statement, or one operation of an instruction: the driver splits instructions at
/// their top-level `+` and parses each operation on its own, so a parse result stays small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement<'s> {
    /// One operation; an instruction joins one to three of them with `+`.
    Operation(Operation<'s>),
    /// `#name vector 12` or `#name matrix4 96`.
    Uniform {
        name: &'s str,
        name_span: Range<usize>,
        kind: &'s str,
        kind_span: Range<usize>,
        value: Number<'s>,
    },
    /// `%matmul4x4 dst src #matrix`, operands separated by spaces (or commas).
    Macro {
        name: &'s str,
        name_span: Range<usize>,
        operands: Bounded<Operand<'s>, MAX_OPERANDS>,
        span: Range<usize>,
    },
    /// `.word a, b, c, d`.
    Directive {
        name: &'s str,
        name_span: Range<usize>,
        values: Bounded<Number<'s>, 4>,
        span: Range<usize>,
    },
}

pub type ParseError<'t, 's> = SyntaxError<'t, Tok<'s>>;

/// The statement grammar.
/// The statement grammar, generic over the error type: assembling parses with
/// [`chumsky::error::EmptyErr`] first (no allocation per failed alternative) and only parses
/// a statement again with [`ParseError`] when it fails, for the message.
pub fn statement<'t, 's: 't, I, E>() -> impl Parser<'t, I, Statement<'s>, extra::Err<E>>
where
    I: ValueInput<'t, Token = Tok<'s>, Span = Range<usize>>,
    E: chumsky::error::Error<'t, I> + chumsky::error::LabelError<'t, I, &'static str> + 't,
{
    let ident = select! { Tok::Ident(s) => s };
    let int = select! { Tok::Int(s) => s }.labelled("a number");
    let number = int.map_with(|text, e| Number { text, span: e.span() });
    let a0 = ident.map_with(|s, e| (s, e.span())).labelled("A0");

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

    let row = int
        .map_with(|s, e| (s, e.span()))
        .delimited_by(just(Tok::Punct('[')), just(Tok::Punct(']')));

    let reg = choice((
        ident.then(index.or_not()).map(|(base, index)| match index {
            Some(index) => Reg::Indexed { base, index },
            None => Reg::Name(base),
        }),
        select! { Tok::Uniform(s) => s }
            .then(row.or_not())
            .map(|(name, row)| Reg::Uniform { name, row }),
    ))
    .map_with(|reg, e| (reg, e.span()))
    .labelled("a register");

    let operand = just(Tok::Punct('-'))
        .map_with(|_, e| e.span())
        .or_not()
        .then(reg)
        .then(select! { Tok::Dotted(s) => s }.map_with(|s, e| (s, e.span())).or_not())
        .map_with(|((negate, (reg, reg_span)), suffix), e| Operand {
            negate,
            reg,
            reg_span,
            suffix,
            span: e.span(),
        })
        .labelled("an operand");

    let operation = ident
        .map_with(|s, e| (s, e.span()))
        .labelled("a mnemonic")
        .then(
            operand
                .separated_by(just(Tok::Punct(',')))
                .collect::<Bounded<_, MAX_OPERANDS>>(),
        )
        .map_with(|((mnemonic, mnemonic_span), operands), e| Operation {
            mnemonic,
            mnemonic_span,
            operands,
            span: e.span(),
        });

    let instruction = operation.map(Statement::Operation);

    let uniform = select! { Tok::Uniform(s) => s }
        .map_with(|s, e| (s, e.span()))
        .then(ident.map_with(|s, e| (s, e.span())).labelled("`vector` or `matrix4`"))
        .then(number)
        .map(|(((name, name_span), (kind, kind_span)), value)| Statement::Uniform {
            name,
            name_span,
            kind,
            kind_span,
            value,
        });

    let macro_call = select! { Tok::Macro(s) => s }
        .map_with(|s, e| (s, e.span()))
        .then(
            operand
                .separated_by(just(Tok::Punct(',')).or_not())
                .collect::<Bounded<_, MAX_OPERANDS>>(),
        )
        .map_with(|((name, name_span), operands), e| Statement::Macro {
            name,
            name_span,
            operands,
            span: e.span(),
        });

    let directive = select! { Tok::Dotted(s) => s }
        .map_with(|s, e| (s, e.span()))
        .then(number.separated_by(just(Tok::Punct(','))).collect::<Bounded<_, 4>>())
        .map_with(|((name, name_span), values), e| Statement::Directive {
            name,
            name_span,
            values,
            span: e.span(),
        });

    choice((instruction, uniform, macro_call, directive))
        .then_ignore(end().labelled("the end of the statement"))
        .boxed()
}

/// Splits a statement's tokens at its top-level `+` (outside `[...]`) into the operations of
/// an instruction, appending their index ranges to `pieces`. A `+` with no operation on one side
/// is left out of every piece and its byte span goes to `dangling`.
pub fn split_operations(
    tokens: &[(Tok<'_>, Range<usize>)],
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

    fn parse(text: &str) -> Result<Statement<'_>, String> {
        let mut tokens = Vec::new();
        Lexer::new(text).next_statement(&mut tokens).unwrap();
        let mut out = None;
        let whole = std::iter::once(0..tokens.len()).collect::<Vec<_>>();
        polyasm_core::front::parse_statements(&statement(), &statement(), &tokens, &whole, |_, r| {
            out = Some(r.map_err(|e| {
                e.iter()
                    .map(|e| format!("found {:?} at {:?}", e.found(), e.span()))
                    .collect::<Vec<_>>()
                    .join("; ")
            }))
        });
        out.expect("one non-empty statement")
    }

    fn operations(text: &str) -> Vec<Operation<'_>> {
        let mut tokens = Vec::new();
        Lexer::new(text).next_statement(&mut tokens).unwrap();
        let (mut pieces, mut dangling) = (Vec::new(), Vec::new());
        split_operations(&tokens, 0..tokens.len(), &mut pieces, &mut dangling);
        assert!(dangling.is_empty());
        let mut ops = Vec::new();
        polyasm_core::front::parse_statements(&statement(), &statement(), &tokens, &pieces, |_, r| match r {
            Ok(Statement::Operation(op)) => ops.push(op),
            other => panic!("not an operation: {other:?}"),
        });
        ops
    }

    #[test]
    fn parses_paired_operations_with_every_operand_shape() {
        let ops = operations("MUL R2.xyzw, -R1, c[A0+60] + mov oD1, #m[1].x\n");
        assert_eq!(ops.len(), 2);
        let [dst, a, b] = ops[0].operands.as_slice() else {
            panic!("three operands")
        };
        assert_eq!(dst.suffix.as_ref().map(|s| s.0), Some(".xyzw"));
        assert_eq!(a.negate, Some(13..14));
        assert_eq!(
            b.reg,
            Reg::Indexed {
                base: "c",
                index: Index::Relative {
                    register: ("A0", 20..22),
                    offset: Some("60")
                }
            }
        );
        assert_eq!(
            ops[1].operands.as_slice()[1].reg,
            Reg::Uniform {
                name: "#m",
                row: Some(("1", 41..42))
            }
        );
        assert_eq!(ops[1].span, 29..45);
    }

    #[test]
    fn accepts_the_offset_before_a0_and_spaces_in_brackets() {
        let ops = operations("MUL R3, v6.x, c[ 60 + A0 ]");
        assert!(matches!(
            ops[0].operands.as_slice()[2].reg,
            Reg::Indexed {
                index: Index::Relative { offset: Some("60"), .. },
                ..
            }
        ));
    }

    #[test]
    fn parses_declarations_macros_and_words() {
        assert!(matches!(
            parse("#mvp matrix4 96").unwrap(),
            Statement::Uniform {
                name: "#mvp",
                kind: "matrix4",
                ..
            }
        ));
        let Statement::Macro { operands, .. } = parse("%matmul4x4 r0 iPos #mvp").unwrap() else {
            panic!("a macro")
        };
        assert_eq!(operands.count(), 3);
        let Statement::Directive { values, .. } = parse(".word 0, 0, 0, 1").unwrap() else {
            panic!("a directive")
        };
        assert_eq!(values.count(), 4);
    }

    #[test]
    fn rejects_missing_commas_and_negative_offsets_and_splits_at_top_level_plus() {
        assert!(parse("mov r0 v0").is_err());
        assert!(parse("mov r0, c[A0-4]").is_err());
        let mut tokens = Vec::new();
        Lexer::new("+ mov r0, c[A0+1] +").next_statement(&mut tokens).unwrap();
        let (mut pieces, mut dangling) = (Vec::new(), Vec::new());
        split_operations(&tokens, 0..tokens.len(), &mut pieces, &mut dangling);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0], 1..10);
        assert_eq!(dangling, [0..1, 18..19]);
    }
}
