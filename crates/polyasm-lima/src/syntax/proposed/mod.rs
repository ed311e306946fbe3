//! The proposed syntax to instructions, with every check: statements from the parser become
//! [`Instr`]s of the model, which [`crate::instr::words::Words`] packs as they come. Every error of a
//! file is reported, each with its span; labels resolve to relative word offsets once the
//! lengths of all instructions are known. docs/lima.md describes the syntax unit by unit.

use std::convert::Infallible;
use std::ops::Range;

mod instruction;
mod kind;
pub mod lexer;
mod opcode;
mod operand;
pub mod parser;
mod print;

pub use self::print::{print_instr, print_proposed, unset_constants};
pub use crate::syntax::print::half;

use polyasm_core::diagnostic::Collector;
use polyasm_core::editor::NameSink;
use polyasm_core::front::{self, Spanned, TextRange};
use polyasm_core::number::parse_int_literal;
use polyasm_core::text::{NameMap, SuggestionBudget, suggest};
use polyasm_core::{Diagnostic, Object, Outcome, SourceId, SourceMap, Span, Symbol};

use self::lexer::{Lexer, Tok};
use self::parser::{Arena, Expr, Op, Operand, Statement, Term, Value};
use crate::error;
use crate::instr::words::Words;
use crate::instr::{
    Acc, Branch, Combine, CombineDest, Instr, Load, Mul, Sampler, ScalarReg, ScalarSource, Store, Varying,
    VaryingFetch, VaryingSource, VecDest, VecSource,
};
use crate::ops::proposed::{self as names, Pipeline};
use crate::ops::{
    self, AccOp, Alignment, BranchCond, COMPONENTS, CombineOp, Field, Form, LoadSource, Model, OutMod, Perspective,
};
use crate::syntax::lower::{self, IndexForm};
use crate::syntax::operation::Operation;

use self::kind::*;

/// An assembled program: its instructions, and its words as an [`Object`].
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The instructions, in program order.
    pub instrs: Vec<Instr>,
    /// The words; its listing has an entry per instruction, at its control word's word offset.
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
/// let outcome = polyasm_lima::syntax::proposed::assemble_proposed(&sources, file, false);
/// assert_eq!(outcome.diagnostics[0].code, "PP017"); // sync and stop come first
/// let file = sources.add("copy.pp", "stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n");
/// let outcome = polyasm_lima::syntax::proposed::assemble_proposed(&sources, file, false);
/// let words: Vec<u32> = outcome.value.expect("valid").object.words().collect();
/// // Mesa's tile-reload program.
/// assert_eq!(words, [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]);
/// ```
pub fn assemble_proposed(sources: &SourceMap, file: SourceId, listing: bool) -> Outcome<Assembled> {
    assemble(sources, file, listing, true, None)
}

/// Assembles source `file` in the proposed syntax to its words, as [`assemble_proposed`] does,
/// without keeping the instructions (the words of a big program take a seventh of their
/// memory). The labels and their uses go to `names` when it is given.
pub fn assemble_proposed_object(
    sources: &SourceMap,
    file: SourceId,
    listing: bool,
    names: Option<NameSink>,
) -> Outcome<Object> {
    assemble(sources, file, listing, false, names).map(|assembled| assembled.object)
}

/// Assembles source `file`; the instructions are in the result when `keep` is set. The text is
/// lexed and parsed a chunk of statements at a time ([`Reader`]), on a second thread for a big
/// source, and the encoder reads the chunks in order into instructions and words; labels and
/// branches are resolved at the end ([`front::Encode::finish`]).
fn assemble(
    sources: &SourceMap,
    file: SourceId,
    listing: bool,
    keep: bool,
    names: Option<NameSink>,
) -> Outcome<Assembled> {
    let text = sources.get(file).text();
    let encoder = Encoder {
        names,
        ..Encoder::new(file, text, listing, keep)
    };
    front::assemble(Reader { text }, encoder)
}

/// The reading stage of [`front::assemble`]: lexes and parses the text into [`Chunk`]s, and
/// reads the kinds of their operations ahead of the encoder.
struct Reader<'s> {
    text: &'s str,
}

impl<'s> front::Reader<'s> for Reader<'s> {
    type Lexer = Lexer<'s>;
    type Chunk = Chunk;

    fn parallel(&self) -> bool {
        self.text.len() >= front::PIPELINE_MIN_BYTES
    }

    fn lexer(&self) -> Lexer<'s> {
        Lexer::new(self.text)
    }

    /// Parses the statements of a chunk, and reads the kinds of their operations. A valid
    /// statement is read by [`parser::quick_statement`]; chumsky reads the others.
    fn parse(&mut self, tokens: &[Spanned<Tok>], statements: &[Range<usize>], _no_errors: Vec<Infallible>) -> Chunk {
        let text = self.text;
        let mut chunk = Chunk::new();
        let fast = parser::statement();
        let rich = parser::statement();
        for statement in statements.iter().filter(|s| !s.is_empty()) {
            if let Some(statement) = parser::quick_statement(&tokens[statement.clone()], &mut chunk.arena) {
                chunk.parsed.push(Parsed::Statement(statement));
                continue;
            }
            let parsed = &mut chunk.parsed;
            let one = std::slice::from_ref(statement);
            front::parse_statements(&fast, &rich, tokens, one, &mut chunk.arena, |_, _, parsed_one| {
                parsed.push(match parsed_one {
                    Ok(statement) => Parsed::Statement(statement),
                    Err(errors) => Parsed::Failed(
                        errors
                            .iter()
                            .map(|e| {
                                let (range, found, expected) = front::describe_syntax_error(e, text);
                                let found = polyasm_core::text::escape_controls(&found).into_owned();
                                (TextRange::from(range), found, expected)
                            })
                            .collect(),
                    ),
                })
            });
        }
        for op in &mut chunk.arena.ops {
            op.kind = plain_kind(text, op);
        }
        chunk
    }
}

