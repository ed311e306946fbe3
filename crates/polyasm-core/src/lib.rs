//! polyasm-core: everything dialect-agnostic.
//!
//! - [`source`]: files, the [`SourceMap`] and byte [`Span`]s.
//! - [`diagnostic`]: the one [`Diagnostic`] type, with stable codes ([`explain`]), each declared
//!   once with [`codes!`] ([`codes`](mod@codes)).
//! - [`render`]: human (ariadne), short and JSON renderers.
//! - [`object`] and [`output`]: assembled words and the writers for every output format.
//! - [`target`]: the [`Target`] trait each dialect implements (with a [`Runner`] when it runs
//!   programs), and the [`Registry`]; [`options`]: the options a target declares, read and
//!   checked into typed values.
//! - [`include`](mod@include): the loader of included files; [`stream`]: a running program's streams.
//! - [`front`]: the chunked lex-then-parse loop every dialect front end uses.
//! - [`table`](mod@table): the [`table!`] macro, one generating instruction table per dialect.
//! - [`config`](mod@config): `polyasm.toml`, the settings of a folder, found by walking up.
//! - [`fs`]: atomic writes. [`text`], [`words`], [`vertex_io`]: helpers dialects share.
//!
//! ```
//! use polyasm_core::{Diagnostic, SourceMap, Span, render::{render, ErrorFormat}};
//!
//! let mut sources = SourceMap::new();
//! let file = sources.add("demo.vu", "lod r0 0\n");
//! let diagnostic = Diagnostic::error("VU002", "unknown mnemonic `lod`")
//!     .with_primary(Span::new(file, 0, 3), "not an instruction")
//!     .with_help("did you mean `ld`?");
//! let text = render(&diagnostic, &sources, ErrorFormat::Short, false, &());
//! assert_eq!(text, "demo.vu:1:1: error[VU002]: unknown mnemonic `lod`\n");
//! ```

#![warn(missing_docs)]

pub mod codes;
pub mod config;
pub mod container;
pub mod diagnostic;
pub mod editor;
pub mod explain;
pub mod front;
pub mod fs;
pub mod half;
pub mod include;
pub mod lines;
pub mod number;
pub mod object;
pub mod options;
pub mod output;
pub mod picture;
pub mod render;
pub mod source;
pub mod stream;
pub mod table;
pub mod target;
pub mod text;
pub mod vertex_io;
pub mod words;

pub use codes::CodeInfo;
pub use config::Config;
pub use diagnostic::{Diagnostic, Label, Outcome, Severity, WarningPolicy};
pub use explain::Explain;
pub use object::{ListingEntry, Object, Symbol};
pub use options::{OptionKind, OptionSpec, TargetOptions, UsageError};
pub use output::FormatInfo;
pub use source::{LineCol, Source, SourceId, SourceMap, Span};
pub use stream::{EndState, ExitStatus, RunIo};
pub use target::{
    DisasmInput, InputEncoding, Registry, RunInfo, RunOutcome, RunOutput, Runner, Runtime, Target, TargetInfo,
};
