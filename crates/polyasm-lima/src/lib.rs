//! Lima: the ARM Mali-200/400 fragment processor ("PP"). The opcode table ([`ops`]), the
//! instructions and their encoding ([`instr`]), the decoder ([`decode`]), the two syntaxes
//! ([`syntax::proposed`] and [`syntax::mesa`], the text Mesa's disassembler prints), the MBS1
//! container ([`mbs`]) and the diagnostic codes ([`error`]); this file holds the `lima` target
//! of the command line and the public API: [`assemble`], [`assemble_mesa_str`],
//! [`disassemble`].
//!
//! ```
//! // Mesa's tile-reload program, decoded and printed as Mesa's disassembler prints it.
//! let words = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];
//! let program = polyasm_lima::decode::decode(&words).expect("valid program");
//! assert_eq!(
//!     polyasm_lima::syntax::mesa::print_program(&program),
//!     "@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n"
//! );
//! let instrs: Vec<_> = program.iter().map(|d| d.instr).collect();
//! assert_eq!(polyasm_lima::instr::words::encode(&instrs), words);
//! // And the text back to the words.
//! let text = polyasm_lima::syntax::mesa::print_program(&program);
//! assert_eq!(polyasm_lima::assemble_mesa_str(&text).unwrap(), words);
//! ```

#![warn(missing_docs)]

pub mod codes;
pub mod decode;
pub mod error;
pub mod exec;
pub use polyasm_core::half;
pub mod instr;
pub mod mbs;
pub mod ops;
pub mod run;
pub mod syntax;

use std::sync::LazyLock;

use polyasm_core::OptionKind;
use polyasm_core::editor::{Lexicon, Register};
use polyasm_core::output::FormatInfo;
use polyasm_core::stream::RunIo;
use polyasm_core::target::{
    DisasmInput, InputEncoding, OptionSpec, RunInfo, RunOutcome, RunOutput, Runner, Target, TargetInfo, TargetOptions,
    UsageError,
};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

pub use crate::syntax::Syntax;

use crate::instr::{Branch, Instr};

/// How to assemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleOptions {
    /// The source's syntax; `None` detects it: Mesa's when the first line holding anything
    /// starts with Mesa's `@N: ` prefix, else the proposed one.
    pub syntax: Option<Syntax>,
    /// Record a listing entry per instruction.
    pub listing: bool,
    /// Where labels and their uses are recorded, for editors.
    pub names: Option<polyasm_core::editor::NameSink>,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            syntax: None,
            listing: true,
            names: None,
        }
    }
}

/// Assembles source `file` of `sources`. The object holds the words and, when
/// `options.listing`, one listing entry per instruction whose address is its word offset.
pub fn assemble(sources: &SourceMap, file: SourceId, options: &AssembleOptions) -> Outcome<Object> {
    let detected = || match syntax::mesa::has_offset_prefix(sources.get(file).text()) {
        true => Syntax::Mesa,
        false => Syntax::Proposed,
    };
    match options.syntax.unwrap_or_else(detected) {
        Syntax::Mesa => assemble_mesa(sources, file, options.listing),
        Syntax::Proposed => {
            syntax::proposed::assemble_proposed_object(sources, file, options.listing, options.names.clone())
        }
    }
}

/// Assembles Mesa's text (with or without the `@N: ` prefix).
fn assemble_mesa(sources: &SourceMap, file: SourceId, listing: bool) -> Outcome<Object> {
    let (read, errors) = syntax::mesa::read_program(sources.get(file).text());
    if !errors.is_empty() {
        // In the order found; under `--max-errors`, only those shown are kept (all of them
        // may be hidden, after errors in other files).
        let found = errors.iter().enumerate().map(|(i, e)| (i, error::mesa_error(file, e)));
        return Outcome {
            value: None,
            diagnostics: polyasm_core::diagnostic::in_order(found),
        };
    }
    let program: Vec<Instr> = read.iter().map(|r| r.instr).collect();
    let words = instr::words::encode(&program);
    let mut object = Object::assembled_from(4, file, listing);
    object.reserve(read.len(), 4);
    for r in &read {
        let end = r.offset + r.instr.count() as usize;
        let span = Span::new(file, r.line.start, r.line.end);
        object.push(r.offset as u32, &words[r.offset..end], Some(span), None);
    }
    Outcome::ok(object)
}