/// One statement as the parser left it: read, or its syntax errors (the range, what was
/// found, what was expected).
enum Parsed {
    Statement(Statement),
    Failed(Vec<(TextRange, String, String)>),
}

/// A chunk of statements parsed, and the arena that holds their lists.
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

/// The operation of `op`, when its word is a current name that reads without a diagnostic:
/// what the parsing stage works out ahead of the encoder.
fn plain_kind(text: &str, op: &Op) -> Option<Operation> {
    let mut renamed = false;
    let word = current_name(op.name.text(text), |_, _| renamed = true);
    if renamed {
        return None;
    }
    kind_of(&word, op.unit.map(|u| u.text(text))).ok()
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
    kinds: Vec<Option<Operation>>,
    /// Which operations of the instruction being read are encoded.
    usable: Vec<bool>,
    /// The words of the instructions so far, encoded as they come.
    words: Words,
    /// The operands inside calls of the chunk being read (see [`Expr::Call`]).
    args: Vec<Operand>,
    /// Where labels and their uses are recorded, for editors.
    names: Option<NameSink>,
}

impl<'s> Encoder<'s> {
    /// An encoder for the statements of `text`.
    fn new(file: SourceId, text: &'s str, listing: bool, keep: bool) -> Encoder<'s> {
        // At most one instruction a line: reserving that up front spares copying a big program
        // as it grows (the pages of what is not used are never touched).
        let lines = polyasm_core::lines::count_line_breaks(text) + 1;
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
            names: None,
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

    /// Defines label `name` at the next instruction; PP015 when it is defined already.
    fn label(&mut self, name: TextRange) {
        let text = self.str(name);
        if let Some(&(_, defined)) = self.labels.get(text) {
            self.push(error::duplicate_label(self.span(name), self.span(defined), text));
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

    /// The word offset of instruction `i`, or the end for `i` past the last.
    fn start_of(&self, i: usize) -> i64 {
        self.words.starts().get(i).map_or(self.words.len(), |&start| start) as i64
    }
}

impl front::Encode<Chunk> for Encoder<'_> {
    type Output = Outcome<Assembled>;

    /// Reads a chunk's statements into instructions and words, and takes its syntax errors.
    fn encode(&mut self, mut chunk: Chunk) {
        // The operands inside calls are the encoder's for the chunk, for reading at any depth;
        // the operations and operands of each statement are read from the arena.
        self.args = std::mem::take(&mut chunk.arena.args);
        let arena = &chunk.arena;
        for parsed in &chunk.parsed {
            match parsed {
                Parsed::Statement(Statement::Label { name }) => self.label(*name),
                Parsed::Statement(Statement::Instruction { ops, span }) => {
                    let instr = self.instruction(ops.of(&arena.ops), &arena.operands);
                    self.add(instr, *span);
                }
                Parsed::Failed(errors) => {
                    for (range, found, expected) in errors {
                        self.push(error::syntax_error(self.span(*range), found, expected));
                        // Keep instruction indices in step with the lines for the labels after it.
                        self.add(Instr::default(), *range);
                    }
                }
            }
        }
    }

    /// Resolves the branches, and gives the instructions and words with every diagnostic.
    fn finish(mut self) -> Outcome<Assembled> {
        for (index, target, span) in std::mem::take(&mut self.branches) {
            let (relative, target_count) = match target {
                Target::Relative(relative) => (relative, None),
                Target::Label(label) => {
                    let name = label.text(self.text);
                    match self.labels.get(name) {
                        Some(&(at, defined)) => {
                            if let Some(names) = &self.names {
                                names.used(self.span(label), self.span(defined));
                            }
                            (self.start_of(at) - self.start_of(index), Some(self.words.count(at)))
                        }
                        None => {
                            let suggestion = self.budget.suggest(name, self.label_order.iter().copied());
                            self.push(error::unknown_label(label.in_source(self.file), name, suggestion));
                            continue;
                        }
                    }
                }
            };
            if !crate::syntax::in_branch_range(relative) {
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
            object.push(0, &words, None, None);
        }
        for (name, (at, span)) in self.label_order.iter().map(|name| (name, self.labels[name])) {
            if let Some(names) = &self.names {
                names.define(*name, "label", self.span(span), format!("word {}", self.start_of(at)));
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
