//! The proposed syntax to instructions, with every check: statements from the parser become
//! [`Instr`]s of the model, which [`crate::instr::Words`] packs as they come. Every error of a
//! file is reported, each with its span; labels resolve to relative word offsets once the lengths of
//! all instructions are known. docs/lima.md describes the syntax unit by unit.

use std::ops::Range;

use polyasm_core::diagnostic::Collector;
use polyasm_core::front::{self, TextRange};
use polyasm_core::text::{NameMap, SuggestionBudget, parse_int_literal, suggest};
use polyasm_core::{Diagnostic, Object, Outcome, SourceId, SourceMap, Span, Symbol};

use crate::error;
use crate::instr::{
    Branch, Combine, CombineDest, FloatAcc, FloatMul, Instr, Load, Sampler, ScalarReg, ScalarSource, Store, Varying,
    VaryingFetch, VaryingSource, VecAcc, VecDest, VecMul, VecSource, Words,
};
use crate::lexer::{Lexer, Tok};
use crate::ops::proposed::{self as names, Pipeline};
use crate::ops::{
    self, ACC_OPS, ALIGNMENTS, AccOp, Alignment, BRANCH_CONDS, BranchCond, COMBINE_ATAN_PT2, COMBINE_MUL, COMBINE_OPS,
    COMPONENTS, CombineOp, FB_READS, FbRead, Field, LOAD_SOURCES, LoadSource, MUL_OPS, MulOp, OUTMODS, OutMod,
    PERSPECTIVES, Perspective, VARYING_KINDS, VaryingAlignment, VaryingForm,
};
use crate::parser::{self, Arena, Expr, Op, Operand, Statement, Term, Value};

/// An assembled program: its instructions, and its words as an [`Object`] (with a listing:
/// one entry per instruction, its address the word offset of its control word).
#[derive(Clone, Debug)]
pub struct Assembled {
    pub instrs: Vec<Instr>,
    pub object: Object,
}

/// Assembles source `file` of `sources`, written in the proposed syntax: the instructions and
/// their words, with a listing when `listing` is set. The value is there when no diagnostic
/// is an error; warnings come with it.
///
/// ```
/// use polyasm_core::SourceMap;
/// let mut sources = SourceMap::new();
/// let file = sources.add("copy.pp", "load.v $1 0.xy, texld 0, mov.v0 $0 ^texture, sync, stop\n");
/// let outcome = polyasm_lima::encode::assemble_proposed(&sources, file, false);
/// assert_eq!(outcome.diagnostics[0].code, "PP017"); // sync and stop come first
/// let file = sources.add("copy.pp", "stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n");
/// let outcome = polyasm_lima::encode::assemble_proposed(&sources, file, false);
/// let words: Vec<u32> = outcome.value.expect("valid").object.words().collect();
/// // Mesa's tile-reload program.
/// assert_eq!(words, [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]);
/// ```
pub fn assemble_proposed(sources: &SourceMap, file: SourceId, listing: bool) -> Outcome<Assembled> {
    assemble(sources, file, listing, true)
}

/// Assembles source `file` in the proposed syntax to its words, as [`assemble_proposed`] does,
/// without keeping the instructions (the words of a big program take a seventh of their
/// memory).
pub fn assemble_proposed_object(sources: &SourceMap, file: SourceId, listing: bool) -> Outcome<Object> {
    assemble(sources, file, listing, false).map(|assembled| assembled.object)
}

/// Assembles source `file`; the instructions are in the result when `keep` is set. The text is
/// lexed a chunk of statements at a time, each chunk parsed and read into instructions and
/// words; labels and branches are resolved at the end ([`Encoder::finish`]).
fn assemble(sources: &SourceMap, file: SourceId, listing: bool, keep: bool) -> Outcome<Assembled> {
    let text = sources.get(file).text();
    let mut encoder = Encoder::new(file, text, listing, keep);
    let mut chunk = Chunk::new();
    let mut tokens = Vec::with_capacity(front::STATEMENTS_PER_CHUNK * 16);
    let mut statements = Vec::with_capacity(front::STATEMENTS_PER_CHUNK);
    front::lex_in_chunks_with(
        &mut Lexer::new(text),
        &mut tokens,
        &mut statements,
        |tokens, statements, _no_errors| {
            parse_chunk(text, tokens, statements, &mut chunk);
            // The operands inside calls are the encoder's for the chunk, for reading at any
            // depth; the operations and operands of each statement are read from the arena.
            encoder.args = std::mem::take(&mut chunk.arena.args);
            for parsed in &chunk.parsed {
                match parsed {
                    Parsed::Statement(statement) => encoder.statement(statement, &chunk.arena),
                    Parsed::Failed(errors) => {
                        for (range, found, expected) in errors {
                            encoder.syntax_error(range.in_source(file), found, expected);
                        }
                    }
                }
            }
            chunk.arena.args = std::mem::take(&mut encoder.args);
        },
    );
    encoder.finish()
}

/// One statement as the parser left it: read, or its syntax errors (the range, what was
/// found, what was expected).
enum Parsed {
    Statement(Statement),
    Failed(Vec<(TextRange, String, String)>),
}

/// A chunk of statements parsed, and the arena that holds their lists; the next chunk is read
/// into the same buffers.
struct Chunk {
    parsed: Vec<Parsed>,
    arena: Arena,
}

impl Chunk {
    /// Room for a chunk of [`front::STATEMENTS_PER_CHUNK`] statements of four operations and
    /// eight operands each, so that a chunk seldom grows a buffer.
    fn new() -> Chunk {
        let statements = front::STATEMENTS_PER_CHUNK;
        Chunk {
            parsed: Vec::with_capacity(statements),
            arena: Arena {
                ops: Vec::with_capacity(statements * 4),
                operands: Vec::with_capacity(statements * 8),
                args: Vec::with_capacity(statements * 2),
            },
        }
    }
}

/// Parses the statements of a chunk of tokens into `chunk`, emptied first. A valid statement
/// is read by [`parser::quick_statement`]; chumsky reads the others.
fn parse_chunk(text: &str, tokens: &[(Tok, Range<usize>)], statements: &[Range<usize>], chunk: &mut Chunk) {
    chunk.parsed.clear();
    chunk.arena.clear();
    let fast = parser::statement();
    let rich = parser::statement();
    for statement in statements {
        let toks = &tokens[statement.clone()];
        if toks.is_empty() {
            continue;
        }
        if let Some(statement) = parser::quick_statement(toks, &mut chunk.arena) {
            chunk.parsed.push(Parsed::Statement(statement));
            continue;
        }
        let whole = 0..toks.len();
        let one = std::slice::from_ref(&whole);
        let parsed = &mut chunk.parsed;
        front::parse_statements(
            &fast,
            &rich,
            toks,
            one,
            &mut chunk.arena,
            |_, _, parsed_one| match parsed_one {
                Ok(statement) => parsed.push(Parsed::Statement(statement)),
                Err(errors) => {
                    let errors = errors
                        .iter()
                        .map(|e| {
                            let (range, found, expected) = front::describe_syntax_error(e, text);
                            let found = polyasm_core::text::escape_controls(&found).into_owned();
                            (TextRange::from(range), found, expected)
                        })
                        .collect();
                    parsed.push(Parsed::Failed(errors));
                }
            },
        );
    }
}

/// Assembles a string in the proposed syntax: its instructions (warnings dropped), or every
/// diagnostic when one is an error.
pub fn assemble_proposed_text(text: &str) -> Result<Vec<Instr>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble_proposed(&sources, file, false);
    match outcome.value {
        Some(assembled) => Ok(assembled.instrs),
        None => Err(outcome.diagnostics),
    }
}

/// The longest corrected line a help line quotes whole.
const MAX_HELP_LINE: usize = 200;

/// Where a branch goes, as written.
#[derive(Clone, Copy, Debug)]
enum Target {
    Label(TextRange),
    Relative(i64),
}

/// What an operation is, once its opcode, unit and modifiers are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Stop,
    Sync,
    Nop,
    Varying(Perspective),
    Texld {
        lod: bool,
    },
    Load(LoadSource),
    VecMul(MulOp, i8, OutMod),
    FloatMul(MulOp, i8, OutMod),
    VecAcc(AccOp, OutMod),
    FloatAcc(AccOp, OutMod),
    /// The op, its output modifier and the destination form asked for (`Some(true)`: `_vec`).
    CombineScalar(CombineOp, OutMod, Option<bool>),
    CombineMul,
    AtanPt2(OutMod),
    Store,
    FbRead(FbRead),
    Branch(BranchCond),
    Discard,
    Const(usize),
}

impl Kind {
    /// The position in the control word: stop, sync, then the fields; `None` for `nop`.
    fn slot(self) -> Option<usize> {
        let field = match self {
            Kind::Stop => return Some(0),
            Kind::Sync => return Some(1),
            Kind::Nop => return None,
            Kind::Varying(_) => Field::Varying,
            Kind::Texld { .. } => Field::Sampler,
            Kind::Load(_) => Field::Uniform,
            Kind::VecMul(..) => Field::Vec4Mul,
            Kind::FloatMul(..) => Field::FloatMul,
            Kind::VecAcc(..) => Field::Vec4Acc,
            Kind::FloatAcc(..) => Field::FloatAcc,
            Kind::CombineScalar(..) | Kind::CombineMul | Kind::AtanPt2(_) => Field::Combine,
            Kind::Store | Kind::FbRead(_) => Field::TempWrite,
            Kind::Branch(_) | Kind::Discard => Field::Branch,
            Kind::Const(0) => Field::Const0,
            Kind::Const(_) => Field::Const1,
        };
        Some(2 + field.info().index as usize)
    }

    /// The operands it takes, as words for the help line (`dest src1 src2`).
    fn form(self) -> &'static [&'static str] {
        match self {
            Kind::Stop | Kind::Sync | Kind::Nop | Kind::Discard => &[],
            Kind::Varying(_) => &["dest", "source"],
            Kind::Texld { .. } => &["sampler", "[lod-register]", "[bias(n)]"],
            Kind::Load(_) => &["index"],
            Kind::VecMul(op, ..) | Kind::FloatMul(op, ..) if !op.is_binary() => &["dest", "src"],
            Kind::VecAcc(op, _) | Kind::FloatAcc(op, _) if !op.is_binary() => &["dest", "src"],
            Kind::CombineScalar(op, ..) if !op.is_binary() => &["dest", "src"],
            Kind::VecMul(..) | Kind::FloatMul(..) | Kind::VecAcc(..) | Kind::FloatAcc(..) => &["dest", "src1", "src2"],
            Kind::CombineScalar(..) | Kind::CombineMul => &["dest", "src1", "src2"],
            Kind::AtanPt2(_) => &["dest", "src"],
            Kind::Store => &["index", "src"],
            Kind::FbRead(_) => &["dest"],
            Kind::Branch(BranchCond::Always) => &["target"],
            Kind::Branch(_) => &["src1", "src2", "target"],
            Kind::Const(_) => &["x", "y", "z", "w"],
        }
    }

    /// How many operands it takes, at least and at most.
    fn operand_range(self) -> (usize, usize) {
        let form = self.form();
        let required = form.iter().filter(|w| !w.starts_with('[')).count();
        (required, form.len())
    }

    /// Whether its first operand is a destination that the older examples wrote last.
    fn has_dest(self) -> bool {
        !matches!(
            self,
            Kind::Stop
                | Kind::Sync
                | Kind::Nop
                | Kind::Texld { .. }
                | Kind::Load(_)
                | Kind::Store
                | Kind::Branch(_)
                | Kind::Discard
                | Kind::Const(_)
        )
    }

    /// The name of its unit for messages.
    fn unit_name(self) -> &'static str {
        match self {
            Kind::Stop => "`stop`",
            Kind::Sync => "`sync`",
            Kind::Nop => "`nop`",
            _ => match self.slot().map(|s| Field::ALL[s - 2]) {
                Some(Field::Varying) => "varying",
                Some(Field::Sampler) => "texture",
                Some(Field::Uniform) => "load",
                Some(Field::Vec4Mul) => "`.v0`",
                Some(Field::FloatMul) => "`.s0`",
                Some(Field::Vec4Acc) => "`.v1`",
                Some(Field::FloatAcc) => "`.s1`",
                Some(Field::Combine) => "`.s2`",
                Some(Field::TempWrite) => "store/framebuffer",
                Some(Field::Branch) => "branch",
                Some(Field::Const0) => "`const0`",
                _ => "`const1`",
            },
        }
    }
}

/// A register operand read by [`Encoder::source`].
#[derive(Clone, Copy, Debug)]
enum SrcReg {
    /// A vec4 register field value, 0-15.
    Vec(u8),
    Vmul,
    Fmul,
}

/// A source operand: its register, suffix and modifiers.
#[derive(Clone, Copy, Debug)]
struct Src {
    reg: SrcReg,
    suffix: Option<TextRange>,
    abs: bool,
    neg: bool,
    span: TextRange,
}

/// What the operations of one instruction read, for the checks across units.
#[derive(Default)]
struct Reads {
    consts: [Option<TextRange>; 2],
    vmul: Option<TextRange>,
    fmul: Option<TextRange>,
}

/// `word` with an older name of an opcode at its start replaced by the current one
/// ([`names::OLD_OPCODES`]); `replaced` sees each older name replaced.
fn current_name<'w>(word: &'w str, mut replaced: impl FnMut(&'static str, &'static str)) -> std::borrow::Cow<'w, str> {
    let mut word = std::borrow::Cow::Borrowed(word);
    for &(old, new) in names::OLD_OPCODES {
        if let Some(rest) = split(&word, old) {
            replaced(old, new);
            let renamed = format!("{new}{rest}");
            word = std::borrow::Cow::Owned(renamed);
        }
    }
    word
}

/// The opcode, with its unit, nearest to `word`, while `budget` lasts.
fn opcode_suggestion(budget: &mut SuggestionBudget, word: &str, unit: Option<&str>) -> Option<String> {
    let forms = all_forms();
    let suggestion = budget.suggest(word, forms.iter().map(|(n, _)| *n))?;
    let unit = forms
        .iter()
        .find(|(n, u)| *n == suggestion && Some(*u) == unit)
        .or_else(|| forms.iter().find(|(n, _)| *n == suggestion))
        .map_or("", |(_, u)| *u);
    Some(format!("{suggestion}{unit}"))
}