/// Assembles Mesa's text in a string and returns its words, or the diagnostics.
pub fn assemble_mesa_str(text: &str) -> Result<Vec<u32>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let options = AssembleOptions {
        syntax: Some(Syntax::Mesa),
        listing: false,
        names: None,
    };
    let outcome = assemble(&sources, file, &options);
    match outcome.value {
        Some(object) if !outcome.has_errors() => Ok(object.words().collect()),
        _ => Err(outcome.diagnostics),
    }
}

/// Where disassembled words came from, for the byte offsets of errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordsFrom {
    /// A file of little-endian words: word `n` is at byte `4 n`.
    Binary,
    /// Hex text: word `n` is the `n`th hex number.
    Hex,
    /// The `DBIN` chunk of an MBS1 file.
    Mbs,
}

/// Disassembles `words` to text in `syntax` (Mesa's with the `@N: ` prefix of its standalone
/// tool, one instruction per line). Each instruction with bits the text does not show gets a
/// warning with its word offset; words that are no program are an error. `name` names the
/// input in messages.
pub fn disassemble(words: &[u32], syntax: Syntax, name: &str, from: WordsFrom) -> Outcome<String> {
    let program = match decode_program(words, name, from) {
        Ok(program) => program,
        Err(e) => return Outcome::failed(vec![e]),
    };
    let text = match syntax {
        Syntax::Mesa => syntax::mesa::print_program(&program),
        Syntax::Proposed => syntax::proposed::print_proposed(&program.iter().map(|d| d.instr).collect::<Vec<_>>()),
    };
    // The proposed text's line of each instruction, in order (a label's line ends with `:`).
    let mut lines = text.lines().filter(|line| !line.ends_with(':'));
    let mut diagnostics = Vec::new();
    let starts: Vec<usize> = program.iter().map(|d| d.offset).collect();
    for d in &program {
        for lost in &d.lost {
            diagnostics.push(error::lost_bits_warning(name, d.offset, lost));
        }
        if let Some(Branch::Jump { target, .. }) = d.instr.branch {
            let to = d.offset as i64 + i64::from(target);
            if usize::try_from(to).map_or(true, |to| starts.binary_search(&to).is_err()) {
                diagnostics.push(error::stray_target_warning(name, d.offset, to));
            }
        }
        if syntax == Syntax::Proposed {
            let line = lines.next().unwrap_or_default();
            for (reg, field) in syntax::proposed::unset_constants(&d.instr, line) {
                diagnostics.push(error::unset_constant_warning(name, d.offset, reg, field));
            }
        }
        if syntax == Syntax::Mesa && d.lost.is_empty() {
            let fields = syntax::mesa::unshown_fields(&d.instr, d.offset);
            if !fields.is_empty() {
                diagnostics.push(error::unshown_bits_warning(name, d.offset, &fields));
            }
        }
    }
    Outcome::new(text, diagnostics)
}

/// Decodes `words`, or gives the error that they are not a program, with the place in the
/// input (by `from`) where the instruction at fault starts.
fn decode_program(words: &[u32], name: &str, from: WordsFrom) -> Result<Vec<decode::Decoded>, Diagnostic> {
    decode::decode(words).map_err(|e| {
        let at = match from {
            WordsFrom::Binary => format!("at byte {} of the input", e.offset * 4),
            WordsFrom::Hex => format!("at hex word {} of the input (counting from 0)", e.offset),
            WordsFrom::Mbs => format!("at byte {} of the words in the `DBIN` chunk", e.offset * 4),
        };
        error::not_a_program(name, &e, &at)
    })
}

