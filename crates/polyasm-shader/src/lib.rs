//! shader-asm for polyasm: a tiny assembly language run once per pixel. The crate assembles
//! it to a documented bytecode, disassembles that, renders it on the CPU, and interprets the
//! same bytecode on a GPU or compiles a program to a WGSL or GLSL shader of its own.
//!
//! The library interface of the assembler:
//!
//! - [`assemble_text`]: source text to instructions, or every diagnostic;
//!   [`assemble`] does the same for a file of a [`SourceMap`] and also gives the bytecode
//!   file as an [`Object`] (with a listing) and the warnings.
//! - [`bytecode_bytes`]: instructions to a bytecode file (`.shb`, docs/formats/shader-bytecode.md);
//!   [`decode::read`]: a bytecode file back to instructions, or every problem with its byte offset.
//! - [`print::print_program`]: instructions to canonical source, which assembles to the same
//!   instructions.
//! - [`native::wgsl`], [`native::glsl`]: instructions to a shader of their own, one statement
//!   per instruction (`-f wgsl`, `-f glsl`), which [`gpu::GpuRenderer::native`] also builds.
//!
//! Both dialects are read: v1, the specification's, and v2, ShaderVM's current one
//! (docs/shader.md). [`assemble_text`] and [`assemble`] detect which from the forms a source
//! uses; [`assemble_text_in`] and [`assemble_in`] take a [`DialectChoice`].
//!
//! ```
//! use polyasm_shader::{assemble_text, bytecode_bytes, decode, print};
//!
//! let instrs = assemble_text("load(s0, 0.5)  # half\nsetComponent0(c, s0)\n").expect("valid program");
//! let bytes = bytecode_bytes(&instrs);
//! assert_eq!(&bytes[..4], b"SHBC");
//! let read = decode::read(&bytes).expect("bytecode we wrote");
//! assert_eq!(print::print_program(&read), "load(s0, 0.5)\nsetComponent0(c, s0)\n");
//!
//! let errors = assemble_text("add(s0, v1, s2)\n").unwrap_err();
//! assert_eq!(errors[0].code, "SH005");
//! assert_eq!(errors[0].message, "`add` takes a scalar here, `v1` is a vector");
//!
//! // v2: the component is picked by a register; `z` is 0.
//! let v2 = assemble_text("load(s5, 1)\ngetComponent(pc, s0, s5)\nsetComponent(c, s0, z)\n").expect("v2");
//! assert_eq!(bytecode_bytes(&v2)[6], 1, "flagged v2");
//! assert_eq!(print::print_program(&v2), "load(s5, 1)\ngetComponent(pc, s0, s5)\nsetComponent(c, s0, z)\n");
//! ```

#![warn(missing_docs)]

pub mod decode;
pub mod encode;
pub mod error;
pub mod exec;
pub mod gpu;
pub mod lexer;
pub mod native;
pub mod ops;
pub mod parser;
pub mod print;
pub mod render;
pub mod run;
pub mod runtime;

use std::sync::LazyLock;

use polyasm_core::OptionKind;
use polyasm_core::editor::{Lexicon, Register};
use polyasm_core::front;
use polyasm_core::output::FormatInfo;
use polyasm_core::stream::RunIo;
use polyasm_core::target::{
    DisasmInput, InputEncoding, OptionSpec, RunInfo, RunOutcome, RunOutput, Runner, Target, TargetInfo, TargetOptions,
    UsageError,
};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap};

pub use encode::{Assembled, DialectChoice, bytecode_bytes};
pub use ops::Dialect;

use crate::ops::Instr;

/// `--dialect`, if given: the source's dialect.
fn dialect_option(options: &TargetOptions) -> DialectChoice {
    match options.values.word("dialect").and_then(Dialect::from_name) {
        Some(dialect) => DialectChoice::Named(dialect),
        None => DialectChoice::Detect,
    }
}

/// Assembles source `file` of `sources`: the instructions and the bytecode file, with a
/// listing when `listing` is set (the instructions and diagnostics are the same either way).
/// The value is there when no diagnostic is an error; warnings come with it. The dialect is
/// detected from the forms the file uses ([`encode::detect`]).
pub fn assemble(sources: &SourceMap, file: SourceId, listing: bool) -> Outcome<Assembled> {
    assemble_in(sources, file, listing, DialectChoice::Detect)
}

/// [`assemble`] in the dialect `choice` says.
pub fn assemble_in(sources: &SourceMap, file: SourceId, listing: bool, choice: DialectChoice) -> Outcome<Assembled> {
    let text = sources.get(file).text();
    front::assemble(
        parser::Reader::new(file, text),
        encode::Encoder::new(file, text, listing, choice),
    )
}