/// Turns the statements of a source into instructions and words, collecting every
/// diagnostic.
struct Encoder<'s> {
    file: SourceId,
    text: &'s str,
    /// Whether the instructions are kept, and the span of each for a listing.
    keep: bool,
    listing: bool,
    instrs: Vec<Instr>,
    spans: Vec<TextRange>,
    /// (instruction, target, span of the target operand).
    branches: Vec<(usize, Target, TextRange)>,
    /// Each label: the instruction it names and where it is defined.
    labels: NameMap<&'s str, (usize, TextRange)>,
    /// The labels in the order they are defined.
    label_order: Vec<&'s str>,
    /// The diagnostics by where they start, then in the order they are reported.
    diagnostics: Collector<Option<u32>>,
    /// The file's suggestion budget, spent in order: unknown opcodes as they come, then
    /// unknown labels.
    budget: SuggestionBudget,
    /// The kinds of the operations of the instruction being read.
    kinds: Vec<Option<Kind>>,
    /// Which operations of the instruction being read are encoded.
    usable: Vec<bool>,
    /// The words of the instructions so far, encoded as they come.
    words: Words,
    /// The operands inside calls of the chunk being read (see [`Expr::Call`]).
    args: Vec<Operand>,
    /// The kind of each opcode word and unit (`""` for none) read so far without a
    /// diagnostic: a program uses few of the finitely many, each many times.
    kinds_read: NameMap<(&'s str, &'s str), Kind>,
}

fn letter_index(c: u8) -> Option<u8> {
    COMPONENTS.iter().position(|&l| l as u8 == c).map(|i| i as u8)
}

impl<'s> Encoder<'s> {
    /// An encoder for the statements of `text`.
    fn new(file: SourceId, text: &'s str, listing: bool, keep: bool) -> Encoder<'s> {
        // At most one instruction a line: reserving that up front spares copying a big program
        // as it grows (the pages of what is not used are never touched).
        let lines = front::count_line_breaks(text) + 1;
        Encoder {
            file,
            text,
            keep,
            listing,
            instrs: Vec::with_capacity(if keep { lines } else { 0 }),
            spans: Vec::with_capacity(if listing { lines } else { 0 }),
            // Room for a branch every fourth line: more than most programs have, in pages
            // never touched when not used.
            branches: Vec::with_capacity(lines / 4),
            labels: NameMap::default(),
            label_order: Vec::new(),
            diagnostics: Collector::new(),
            budget: SuggestionBudget::new(text.len()),
            kinds: Vec::new(),
            usable: Vec::new(),
            // A word takes at least about four bytes of text.
            words: Words::with_capacity(lines, text.len() / 4 + 1),
            args: Vec::new(),
            kinds_read: NameMap::default(),
        }
    }

    fn span(&self, range: TextRange) -> Span {
        range.in_source(self.file)
    }

    fn str(&self, range: TextRange) -> &'s str {
        range.text(self.text)
    }

    fn push(&mut self, diagnostic: Diagnostic) {
        let start = diagnostic.primary_label().map(|l| l.span.start);
        self.diagnostics.push(start, diagnostic);
    }

    fn syntax_error(&mut self, span: Span, found: &str, expected: &str) {
        self.push(error::syntax_error(span, found, expected));
        // Keep instruction indices in step with the lines for the labels after it.
        self.add(Instr::default(), TextRange::new(span.start as usize, span.end as usize));
    }

    /// Reads a statement, its lists in `arena`.
    fn statement(&mut self, statement: &Statement, arena: &Arena) {
        match statement {
            Statement::Label { name } => self.label(*name),
            Statement::Instruction { ops, span } => {
                let instr = self.instruction(ops.of(&arena.ops), &arena.operands);
                self.add(instr, *span);
            }
        }
    }

    /// Defines label `name` at the next instruction; PP015 when it is defined already.
    fn label(&mut self, name: TextRange) {
        let text = name.text(self.text);
        if let Some(&(_, defined)) = self.labels.get(text) {
            self.push(error::duplicate_label(
                name.in_source(self.file),
                defined.in_source(self.file),
                text,
            ));
        } else {
            self.labels.insert(text, (self.words.pushed(), name));
            self.label_order.push(text);
        }
    }

    /// Appends an instruction read from `span`, and its words.
    fn add(&mut self, instr: Instr, span: TextRange) {
        self.words.push(&instr);
        if self.keep {
            self.instrs.push(instr);
        }
        if self.listing {
            self.spans.push(span);
        }
    }

    // ----- opcodes -----

    /// Reads the opcode, unit and modifiers of an operation.
    fn kind(&mut self, op: &Op) -> Option<Kind> {
        let text = self.str(op.name);
        let unit = op.unit.map(|u| self.str(u));
        if let Some(&kind) = self.kinds_read.get(&(text, unit.unwrap_or_default())) {
            return Some(kind);
        }
        let first = self.diagnostics.pushed();
        let word = current_name(text, |old, new| {
            let span = TextRange::new(op.name.start as usize, op.name.start as usize + old.len());
            self.push(error::old_name(self.span(span), old, new));
        });
        let before = self.diagnostics.pushed();
        let kind = self.kind_of(&word, unit, op);
        if kind.is_none() && self.diagnostics.pushed() == before {
            self.unknown_opcode(op, &word, unit);
        }
        // Only a word read without any diagnostic (an older name draws one each time).
        if let Some(kind) = kind
            && self.diagnostics.pushed() == first
        {
            self.kinds_read.insert((text, unit.unwrap_or_default()), kind);
        }
        kind
    }

    /// The kind of `word` on `unit`, or `None` (with a diagnostic for a bad modifier, or none
    /// when the opcode is unknown on that unit).
    fn kind_of(&mut self, word: &str, unit: Option<&str>, op: &Op) -> Option<Kind> {
        let mods_at = |base: &str| TextRange::new(op.name.start as usize + base.len(), op.name.end as usize);
        match unit {
            None => {
                for (name, kind) in [
                    (ops::STOP_NAME, Kind::Stop),
                    (ops::SYNC_NAME, Kind::Sync),
                    (names::NOP, Kind::Nop),
                    (ops::DISCARD_NAME, Kind::Discard),
                    (ops::FIELDS[10].mesa, Kind::Const(0)),
                    (ops::FIELDS[11].mesa, Kind::Const(1)),
                ] {
                    if word == name {
                        return Some(kind);
                    }
                }
                if let Some(read) = FB_READS.iter().find(|r| r.name == word) {
                    return Some(Kind::FbRead(read.value));
                }
                if let Some(rest) = split(word, ops::TEXLD_NAME) {
                    return match rest {
                        "" => Some(Kind::Texld { lod: false }),
                        names::TEXLD_LOD => Some(Kind::Texld { lod: true }),
                        _ => self.bad_modifier(mods_at(ops::TEXLD_NAME), rest, ops::TEXLD_NAME, "`_lod`"),
                    };
                }
                if let Some(rest) = split(word, ops::BRANCH_NAME) {
                    if rest.is_empty() {
                        return Some(Kind::Branch(BranchCond::Always));
                    }
                    let cond = rest
                        .strip_prefix(names::COND_PREFIX)
                        .and_then(|c| BRANCH_CONDS.iter().find(|r| !r.name.is_empty() && r.name == c));
                    return match cond {
                        Some(row) => Some(Kind::Branch(row.value)),
                        None => self.bad_modifier(
                            mods_at(ops::BRANCH_NAME),
                            rest,
                            ops::BRANCH_NAME,
                            "a condition: `_lt`, `_eq`, `_le`, `_gt`, `_ne`, `_ge` or `_nv`",
                        ),
                    };
                }
                None
            }
            Some(names::UNIT_VARYING) => {
                let rest = split(word, ops::LOAD_NAME)?;
                if rest.is_empty() {
                    return Some(Kind::Varying(Perspective::None));
                }
                match PERSPECTIVES.iter().find(|r| !r.name.is_empty() && r.name == rest) {
                    Some(row) => Some(Kind::Varying(row.value)),
                    None => self.bad_modifier(
                        mods_at(ops::LOAD_NAME),
                        rest,
                        "load.v",
                        "`_perspective_z` or `_perspective_w`",
                    ),
                }
            }
            Some(unit) if LOAD_SOURCES.iter().any(|r| r.name == unit) => {
                if word == ops::STORE_NAME && unit == names::UNIT_STORE {
                    return Some(Kind::Store);
                }
                let source = LOAD_SOURCES.iter().find(|r| r.name == unit)?.value;
                let rest = split(word, ops::LOAD_NAME)?;
                if rest.is_empty() {
                    Some(Kind::Load(source))
                } else {
                    self.bad_modifier(mods_at(ops::LOAD_NAME), rest, ops::LOAD_NAME, "")
                }
            }
            Some(unit @ (names::UNIT_VEC_MUL | names::UNIT_FLOAT_MUL)) => {
                let (row, rest) = longest_base(word, MUL_OPS.iter().map(|r| (r.mesa, r)))?;
                let allowed = if row.op == names::SHIFTED_OP {
                    modifier_names().mul
                } else {
                    modifier_names().outmods
                };
                let mods = self.modifiers(rest, allowed, mods_at(row.mesa), row.mesa)?;
                let outmod = outmod_of(&mods);
                let shift = names::MUL_SHIFTS
                    .iter()
                    .find(|(_, t)| mods.contains(t))
                    .map_or(0, |(s, _)| *s);
                Some(if unit == names::UNIT_VEC_MUL {
                    Kind::VecMul(row.op, shift, outmod)
                } else {
                    Kind::FloatMul(row.op, shift, outmod)
                })
            }
            Some(unit @ (names::UNIT_VEC_ACC | names::UNIT_FLOAT_ACC)) => {
                let vector = unit == names::UNIT_VEC_ACC;
                let (row, rest) = longest_base(
                    word,
                    ACC_OPS.iter().filter(|r| vector || !r.vector_only).map(|r| (r.mesa, r)),
                )?;
                let mods = self.modifiers(rest, modifier_names().outmods, mods_at(row.mesa), row.mesa)?;
                let outmod = outmod_of(&mods);
                Some(if vector {
                    Kind::VecAcc(row.op, outmod)
                } else {
                    Kind::FloatAcc(row.op, outmod)
                })
            }
            Some(names::UNIT_COMBINE) => {
                let outmods = modifier_names().outmods;
                if let Some(rest) = split(word, COMBINE_ATAN_PT2.mesa) {
                    let mods = self.modifiers(rest, outmods, mods_at(COMBINE_ATAN_PT2.mesa), COMBINE_ATAN_PT2.mesa)?;
                    return Some(Kind::AtanPt2(outmod_of(&mods)));
                }
                if let Some(rest) = split(word, COMBINE_MUL.mesa) {
                    self.modifiers(rest, &[], mods_at(COMBINE_MUL.mesa), "mul.s2")?;
                    return Some(Kind::CombineMul);
                }
                let (row, rest) = longest_base(word, COMBINE_OPS.iter().map(|r| (r.mesa, r)))?;
                let mods = self.modifiers(rest, modifier_names().combine, mods_at(row.mesa), row.mesa)?;
                let vec = mods.contains(&names::COMBINE_VEC_DEST);
                let scalar = mods.contains(&names::COMBINE_SCALAR_DEST);
                let outmod = outmod_of(&mods);
                if vec && (scalar || outmod != OutMod::None) {
                    let span = mods_at(row.mesa);
                    let bad = if scalar {
                        names::COMBINE_SCALAR_DEST
                    } else {
                        outmod.info().name
                    };
                    return self.bad_modifier(
                        span,
                        bad,
                        row.mesa,
                        "an output modifier only with a scalar destination, and `_vec` or `_scalar`, not both",
                    );
                }
                let form = if vec {
                    Some(true)
                } else if scalar {
                    Some(false)
                } else {
                    None
                };
                Some(Kind::CombineScalar(row.op, outmod, form))
            }
            Some(_) => None,
        }
    }

