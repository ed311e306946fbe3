//! The builder: what to assemble and how, and the assembled output.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use polyasm_core::explain::Code;
use polyasm_core::options::OptionValues;
use polyasm_core::output::{self, OutputContext};
use polyasm_core::{Diagnostic, FormatInfo, SourceMap, Target, TargetOptions, WarningPolicy};

use crate::cargo::{self, CargoLines};
use crate::error::Error;
use crate::format::Format;
use crate::package::Package;
use crate::targets::{known_targets_help, registry};

/// Starts assembling the source at `source`: a path relative to the package (the folder of
/// its Cargo.toml), or an absolute one. Nothing happens until [`Assemble::run`],
/// [`Assemble::out_dir`], [`Assemble::into_dir`] or [`Assemble::to`].
pub fn assemble(source: impl AsRef<Path>) -> Assemble<'static> {
    Assemble {
        settings: Settings {
            source: source.as_ref().to_path_buf(),
            target: None,
            format: Format::Bin,
            include_dirs: Vec::new(),
            options: Vec::new(),
            warnings: Vec::new(),
            array_name: None,
            manifest_dir: None,
            outside_package: false,
        },
        messages: Box::new(std::io::stdout()),
    }
}

/// How to assemble one source, set with its methods; made by [`assemble`].
#[must_use = "nothing is assembled until `run`, `out_dir`, `into_dir` or `to`"]
pub struct Assemble<'w> {
    settings: Settings,
    messages: Box<dyn Write + 'w>,
}

/// What an [`Assemble`] was told, without the writer of Cargo's lines.
#[derive(Debug)]
struct Settings {
    source: PathBuf,
    target: Option<String>,
    format: Format,
    include_dirs: Vec<PathBuf>,
    options: Vec<(String, String)>,
    warnings: Vec<String>,
    array_name: Option<String>,
    manifest_dir: Option<PathBuf>,
    outside_package: bool,
}

impl fmt::Debug for Assemble<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.settings.fmt(f)
    }
}

impl<'w> Assemble<'w> {
    /// The target by name or alias (`nv2a`, `vu`, `masfix`, `shader`, `lima`), instead of the
    /// one the source's extension selects.
    pub fn target(mut self, name: &str) -> Self {
        self.settings.target = Some(name.to_string());
        self
    }

    /// The output format; [`Format::Bin`] unless set. A name converts: `.format("vshinc")`.
    pub fn format(mut self, format: impl Into<Format>) -> Self {
        self.settings.format = format.into();
        self
    }

    /// A folder to look for included files in (after the including file's folder and the
    /// main file's), like `polyasm -I DIR`; relative to the package. Repeatable: folders are
    /// searched in the order given.
    pub fn include_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.settings.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// A target option, as `polyasm --NAME VALUE` gives it (`.option("explicit-final", "")`
    /// for a flag); `polyasm --help` lists each target's options.
    pub fn option(mut self, name: &str, value: &str) -> Self {
        let name = name.trim_start_matches('-').to_string();
        self.settings.options.push((name, value.to_string()));
        self
    }

    /// What to do with warnings, as `polyasm -W VALUE`: `error` makes every warning an error,
    /// `error=CODE` one of them, `no-CODE` silences one. Repeatable.
    pub fn warnings(mut self, value: &str) -> Self {
        self.settings.warnings.push(value.to_string());
        self
    }

    /// The name of the array the `c` and `rust` formats write (`polyasm --name`); by default
    /// it comes from the source's file name.
    pub fn array_name(mut self, name: &str) -> Self {
        self.settings.array_name = Some(name.to_string());
        self
    }

    /// The package's folder, which relative paths start from and every file read must be
    /// under; by default `CARGO_MANIFEST_DIR`, which Cargo sets for build scripts (or the
    /// current folder without it).
    pub fn manifest_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.settings.manifest_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Allows reading files outside the package: the source, include folders and included
    /// files. Cargo does not publish those files, so a package that uses this builds only
    /// where they are (in its repository, say).
    pub fn allow_outside_package(mut self) -> Self {
        self.settings.outside_package = true;
        self
    }