/// Assembles a string: its instructions (warnings dropped), or every diagnostic when one is an
/// error. The dialect is detected from the forms it uses.
pub fn assemble_text(text: &str) -> Result<Vec<Instr>, Vec<Diagnostic>> {
    assemble_text_in(text, DialectChoice::Detect)
}

/// [`assemble_text`] in the dialect `choice` says.
pub fn assemble_text_in(text: &str, choice: DialectChoice) -> Result<Vec<Instr>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble_in(&sources, file, false, choice);
    match outcome.value {
        Some(assembled) => Ok(assembled.instrs),
        None => Err(outcome.diagnostics),
    }
}

/// shader-asm as a polyasm target.
pub struct ShaderTarget;

/// The registered instance.
pub static TARGET: ShaderTarget = ShaderTarget;

static INFO: TargetInfo = TargetInfo {
    name: "shader",
    aliases: &["shader-asm"],
    extensions: &["sasm"],
    binary_extensions: &["shb"],
    description: "shader-asm, a tiny assembly language run once per pixel, to polyasm's bytecode (.shb)",
    word_bytes: 4,
    // The bytecode's header counts the instructions; the reader refuses more than a program
    // holds (SH030), so the disassembler's length warning has nothing to add.
    program_limit: None,
    // Also those of `check` and `run`.
    assemble_options: &[OptionSpec::new(
        "dialect",
        "v1|v2",
        OptionKind::Words {
            plural: "dialects",
            words: &["v1", "v2"],
        },
        "shader: the source's dialect, v1 (the specification's) or v2 (ShaderVM's current one) [default: v2 when the file uses a form only v2 has, else v1]",
    )],
    disassemble_options: &[],
    formats: FORMATS,
    preprocesses: false,
};

/// The native shaders of [`native`]: the program as WGSL or GLSL source.
static FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "wgsl",
        description: "the program as a WGSL compute shader, one statement per instruction",
        binary: false,
        listing: false,
        extensions: &["wgsl"],
        executable: false,
    },
    FormatInfo {
        name: "glsl",
        description: "the program as a GLSL 4.30 fragment shader, one statement per instruction",
        binary: false,
        listing: false,
        extensions: &["glsl"],
        executable: false,
    },
];

static RUN_INFO: RunInfo = RunInfo {
    options: run::RUN_OPTIONS,
    needs_listing: false,
    runtimes: runtime::RUNTIMES,
};

impl Target for ShaderTarget {
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
        assemble_in(sources, file, !options.skip_listing, dialect_option(options)).map(|assembled| assembled.object)
    }

    fn write_format(&self, format: &str, object: &Object, _sources: &SourceMap) -> Option<Result<Vec<u8>, Diagnostic>> {
        let write = match format {
            "wgsl" => native::wgsl,
            "glsl" => native::glsl,
            _ => return None,
        };
        let program = decode::read(&object.bytes).expect("invariant: assembled bytecode reads back");
        Some(Ok(write(&program).into_bytes()))
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, _options: &TargetOptions) -> Outcome<String> {
        // A binary input is a bytecode file as it is; hex text is its words, little-endian.
        let bytes: Vec<u8> = if input.encoding == InputEncoding::Binary {
            input.bytes.to_vec()
        } else {
            let words = polyasm_core::words::read_words(sources, input, &INFO);
            let Some(words) = words.value else {
                return Outcome::failed(words.diagnostics);
            };
            words.iter().flat_map(|w| w.to_le_bytes()).collect()
        };
        match decode::read(&bytes) {
            Ok(instrs) => Outcome::ok(print::print_program(&instrs)),
            Err(errors) => Outcome::failed(error::bad_bytecode(input.name, &errors)),
        }
    }

    fn instructions(&self) -> Vec<polyasm_core::table::Entry> {
        crate::ops::Op::entries()
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }

    fn lexicon(&self) -> &'static Lexicon {
        &LEXICON
    }
}

/// How shader-asm text is written: `#` comments, and the numbered registers and those of
/// [`ops::SPECIALS`], in lower case.
static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    use ops::{SCALARS, V2_SCALARS, V2_VECTORS, VECTORS};
    let family = |name, count: u8, v2: u8, what| Register {
        name,
        numbers: Some((0, u16::from(count) - 1)),
        doc: format!("{what} registers (v2 has {name}0...{name}{})", v2 - 1).leak(),
        read: true,
        write: true,
    };
    let specials = ops::SPECIALS.iter().map(|special| Register {
        name: special.name,
        numbers: None,
        doc: match special.dialects.only() {
            Some(only) => format!("{} ({} only)", special.meaning, only.name()).leak(),
            None => special.meaning,
        },
        read: true,
        write: special.writable,
    });
    let numbered = [
        family("s", SCALARS, V2_SCALARS, "scalar"),
        family("v", VECTORS, V2_VECTORS, "vector"),
    ];
    Lexicon {
        line_comments: &["#"],
        registers: numbered.into_iter().chain(specials).collect::<Vec<_>>().leak(),
        ..Lexicon::NONE
    }
});