    /// Splits `rest` (`_x2_sat`) into modifiers of `allowed`, each at most once.
    fn modifiers(&mut self, rest: &str, allowed: &[&'static str], span: TextRange, op: &str) -> Option<Mods> {
        let mut found = Mods::default();
        let mut left = rest;
        while !left.is_empty() {
            let hit = allowed
                .iter()
                .filter(|m| left.starts_with(**m) && (left.len() == m.len() || left[m.len()..].starts_with('_')))
                .max_by_key(|m| m.len());
            match hit {
                Some(m) if !found.contains(m) => {
                    found.push(m);
                    left = &left[m.len()..];
                }
                _ => {
                    let end = left[1..].find('_').map_or(left.len(), |i| i + 1);
                    let list =
                        polyasm_core::text::list_alternatives(allowed.iter().map(|m| format!("`{m}`")).collect());
                    let list = if allowed.is_empty() {
                        String::new()
                    } else {
                        format!("{list}, each at most once")
                    };
                    return self.bad_modifier(span, &left[..end], op, &list);
                }
            }
        }
        // Two output modifiers, or two shifts, are one too many.
        let is_outmod = |m: &&str| OUTMODS.iter().any(|r| r.name == *m);
        let is_shift = |m: &&str| names::MUL_SHIFTS.iter().any(|(_, t)| t == m);
        for (kind, is) in [
            ("output modifier", &is_outmod as &dyn Fn(&&str) -> bool),
            ("shift", &is_shift),
        ] {
            if found.iter().filter(|m| is(m)).count() > 1 {
                let list: Vec<&str> = found.iter().copied().filter(|m| is(m)).collect();
                self.push(error::modifier_conflict(self.span(span), op, kind, &list));
                return None;
            }
        }
        Some(found)
    }

    fn bad_modifier<T>(&mut self, span: TextRange, modifier: &str, op: &str, allowed: &str) -> Option<T> {
        self.push(error::bad_modifier(self.span(span), modifier, op, allowed));
        None
    }

    /// PP002 or PP003 for an opcode `kind_of` does not know.
    fn unknown_opcode(&mut self, op: &Op, word: &str, unit: Option<&str>) {
        let forms = all_forms();
        let base = forms
            .iter()
            .filter(|(name, _)| split(word, name).is_some())
            .max_by_key(|(name, _)| name.len())
            .map(|(name, _)| *name);
        let span = self.span(op.unit.map_or(op.name, |u| op.name.to(u)));
        match base {
            Some(base) => {
                let written: Vec<String> = forms
                    .iter()
                    .filter(|(n, _)| *n == base)
                    .map(|(n, u)| format!("`{n}{u}`"))
                    .collect();
                self.push(error::wrong_unit(
                    span,
                    base,
                    unit,
                    &polyasm_core::text::list_alternatives(written),
                ));
            }
            None => {
                let suggestion = opcode_suggestion(&mut self.budget, word, unit);
                let start = span.start;
                self.diagnostics
                    .push_error_with(Some(start), || error::unknown_opcode(span, word, suggestion.as_deref()));
            }
        }
    }

    // ----- instructions -----

    /// Reads the operations of an instruction, their operands in `operands`.
    fn instruction(&mut self, ops: &[Op], operands: &[Operand]) -> Instr {
        // Buffers kept between instructions, so that an instruction allocates nothing.
        let mut kinds = std::mem::take(&mut self.kinds);
        kinds.clear();
        for op in ops {
            let kind = self.kind(op);
            kinds.push(kind);
        }
        self.check_order(ops, &kinds);
        // Operand counts, then the destination-last check on the rest.
        let mut usable = std::mem::take(&mut self.usable);
        usable.clear();
        usable.resize(ops.len(), false);
        let mut last_dest = Vec::new();
        for (i, (op, kind)) in ops.iter().zip(&kinds).enumerate() {
            let Some(kind) = *kind else { continue };
            let (min, max) = kind.operand_range();
            let found = op.operands.len();
            if found < min || found > max {
                let span = if found > max {
                    front::span_from(op.operands.of(operands), max).unwrap_or(op.span)
                } else {
                    op.span
                };
                let mut form = self.str(op.unit.map_or(op.name, |u| op.name.to(u))).to_string();
                for word in kind.form() {
                    form.push(' ');
                    form.push_str(word);
                }
                let d = error::operand_count(self.span(span), self.str(op.name), &form, found);
                self.push(d);
                continue;
            }
            if self.destination_last(op.operands.of(operands), kind) {
                last_dest.push(i);
                continue;
            }
            usable[i] = true;
        }
        if !last_dest.is_empty() {
            // The whole line when it is short; on a long one, each operation alone, so that the
            // help lines stay linear in the input.
            let line = self.corrected_line(ops, operands, &kinds, &last_dest);
            for &i in &last_dest {
                let first = &ops[i].operands.of(operands)[0];
                let corrected = if line.len() <= MAX_HELP_LINE {
                    line.clone()
                } else {
                    self.corrected_line(&ops[i..=i], operands, &kinds[i..=i], &[0])
                };
                let d = error::destination_last(self.span(first.span), self.str(first.span), &corrected);
                self.push(d);
            }
        }
        let mut instr = Instr::default();
        let mut reads = Reads::default();
        let mut seen: [Option<TextRange>; 14] = [None; 14];
        let mut field_spans: [Option<(TextRange, Kind)>; 14] = [None; 14];
        for (i, (op, kind)) in ops.iter().zip(&kinds).enumerate() {
            let Some(kind) = *kind else { continue };
            if let Some(slot) = kind.slot() {
                if let Some(first) = seen[slot] {
                    let d = error::unit_twice(self.span(op.span), self.span(first), kind.unit_name());
                    self.push(d);
                    continue;
                }
                seen[slot] = Some(op.span);
                field_spans[slot] = Some((op.span, kind));
            }
            if usable[i] {
                self.operation(op, op.operands.of(operands), kind, &mut instr, &mut reads);
            }
        }
        self.check_schedule(&instr, &reads, &field_spans);
        self.kinds = kinds;
        self.usable = usable;
        instr
    }

    /// PP017: operations must follow the control word's order.
    fn check_order(&mut self, ops: &[Op], kinds: &[Option<Kind>]) {
        let mut previous: Option<(usize, usize)> = None;
        for (i, kind) in kinds.iter().enumerate() {
            let Some(slot) = kind.and_then(Kind::slot) else {
                continue;
            };
            if let Some((p, prev_slot)) = previous
                && slot < prev_slot
            {
                let mut right = self.reordered_line(ops, kinds, |_, text| text.to_string());
                if right.len() > MAX_HELP_LINE {
                    right.clear();
                }
                let d = error::field_order(
                    self.span(ops[i].span),
                    self.span(ops[p].span),
                    self.str(ops[i].unit.map_or(ops[i].name, |u| ops[i].name.to(u))),
                    self.str(ops[p].unit.map_or(ops[p].name, |u| ops[p].name.to(u))),
                    &right,
                );
                self.push(d);
                return;
            }
            if previous.is_none_or(|(_, s)| slot >= s) {
                previous = Some((i, slot));
            }
        }
    }

    /// The line with its operations in control-word order, each written by `write`.
    fn reordered_line(&self, ops: &[Op], kinds: &[Option<Kind>], write: impl Fn(usize, &str) -> String) -> String {
        let mut order: Vec<usize> = (0..ops.len()).collect();
        order.sort_by_key(|&i| kinds[i].and_then(Kind::slot).unwrap_or(0));
        order
            .iter()
            .map(|&i| write(i, self.str(ops[i].span)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether a read-only pipeline register or a number stands where the destination goes
    /// (or, for `store.t`, a register where the index goes and a number last).
    fn destination_last(&self, operands: &[Operand], kind: Kind) -> bool {
        let Some(first) = operands.first() else { return false };
        let Expr::Term { term, .. } = &first.expr else {
            return false;
        };
        if kind == Kind::Store {
            let last_is_number = operands.last().is_some_and(|o| {
                matches!(
                    o.expr,
                    Expr::Term {
                        term: Term {
                            value: Value::Number,
                            ..
                        },
                        ..
                    }
                )
            });
            return matches!(term.value, Value::Reg | Value::Pipe) && last_is_number;
        }
        if !kind.has_dest() || operands.len() < 2 {
            return false;
        }
        match term.value {
            Value::Number => true,
            Value::Pipe => names::PIPELINE_NAMES
                .iter()
                .find(|r| r.name == self.str(term.span))
                .is_some_and(|r| r.reg.vec_reg().is_some()),
            _ => false,
        }
    }

    /// The whole line corrected: operations in order, older names replaced, and the operands
    /// of the operations in `last_dest` rotated so that the destination comes first.
    fn corrected_line(&self, ops: &[Op], operands: &[Operand], kinds: &[Option<Kind>], last_dest: &[usize]) -> String {
        self.reordered_line(ops, kinds, |i, _| {
            let op = &ops[i];
            let mut head = self.str(op.unit.map_or(op.name, |u| op.name.to(u))).to_string();
            for (old, new) in names::OLD_OPCODES {
                if let Some(rest) = head.strip_prefix(old) {
                    head = format!("{new}{rest}");
                }
            }
            let mut words: Vec<&str> = op.operands.of(operands).iter().map(|o| self.str(o.span)).collect();
            if last_dest.contains(&i)
                && let Some(dest) = words.pop()
            {
                words.insert(0, dest);
            }
            let mut text = head;
            for operand in words {
                text.push(' ');
                text.push_str(&renamed_operand(operand));
            }
            text
        })
    }

    /// The checks across the units of one instruction.
    fn check_schedule(&mut self, instr: &Instr, reads: &Reads, spans: &[Option<(TextRange, Kind)>; 14]) {
        let at = |field: Field| spans[2 + field.info().index as usize];
        if let (Some((combine, _)), Some((branch, _))) = (at(Field::Combine), at(Field::Branch)) {
            self.push(error::combine_with_branch(self.span(combine), self.span(branch)));
        }
        if at(Field::FloatMul).is_none() {
            for field in [Field::Vec4Acc, Field::FloatAcc] {
                if let Some((span, Kind::VecAcc(AccOp::Sel, _) | Kind::FloatAcc(AccOp::Sel, _))) = at(field) {
                    self.push(error::sel_without_fmul(self.span(span)));
                }
            }
        }
        for (slot, field) in [(0, Field::Const0), (1, Field::Const1)] {
            if let Some(span) = reads.consts[slot]
                && at(field).is_none()
            {
                let name = ops::VEC_REG_NAMES[usize::from(ops::REG_CONST0) + slot];
                self.push(error::constant_not_set(self.span(span), name, field.info().mesa));
            }
        }
        if let Some(span) = reads.vmul
            && at(Field::Vec4Mul).is_none()
        {
            self.push(error::pipeline_unproduced(
                self.span(span),
                ops::VMUL_NAME,
                names::UNIT_VEC_MUL,
            ));
        }
        if let Some(span) = reads.fmul
            && at(Field::FloatMul).is_none()
        {
            self.push(error::pipeline_unproduced(
                self.span(span),
                ops::FMUL_NAME,
                names::UNIT_FLOAT_MUL,
            ));
        }
        if !instr.sync {
            let needs = [at(Field::Sampler), at(Field::Vec4Acc), at(Field::FloatAcc)]
                .into_iter()
                .flatten()
                .find(|(_, kind)| {
                    matches!(
                        kind,
                        Kind::Texld { .. }
                            | Kind::VecAcc(AccOp::Dfdx | AccOp::Dfdy, _)
                            | Kind::FloatAcc(AccOp::Dfdx | AccOp::Dfdy, _)
                    )
                });
            if let Some((span, _)) = needs {
                let text = self.str(span).split_whitespace().next().unwrap_or_default().to_string();
                self.push(error::missing_sync(self.span(span), &text));
            }
        }
    }

    // ----- operations -----

    /// Reads operation `op`, its operands `o`, into `instr`.
    fn operation(&mut self, op: &Op, o: &[Operand], kind: Kind, instr: &mut Instr, reads: &mut Reads) {
        match kind {
            Kind::Stop => instr.stop = true,
            Kind::Sync => instr.sync = true,
            Kind::Nop => {}
            Kind::Varying(perspective) => instr.varying = self.varying(perspective, &o[0], &o[1], reads),
            Kind::Texld { lod } => instr.sampler = self.texld(lod, o, reads),
            Kind::Load(source) => {
                if matches!(source, LoadSource::Source1 | LoadSource::Source2) {
                    let span = op.unit.map_or(op.name, |unit| op.name.to(unit));
                    let text = self.str(span).to_string();
                    let what = format!("load source {}", source.code());
                    self.push(error::unused_encoding(
                        self.span(span),
                        &text,
                        &what,
                        "`load.u` reads uniforms and `load.t` temporaries".to_string(),
                    ));
                }
                if let Some((alignment, index, offset)) =
                    self.memory_index(&o[0], "a uniform or temporary index", reads)
                {
                    instr.load = Some(Load {
                        source,
                        alignment,
                        index,
                        offset,
                    });
                }
            }
            Kind::VecMul(op_, shift, outmod) => {
                let dest = self.vec_alu_dest(&o[0], Pipeline::Vmul);
                let arg0 = self.vec_src(&o[1], false, reads);
                let arg1 = if op_.is_binary() {
                    self.vec_src(&o[2], false, reads).map(Some)
                } else {
                    Some(None)
                };
                if let (Some(dest), Some(arg0), Some(arg1)) = (dest, arg0, arg1) {
                    instr.vec4_mul = Some(VecMul {
                        op: op_,
                        shift,
                        outmod,
                        dest,
                        arg0: arg0.0,
                        arg1: arg1.map(|a| a.0),
                    });
                }
            }
            Kind::FloatMul(op_, shift, outmod) => {
                let dest = self.scalar_alu_dest(&o[0], Pipeline::Fmul);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = if op_.is_binary() {
                    self.scalar_src(&o[2], false, reads).map(Some)
                } else {
                    Some(None)
                };
                if let (Some(dest), Some(arg0), Some(arg1)) = (dest, arg0, arg1) {
                    instr.float_mul = Some(FloatMul {
                        op: op_,
                        shift,
                        outmod,
                        dest,
                        arg0: arg0.0,
                        arg1: arg1.map(|a| a.0),
                    });
                }
            }
            Kind::VecAcc(op_, outmod) => {
                let dest = self.vec_alu_dest(&o[0], Pipeline::Discard);
                let arg0 = self.vec_src(&o[1], true, reads);
                let arg1 = if op_.is_binary() {
                    self.vec_src(&o[2], false, reads).map(Some)
                } else {
                    Some(None)
                };
                if let (Some(dest), Some((arg0, mul_in)), Some(arg1)) = (dest, arg0, arg1) {
                    instr.vec4_acc = Some(VecAcc {
                        op: op_,
                        outmod,
                        dest,
                        mul_in,
                        arg0,
                        arg1: arg1.map(|a| a.0),
                    });
                }
            }
            Kind::FloatAcc(op_, outmod) => {
                let dest = self.scalar_alu_dest(&o[0], Pipeline::Discard);
                let arg0 = self.scalar_src(&o[1], true, reads);
                let arg1 = if op_.is_binary() {
                    self.scalar_src(&o[2], false, reads).map(Some)
                } else {
                    Some(None)
                };
                if let (Some(dest), Some((arg0, mul_in)), Some(arg1)) = (dest, arg0, arg1) {
                    instr.float_acc = Some(FloatAcc {
                        op: op_,
                        outmod,
                        dest,
                        mul_in,
                        arg0,
                        arg1: arg1.map(|a| a.0),
                    });
                }
            }
            Kind::CombineScalar(op_, outmod, form) => {
                let dest = self.combine_dest(&o[0], op_, outmod, form, op);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = if op_.is_binary() {
                    self.scalar_src(&o[2], false, reads).map(Some)
                } else {
                    Some(None)
                };
                if let (Some(dest), Some(arg0), Some(arg1)) = (dest, arg0, arg1) {
                    instr.combine = Some(Combine::Scalar {
                        op: op_,
                        dest,
                        arg0: arg0.0,
                        arg1: arg1.map(|a| a.0),
                    });
                }
            }
            Kind::CombineMul => {
                let dest = self.plain_vec_dest(&o[0], true);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = self.bare_vec_source(&o[2], "the vector operand of `mul.s2`", reads);
                if let (Some(dest), Some(arg0), Some((arg1, swizzle))) = (dest, arg0, arg1) {
                    instr.combine = Some(Combine::MulVec {
                        dest,
                        arg0: arg0.0,
                        arg1,
                        swizzle,
                    });
                }
            }
            Kind::AtanPt2(outmod) => {
                let dest = self.scalar_dest(&o[0]);
                let arg = self.bare_vec_source(&o[1], "the operand of `atan_pt2.s2`", reads);
                if let (Some(dest), Some((arg, swizzle))) = (dest, arg) {
                    instr.combine = Some(Combine::AtanPt2 {
                        dest,
                        outmod,
                        arg,
                        swizzle,
                    });
                }
            }
            Kind::Store => instr.store = self.store(&o[0], &o[1], reads),
            Kind::FbRead(read) => {
                if let Some(dest) = self.plain_vec_dest(&o[0], false) {
                    instr.store = Some(Store::FbRead { read, dest: dest.reg });
                }
            }
            Kind::Branch(cond) => {
                if cond == BranchCond::Always {
                    self.branch_target(&o[0]);
                    instr.branch = Some(Branch::Jump {
                        cond,
                        arg0: 0,
                        arg1: 0,
                        target: 0,
                    });
                } else {
                    let arg0 = self.bare_scalar(&o[0], "a branch operand", reads);
                    let arg1 = self.bare_scalar(&o[1], "a branch operand", reads);
                    self.branch_target(&o[2]);
                    if let (Some(arg0), Some(arg1)) = (arg0, arg1) {
                        instr.branch = Some(Branch::Jump {
                            cond,
                            arg0,
                            arg1,
                            target: 0,
                        });
                    }
                }
            }
            Kind::Discard => instr.branch = Some(Branch::Discard),
            Kind::Const(slot) => {
                let mut values = [0u16; 4];
                let mut ok = true;
                for (value, operand) in values.iter_mut().zip(o) {
                    match self.half(operand) {
                        Some(bits) => *value = bits,
                        None => ok = false,
                    }
                }
                if ok {
                    if slot == 0 {
                        instr.const0 = Some(values);
                    } else {
                        instr.const1 = Some(values);
                    }
                }
            }
        }
    }

    // ----- operands -----

    /// The plain term of an operand with no `-`, call or offset, or an error saying `expected`.
    fn plain_term(&mut self, operand: &Operand, expected: &str, offset_ok: bool) -> Option<(Term, Option<Term>)> {
        match &operand.expr {
            Expr::Term { term, offset } if operand.neg.is_none() && (offset_ok || offset.is_none()) => {
                Some((*term, *offset))
            }
            _ => {
                let d = error::operand_kind(self.span(operand.span), self.str(operand.span), expected);
                self.push(d);
                None
            }
        }
    }

    /// A `$N` register's number, 0-15, or an error for a greater one.
    fn reg_number(&mut self, span: TextRange) -> Option<u8> {
        let text = self.str(span);
        let number = text[1..].bytes().try_fold(0u32, |n, b| {
            b.is_ascii_digit().then(|| (n * 10 + u32::from(b - b'0')).min(1000))
        });
        match number {
            Some(n) if n < 16 => Some(n as u8),
            _ => {
                let d = error::register_range(
                    self.span(span),
                    text,
                    "registers are `$0`-`$5` (`$6`-`$11` also encode)".to_string(),
                );
                self.push(d);
                None
            }
        }
    }

    /// A `$N` register as a source: 0-11 (6-11 with a warning).
    fn source_reg(&mut self, span: TextRange) -> Option<u8> {
        let n = self.reg_number(span)?;
        if n >= ops::GENERAL_REGS {
            let name = ops::VEC_REG_NAMES[usize::from(n)];
            let d = error::register_range(
                self.span(span),
                self.str(span),
                format!("register number {n} is the pipeline register `{name}`: write that"),
            );
            self.push(d);
            return None;
        }
        if n >= ops::ALLOCATED_REGS {
            self.push(error::unallocated_register(self.span(span), self.str(span)));
        }
        Some(n)
    }

    /// A `$N` register as a destination: 0-15 (6-15 with a warning).
    fn dest_reg(&mut self, span: TextRange) -> Option<u8> {
        let n = self.reg_number(span)?;
        if n >= ops::ALLOCATED_REGS {
            self.push(error::unallocated_register(self.span(span), self.str(span)));
        }
        Some(n)
    }

    /// A pipeline register name; older names draw a warning.
    fn pipeline(&mut self, span: TextRange) -> Option<Pipeline> {
        let text = self.str(span);
        match names::PIPELINE_NAMES.iter().find(|r| r.name == text) {
            Some(row) => {
                if let Some(new) = row.replaced_by {
                    self.push(error::old_name(self.span(span), text, new));
                }
                Some(row.reg)
            }
            None => {
                let suggestion = suggest(
                    text,
                    names::PIPELINE_NAMES
                        .iter()
                        .filter(|r| r.replaced_by.is_none())
                        .map(|r| r.name),
                );
                let help = match suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "the pipeline registers are ^const0, ^const1, ^texture, ^uniform, ^v0, ^s0 and ^discard"
                        .to_string(),
                };
                let d = error::register_range(self.span(span), text, help);
                self.push(d);
                None
            }
        }
    }

    /// A source operand: `[-][abs(]register[.suffix][)]`.
    fn source(&mut self, operand: &Operand, reads: &mut Reads) -> Option<Src> {
        let (inner, abs) = match &operand.expr {
            Expr::Call { name, arg, .. } if self.str(*name) == names::ABS => {
                let arg = self.args[*arg as usize];
                if arg.neg.is_some() {
                    let d = error::operand_kind(
                        self.span(operand.span),
                        self.str(operand.span),
                        "`-abs(...)`: the negation goes outside",
                    );
                    self.push(d);
                    return None;
                }
                (arg, true)
            }
            _ => (*operand, false),
        };
        let term = match &inner.expr {
            Expr::Term { term, offset: None } if matches!(term.value, Value::Reg | Value::Pipe) => *term,
            _ => {
                let d = error::operand_kind(self.span(operand.span), self.str(operand.span), "a register");
                self.push(d);
                return None;
            }
        };
        let reg = match term.value {
            Value::Reg => SrcReg::Vec(self.source_reg(term.span)?),
            _ => match self.pipeline(term.span)? {
                Pipeline::Vmul => SrcReg::Vmul,
                Pipeline::Fmul => SrcReg::Fmul,
                Pipeline::Discard => {
                    let d = error::operand_kind(
                        self.span(term.span),
                        self.str(term.span),
                        "a register to read (`^discard` is only a destination)",
                    );
                    self.push(d);
                    return None;
                }
                p => {
                    let reg = p
                        .vec_reg()
                        .expect("invariant: the other pipeline registers have numbers");
                    if reg == ops::REG_CONST0 {
                        reads.consts[0].get_or_insert(term.span);
                    } else if reg == ops::REG_CONST1 {
                        reads.consts[1].get_or_insert(term.span);
                    }
                    SrcReg::Vec(reg)
                }
            },
        };
        Some(Src {
            reg,
            suffix: term.suffix,
            abs,
            neg: operand.neg.is_some(),
            span: operand.span,
        })
    }

    /// A vector source; `^v0` is allowed (and gives `mul_in`) when `vmul_ok`.
    fn vec_src(&mut self, operand: &Operand, vmul_ok: bool, reads: &mut Reads) -> Option<(VecSource, bool)> {
        let src = self.source(operand, reads)?;
        let swizzle = self.swizzle(src.suffix)?;
        let (reg, mul_in) = match src.reg {
            SrcReg::Vec(reg) => (reg, false),
            SrcReg::Vmul if vmul_ok => {
                reads.vmul.get_or_insert(src.span);
                (0, true)
            }
            SrcReg::Vmul => return self.misplaced_pipeline(src.span, ops::VMUL_NAME, names::UNIT_VEC_ACC),
            SrcReg::Fmul => return self.misplaced_pipeline(src.span, ops::FMUL_NAME, names::UNIT_FLOAT_ACC),
        };
        Some((
            VecSource {
                reg,
                swizzle,
                abs: src.abs,
                neg: src.neg,
            },
            mul_in,
        ))
    }

    /// A scalar source; `^s0` is allowed (and gives `mul_in`) when `fmul_ok`.
    fn scalar_src(&mut self, operand: &Operand, fmul_ok: bool, reads: &mut Reads) -> Option<(ScalarSource, bool)> {
        let src = self.source(operand, reads)?;
        let (reg, mul_in) = match src.reg {
            SrcReg::Vec(reg) => (reg * 4 + self.component(src.suffix, src.span)?, false),
            SrcReg::Fmul if fmul_ok => {
                if let Some(suffix) = src.suffix {
                    let d = error::bad_swizzle(
                        self.span(suffix),
                        self.str(suffix),
                        "follows `^s0`, which is one value",
                        "write `^s0` alone",
                    );
                    self.push(d);
                    return None;
                }
                reads.fmul.get_or_insert(src.span);
                (0, true)
            }
            SrcReg::Fmul => return self.misplaced_pipeline(src.span, ops::FMUL_NAME, names::UNIT_FLOAT_ACC),
            SrcReg::Vmul => return self.misplaced_pipeline(src.span, ops::VMUL_NAME, names::UNIT_VEC_ACC),
        };
        Some((
            ScalarSource {
                reg,
                abs: src.abs,
                neg: src.neg,
            },
            mul_in,
        ))
    }

    fn misplaced_pipeline<T>(&mut self, span: TextRange, name: &str, unit: &str) -> Option<T> {
        self.push(error::pipeline_source(self.span(span), name, unit));
        None
    }

    /// A scalar register with no modifiers (offsets, LOD registers, branch operands, stores).
    fn bare_scalar(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<ScalarReg> {
        let src = self.bare(operand, what, reads)?;
        match src.reg {
            SrcReg::Vec(reg) => Some(reg * 4 + self.component(src.suffix, src.span)?),
            SrcReg::Vmul => self.misplaced_pipeline(src.span, ops::VMUL_NAME, names::UNIT_VEC_ACC),
            SrcReg::Fmul => self.misplaced_pipeline(src.span, ops::FMUL_NAME, names::UNIT_FLOAT_ACC),
        }
    }

    /// A source without modifiers.
    fn bare(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<Src> {
        let src = self.source(operand, reads)?;
        if src.abs || src.neg {
            self.push(error::operand_modifier(self.span(operand.span), what));
            return None;
        }
        Some(src)
    }

    /// A vec4 register and swizzle with no modifiers (`mul.s2`, `atan_pt2.s2`).
    fn bare_vec_source(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<(u8, u8)> {
        let src = self.bare(operand, what, reads)?;
        let swizzle = self.swizzle(src.suffix)?;
        match src.reg {
            SrcReg::Vec(reg) => Some((reg, swizzle)),
            SrcReg::Vmul => self.misplaced_pipeline(src.span, ops::VMUL_NAME, names::UNIT_VEC_ACC),
            SrcReg::Fmul => self.misplaced_pipeline(src.span, ops::FMUL_NAME, names::UNIT_FLOAT_ACC),
        }
    }

    /// A swizzle: 1 to 4 letters, the last repeated (`.xy` is `.xyyy`); none is `.xyzw`.
    fn swizzle(&mut self, suffix: Option<TextRange>) -> Option<u8> {
        let Some(suffix) = suffix else {
            return Some(ops::SWIZZLE_IDENTITY);
        };
        let letters = &self.str(suffix).as_bytes()[1..];
        let mut lanes = [0u8; 4];
        let valid = (1..=4).contains(&letters.len())
            && letters
                .iter()
                .zip(&mut lanes)
                .all(|(&c, lane)| letter_index(c).map(|i| *lane = i).is_some());
        if valid {
            let last = lanes[letters.len() - 1];
            let lane = |i: usize| if i < letters.len() { lanes[i] } else { last };
            return Some((0..4).fold(0u8, |acc, i| acc | lane(i) << (2 * i)));
        }
        let d = error::bad_swizzle(
            self.span(suffix),
            self.str(suffix),
            "is not a swizzle",
            "a swizzle is 1 to 4 of the letters x, y, z, w; the last one repeats (`.xy` is `.xyyy`)",
        );
        self.push(d);
        None
    }

    /// One component letter: the lane of a scalar operand.
    fn component(&mut self, suffix: Option<TextRange>, span: TextRange) -> Option<u8> {
        let text = suffix.map(|s| self.str(s));
        match text.map(str::as_bytes) {
            Some([b'.', c]) if letter_index(*c).is_some() => letter_index(*c),
            _ => {
                let at = suffix.unwrap_or(span);
                let d = error::bad_swizzle(
                    self.span(at),
                    self.str(span),
                    "is not one component",
                    "a scalar operand names one component: `$1.x`, `^const0.w`",
                );
                self.push(d);
                None
            }
        }
    }

    /// A write mask: lanes in the order x, y, z, w, each once; none is all four; `.none`
    /// (when `none_ok`) is no lane.
    fn mask(&mut self, suffix: Option<TextRange>, none_ok: bool) -> Option<u8> {
        let Some(suffix) = suffix else {
            return Some(ops::MASK_ALL);
        };
        let text = &self.str(suffix)[1..];
        if text == names::MASK_NONE && none_ok {
            return Some(0);
        }
        let mut mask = 0u8;
        let mut last: Option<u8> = None;
        for &c in text.as_bytes() {
            match letter_index(c) {
                Some(lane) if last.is_none_or(|l| lane > l) => {
                    mask |= 1 << lane;
                    last = Some(lane);
                }
                _ => {
                    let help = if none_ok {
                        "a write mask lists the lanes written in the order x, y, z, w, each once, or is `.none`"
                    } else {
                        "a write mask lists the lanes written in the order x, y, z, w, each once"
                    };
                    let d = error::bad_swizzle(self.span(suffix), self.str(suffix), "is not a write mask", help);
                    self.push(d);
                    return None;
                }
            }
        }
        if mask == 0 {
            let d = error::bad_swizzle(
                self.span(suffix),
                self.str(suffix),
                "is not a write mask",
                "name a lane",
            );
            self.push(d);
            return None;
        }
        Some(mask)
    }

    /// A destination register term: `$N[.mask]`; or `None` and the pipeline register found.
    fn dest_term(&mut self, operand: &Operand) -> Option<DestRead> {
        let (term, _) = self.plain_term(operand, "a destination register", false)?;
        match term.value {
            Value::Reg => Some(Ok((self.dest_reg(term.span)?, term.suffix))),
            Value::Pipe => Some(Err((self.pipeline(term.span)?, term))),
            _ => {
                let d = error::operand_kind(
                    self.span(operand.span),
                    self.str(operand.span),
                    "a destination register",
                );
                self.push(d);
                None
            }
        }
    }

    /// The destination of a vector ALU: `$N[.mask]`, or `no_write` for none.
    fn vec_alu_dest(&mut self, operand: &Operand, no_write: Pipeline) -> Option<Option<VecDest>> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(Some(VecDest {
                reg,
                mask: self.mask(suffix, false)?,
            })),
            Err((pipe, term)) if pipe == no_write => {
                if let Some(suffix) = term.suffix {
                    let d = error::bad_swizzle(
                        self.span(suffix),
                        self.str(suffix),
                        "is a mask on a destination that writes no register",
                        "drop the mask",
                    );
                    self.push(d);
                    return None;
                }
                Some(None)
            }
            Err(_) => self.wrong_dest(operand, no_write),
        }
    }

    fn wrong_dest<T>(&mut self, operand: &Operand, no_write: Pipeline) -> Option<T> {
        let expected = format!("a destination register, or `{}` to write none", no_write.name());
        let d = error::operand_kind(self.span(operand.span), self.str(operand.span), &expected);
        self.push(d);
        None
    }

    /// The destination of a scalar ALU: `$N.c`, or `no_write` for none.
    fn scalar_alu_dest(&mut self, operand: &Operand, no_write: Pipeline) -> Option<Option<ScalarReg>> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(Some(reg * 4 + self.component(suffix, operand.span)?)),
            Err((pipe, term)) if pipe == no_write && term.suffix.is_none() => Some(None),
            Err(_) => self.wrong_dest(operand, no_write),
        }
    }

    /// `$N.c`.
    fn scalar_dest(&mut self, operand: &Operand) -> Option<ScalarReg> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(reg * 4 + self.component(suffix, operand.span)?),
            Err(_) => {
                let d = error::operand_kind(self.span(operand.span), self.str(operand.span), "a register component");
                self.push(d);
                None
            }
        }
    }

