//! `--depfile FILE`: the files an output was made from, written as a Makefile rule as
//! `cc -MD -MF FILE` writes one (`OUT: MAIN INCLUDED...`), for build systems that rebuild the
//! output when any of them changes (make, Ninja, CMake's `DEPFILE`).
//!
//! The rule is written only once the output is: both are checked before anything is read, the
//! depfile's temporary file is made after assembling and put in place after the output, so a
//! failed build leaves an existing depfile as it was.

use std::io::Write;
use std::path::Path;

use polyasm_core::explain::Code;
use polyasm_core::fs::AtomicWriter;
use polyasm_core::{Diagnostic, SourceMap};

use crate::failure::{Failure, Result};
use crate::io::{self, Input, Output};
use crate::report::Reporter;

/// A `--depfile FILE` that passed the checks made before the input is read.
pub struct Request {
    path: String,
    /// The output, as `-o` names it: the rule's target.
    output: String,
}

/// The rule, in a temporary file beside the depfile, to be put in place once the output is.
pub struct Pending {
    writer: AtomicWriter,
    path: String,
}

/// Why a path cannot be written in a rule that make, Ninja and CMake read back as that path.
#[derive(Debug, PartialEq, Eq)]
pub enum Unwritable {
    /// A line break, a tab or another control character: no escape stands for it.
    Control(char),
    /// A backslash before `#` or `:`, which reads back as an escape of that character.
    BackslashBefore(char),
    /// A backslash at the end, which reads back as escaping what follows the name.
    TrailingBackslash,
}

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unwritable::Control('\n' | '\r') => write!(f, "it holds a line break"),
            Unwritable::Control(c) => write!(f, "it holds the control character U+{:04X}", *c as u32),
            Unwritable::BackslashBefore(c) => write!(f, "a backslash comes before `{c}`"),
            Unwritable::TrailingBackslash => write!(f, "it ends with a backslash"),
        }
    }
}

/// Checks `--depfile FILE` before the input is read: it needs `-o FILE` (the rule's target),
/// must be neither the output nor the input, and the output's and the input's names must be
/// writable in the rule. All of these are usage errors.
pub fn request(depfile: Option<&str>, input: &Input, output: &Output, reporter: &Reporter) -> Result<Option<Request>> {
    let Some(path) = depfile else {
        return Ok(None);
    };
    let refuse = |diagnostic: Diagnostic| {
        reporter.usage(diagnostic);
        Err(Failure::Usage)
    };
    let Output::Path(out) = output else {
        return refuse(
            Diagnostic::error(Code::DepfileNotWritten, "`--depfile` needs an output file")
                .with_note("the depfile names the output it describes; standard output has no name")
                .with_help("name the output with `-o FILE`"),
        );
    };
    if same_destination(Path::new(path), Path::new(out)) {
        return refuse(
            Diagnostic::error(
                Code::DepfileNotWritten,
                format!("the depfile `{path}` is the output `{out}`"),
            )
            .with_help("give the depfile a name of its own, e.g. `--depfile OUT.d`"),
        );
    }
    if let Input::Path(source) = input
        && polyasm_core::fs::same_file(Path::new(path), Path::new(source))
    {
        return refuse(
            Diagnostic::error(
                Code::OutputIsInput,
                format!("the depfile `{path}` is the input `{source}`"),
            )
            .with_note("writing it would destroy the input; nothing was written")
            .with_help("choose another path for `--depfile`"),
        );
    }
    let named = std::iter::once(("output", out.as_str())).chain(match input {
        Input::Path(source) => Some(("input", source.as_str())),
        Input::Stdin => None,
    });
    for (what, name) in named {
        if let Err(why) = escape(name) {
            return refuse(
                Diagnostic::error(
                    Code::DepfileNotWritten,
                    format!(
                        "the {what} `{}` cannot be named in the depfile: {why}",
                        polyasm_core::text::escape_controls(name)
                    ),
                )
                .with_help(format!("rename the {what}, or leave `--depfile` out")),
            );
        }
    }
    Ok(Some(Request {
        path: path.to_string(),
        output: out.clone(),
    }))
}

impl Request {
    /// After assembling: the rule for the sources read (the input and each included file, in
    /// the order read), in a temporary file beside the depfile. A depfile that is an included
    /// file is PA014 (exit 2), an included file whose name cannot be written is PA030 at its
    /// directive, and a depfile that cannot be created is PA003 (exit 1).
    pub fn prepare(&self, sources: &SourceMap, reporter: &mut Reporter) -> Result<Pending> {
        let mut names: Vec<&str> = Vec::new();
        for (_, source) in sources.iter() {
            let Some(path) = source.path() else {
                continue;
            };
            if let Some(directive) = source.included_from()
                && polyasm_core::fs::same_file(Path::new(&self.path), path)
            {
                let diagnostic = Diagnostic::error(
                    Code::OutputIsInput,
                    format!("the depfile `{}` is the included file `{}`", self.path, source.name()),
                )
                .with_primary(directive, "included here")
                .with_note("writing it would destroy that file; nothing was written")
                .with_help("choose another path for `--depfile`");
                reporter.emit(vec![diagnostic], sources);
                return Err(Failure::Usage);
            }
            let name = path.to_str().expect("polyasm reads only paths made of UTF-8 text");
            if names.contains(&name) {
                continue;
            }
            if let Err(why) = escape(name) {
                let mut diagnostic = Diagnostic::error(
                    Code::DepfileNotWritten,
                    format!(
                        "the included file `{}` cannot be named in the depfile: {why}",
                        polyasm_core::text::escape_controls(name)
                    ),
                )
                .with_help("rename the file, or leave `--depfile` out");
                if let Some(directive) = source.included_from() {
                    diagnostic = diagnostic.with_primary(directive, "included here");
                }
                reporter.emit(vec![diagnostic], sources);
                return Err(Failure::Errors);
            }
            names.push(name);
        }
        let rule = make_rule(&self.output, &names).expect("every name was checked above");
        let written = AtomicWriter::create(Path::new(&self.path)).and_then(|mut writer| {
            writer.write_all(rule.as_bytes())?;
            Ok(writer)
        });
        match written {
            Ok(writer) => Ok(Pending {
                writer,
                path: self.path.clone(),
            }),
            Err(e) => {
                reporter.emit(vec![self.write_failed(&e)], sources);
                Err(Failure::Errors)
            }
        }
    }