    /// Where Cargo's lines (`cargo:rerun-if-changed=`, `cargo:warning=`) go: standard output
    /// unless set, which is where Cargo reads them from a build script.
    pub fn messages_to<'v>(self, out: impl Write + 'v) -> Assemble<'v> {
        Assemble {
            settings: self.settings,
            messages: Box::new(out),
        }
    }

    /// Assembles and writes the output to `$OUT_DIR/<stem>.<ext>` (the source's file name
    /// with the format's extension, as [`Assembled::file_name`] says); returns its path.
    pub fn out_dir(self) -> Result<PathBuf, Error> {
        match std::env::var_os("OUT_DIR") {
            Some(dir) => self.into_dir(dir),
            None => {
                let diagnostic = Diagnostic::error(Code::CannotWriteOutput, "OUT_DIR is not set")
                    .with_note("Cargo sets it for build scripts")
                    .with_help("outside a build script, write the output with `to(PATH)` or `into_dir(DIR)`");
                Err(CargoLines::new(self.messages).report(diagnostic))
            }
        }
    }

    /// Assembles and writes the output into the folder `dir` (created if needed), named as
    /// [`Assemble::out_dir`] names it; returns its path.
    pub fn into_dir(self, dir: impl AsRef<Path>) -> Result<PathBuf, Error> {
        let dir = dir.as_ref().to_path_buf();
        let (mut cargo, assembled) = self.start();
        let assembled = assembled?;
        let path = dir.join(assembled.file_name());
        assembled.write_reported(&path, &mut cargo)
    }

    /// Assembles and writes the output to `path` (a relative path is inside `OUT_DIR`, or the
    /// current folder where `OUT_DIR` is not set; its folder is created if needed); returns
    /// the path written.
    pub fn to(self, path: impl AsRef<Path>) -> Result<PathBuf, Error> {
        let path = match (path.as_ref().is_relative(), std::env::var_os("OUT_DIR")) {
            (true, Some(dir)) => PathBuf::from(dir).join(path),
            _ => path.as_ref().to_path_buf(),
        };
        let (mut cargo, assembled) = self.start();
        assembled?.write_reported(&path, &mut cargo)
    }

    /// Assembles without writing a file: the output's bytes and the files read.
    pub fn run(self) -> Result<Assembled, Error> {
        self.start().1
    }

    /// Assembles, and keeps Cargo's lines for the output's write to add to.
    fn start(self) -> (CargoLines<'w>, Result<Assembled, Error>) {
        let mut cargo = CargoLines::new(self.messages);
        let result = self.settings.assemble(&mut cargo);
        cargo.flush();
        (cargo, result)
    }
}