    /// `$N[.mask]` (`.none` allowed when `mask_ok`) or, without a mask, `$N`.
    fn plain_vec_dest(&mut self, operand: &Operand, mask_ok: bool) -> Option<VecDest> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) if mask_ok => Some(VecDest {
                reg,
                mask: self.mask(suffix, true)?,
            }),
            Ok((reg, None)) => Some(VecDest {
                reg,
                mask: ops::MASK_ALL,
            }),
            Ok((_, Some(suffix))) => {
                let d = error::bad_swizzle(
                    self.span(suffix),
                    self.str(suffix),
                    "is a mask where the whole register is written",
                    "drop the mask",
                );
                self.push(d);
                None
            }
            Err(_) => {
                let d = error::operand_kind(self.span(operand.span), self.str(operand.span), "a register");
                self.push(d);
                None
            }
        }
    }

    /// The destination of a scalar op of `.s2`: the scalar form (`$N.c`) or the vector form
    /// (`$N[.mask]`), as asked, or by the mask and the op.
    fn combine_dest(
        &mut self,
        operand: &Operand,
        op: CombineOp,
        outmod: OutMod,
        form: Option<bool>,
        whole: &Op,
    ) -> Option<CombineDest> {
        let (reg, suffix) = match self.dest_term(operand)? {
            Ok(found) => found,
            Err(_) => {
                let d = error::operand_kind(
                    self.span(operand.span),
                    self.str(operand.span),
                    "a destination register",
                );
                self.push(d);
                return None;
            }
        };
        let one_lane = suffix.is_some_and(|s| {
            let t = self.str(s).as_bytes();
            t.len() == 2 && letter_index(t[1]).is_some()
        });
        let vector = match form {
            Some(vector) => vector,
            None if one_lane => names::COMBINE_VECTOR_DEFAULT.contains(&op) && outmod == OutMod::None,
            None => true,
        };
        if vector {
            if outmod != OutMod::None {
                return self.bad_modifier(
                    whole.name,
                    outmod.info().name,
                    op.info().mesa,
                    "no output modifier with a vector destination (write a one-component destination for the scalar form)",
                );
            }
            return Some(CombineDest::Vector(VecDest {
                reg,
                mask: self.mask(suffix, true)?,
            }));
        }
        Some(CombineDest::Scalar {
            reg: reg * 4 + self.component(suffix, operand.span)?,
            outmod,
        })
    }

    /// An index number: a whole number within `max`.
    fn index(&mut self, term: &Term, max: u64, what: &str) -> Option<u64> {
        let text = self.str(term.span);
        match parse_int_literal(text) {
            Ok(n) if n <= max => Some(n),
            _ => {
                let d = error::number_range(
                    self.span(term.span),
                    text,
                    what,
                    &format!("a whole number from 0 to {max}"),
                );
                self.push(d);
                None
            }
        }
    }

    /// An offset register after `+`: a scalar register without modifiers.
    fn offset(&mut self, term: &Term, reads: &mut Reads) -> Option<ScalarReg> {
        let reg = match term.value {
            Value::Reg => self.source_reg(term.span)?,
            Value::Pipe => match self.pipeline(term.span)?.vec_reg() {
                Some(reg) => {
                    if reg == ops::REG_CONST0 || reg == ops::REG_CONST1 {
                        reads.consts[usize::from(reg - ops::REG_CONST0)].get_or_insert(term.span);
                    }
                    reg
                }
                None => {
                    let d = error::operand_kind(
                        self.span(term.full_span()),
                        self.str(term.full_span()),
                        "an offset register",
                    );
                    self.push(d);
                    return None;
                }
            },
            _ => {
                let d = error::operand_kind(
                    self.span(term.full_span()),
                    self.str(term.full_span()),
                    "an offset register",
                );
                self.push(d);
                return None;
            }
        };
        Some(reg * 4 + self.component(term.suffix, term.span)?)
    }

    /// `N`, `N.xy`/`N.zw` or `N.c`, with an optional `+$r.c`: a load or store index.
    fn memory_index(
        &mut self,
        operand: &Operand,
        what: &str,
        reads: &mut Reads,
    ) -> Option<(Alignment, u16, Option<ScalarReg>)> {
        let (term, offset) = self.plain_term(operand, what, true)?;
        if term.value != Value::Number {
            let d = error::operand_kind(self.span(operand.span), self.str(operand.span), what);
            self.push(d);
            return None;
        }
        let (alignment, scale, lane) = match self.index_suffix(term.suffix)? {
            IndexForm::Vec4 => (Alignment::Vec4, 1, 0),
            IndexForm::Half(half) => (Alignment::Vec2, 2, half),
            IndexForm::Lane(lane) => (Alignment::Scalar, 4, lane),
        };
        let max = (0xffff - lane) / scale;
        let slot = self.index(&term, u64::from(max), what.strip_prefix("a ").unwrap_or(what))?;
        let offset = match offset {
            Some(o) => Some(self.offset(&o, reads)?),
            None => None,
        };
        debug_assert!(ALIGNMENTS.iter().any(|r| r.value == alignment));
        Some((alignment, (slot as u32 * scale + lane) as u16, offset))
    }

    /// The suffix of an index: none (vec4), `.xy`/`.zw` (vec2) or one lane.
    fn index_suffix(&mut self, suffix: Option<TextRange>) -> Option<IndexForm> {
        let Some(suffix) = suffix else {
            return Some(IndexForm::Vec4);
        };
        match &self.str(suffix)[1..] {
            "xy" => Some(IndexForm::Half(0)),
            "zw" => Some(IndexForm::Half(1)),
            t if t.len() == 1 && letter_index(t.as_bytes()[0]).is_some() => Some(IndexForm::Lane(u32::from(
                letter_index(t.as_bytes()[0]).expect("checked"),
            ))),
            _ => {
                let d = error::bad_swizzle(
                    self.span(suffix),
                    self.str(suffix),
                    "is not an index part",
                    "an index is `N` (a vec4), `N.xy` or `N.zw` (a vec2) or `N.x` ... `N.w` (one float)",
                );
                self.push(d);
                None
            }
        }
    }

    fn varying(
        &mut self,
        perspective: Perspective,
        dest: &Operand,
        source: &Operand,
        reads: &mut Reads,
    ) -> Option<Varying> {
        let (reg, mask) = match self.dest_term(dest)? {
            Ok((reg, suffix)) => (reg, self.mask(suffix, true)?),
            Err((Pipeline::Discard, term)) => (ops::VARYING_DISCARD, self.mask(term.suffix, true)?),
            Err(_) => {
                let d = error::operand_kind(
                    self.span(dest.span),
                    self.str(dest.span),
                    "a destination register, or `^discard` to feed only the texture unit",
                );
                self.push(d);
                return None;
            }
        };
        let source = self.varying_source(perspective, source, reads)?;
        Some(Varying {
            dest: reg,
            mask,
            source,
        })
    }

    fn varying_source(
        &mut self,
        perspective: Perspective,
        operand: &Operand,
        reads: &mut Reads,
    ) -> Option<VaryingSource> {
        let no_perspective = |this: &mut Self, what: &str| -> Option<()> {
            if perspective != Perspective::None {
                let d = error::bad_modifier(
                    this.span(operand.span),
                    perspective.info().name,
                    &format!("load.v with {what}"),
                    "no perspective divide",
                );
                this.push(d);
                return None;
            }
            Some(())
        };
        if let Expr::Call { name, arg, .. } = &operand.expr
            && self.str(*name) != names::ABS
        {
            let arg = self.args[*arg as usize];
            let func = self.str(*name);
            let cube = VARYING_KINDS
                .iter()
                .any(|k| k.name == func && k.name == ops::VARYING_CUBE.name);
            let normalize = func == ops::VARYING_NORMALIZE.name;
            if operand.neg.is_some() || !(cube || normalize) {
                let d = error::operand_kind(
                    self.span(operand.span),
                    self.str(operand.span),
                    "a varying index, a register, `cube(...)`, `normalize(...)`, `gl_FragCoord`, `gl_PointCoord` or `gl_FrontFacing`",
                );
                self.push(d);
                return None;
            }
            no_perspective(self, func)?;
            let is_index = matches!(
                arg.expr,
                Expr::Term {
                    term: Term {
                        value: Value::Number,
                        ..
                    },
                    ..
                }
            );
            return if cube && is_index {
                Some(VaryingSource::Cube(self.varying_fetch(&arg, reads)?))
            } else {
                let (source, _) = self.vec_src(&arg, false, reads)?;
                Some(if cube {
                    VaryingSource::CubeRegister(source)
                } else {
                    VaryingSource::Normalize(source)
                })
            };
        }
        if let Expr::Term { term, offset: None } = &operand.expr
            && term.value == Value::Name
            && operand.neg.is_none()
        {
            let text = self.str(term.span);
            let kind = VARYING_KINDS
                .iter()
                .find(|k| k.form == VaryingForm::Fixed && k.name == text);
            if let Some(kind) = kind {
                no_perspective(self, text)?;
                if let Some(suffix) = term.suffix {
                    let d = error::bad_swizzle(self.span(suffix), self.str(suffix), "follows a fixed input", "drop it");
                    self.push(d);
                    return None;
                }
                return Some(if kind.code == ops::VARYING_FRAG_COORD.code {
                    VaryingSource::FragCoord
                } else if kind.code == ops::VARYING_POINT_COORD.code {
                    VaryingSource::PointCoord
                } else {
                    VaryingSource::FrontFacing
                });
            }
        }
        if let Expr::Term { term, .. } = &operand.expr
            && term.value == Value::Number
        {
            return Some(VaryingSource::Fetch {
                perspective,
                fetch: self.varying_fetch(operand, reads)?,
            });
        }
        if matches!(&operand.expr, Expr::Term { term, .. } if term.value == Value::Name) {
            let d = error::operand_kind(
                self.span(operand.span),
                self.str(operand.span),
                "a varying index, a register, `cube(...)`, `normalize(...)`, `gl_FragCoord`, `gl_PointCoord` or `gl_FrontFacing`",
            );
            self.push(d);
            return None;
        }
        let (source, _) = self.vec_src(operand, false, reads)?;
        Some(VaryingSource::Register { perspective, source })
    }

    /// `N`, `N.xy`/`N.zw` or `N.c` with an optional `+$r.c`: a varying by index.
    fn varying_fetch(&mut self, operand: &Operand, reads: &mut Reads) -> Option<VaryingFetch> {
        if operand.neg.is_some() {
            self.push(error::operand_modifier(self.span(operand.span), "a varying index"));
            return None;
        }
        let (term, offset) = self.plain_term(operand, "a varying index", true)?;
        let (alignment, scale, lane) = match self.index_suffix(term.suffix)? {
            IndexForm::Vec4 => (VaryingAlignment::Vec4, 1, 0),
            IndexForm::Half(half) => (VaryingAlignment::Vec2, 2, half),
            IndexForm::Lane(lane) => (VaryingAlignment::Scalar, 4, lane),
        };
        let max = (63 - lane) / scale;
        let slot = self.index(&term, u64::from(max), "varying index")?;
        let offset = match offset {
            Some(o) => {
                let reg = self.offset(&o, reads)?;
                if reg >> 2 == crate::ops::fixed::NO_OFFSET_VECTOR as u8 {
                    let d = error::register_range(
                        self.span(o.full_span()),
                        self.str(o.full_span()),
                        "a varying offset cannot be `^uniform`: its register number means no offset".to_string(),
                    );
                    self.push(d);
                    return None;
                }
                Some(reg)
            }
            None => None,
        };
        Some(VaryingFetch {
            alignment,
            index: (slot as u32 * scale + lane) as u8,
            offset,
        })
    }

    fn texld(&mut self, lod: bool, operands: &[Operand], reads: &mut Reads) -> Option<Sampler> {
        let (term, offset) = self.plain_term(&operands[0], "a sampler number", true)?;
        if term.value != Value::Number || term.suffix.is_some() {
            let d = error::operand_kind(
                self.span(operands[0].span),
                self.str(operands[0].span),
                "a sampler number",
            );
            self.push(d);
            return None;
        }
        let index = self.index(&term, 4095, "sampler number")? as u16;
        let offset = match offset {
            Some(o) => Some(self.offset(&o, reads)?),
            None => None,
        };
        let mut lod_bias = None;
        let mut constant: Option<i16> = None;
        for operand in &operands[1..] {
            match &operand.expr {
                Expr::Call { name, arg, .. } if self.str(*name) == names::BIAS && constant.is_none() => {
                    let arg = self.args[*arg as usize];
                    constant = Some(self.lod_bias(&arg)?);
                }
                Expr::Term { .. } if lod_bias.is_none() => {
                    lod_bias = Some(self.bare_scalar(operand, "a texture LOD register", reads)?);
                }
                _ => {
                    let d = error::operand_kind(
                        self.span(operand.span),
                        self.str(operand.span),
                        "a LOD register (`$1.x`) or a constant bias (`bias(-0.5)`), each at most once",
                    );
                    self.push(d);
                    return None;
                }
            }
        }
        Some(Sampler {
            index,
            offset,
            lod_bias,
            explicit_lod: lod,
            constant_lod_bias: constant.unwrap_or(0),
        })
    }

    /// The constant LOD bias in `bias(n)`: n in LOD units, a multiple of 1/16 from -16 to
    /// 15.9375; in the field, n * 16.
    fn lod_bias(&mut self, arg: &Operand) -> Option<i16> {
        let (term, _) = self.plain_term(arg, "a number", false)?;
        let text = self.str(term.span);
        let value = if term.value == Value::Number && term.suffix.is_none() {
            decimal(text)
        } else {
            None
        };
        match value.map(|v| v * 16.0) {
            Some(sixteenths) if sixteenths.fract() == 0.0 && (-256.0..=255.0).contains(&sixteenths) => {
                Some(sixteenths as i16)
            }
            _ => {
                let d = error::number_range(
                    self.span(arg.span),
                    self.str(arg.span),
                    "constant LOD bias",
                    "a multiple of 1/16 (0.0625) from -16 to 15.9375",
                );
                self.push(d);
                None
            }
        }
    }

    fn store(&mut self, index: &Operand, source: &Operand, reads: &mut Reads) -> Option<Store> {
        let (alignment, index, offset) = self.memory_index(index, "a temporary index", reads)?;
        let src = self.bare(source, "a stored register", reads)?;
        let SrcReg::Vec(reg) = src.reg else {
            let name = self.str(source.span).to_string();
            let d = error::operand_kind(self.span(source.span), &name, "a register to store");
            self.push(d);
            return None;
        };
        let source = if alignment == Alignment::Scalar && src.suffix.is_none() {
            // A whole register after a one-float index: alignment 3, as Mesa prints it.
            let lane = COMPONENTS[usize::from(index & 3)];
            let help = format!(
                "to store one float, name its component: `{}.{lane}`",
                self.str(source.span)
            );
            self.push(error::unused_encoding(
                self.span(source.span),
                self.str(source.span),
                "a whole register stored to a one-float index (alignment 3)",
                help,
            ));
            return Some(Store::Temp {
                alignment: Alignment::Reserved,
                index,
                offset,
                source: reg * 4,
            });
        } else if alignment == Alignment::Scalar {
            reg * 4 + self.component(src.suffix, src.span)?
        } else {
            if let Some(suffix) = src.suffix {
                let d = error::bad_swizzle(
                    self.span(suffix),
                    self.str(suffix),
                    "follows a register stored whole",
                    "a vec2 or vec4 store names the register alone; the index says which lanes",
                );
                self.push(d);
                return None;
            }
            reg * 4
        };
        Some(Store::Temp {
            alignment,
            index,
            offset,
            source,
        })
    }

    /// Records a branch target: a label, or a relative word offset with its sign.
    fn branch_target(&mut self, operand: &Operand) {
        let Some((term, _)) = self.plain_term(operand, "a label or a relative word offset (`+4`)", false) else {
            return;
        };
        let index = self.words.pushed();
        let text = self.str(term.span);
        let target = match term.value {
            Value::Name if term.suffix.is_none() => Some(Target::Label(term.span)),
            Value::Number if term.suffix.is_none() && (text.starts_with('+') || text.starts_with('-')) => {
                parse_int_literal(&text[1..])
                    .ok()
                    .filter(|&n| n <= 1 << 40)
                    .map(|n| Target::Relative(if text.starts_with('-') { -(n as i64) } else { n as i64 }))
            }
            _ => None,
        };
        match target {
            Some(target) => self.branches.push((index, target, term.span)),
            None => {
                let d = error::operand_kind(
                    self.span(operand.span),
                    self.str(operand.span),
                    "a label or a relative word offset with its sign (`+4`, `-6`)",
                );
                self.push(d);
            }
        }
    }

    /// One fp16 constant: a decimal that binary16 holds exactly, `inf`, `-inf`, or raw bits
    /// in hexadecimal.
    fn half(&mut self, operand: &Operand) -> Option<u16> {
        let expected = "a number (`1.5`, `-0.25`, `inf`, or raw bits `0x7e00`)";
        let term = match &operand.expr {
            Expr::Term { term, offset: None } if term.suffix.is_none() => *term,
            _ => {
                let d = error::operand_kind(self.span(operand.span), self.str(operand.span), expected);
                self.push(d);
                return None;
            }
        };
        let text = self.str(term.span);
        let neg = operand.neg.is_some();
        let span = operand.span;
        // Diagnostics quote the operand as written, its `-` included.
        let written = self.str(span);
        let signed = text.starts_with(['+', '-']);
        if !neg && signed && text[1..].starts_with(['+', '-']) {
            // `+-1`, `++1`: the lexer reads both signs as the number's.
            let sign = if text[..1] == text[1..2] { "" } else { "-" };
            self.push(error::doubled_sign(
                self.span(span),
                written,
                &format!("{sign}{}", &text[2..]),
            ));
            return None;
        }
        if neg && signed {
            // `--1`, `-+1`: the lexer reads the second sign as the number's own.
            let one = match text.strip_prefix('-') {
                Some(positive) => positive.to_string(),
                None => format!("-{}", &text[1..]),
            };
            self.push(error::doubled_sign(self.span(span), written, &one));
            return None;
        }
        let unsigned = text.trim_start_matches(['+', '-']);
        match term.value {
            Value::Name if text == "inf" => return Some(if neg { 0xfc00 } else { 0x7c00 }),
            Value::Number if unsigned.starts_with("0x") || unsigned.starts_with("0X") => {
                return match parse_int_literal(unsigned) {
                    Ok(bits) if bits <= 0xffff && !neg && !signed => Some(bits as u16),
                    Ok(bits) if bits <= 0xffff => {
                        let help = if neg || text.starts_with('-') {
                            format!(
                                "raw bits take no sign; the sign is bit 15: write `{:#06x}`",
                                bits ^ 0x8000
                            )
                        } else {
                            format!("raw bits take no sign: write `{unsigned}`")
                        };
                        self.push(error::number_malformed(self.span(span), written, help));
                        None
                    }
                    _ => {
                        let d = error::number_range(self.span(span), written, "fp16 bit pattern", "0x0000 to 0xffff");
                        self.push(d);
                        None
                    }
                };
            }
            Value::Number => {}
            _ => {
                let d = error::operand_kind(self.span(span), self.str(span), expected);
                self.push(d);
                return None;
            }
        }
        let Some(mut value) = decimal(text) else {
            let d = error::number_range(
                self.span(span),
                written,
                "number",
                "decimal digits with an optional sign, fraction and exponent",
            );
            self.push(d);
            return None;
        };
        if neg {
            value = -value;
        }
        if value.abs() > 65504.0 {
            self.push(error::half_range(self.span(span), self.str(span)));
            return None;
        }
        let bits = crate::half::nearest(value);
        if crate::half::to_f64(bits) != value {
            let nearest = format!("{:?}", crate::half::to_f64(bits));
            self.push(error::inexact_half(self.span(span), self.str(span), &nearest));
            return None;
        }
        Some(bits)
    }
}