impl Runner for ShaderTarget {
    fn run_info(&self) -> &RunInfo {
        &RUN_INFO
    }

    fn plan(&self, options: &TargetOptions) -> Result<RunOutput, UsageError> {
        // A picture, or an animation's frames.
        run::run_settings(options).map(|settings| match settings.animation {
            Some(_) => RunOutput::Files,
            None => RunOutput::Binary,
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
        Some(match decode::read(bytes) {
            Ok(_) => {
                let mut object = Object::new(4);
                object.bytes = bytes.to_vec();
                Outcome::ok(object)
            }
            Err(errors) => Outcome::failed(error::bad_bytecode(name, &errors)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<&'static str> {
        match assemble_text(text) {
            Ok(_) => Vec::new(),
            Err(diagnostics) => diagnostics.iter().map(|d| d.code).collect(),
        }
    }

    #[test]
    fn the_specification_example_assembles() {
        let text = "getComponent0(pc, s0) # s0 = pc.x\ngetComponent1(pc, s1) # s1 = pc.y\n\n\
                    getComponent0(s, s3)  # s3 = s.x\nreciprocal(s3, s2)    # s2 = 1 / s3\n\
                    getComponent1(s, s4)  # s4 = s.y\nreciprocal(s4, s3)    # s3 = 1 / s4\n\n\
                    multiply(s0, s2, s0)  # s0 = s0 * s2\nmultiply(s1, s3, s1)  # s1 = s1 * s3\n\n\
                    setComponent0(c, s0)  # c.x = s0\nsetComponent1(c, s1)  # c.y = s1\n";
        let instrs = assemble_text(text).expect("the specification's example");
        assert_eq!(instrs.len(), 10);
        assert_eq!(
            print::print_program(&instrs).lines().nth(2),
            Some("getComponent0(s, s3)")
        );
    }

    #[test]
    fn every_mistake_of_a_file_is_reported_in_order() {
        let text = "Add(s0, s1, s2)\nmultiply(v0, s1, s2)\nload(s0, 1e39)\nnegate(s0)\nmove(s0 s1)\n";
        assert_eq!(codes(text), ["SH002", "SH005", "SH010", "SH004", "SH001"]);
    }

    #[test]
    fn each_check_has_its_code() {
        for (text, code) in [
            ("foo(s0, s1)", "SH002"),
            ("move(s0, s8)", "SH003"),
            ("add(s0, s1)", "SH004"),
            ("getComponent0(s0, s1)", "SH005"),
            ("move(1, s0)", "SH006"),
            ("load(s0, s1)", "SH007"),
            ("move(s0, t)", "SH008"),
            ("setComponent0(pc, s0)", "SH008"),
            ("load(s0, 1.2.3)", "SH009"),
            ("load(s0, -1e39)", "SH010"),
            ("move s0, s1", "SH011"),
            ("move(s0, s1", "SH011"),
            ("move(s0, s1) s2", "SH012"),
            ("move(s0, s1) negate(s1, s2)", "SH013"),
            ("move(s0, s1); negate(s1, s2)", "SH013"),
        ] {
            assert_eq!(codes(&format!("{text}\nsetComponent0(c, s1)\n")), [code], "{text}");
        }
    }

    #[test]
    fn unread_results_are_warned_about_per_lane() {
        let mut sources = SourceMap::new();
        let text = "load(s0, 1)\nload(s1, 2)\nsetComponent0(v0, s0)\nsetComponent1(v0, s1)\n\
                    getComponent0(v0, s2)\nsetComponent0(c, s2)\nload(s3, 4)\n";
        let file = sources.add("x.sasm", text);
        let outcome = assemble(&sources, file, false);
        let warned: Vec<String> = outcome.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            warned,
            [
                // `s1` is read, by an instruction whose own result is not: one warning at a time.
                "the result of `setComponent1` in component 1 of `v0` is never read",
                "the result of `load` in `s3` is never read",
            ]
        );
        assert!(outcome.value.is_some(), "warnings do not stop assembly");
    }

    #[test]
    fn too_many_instructions_is_one_error() {
        let text = "setComponent0(c, s0)\n".repeat(ops::MAX_INSTRUCTIONS + 3);
        assert_eq!(codes(&text), ["SH014"]);
        let text = "setComponent0(c, s0)\n".repeat(ops::MAX_INSTRUCTIONS);
        assert_eq!(assemble_text(&text).map(|i| i.len()), Ok(ops::MAX_INSTRUCTIONS));
    }
}