/// The `lima` target of the command line.
pub struct LimaTarget;

/// The registered instance.
pub static TARGET: LimaTarget = LimaTarget;

static INFO: TargetInfo = TargetInfo {
    name: "lima",
    aliases: &["mali400", "pp"],
    extensions: &["pp"],
    binary_extensions: &["mbs"],
    description: "ARM Mali-200/400 fragment processor (Lima PP): the proposed syntax and Mesa's",
    word_bytes: 4,
    program_limit: None,
    assemble_options: &[OptionSpec::new(
        "syntax",
        "SYNTAX",
        SYNTAXES,
        "lima: the source's syntax, proposed or mesa [default: mesa when the first line starts with Mesa's `@N: ` prefix, else proposed]",
    )],
    disassemble_options: &[OptionSpec::new(
        "syntax",
        "SYNTAX",
        SYNTAXES,
        "lima: print the proposed syntax (the default) or mesa, the text of Mesa's disassembler byte for byte",
    )],
    formats: FORMATS,
    preprocesses: false,
};

/// The syntaxes `--syntax` names.
const SYNTAXES: OptionKind = OptionKind::Words {
    plural: "syntaxes",
    words: &Syntax::NAMES,
};

static FORMATS: &[FormatInfo] = &[FormatInfo {
    name: "mbs",
    description: "the MBS1 fragment file of Mesa's standalone tools and the ARM offline compiler",
    binary: true,
    listing: false,
    extensions: &["mbs"],
    executable: false,
}];

static RUN_INFO: RunInfo = RunInfo {
    options: run::RUN_OPTIONS,
    // Run errors point at the instruction's line through the listing.
    needs_listing: true,
    runtimes: &[],
};

/// `--syntax`, if given.
fn syntax_option(options: &TargetOptions) -> Option<Syntax> {
    options.values.word("syntax").and_then(Syntax::from_name)
}

/// The words of disassembler or `run` input: an MBS1 file (by its magic), or words in binary
/// or hex, with the warnings met reading them.
fn input_words(sources: &SourceMap, input: &DisasmInput) -> Outcome<(Vec<u32>, WordsFrom)> {
    if input.bytes.starts_with(&mbs::TAG_FILE) {
        return match mbs::read(input.bytes) {
            Ok(program) => Outcome::ok((program.words, WordsFrom::Mbs)),
            Err(e) => Outcome::failed(vec![error::mbs_error(input.name, &e)]),
        };
    }
    let from = match input.encoding {
        InputEncoding::Binary => WordsFrom::Binary,
        InputEncoding::Hex => WordsFrom::Hex,
    };
    polyasm_core::words::read_words(sources, input, &INFO).map(|words| (words, from))
}

impl Target for LimaTarget {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        error::Code::table()
    }

    fn assemble(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        _out: &mut dyn std::io::Write,
    ) -> Outcome<Object> {
        let assemble_options = AssembleOptions {
            syntax: syntax_option(options),
            listing: !options.skip_listing,
            names: options.names.clone(),
        };
        assemble(sources, file, &assemble_options)
    }

    fn write_format(&self, format: &str, object: &Object, _sources: &SourceMap) -> Option<Result<Vec<u8>, Diagnostic>> {
        if format != FORMATS[0].name {
            return None;
        }
        let words: Vec<u32> = object.words().collect();
        let program: Vec<Instr> = decode::decode(&words)
            .expect("invariant: assembled words decode")
            .into_iter()
            .map(|d| d.instr)
            .collect();
        Some(Ok(mbs::write(&words, &mbs::FragmentInfo::for_program(&program))))
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, options: &TargetOptions) -> Outcome<String> {
        let syntax = syntax_option(options).unwrap_or(Syntax::Proposed);
        let read = input_words(sources, input);
        let Some((words, from)) = read.value else {
            return Outcome::failed(read.diagnostics);
        };
        let mut outcome = disassemble(&words, syntax, input.name, from);
        outcome.diagnostics.splice(0..0, read.diagnostics);
        outcome
    }

    fn instructions(&self) -> Vec<polyasm_core::table::Entry> {
        crate::ops::Form::entries()
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }

    fn lexicon(&self) -> &'static Lexicon {
        &LEXICON
    }
}