/// Whether a branch can go `relative` words: the field holds 27 bits with the sign.
fn in_branch_range(relative: i64) -> bool {
    (-(1i64 << 26)..(1i64 << 26)).contains(&relative)
}

impl Encoder<'_> {
    /// The word offset of instruction `i`, or the end for `i` past the last.
    fn start_of(&self, i: usize) -> i64 {
        self.words.starts().get(i).map_or(self.words.len(), |&start| start) as i64
    }

    /// Resolves the branches, and gives the instructions and words with every diagnostic.
    fn finish(mut self) -> Outcome<Assembled> {
        for (index, target, span) in std::mem::take(&mut self.branches) {
            let (relative, target_count) = match target {
                Target::Relative(relative) => (relative, None),
                Target::Label(label) => {
                    let name = label.text(self.text);
                    match self.labels.get(name) {
                        Some(&(at, _)) => (self.start_of(at) - self.start_of(index), Some(self.words.count(at))),
                        None => {
                            let suggestion = self.budget.suggest(name, self.label_order.iter().copied());
                            self.push(error::unknown_label(label.in_source(self.file), name, suggestion));
                            continue;
                        }
                    }
                }
            };
            if !in_branch_range(relative) {
                self.push(error::branch_range(span.in_source(self.file), relative));
                continue;
            }
            let target_count = target_count.unwrap_or_else(|| self.words.count_within(index, relative).unwrap_or(0));
            self.words.resolve(index, relative as i32, Some(target_count));
            if let Some(Some(Branch::Jump { target, .. })) = self.instrs.get_mut(index).map(|i| &mut i.branch) {
                *target = relative as i32;
            }
        }
        let words = self.words.finish();
        let mut object = Object::assembled_from(4, self.file, self.listing);
        if self.listing {
            let starts = self.words.starts();
            object.reserve(starts.len(), words.len() / starts.len().max(1) + 1);
            for (i, &start) in starts.iter().enumerate() {
                let end = starts.get(i + 1).copied().unwrap_or(words.len());
                let span = self.spans[i].in_source(self.file);
                object.push(start as u32, &words[start..end], Some(span), None);
            }
        } else {
            let bytes = object.push_room(words.len());
            for (out, word) in bytes.chunks_exact_mut(4).zip(&words) {
                out.copy_from_slice(&word.to_le_bytes());
            }
        }
        object.symbols = self
            .label_order
            .iter()
            .map(|name| {
                let (at, span) = self.labels[name];
                Symbol {
                    name: name.to_string(),
                    value: self.start_of(at) as u64,
                    size: 0,
                    kind: "label",
                    span: Some(span.in_source(self.file)),
                }
            })
            .collect();
        Outcome::new(
            Assembled {
                instrs: self.instrs,
                object,
            },
            self.diagnostics.finish(),
        )
    }
}