impl Settings {
    fn assemble(self, cargo: &mut CargoLines) -> Result<Assembled, Error> {
        let package = Package::new(match &self.manifest_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from),
        });
        let source = package.resolve(&self.source);
        cargo.rerun_if_changed(&source);
        let usage = self.usage_checks(&package).map_err(|d| cargo.report(d))?;
        let name = source.to_string_lossy().into_owned();
        let mut sources = SourceMap::new();
        let options = TargetOptions {
            skip_listing: !usage.format.listing,
            include_dirs: self.include_dirs.iter().map(|d| package.resolve(d)).collect(),
            values: usage.options,
            ..TargetOptions::default()
        };
        let object = polyasm_core::fs::read_source(&mut sources, &name, &source).map(|file| {
            // What a program prints while it assembles goes to standard error: standard output
            // is Cargo's.
            let mut outcome = usage
                .target
                .assemble(&mut sources, file, &options, &mut std::io::stderr());
            for (_, included) in sources.iter().filter(|(_, s)| s.included_from().is_some()) {
                if let Some(path) = included.path() {
                    cargo.rerun_if_changed(path);
                }
            }
            if !self.outside_package {
                outcome.diagnostics.extend(package.included_outside(&sources));
            }
            outcome
        });
        let outcome = match object {
            Ok(outcome) => outcome,
            Err(diagnostic) => polyasm_core::Outcome::failed(vec![diagnostic]),
        };
        let mut diagnostics = outcome.diagnostics;
        usage.warnings.apply(&mut diagnostics);
        let short = cargo::short_renderer(&sources, registry());
        for diagnostic in &diagnostics {
            cargo.diagnostic(diagnostic, &short);
        }
        let object = match outcome.value {
            Some(object) if !diagnostics.iter().any(Diagnostic::is_error) => object,
            _ => return Err(Error::assembly(&diagnostics, &sources, &name)),
        };
        let symbol = match self.array_name {
            Some(name) => name,
            None => output::symbol_from_name(&name),
        };
        let ctx = OutputContext {
            sources: &sources,
            target: usage.target.info().name,
            input_name: &name,
            symbol: &symbol,
        };
        let bytes = match output::write_standard(usage.format.name, &object, &ctx) {
            Some(bytes) => bytes.into_owned(),
            None => match usage.target.write_format(usage.format.name, &object, &sources) {
                Some(Ok(bytes)) => bytes,
                Some(Err(diagnostic)) => {
                    cargo.diagnostic(&diagnostic, &short);
                    return Err(Error::assembly(&[diagnostic], &sources, &name));
                }
                None => unreachable!("invariant: every format a target lists has a writer"),
            },
        };
        Ok(Assembled {
            bytes,
            files: sources
                .iter()
                .filter_map(|(_, s)| s.path().map(Path::to_path_buf))
                .collect(),
            target: usage.target.info().name,
            file_name: file_name(&self.source, usage.format),
            executable: usage.format.executable,
        })
    }

    /// The target, format, options and warning policy, and the folders given, checked before
    /// anything is read: the errors `polyasm` reports as usage errors.
    fn usage_checks(&self, package: &Package) -> Result<Usage, Diagnostic> {
        let registry = registry();
        let mut warnings = WarningPolicy::default();
        for value in &self.warnings {
            warnings
                .add(value)
                .and_then(|()| warnings.check_codes(|code| registry.is_warning(code)))
                .map_err(|message| {
                    Diagnostic::error(Code::InvalidWarningOption, message)
                        .with_help("`polyasm explain` lists every code")
                })?;
        }
        let target = match &self.target {
            Some(name) => registry.by_name(name).ok_or_else(|| {
                Diagnostic::error(Code::UnknownTarget, format!("unknown target `{name}`"))
                    .with_help(known_targets_help("targets are"))
            })?,
            None => registry.by_path(&self.source.to_string_lossy()).ok_or_else(|| {
                Diagnostic::error(
                    Code::UnknownTarget,
                    format!(
                        "cannot tell the target of `{}` from its extension",
                        self.source.display()
                    ),
                )
                .with_help(known_targets_help("name one with `.target(NAME)`"))
            })?,
        };
        let name = target.info().name;
        let format = target.formats().find(|f| f.name == self.format.name()).ok_or_else(|| {
            let names: Vec<&str> = target.formats().map(|f| f.name).collect();
            Diagnostic::error(
                Code::UnknownFormat,
                format!("unknown output format `{}` for target {name}", self.format.name()),
            )
            .with_help(format!("formats are: {}", names.join(", ")))
        })?;
        if let Some(array) = &self.array_name
            && !output::is_array_name(array)
        {
            return Err(Diagnostic::error(
                Code::InvalidArrayName,
                format!("array name {array:?} is not a valid array name"),
            )
            .with_note("the name must be an identifier in C, C++ and Rust, and not a keyword or a name they reserve")
            .with_help(format!("try `array_name({:?})`", output::array_name_from(array))));
        }
        let specs = target.info().assemble_options;
        if let Some((option, _)) = self.options.iter().find(|(o, _)| !specs.iter().any(|s| s.long == o)) {
            let names: Vec<String> = specs.iter().map(|s| format!("`{}`", s.long)).collect();
            let takes = match names.is_empty() {
                true => format!("target {name} takes no option"),
                false => format!("target {name} takes {}", names.join(", ")),
            };
            return Err(Diagnostic::error(
                Code::RunOptionNotForTarget,
                format!("target {name} does not take option `{option}`"),
            )
            .with_help(takes));
        }
        let given: Vec<(&str, &str)> = self.options.iter().map(|(o, v)| (o.as_str(), v.as_str())).collect();
        let options = OptionValues::read(&[specs], &given).map_err(|usage| *usage.0)?;
        if !self.outside_package && !package.holds(&self.source) {
            return Err(package.outside("the source", &self.source));
        }
        for dir in &self.include_dirs {
            let resolved = package.resolve(dir);
            let problem = match std::fs::metadata(&resolved) {
                Ok(meta) if meta.is_dir() => None,
                Ok(_) => Some("is not a folder".to_string()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("does not exist".to_string()),
                Err(e) => Some(format!("cannot be read: {}", polyasm_core::fs::reason(&e))),
            };
            if let Some(problem) = problem {
                return Err(Diagnostic::error(
                    Code::IncludeFolderMissing,
                    format!("include folder `{}` {problem}", resolved.display()),
                )
                .with_help("correct the path given to `include_dir`, or leave it out"));
            }
            if !self.outside_package && !package.holds(dir) {
                return Err(package.outside("include folder", dir));
            }
        }
        Ok(Usage {
            target,
            format,
            options,
            warnings,
        })
    }
}