/// Both syntaxes: `#` comments, `.` before a unit, swizzle or mask, `$0`...`$11`, and the pipeline
/// registers of [`ops::proposed::PIPELINE_NAMES`] but for their older names.
static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    use ops::proposed::{PIPELINE_NAMES, Pipeline};
    let general = Register {
        name: "$",
        numbers: Some((0, u16::from(ops::GENERAL_REGS) - 1)),
        doc: "general-purpose vec4 registers (Mesa's compiler uses $0...$5)",
        read: true,
        write: true,
    };
    let pipeline = PIPELINE_NAMES
        .iter()
        .filter(|p| p.replaced_by.is_none())
        .map(|p| Register {
            name: p.name,
            numbers: None,
            doc: p.doc,
            read: p.reg != Pipeline::Discard,
            write: p.reg.vec_reg().is_none(),
        });
    let registers = std::iter::once(general).chain(pipeline).collect::<Vec<_>>().leak();
    // The modifiers of the proposed syntax, from the tables that name them.
    let named = ops::OUTMODS.iter().map(|r| (r.name, r.doc));
    let perspectives = ops::PERSPECTIVES.iter().map(|r| (r.name, r.doc));
    let conditions = ops::BRANCH_CONDS.iter().filter(|r| !r.name.is_empty()).map(|r| {
        let name: &'static str = format!("{}{}", ops::proposed::COND_PREFIX, r.name).leak();
        (name, r.doc)
    });
    let shifts = ops::proposed::MUL_SHIFTS
        .iter()
        .map(|&(_, name)| (name, "the product shifted (mul only)"));
    let others = [
        (ops::proposed::TEXLD_LOD, "texld: the register is the LOD, not a bias"),
        (ops::proposed::COMBINE_VEC_DEST, "the vector destination form (.s2)"),
        (ops::proposed::COMBINE_SCALAR_DEST, "the scalar destination form (.s2)"),
    ];
    let modifiers = named.chain(perspectives).filter(|(name, _)| !name.is_empty());
    let modifiers = modifiers
        .chain(conditions)
        .chain(shifts)
        .chain(others)
        .collect::<Vec<_>>()
        .leak();
    Lexicon {
        line_comments: &["#"],
        sigils: "$^",
        word_chars: ".",
        registers,
        half_floats: true,
        destination_first: true,
        leading_zeros: true,
        modifiers,
        operation_separator: Some(','),
        ..Lexicon::NONE
    }
});

impl Runner for LimaTarget {
    fn run_info(&self) -> &RunInfo {
        &RUN_INFO
    }

    fn plan(&self, options: &TargetOptions) -> Result<RunOutput, UsageError> {
        // `--size` renders a picture; one fragment's colour is text.
        run::run_settings(options).map(|settings| match settings.size {
            Some(_) => RunOutput::Binary,
            None => RunOutput::Text,
        })
    }

    fn run(
        &self,
        object: &Object,
        options: &TargetOptions,
        _sources: &mut SourceMap,
        io: &mut RunIo<'_>,
    ) -> RunOutcome {
        run::run_object(object, options, io)
    }

    fn load_program(&self, _sources: &mut SourceMap, bytes: &[u8], name: &str) -> Option<Outcome<Object>> {
        let input = DisasmInput {
            bytes,
            encoding: InputEncoding::Binary,
            text_source: None,
            name,
        };
        let read = input_words(&SourceMap::new(), &input);
        let Some((words, from)) = read.value else {
            return Some(Outcome::failed(read.diagnostics));
        };
        // The words must be a program.
        Some(match decode_program(&words, name, from) {
            Ok(_) => Outcome::ok(Object::from_words(&words)),
            Err(e) => Outcome::failed(vec![e]),
        })
    }
}