/// A destination as written: a register and its suffix, or a pipeline register.
type DestRead = Result<(u8, Option<TextRange>), (Pipeline, Term)>;

/// The form of an index's suffix.
#[derive(Clone, Copy)]
enum IndexForm {
    Vec4,
    /// `.xy` (0) or `.zw` (1).
    Half(u32),
    /// One lane.
    Lane(u32),
}

/// The most modifiers one opcode takes: each of its allowed ones at most once.
const MAX_MODIFIERS: usize = 16;

/// The modifiers read from an opcode word, in order, without allocating.
#[derive(Clone, Copy, Default)]
struct Mods {
    names: [&'static str; MAX_MODIFIERS],
    len: usize,
}

impl Mods {
    fn push(&mut self, name: &'static str) {
        self.names[self.len] = name;
        self.len += 1;
    }
}

impl std::ops::Deref for Mods {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &self.names[..self.len]
    }
}

/// The modifiers each kind of opcode takes, from the table, built once.
struct ModifierNames {
    /// The output modifiers.
    outmods: &'static [&'static str],
    /// `mul` of the multipliers: the output modifiers and the shifts.
    mul: &'static [&'static str],
    /// The scalar ops of `.s2`: the output modifiers and the destination forms.
    combine: &'static [&'static str],
}

fn modifier_names() -> &'static ModifierNames {
    static NAMES: std::sync::OnceLock<ModifierNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let outmods: Vec<&'static str> = OUTMODS.iter().filter(|r| !r.name.is_empty()).map(|r| r.name).collect();
        let mut mul = outmods.clone();
        mul.extend(names::MUL_SHIFTS.iter().map(|(_, t)| *t));
        let mut combine = outmods.clone();
        combine.extend([names::COMBINE_VEC_DEST, names::COMBINE_SCALAR_DEST]);
        // Each is read at most once, so a list this long fits in a `Mods`.
        assert!(
            mul.len().max(combine.len()) <= MAX_MODIFIERS,
            "invariant: modifier lists fit"
        );
        ModifierNames {
            outmods: outmods.leak(),
            mul: mul.leak(),
            combine: combine.leak(),
        }
    })
}

/// `Some(rest)` when `word` is `base` followed by nothing or by `_` modifiers.
fn split<'w>(word: &'w str, base: &str) -> Option<&'w str> {
    word.strip_prefix(base)
        .filter(|rest| rest.is_empty() || rest.starts_with('_'))
}