/// What [`Settings::usage_checks`] found.
struct Usage {
    target: &'static dyn Target,
    format: &'static FormatInfo,
    options: OptionValues,
    warnings: WarningPolicy,
}

/// The output's file name: the source's stem with the format's extension (the first the
/// format lists), or with this system's extension of programs for a format that writes one.
fn file_name(source: &Path, format: &FormatInfo) -> String {
    let stem = source
        .file_stem()
        .map_or_else(|| "program".to_string(), |s| s.to_string_lossy().into_owned());
    match (format.executable, format.extensions.first()) {
        (true, _) => format!("{stem}{}", std::env::consts::EXE_SUFFIX),
        (false, Some(ext)) => format!("{stem}.{ext}"),
        (false, None) => format!("{stem}.{}", format.name),
    }
}

/// An assembled program: its output's bytes, and what it was made from.
#[derive(Clone, Debug)]
pub struct Assembled {
    bytes: Vec<u8>,
    files: Vec<PathBuf>,
    target: &'static str,
    file_name: String,
    executable: bool,
}

impl Assembled {
    /// The output, in the format asked for.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The output, taken.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Every file read: the source, then each included file in the order it was read.
    pub fn files_read(&self) -> &[PathBuf] {
        &self.files
    }

    /// The target that assembled it (its canonical name, e.g. `nv2a`).
    pub fn target(&self) -> &'static str {
        self.target
    }

    /// The name [`Assemble::out_dir`] gives the output: `x.vsh` in the `bin` format is
    /// `x.bin`, in `c` `x.c`, in `rust` `x.rs`.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// Writes the output to `path` atomically (its folder is created if needed), unless the
    /// file already holds these bytes; returns the path.
    pub fn write(&self, path: &Path) -> Result<PathBuf, Error> {
        self.write_checked(path).map_err(Error::usage)
    }

    /// [`Assembled::write`], with its error on Cargo's lines too.
    fn write_reported(&self, path: &Path, cargo: &mut CargoLines) -> Result<PathBuf, Error> {
        let written = self.write_checked(path).map_err(|d| cargo.report(d));
        cargo.flush();
        written
    }

    fn write_checked(&self, path: &Path) -> Result<PathBuf, Diagnostic> {
        let failed = |e: &std::io::Error| {
            Diagnostic::error(
                Code::CannotWriteOutput,
                format!("cannot write {}: {}", path.display(), polyasm_core::fs::reason(e)),
            )
            .with_note("the destination was left as it was")
        };
        if let Some(file) = self.files.iter().find(|f| polyasm_core::fs::same_file(path, f)) {
            return Err(Diagnostic::error(
                Code::OutputIsInput,
                format!("the output `{}` is the input `{}`", path.display(), file.display()),
            )
            .with_note("writing it would destroy the input; nothing was written")
            .with_help("choose another output path"));
        }
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| failed(&e))?;
        }
        if std::fs::read(path).is_ok_and(|old| old == self.bytes) {
            return Ok(path.to_path_buf());
        }
        let write = match self.executable {
            true => polyasm_core::fs::write_atomic_executable,
            false => polyasm_core::fs::write_atomic,
        };
        write(path, &self.bytes).map_err(|e| failed(&e))?;
        Ok(path.to_path_buf())
    }
}