    fn write_failed(&self, error: &std::io::Error) -> Diagnostic {
        Output::Path(self.path.clone()).write_failed(&io::io_reason(error))
    }
}

impl Pending {
    /// Puts the depfile in place; called once the output is written.
    pub fn commit(self, reporter: &mut Reporter) -> Result {
        let path = self.path;
        self.writer.commit().map_err(|e| {
            reporter.emit(
                vec![Output::Path(path).write_failed(&io::io_reason(&e))],
                &Default::default(),
            );
            Failure::Errors
        })
    }
}

/// The rule `OUTPUT: DEPENDENCY...`, one dependency a line after the first (continued with a
/// backslash), each name escaped.
pub fn make_rule(output: &str, dependencies: &[&str]) -> std::result::Result<String, Unwritable> {
    let mut rule = escape(output)?;
    rule.push(':');
    for (index, dependency) in dependencies.iter().enumerate() {
        rule.push_str(if index == 0 { " " } else { " \\\n  " });
        rule.push_str(&escape(dependency)?);
    }
    rule.push('\n');
    Ok(rule)
}

/// `path` as make, Ninja and CMake read it back: a space as `\ ` (the backslashes just before
/// it doubled), `#` as `\#`, `:` as `\:` (a Windows drive's aside) and `$` as `$$`.
pub fn escape(path: &str) -> std::result::Result<String, Unwritable> {
    let mut out = String::with_capacity(path.len());
    let mut backslashes = 0;
    for (index, c) in path.char_indices() {
        match c {
            c if c.is_control() => return Err(Unwritable::Control(c)),
            ' ' => {
                out.extend(std::iter::repeat_n('\\', backslashes + 1));
                out.push(' ');
            }
            '#' | ':' if backslashes > 0 => return Err(Unwritable::BackslashBefore(c)),
            ':' if cfg!(windows) && index == 1 && path.starts_with(|d: char| d.is_ascii_alphabetic()) => out.push(c),
            '#' | ':' => {
                out.push('\\');
                out.push(c);
            }
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    if backslashes > 0 {
        return Err(Unwritable::TrailingBackslash);
    }
    Ok(out)
}

/// Whether two paths are one file: the same existing file, or, for files not there yet, the
/// same name in the same folder (through `.`, `..`, links of the folder and a link that
/// dangles, which writing creates the target of).
fn same_destination(a: &Path, b: &Path) -> bool {
    if polyasm_core::fs::same_file(a, b) {
        return true;
    }
    let place = |path: &Path| {
        let mut path = path.to_path_buf();
        for _ in 0..40 {
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = std::fs::read_link(&path).ok()?;
                    path = match path.parent() {
                        Some(folder) => folder.join(target),
                        None => target,
                    };
                }
                _ => break,
            }
        }
        let name = path.file_name()?;
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(folder).ok()?.join(name))
    };
    matches!((place(a), place(b)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_as_make_reads_them() {
        assert_eq!(escape("lib/a.mx").unwrap(), "lib/a.mx");
        assert_eq!(escape("my lib/a b.mx").unwrap(), "my\\ lib/a\\ b.mx");
        assert_eq!(escape("a#1.mx").unwrap(), "a\\#1.mx");
        assert_eq!(escape("$HOME.mx").unwrap(), "$$HOME.mx");
        assert_eq!(escape("a\\ b").unwrap(), "a\\\\\\ b");
        assert_eq!(escape("a\\b;c(d)=e|f%g*h").unwrap(), "a\\b;c(d)=e|f%g*h");
        assert_eq!(escape("caf\u{e9} 1.mx").unwrap(), "caf\u{e9}\\ 1.mx");
        if !cfg!(windows) {
            assert_eq!(escape("C:/x:y").unwrap(), "C\\:/x\\:y");
        }
    }

    #[test]
    fn names_that_cannot_be_read_back_are_refused() {
        assert_eq!(escape("a\nb"), Err(Unwritable::Control('\n')));
        assert_eq!(escape("a\tb"), Err(Unwritable::Control('\t')));
        assert_eq!(escape("a\\#b"), Err(Unwritable::BackslashBefore('#')));
        assert_eq!(escape("a\\:b"), Err(Unwritable::BackslashBefore(':')));
        assert_eq!(escape("dir\\"), Err(Unwritable::TrailingBackslash));
        assert_eq!(Unwritable::Control('\r').to_string(), "it holds a line break");
        assert_eq!(
            Unwritable::Control('\u{7f}').to_string(),
            "it holds the control character U+007F"
        );
    }

    #[test]
    fn a_rule_lists_one_dependency_a_line() {
        assert_eq!(make_rule("out.h", &["a.mx"]).unwrap(), "out.h: a.mx\n");
        assert_eq!(make_rule("out.h", &[]).unwrap(), "out.h:\n");
        assert_eq!(
            make_rule("o ut.h", &["a.mx", "lib/b c.mx"]).unwrap(),
            "o\\ ut.h: a.mx \\\n  lib/b\\ c.mx\n"
        );
    }
}