/// The row whose name is the longest base of `word`, and the modifiers after it.
fn longest_base<T>(word: &str, rows: impl Iterator<Item = (&'static str, T)>) -> Option<(T, &str)> {
    rows.filter_map(|(name, row)| split(word, name).map(|rest| (name.len(), row, rest)))
        .max_by_key(|(len, ..)| *len)
        .map(|(_, row, rest)| (row, rest))
}

fn outmod_of(mods: &[&str]) -> OutMod {
    OUTMODS
        .iter()
        .find(|r| !r.name.is_empty() && mods.contains(&r.name))
        .map_or(OutMod::None, |r| r.value)
}

/// Every opcode with the unit it is written with (`""` for none), for suggestions.
fn all_forms() -> Vec<(&'static str, &'static str)> {
    let mut forms: Vec<(&str, &str)> = vec![
        (ops::STOP_NAME, ""),
        (ops::SYNC_NAME, ""),
        (names::NOP, ""),
        (ops::TEXLD_NAME, ""),
        (ops::BRANCH_NAME, ""),
        (ops::DISCARD_NAME, ""),
        (ops::FIELDS[10].mesa, ""),
        (ops::FIELDS[11].mesa, ""),
        (ops::LOAD_NAME, names::UNIT_VARYING),
        (ops::STORE_NAME, names::UNIT_STORE),
        (COMBINE_MUL.mesa, names::UNIT_COMBINE),
        (COMBINE_ATAN_PT2.mesa, names::UNIT_COMBINE),
    ];
    forms.extend(FB_READS.iter().map(|r| (r.name, "")));
    forms.extend(LOAD_SOURCES.iter().map(|r| (ops::LOAD_NAME, r.name)));
    for unit in [names::UNIT_VEC_MUL, names::UNIT_FLOAT_MUL] {
        forms.extend(MUL_OPS.iter().map(|r| (r.mesa, unit)));
    }
    forms.extend(ACC_OPS.iter().map(|r| (r.mesa, names::UNIT_VEC_ACC)));
    forms.extend(
        ACC_OPS
            .iter()
            .filter(|r| !r.vector_only)
            .map(|r| (r.mesa, names::UNIT_FLOAT_ACC)),
    );
    forms.extend(COMBINE_OPS.iter().map(|r| (r.mesa, names::UNIT_COMBINE)));
    forms
}

/// An operand's text with older pipeline register names replaced.
fn renamed_operand(text: &str) -> String {
    let mut out = text.to_string();
    for row in names::PIPELINE_NAMES {
        if let Some(new) = row.replaced_by {
            out = out.replace(row.name, new);
        }
    }
    out
}

/// A decimal number: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
fn decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let integer = digits(i);
    i += integer;
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        fraction = digits(i + 1);
        i += 1 + fraction;
    }
    if integer + fraction == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return None;
        }
        i += exponent;
    }
    if i != bytes.len() {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use polyasm_core::diagnostic::{Hidden, Limit, WarningPolicy, within_limit};

    fn words(text: &str) -> Vec<u32> {
        let instrs = assemble_proposed_text(text).unwrap_or_else(|d| panic!("{text}: {d:#?}"));
        crate::instr::encode(&instrs)
    }

    /// The codes of the diagnostics of `text`, warnings included.
    fn codes(text: &str) -> Vec<&'static str> {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text);
        assemble_proposed(&sources, file, false)
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect()
    }

    fn first(text: &str) -> Diagnostic {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text);
        assemble_proposed(&sources, file, false).diagnostics.remove(0)
    }

    /// Mesa's words, re-encoded through the model (unused bits as Mesa's compiler writes them).
    fn canonical(words: &[u32]) -> Vec<u32> {
        let instrs: Vec<Instr> = decode(words).expect("valid").into_iter().map(|d| d.instr).collect();
        crate::instr::encode(&instrs)
    }

    #[test]
    fn unknown_opcodes_spend_the_suggestion_budget_before_unknown_labels() {
        // Unknown labels, then unknown opcodes after them in the text: the opcodes spend the
        // file's suggestion budget first, so that only the first unknown labels get one.
        let mut text: String = (0..2000).map(|i| format!("Lab{i:05}:\nstop\n")).collect();
        text += &(0..300).map(|i| format!("branch Lbb{i:05}\n")).collect::<String>();
        text += &(0..3000).map(|i| format!("movx{i:04}.v0 $0 $1\n")).collect::<String>();
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text.as_str());
        let diagnostics = assemble_proposed(&sources, file, false).diagnostics;
        let suggested = |code: &str| {
            let with = diagnostics.iter().filter(|d| d.code == code);
            let helped = with
                .clone()
                .filter(|d| d.help.as_deref().is_some_and(|h| h.starts_with("did you mean")));
            (helped.count(), with.count())
        };
        assert_eq!(suggested("PP002"), (3000, 3000));
        let (labels_suggested, labels) = suggested("PP014");
        assert_eq!(labels, 300);
        assert!(labels_suggested > 0 && labels_suggested < labels, "{labels_suggested}");
    }

    /// The diagnostics of `text` under `--max-errors max` (and `-W error` when `promote`), and
    /// what was hidden.
    fn limited(text: &str, max: usize, promote: bool) -> (Vec<Diagnostic>, Hidden) {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text);
        let limit = Limit {
            errors: Some(max),
            warnings: WarningPolicy {
                all_errors: promote,
                ..WarningPolicy::default()
            },
        };
        within_limit(limit, || assemble_proposed(&sources, file, false).diagnostics)
    }

    /// What printing `all` and stopping after the `max`th error shows, and what it leaves.
    fn truncated(all: &[Diagnostic], max: usize) -> (Vec<Diagnostic>, Hidden) {
        let end = all
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_error())
            .nth(max - 1)
            .map_or(all.len(), |(i, _)| i + 1);
        let errors = all[end..].iter().filter(|d| d.is_error()).count();
        let hidden = Hidden {
            errors,
            warnings: all.len() - end - errors,
        };
        (all[..end].to_vec(), hidden)
    }

    #[test]
    fn under_a_limit_what_reading_everything_shows_is_kept() {
        // Unknown labels early, more unknown opcodes after them than the suggestion budget
        // covers (so the labels' suggestions depend on the opcodes spending it first), older
        // names (warnings), duplicate labels and syntax errors.
        let mut text: String = (0..2000).map(|i| format!("Lab{i:05}:\nstop\n")).collect();
        text += &(0..300).map(|i| format!("branch Lbb{i:05}\n")).collect::<String>();
        text += &(0..40)
            .map(|i| format!("sync, texld_2d 0\nLab{i:05}:\nbogus{i} $1\nmov.v0 $0 (\n"))
            .collect::<String>();
        text += &(0..3000).map(|i| format!("movx{i:04}.v0 $0 $1\n")).collect::<String>();
        for promote in [false, true] {
            let mut sources = SourceMap::new();
            let file = sources.add("t.pp", text.as_str());
            let mut all = assemble_proposed(&sources, file, false).diagnostics;
            let policy = WarningPolicy {
                all_errors: promote,
                ..WarningPolicy::default()
            };
            policy.apply(&mut all);
            for code in ["PP014", "PP015", "PP024", "PP002", "PP001"] {
                assert!(all.iter().any(|d| d.code == code), "{code}");
            }
            let errors = all.iter().filter(|d| d.is_error()).count();
            for max in [1, 5, 299, 300, 301, 330, errors - 1, errors, errors + 1] {
                let got = limited(&text, max, promote);
                assert!(got == truncated(&all, max), "--max-errors {max}, -W error {promote}");
            }
        }
    }

    #[test]
    fn an_older_name_is_noted_at_every_use() {
        let text = "sync, texld_2d 0\n".repeat(3);
        assert_eq!(codes(&text), ["PP024", "PP024", "PP024"]);
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        let text = "nop\r".repeat(1000);
        assert_eq!(assemble_proposed_text(&text).map(|instrs| instrs.len()), Ok(1000));
    }

    #[test]
    fn mesa_built_in_programs_assemble_to_their_words() {
        // PP_CLEAR_PROGRAM (without the three words of padding after it).
        assert_eq!(
            words("stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734375\n"),
            [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5]
        );
        // pp_reload_program.
        assert_eq!(
            words("stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n"),
            [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
        );
    }

    #[test]
    fn the_seed_examples_written_destination_first() {
        // gl_FragColor = texture2D(tex, varying_1.xy): the varying only feeds the sampler, as a
        // vec4 fetch, so the words differ from the reload program's `load.v $1 0.xy`.
        let seed = words("stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture\n");
        assert_eq!(
            seed,
            [0x000005e6, 0xff003c60, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
        );
        assert_ne!(seed[1], 0xf1003c20);
        // gl_FragColor = vec4(0, 0, 0, 1).
        assert_eq!(
            words("stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0\n"),
            [0x00020425, 0x0000015c, 0x01e007cf, 0x00000000, 0x00000000]
        );
    }

    #[test]
    fn the_seed_examples_as_written_get_the_corrected_line() {
        let text = "stop, sync, load.v 0 ^tex_coord, texld_2d 0, mov.v0 ^tex_sampler $0\n";
        let diagnostics = {
            let mut sources = SourceMap::new();
            let file = sources.add("t.pp", text);
            assemble_proposed(&sources, file, false).diagnostics
        };
        let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code == "PP009").collect();
        assert_eq!(errors.len(), 2);
        for e in errors {
            assert_eq!(
                e.help.as_deref(),
                Some("write the destination first: `stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture`")
            );
        }
        assert!(
            diagnostics
                .iter()
                .any(|d| d.code == "PP024" && d.message.contains("texld_2d"))
        );
        let help = first("stop, mov.v0 ^const0.yyyx $0, const0 1.0 0.0 0.0 0.0").help;
        assert_eq!(
            help.as_deref(),
            Some("write the destination first: `stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0`")
        );
        // The line the help shows assembles.
        assert_eq!(
            codes("stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture"),
            Vec::<&str>::new()
        );
    }

    /// Mesa's printed vectors, written in the proposed syntax, give the same instructions.
    #[test]
    fn golden_vectors_of_every_unit() {
        let vectors: &[(&str, &[u32])] = &[
            (
                "stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture",
                &[0x000005e6, 0xff003c60, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf],
            ),
            (
                "load.v $1 0, load.u 0, mul.v0 $2 $1 ^uniform\nmul.s0 ^s0 $2.x $2.y, add.s1 $2.w ^s0 $2.z\nstop, mov.v0 $0.yzw $2, rcp.s2 $0.x $2.w",
                &[
                    0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280,
                    0x00004424, 0x00000e42, 0x580007ce, 0x00000000,
                ],
            ),
            (
                "fb_color $2\nstop, fb_depth $3",
                &[0x02188003, 0x0000088f, 0x00000000, 0x00008023, 0x000008ce, 0x00000000],
            ),
            (
                "branch_lt $0.x $1.y L1\nL1:\nstop, mov.s0 $0.x $1.x\nstop, discard",
                &[
                    0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003,
                    0x00000000, 0x00000000,
                ],
            ),
            (
                "mul.s2 $1 $0.x $2\natan.s2 $3.xyz $0.y\nstop, atan_pt2.s2 $1.x $3",
                &[0x02104002, 0x07c00b93, 0x02104002, 0x0dc10021, 0x00004022, 0x04000f92],
            ),
            (
                "stop, load_perspective_w.v $2.xy 0.zw",
                &[0x000000a3, 0x32043c23, 0x00000000],
            ),
            ("stop, load.v $3.x 1.y+$1.z", &[0x000000a3, 0x13160400, 0x00000000]),
            ("stop, load.v ^discard $3.wzyx", &[0x000000a3, 0xff1b0c04, 0x00000000]),
            ("stop, load.v $1 gl_FragCoord", &[0x000000a3, 0xf1003c6b, 0x00000000]),
            (
                "load.v $1.x gl_FrontFacing\nstop, load.v $2.xy gl_PointCoord",
                &[0x02180083, 0x11003c0d, 0x00000000, 0x000000a3, 0x32003c2c, 0x00000000],
            ),
            (
                "stop, sync, load.v ^discard.xy 0.xy, texld 2 $1.x, mov.v0 $1 ^texture",
                &[0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf],
            ),
            (
                "load.u 2.y\nstop, load.t 3",
                &[0x02180203, 0x12000000, 0x00000000, 0x00000223, 0x06000803, 0x00000000],
            ),
            (
                "stop, mul_x2_sat.v0 $2.xyz -$1.xxxx abs(^const0.wzyx), const0 0.5 1.0 2.0 -3.0",
                &[0x00020425, 0x246f2001, 0x01c00057, 0x020001e0, 0x00000610],
            ),
            (
                "min.v0 $0 $0 $1\nmax_pos.v0 $0 $0 $1\nstop, gt_int.v0 $0 $0 $1",
                &[
                    0x02180403, 0x03904e40, 0x0000040f, 0x02180403, 0x03904e40, 0x0000046f, 0x00000423, 0x03904e40,
                    0x0000037f,
                ],
            ),
            ("stop, mul_d2.s0 $3.y $0.x $1.w", &[0x00000822, 0x0e4d0700]),
            (
                "stop, mul.v0 ^v0 $1 $2, add.v1 $0 ^v0 $3",
                &[0x00001424, 0x03908e41, 0x86720000, 0x0040781c],
            ),
            (
                "stop, mov.s0 ^s0 $0.x, sel.v1 $2 $1 $3",
                &[0x00001824, 0x7e000000, 0xc8e43390, 0x00000173],
            ),
            (
                "sum3.v1 $0.x $1\nsum4.v1 $0.y $1\nfract.v1 $0 $1\nfloor.v1 $0 $1\nstop, ceil.v1 $0 $1",
                &[
                    0x02181003, 0x03900e41, 0x00000401, 0x02181003, 0x03900e41, 0x00000442, 0x02181003, 0x03900e41,
                    0x0000010f, 0x02181003, 0x03900e41, 0x0000030f, 0x00001023, 0x03900e41, 0x0000034f,
                ],
            ),
            (
                "max_pos.s1 $1.z $0.x $0.y\nstop, mov.s1 $1.w $0.z",
                &[0x02102002, 0x1f460100, 0x00002022, 0x3e470002],
            ),
            (
                "rcp.s2 $4.x $0.y\nrsqrt.s2 $4.y abs($0.z)\nstop, sin_sat.s2 $4.z $0.w",
                &[0x02104002, 0x10010000, 0x02104002, 0x1102400c, 0x00004022, 0x12430018],
            ),
            (
                "store.t 3 $1\nstop, store.t 2.y $1.z",
                &[0x02188003, 0x06000843, 0x00000000, 0x00008023, 0x12000063, 0x00000000],
            ),
            (
                "stop, mul.v0 $0 ^const0 ^const1, const0 1.0 0.0 0.25 -2.0, const1 65504.0 -0.5 0.125 3.0",
                &[
                    0x00060427, 0x03934e4c, 0x01e0000f, 0x01a00000, 0x03dffe00, 0x018005c0, 0x00000210,
                ],
            ),
        ];
        for (text, mesa) in vectors {
            assert_eq!(words(text), canonical(mesa), "{text}");
            let exact = decode(mesa).expect("valid").iter().all(|d| d.lost.is_empty());
            if exact {
                assert_eq!(words(text), *mesa, "{text}");
            }
        }
    }

    #[test]
    fn swizzles_expand_as_in_direct3d_and_masks_keep_their_order() {
        let swizzle = |text: &str| {
            let instrs = assemble_proposed_text(&format!("mov.v0 $0 $1{text}")).unwrap();
            instrs[0].vec4_mul.unwrap().arg0.swizzle
        };
        assert_eq!(swizzle(""), 0xE4);
        assert_eq!(swizzle(".x"), 0x00);
        assert_eq!(swizzle(".xy"), swizzle(".xyyy"));
        assert_eq!(swizzle(".xyz"), swizzle(".xyzz"));
        assert_eq!(swizzle(".wzyx"), 0x1B);
        assert_eq!(codes("mov.v0 $0 $1.xyzwx"), ["PP010"]);
        assert_eq!(codes("mov.v0 $0 $1.q"), ["PP010"]);
        assert_eq!(codes("mov.v0 $0.yx $1"), ["PP010"]);
        assert_eq!(codes("mov.v0 $0.xx $1"), ["PP010"]);
        assert_eq!(codes("mov.v0 $0.none $1"), ["PP010"]);
        assert_eq!(codes("load.v $0.none 0"), Vec::<&str>::new());
        assert_eq!(codes("mov.s0 $0 $1.x"), ["PP010"]);
    }

    #[test]
    fn every_modifier_reaches_its_bits() {
        let instrs = assemble_proposed_text(
            "mul_d16_pos.v0 $1 $2 $3\nmul_x8_int.s0 $1.x $2.x $3.x\nadd_sat.v1 $1 -abs($2) $3\nload_perspective_z.v $1 $2\nsync, texld_lod 3+$0.y $1.x bias(-16.0)\natan_scalar_sat.s2 $0.x $1.y\nrcp_vec.s2 $0.y $1.y",
        )
        .unwrap();
        let m = instrs[0].vec4_mul.unwrap();
        assert_eq!((m.shift, m.outmod), (-4, OutMod::Pos));
        let f = instrs[1].float_mul.unwrap();
        assert_eq!((f.shift, f.outmod), (3, OutMod::Int));
        let a = instrs[2].vec4_acc.unwrap();
        assert!(a.arg0.abs && a.arg0.neg && a.outmod == OutMod::Sat);
        assert!(matches!(
            instrs[3].varying.unwrap().source,
            VaryingSource::Register {
                perspective: Perspective::Z,
                ..
            }
        ));
        let s = instrs[4].sampler.unwrap();
        assert_eq!(
            (s.index, s.offset, s.lod_bias, s.explicit_lod, s.constant_lod_bias),
            (3, Some(1), Some(4), true, -256)
        );
        assert!(matches!(
            instrs[5].combine,
            Some(Combine::Scalar {
                dest: CombineDest::Scalar {
                    reg: 0,
                    outmod: OutMod::Sat
                },
                ..
            })
        ));
        assert!(matches!(
            instrs[6].combine,
            Some(Combine::Scalar {
                dest: CombineDest::Vector(VecDest { reg: 0, mask: 2 }),
                ..
            })
        ));
        assert_eq!(codes("add_x2.v1 $0 $1 $2"), ["PP004"]);
        assert_eq!(codes("mov_sat_sat.v0 $0 $1"), ["PP004"]);
        assert_eq!(codes("mov_sat_pos.v0 $0 $1"), ["PP004"]);
        assert_eq!(codes("rcp_vec_sat.s2 $0 $1.x"), ["PP004"]);
        assert_eq!(codes("rcp_sat.s2 $0.xy $1.x"), ["PP004"]);
        assert_eq!(codes("mul_sat.s2 $0 $1.x $2"), ["PP004"]);
        assert_eq!(codes("load_perspective_w.v $0 gl_FragCoord"), ["PP004"]);
        assert_eq!(codes("branch_xx L\nL:"), ["PP004"]);
    }

    #[test]
    fn opcodes_units_and_operand_counts() {
        let e = first("movx.v0 $0 $1");
        assert_eq!((e.code, e.help.as_deref()), ("PP002", Some("did you mean `mov.v0`?")));
        let e = first("moov.s1 $0.x $1.x");
        assert_eq!(e.help.as_deref(), Some("did you mean `mov.s1`?"));
        assert_eq!(
            first("qqqq.v0 $0 $1").help.as_deref(),
            Some("docs/lima.md lists the opcodes of every unit")
        );
        let e = first("rcp.v0 $0 $1");
        assert_eq!((e.code, e.help.as_deref()), ("PP003", Some("write it as `rcp.s2`")));
        assert_eq!(codes("sum3.s1 $0.x $1.x"), ["PP003"]);
        assert_eq!(codes("mov.v9 $0 $1"), ["PP003"]);
        assert_eq!(codes("mov $0 $1"), ["PP003"]);
        let e = first("add.v1 $0 $1");
        assert_eq!(e.code, "PP005");
        assert_eq!(e.message, "`add` takes 3 operands, found 2");
        assert_eq!(e.help.as_deref(), Some("write `add.v1 dest src1 src2`"));
        assert_eq!(codes("stop $0"), ["PP005"]);
        assert_eq!(codes("const0 1.0 2.0"), ["PP005"]);
    }

    #[test]
    fn registers_and_their_ranges() {
        assert_eq!(codes("mov.v0 $6 $11"), ["PP008", "PP008"]);
        assert_eq!(codes("mov.v0 $0 $12"), ["PP007"]);
        assert_eq!(
            first("mov.v0 $0 $12").help.as_deref(),
            Some("register number 12 is the pipeline register `^const0`: write that")
        );
        assert_eq!(codes("mov.v0 $16 $1"), ["PP007"]);
        assert_eq!(codes("mov.v0 $0 ^nothing"), ["PP007"]);
        assert_eq!(codes("load.v $0 0+^uniform.x"), ["PP007"]);
        let instrs = assemble_proposed_text("mov.v0 $15 ^u").unwrap();
        assert_eq!(instrs[0].vec4_mul.unwrap().dest.unwrap().reg, 15);
        assert_eq!(instrs[0].vec4_mul.unwrap().arg0.reg, ops::REG_UNIFORM);
    }

    #[test]
    fn constants_must_be_exact_fp16_values() {
        let e = first("const0 0.1 0 0 0");
        assert_eq!(e.code, "PP012");
        assert_eq!(e.help.as_deref(), Some("the nearest fp16 value is 0.0999755859375"));
        let e = first("const0 1.0 0.0 0.0 -1.677734");
        assert_eq!(e.help.as_deref(), Some("the nearest fp16 value is -1.677734375"));
        assert_eq!(codes("const0 65505 0 0 0"), ["PP013"]);
        assert_eq!(codes("const0 1e10 0 0 0"), ["PP013"]);
        assert_eq!(codes("const0 1.5e 0 0 0"), ["PP011"]);
        assert_eq!(codes("const0 1.5.2 0 0 0"), ["PP005"]);
        assert_eq!(codes("const0 0x10000 0 0 0"), ["PP011"]);
        let instrs =
            assemble_proposed_text("const1 inf -inf 0x7e01 -0.0\nconst0 6.103515625e-5 5.960464477539063e-8 -65504 .5")
                .unwrap();
        assert_eq!(instrs[0].const1, Some([0x7c00, 0xfc00, 0x7e01, 0x8000]));
        assert_eq!(instrs[1].const0, Some([0x0400, 0x0001, 0xfbff, 0x3800]));
        for bits in (0..=0xffffu16).filter(|b| !crate::half::to_f64(*b).is_nan()) {
            assert_eq!(crate::half::nearest(crate::half::to_f64(bits)), bits, "{bits:#x}");
        }
        assert_eq!(crate::half::nearest(65519.0), 0x7bff);
        assert_eq!(crate::half::nearest(65520.0), 0x7c00);
        assert_eq!(crate::half::nearest(1.0 + 1.0 / 2048.0), 0x3c00, "ties go to even");
    }

    #[test]
    fn a_constant_takes_one_sign_and_raw_bits_none() {
        // (operand, code, message, help): messages quote the operand as written.
        for (text, code, message, help) in [
            ("--1", "PP001", "`--1` has two signs", "write `1`"),
            ("-+1", "PP001", "`-+1` has two signs", "write `-1`"),
            ("- -2.5", "PP001", "`- -2.5` has two signs", "write `2.5`"),
            ("--0x3c00", "PP001", "`--0x3c00` has two signs", "write `0x3c00`"),
            ("-0x3c00", "PP011", "`-0x3c00` is not a valid number", "write `0xbc00`"),
            ("+0x3c00", "PP011", "`+0x3c00` is not a valid number", "write `0x3c00`"),
            (
                "-0x10000",
                "PP011",
                "`-0x10000` is not a valid fp16 bit pattern",
                "0x0000 to 0xffff",
            ),
            ("-1.5e", "PP011", "`-1.5e` is not a valid number", "decimal digits"),
        ] {
            let e = first(&format!("const0 {text} 0 0 0"));
            assert_eq!((e.code, e.message.as_str()), (code, message), "{text}");
            assert!(
                e.help.as_deref().is_some_and(|h| h.contains(help)),
                "{text}: {:?}",
                e.help
            );
        }
        // One sign, on a decimal or `inf`, is a number.
        let instrs = assemble_proposed_text("const0 +1 -1 - 1 -inf").unwrap();
        assert_eq!(instrs[0].const0, Some([0x3c00, 0xbc00, 0xbc00, 0xfc00]));
    }

    #[test]
    fn labels_and_branch_targets() {
        let instrs = assemble_proposed_text("top:\nbranch_ge $0.x $1.x end\nbranch top\nbranch +2\nend:\n").unwrap();
        assert!(matches!(instrs[0].branch, Some(Branch::Jump { target: 12, .. })));
        assert!(matches!(
            instrs[1].branch,
            Some(Branch::Jump {
                target: -4,
                cond: BranchCond::Always,
                ..
            })
        ));
        assert!(matches!(instrs[2].branch, Some(Branch::Jump { target: 2, .. })));
        let e = first("branch endd\nend:\n");
        assert_eq!((e.code, e.help.as_deref()), ("PP014", Some("did you mean `end`?")));
        assert_eq!(codes("a:\na:\nstop"), ["PP015"]);
        assert_eq!(codes("branch 4"), ["PP006"]);
        assert_eq!(codes("branch +67108864"), ["PP016"]);
        assert_eq!(codes("branch_lt -$0.x $1.x +0"), ["PP025"]);
    }

    #[test]
    fn order_and_one_operation_per_unit() {
        let e = first("mov.v0 $0 $1, load.v $1 0, stop");
        assert_eq!(e.code, "PP017");
        assert_eq!(e.help.as_deref(), Some("write `stop, load.v $1 0, mov.v0 $0 $1`"));
        assert_eq!(codes("sync, stop"), ["PP017"]);
        assert_eq!(codes("load.u 0, load.t 1"), ["PP018"]);
        assert_eq!(codes("stop, stop"), ["PP018"]);
        assert_eq!(codes("store.t 0 $1, fb_color $2"), ["PP018"]);
    }

    #[test]
    fn scheduling_rules() {
        assert_eq!(codes("mov.v0 $0 ^v0"), ["PP019"]);
        assert_eq!(codes("mul.v0 ^v0 $1 $2, add.v1 $0 $1 ^v0"), ["PP019"]);
        assert_eq!(codes("mov.s0 ^s0 $0.x, add.v1 $0 ^s0 $1"), ["PP019"]);
        assert_eq!(codes("rcp.s2 $0.x $1.x, discard"), ["PP020"]);
        assert_eq!(codes("sel.v1 $0 $1 $2"), ["PP021"]);
        assert_eq!(codes("mov.v0 $0 ^const1"), ["PP022"]);
        assert_eq!(codes("add.v1 $0 ^v0 $1"), ["PP026"]);
        assert_eq!(codes("add.s1 $0.x ^s0 $1.x"), ["PP026"]);
        assert_eq!(codes("load.v ^discard 0, texld 0"), ["PP023"]);
        assert_eq!(codes("dFdx.v1 $0 $1 $1"), ["PP023"]);
        assert_eq!(codes("sync, dFdy.s1 $0.x $1.x $1.x"), Vec::<&str>::new());
        assert_eq!(codes("mov.v0 $0 -^v0.x, add.v1 $0 ^v0 $1"), ["PP019"]);
    }

    #[test]
    fn operands_of_the_wrong_kind() {
        assert_eq!(codes("mov.v0 $0 1.0"), ["PP006"]);
        assert_eq!(codes("load.v $0 foo"), ["PP006"]);
        assert_eq!(codes("texld 0 $1.x $2.x"), ["PP023", "PP006"]);
        assert_eq!(codes("texld 0 bias(0.03)"), ["PP023", "PP011"]);
        assert_eq!(codes("texld 4096"), ["PP023", "PP011"]);
        assert_eq!(codes("load.v $0 64"), ["PP011"]);
        assert_eq!(codes("load.v $0 31.zw"), Vec::<&str>::new());
        assert_eq!(codes("load.v $0 32.xy"), ["PP011"]);
        assert_eq!(codes("load.u 16384.x"), ["PP011"]);
        assert_eq!(codes("store.t 0.x -$1.x"), ["PP025"]);
        assert_eq!(codes("mul.s2 $0 $1.x -$2"), ["PP025"]);
        assert_eq!(codes("store.t 0 $1.x"), ["PP010"]);
        assert_eq!(codes("store.t $1 0"), ["PP009"]);
        assert_eq!(codes("mov.v0 $0 abs(-$1)"), ["PP006"]);
    }

    #[test]
    fn long_lines_get_short_help_and_deep_nesting_a_syntax_error() {
        let op = "mov.v0 ^const0 $0, ";
        let line = format!("{}stop", op.repeat(300));
        let diagnostics = {
            let mut sources = SourceMap::new();
            let file = sources.add("t.pp", line.as_str());
            assemble_proposed(&sources, file, false).diagnostics
        };
        let helps: Vec<&str> = diagnostics.iter().filter_map(|d| d.help.as_deref()).collect();
        assert!(helps.iter().all(|h| h.len() < 300), "{:?}", helps.first());
        assert!(helps.contains(&"write the destination first: `mov.v0 $0 ^const0`"));
        assert!(helps.contains(&"write the operations in control-word order"));
        let deep = format!("mov.v0 $0 {}$1{}", "abs(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(codes(&deep), ["PP001"]);
    }

    #[test]
    fn every_error_of_a_file_is_reported_in_order() {
        let text = "qqqq.v0 $0 $1\nmov.v0 $0 $1 $2\nbranch nowhere\nmov.v0 $0 ;\n";
        assert_eq!(codes(text), ["PP002", "PP005", "PP014", "PP001"]);
        let e = first("mov.v0 $0 ;");
        assert_eq!(e.code, "PP001");
        assert!(e.labels[0].span.start == 10);
    }
}
