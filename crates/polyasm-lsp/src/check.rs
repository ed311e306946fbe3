//! Checking a document as `polyasm check` does, and the diagnostics it gives in the protocol's
//! form, grouped by the file they are in (a diagnostic in an included file is that file's).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};
use polyasm_core::config::{self, Config};
use polyasm_core::diagnostic::{Limit, within_limit};
use polyasm_core::editor::NameSink;
use polyasm_core::explain::Code;
use polyasm_core::explain::Explain;
use polyasm_core::render::{bounded, bounded_help};
use polyasm_core::{Diagnostic, Registry, Severity, SourceId, SourceMap, Target, TargetOptions, WarningPolicy};

use crate::document::{Document, Lines};
use crate::index::Index;
use crate::uri;

/// The most errors a document gets; the rest are counted in one last diagnostic.
pub const MAX_ERRORS: usize = 1000;

/// What checking a document gives: the diagnostics for every file they are in (the document
/// itself always among them), and the names it defines with the places they are written,
/// when it has a target.
pub struct Checked {
    pub files: BTreeMap<String, Vec<lsp_types::Diagnostic>>,
    pub index: Option<Index>,
    /// What the document went by: its target and settings, which the requests about it use
    /// until it is checked again.
    pub named: Named,
}

/// The open documents by their file's canonical path, with the URI the client gave each: a
/// file the check reads (an include) is named by the client's URI when it is open.
pub type OpenFiles = std::collections::HashMap<PathBuf, Uri>;

/// The canonical path of `path` (links and `..` resolved), or `path` made absolute when it
/// does not exist: the key of [`OpenFiles`].
pub fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| absolute(path))
}

/// Checks `doc`, the document at `uri`, as `polyasm check` does.
pub fn check(registry: &Registry, uri: &Uri, doc: &Document, open: &OpenFiles) -> Checked {
    let mut files = BTreeMap::new();
    let named = Named::new(registry, uri);
    let index = diagnose(registry, &named, uri, doc, open, &mut files);
    Checked { files, index, named }
}

/// The listing of `doc`: for each statement that produced words, where its text ends, and its
/// address and words (`@3: 0x1234abcd 0x00000001`); empty when it does not assemble.
pub fn listing(named: &Named, doc: &Document) -> Vec<(lsp_types::Position, String)> {
    let Some(Assembled { file, outcome, .. }) = assemble(named, doc, named.options(false, None), Limit::default())
    else {
        return Vec::new();
    };
    let Some(object) = outcome.value else {
        return Vec::new();
    };
    let digits = object.word_bytes * 2;
    object
        .listing
        .iter()
        .filter(|entry| entry.len > 0)
        .filter_map(|entry| {
            let span = entry.span.filter(|span| span.source == file)?;
            let (start, len) = (entry.offset as usize, entry.len as usize);
            let words: Vec<String> = object
                .words_in(start..start + len)
                .map(|word| format!("{word:#0width$x}", width = digits + 2))
                .collect();
            let at = doc.lines.position(&doc.text, span.range().end);
            Some((at, format!("@{}: {}", entry.address, words.join(" "))))
        })
        .collect()
}

/// Fills `files` with the diagnostics; returns the names declared.
fn diagnose(
    registry: &Registry,
    named: &Named,
    uri: &Uri,
    doc: &Document,
    open: &OpenFiles,
    files: &mut BTreeMap<String, Vec<lsp_types::Diagnostic>>,
) -> Option<Index> {
    files.insert(uri.as_str().to_string(), Vec::new());
    if let Some(path) = &named.bad_config {
        config_diagnostics(registry, path, open, files);
    }
    if named.target.is_none() {
        let known = registry.names().join(", ");
        let d = lsp_types::Diagnostic {
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String(Code::UnknownTarget.as_str().to_string())),
            code_description: code_description(registry, Code::UnknownTarget.as_str()),
            source: Some("polyasm".to_string()),
            message: format!(
                "cannot tell the target of `{}` from its extension\nhelp: polyasm checks files with the extensions of its targets: {known}",
                named.name
            ),
            ..lsp_types::Diagnostic::default()
        };
        files.entry(uri.as_str().to_string()).or_default().push(d);
        return None;
    }
    // Diagnostics and names are wanted: no listing.
    let names = NameSink::new();
    let options = named.options(true, Some(names.clone()));
    let limit = Limit {
        errors: Some(MAX_ERRORS),
        ..Limit::default()
    };
    let Assembled {
        sources,
        file,
        mut outcome,
        hidden,
    } = assemble(named, doc, options, limit)?;
    if let Some(config) = &named.config {
        config
            .warning_policy(&WarningPolicy::default())
            .apply(&mut outcome.diagnostics);
    }
    let mut lines: BTreeMap<SourceId, Lines> = BTreeMap::new();
    let mut converted = Converter {
        registry,
        sources: &sources,
        main: file,
        main_uri: uri,
        open,
        lines: &mut lines,
    };
    let index = Index::new(names.take(), &sources, |span| converted.location(span));
    for d in &outcome.diagnostics {
        let (at, diagnostic) = converted.diagnostic(d);
        files.entry(at).or_default().push(diagnostic);
    }
    if hidden.errors > 0 {
        files
            .entry(uri.as_str().to_string())
            .or_default()
            .push(more_errors(hidden.errors));
    }
    Some(index)
}

/// Adds the diagnostics of the polyasm.toml at `path`, which does not read, to `files`, for
/// that file (those with no place at its start), at most [`MAX_ERRORS`] and then their count.
/// The document is checked as if it had none.
fn config_diagnostics(
    registry: &Registry,
    path: &Path,
    open: &OpenFiles,
    files: &mut BTreeMap<String, Vec<lsp_types::Diagnostic>>,
) {
    let mut sources = SourceMap::new();
    let Err(problems) = config::load(path, registry, &mut sources) else {
        return;
    };
    let Some(toml_uri) = uri::from_path(&file_key(path)) else {
        return;
    };
    let toml_uri = open.get(&file_key(path)).cloned().unwrap_or(toml_uri);
    // A file that could not be read is not in the map: a stand-in names it.
    let first = sources.iter().next().map(|(id, _)| id);
    let main = match first {
        Some(id) => id,
        None => sources.add(path.display().to_string(), String::new()),
    };
    let mut lines = BTreeMap::new();
    let mut converted = Converter {
        registry,
        sources: &sources,
        main,
        main_uri: &toml_uri,
        open,
        lines: &mut lines,
    };
    let own = files.entry(toml_uri.as_str().to_string()).or_default();
    for d in problems.iter().take(MAX_ERRORS) {
        own.push(converted.diagnostic(d).1);
    }
    if problems.len() > MAX_ERRORS {
        own.push(more_errors(problems.len() - MAX_ERRORS));
    }
}

/// The diagnostic that counts the errors past [`MAX_ERRORS`].
fn more_errors(count: usize) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("polyasm".to_string()),
        message: format!("{count} more errors not shown"),
        ..lsp_types::Diagnostic::default()
    }
}

/// What a document goes by: its path for a `file:` URI (else the URI itself) as its name, the
/// `polyasm.toml` above it, and the target that file or its extension names, as on the
/// command line.
#[derive(Clone)]
pub struct Named {
    pub path: Option<PathBuf>,
    pub name: String,
    pub target: Option<&'static dyn Target>,
    /// The settings of its folder, when a polyasm.toml is found and reads.
    pub config: Option<Config>,
    /// The polyasm.toml found when it does not read.
    pub bad_config: Option<PathBuf>,
}

impl Named {
    pub fn new(registry: &Registry, uri: &Uri) -> Named {
        let path = uri::to_path(uri.as_str());
        let name = path
            .as_ref()
            .map_or_else(|| uri.as_str().to_string(), |p| p.display().to_string());
        let found = path.as_deref().and_then(Path::parent).and_then(config::find);
        let (config, bad_config) = match found {
            Some(file) => match config::load(&file, registry, &mut SourceMap::new()) {
                Ok(config) => (Some(config), None),
                Err(_) => (None, Some(file)),
            },
            None => (None, None),
        };
        let target = match (&config, &path) {
            (Some(config), Some(path)) => config.target_for(registry, path),
            _ => registry.by_path(&name),
        };
        Named {
            path,
            name,
            target,
            config,
            bad_config,
        }
    }

    /// The options of assembling it: its polyasm.toml's for its target and include folders.
    pub fn options(&self, skip_listing: bool, names: Option<NameSink>) -> TargetOptions {
        let settings = self.config.as_ref().zip(self.target);
        TargetOptions {
            skip_listing,
            names,
            ..settings.map(|(c, t)| c.assemble_options(t)).unwrap_or_default()
        }
    }

    /// The folders its includes are looked for in besides its own: its polyasm.toml's.
    pub fn include_dirs(&self) -> &[PathBuf] {
        self.config.as_ref().map_or(&[], |c| c.include_dirs.as_slice())
    }
}

/// A document assembled: the map of its sources (its includes too), its id there, and the
/// outcome with what the limit counted instead of keeping.
struct Assembled {
    sources: SourceMap,
    file: SourceId,
    outcome: polyasm_core::Outcome<polyasm_core::Object>,
    hidden: polyasm_core::diagnostic::Hidden,
}

/// Assembles `doc` as `polyasm check` does, what the program prints going nowhere; `None`
/// when it has no target, its text is too large, or the dialect panicked (a bug, logged: the
/// server goes on serving the other documents).
fn assemble(named: &Named, doc: &Document, options: TargetOptions, limit: Limit) -> Option<Assembled> {
    let target = named.target?;
    let mut sources = SourceMap::new();
    let added = match &named.path {
        Some(path) => sources.try_add_file(named.name.clone(), path.clone(), doc.text.clone()),
        None => sources.try_add(named.name.clone(), doc.text.clone()),
    };
    let file = added.ok()?;
    let assembled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        within_limit(limit, || {
            target.assemble(&mut sources, file, &options, &mut std::io::sink())
        })
    }));
    let Ok((outcome, hidden)) = assembled else {
        eprintln!("polyasm lsp: assembling {} panicked", named.name);
        return None;
    };
    Some(Assembled {
        sources,
        file,
        outcome,
        hidden,
    })
}

/// Turns polyasm's diagnostics into the protocol's, with the line tables of the files met.
struct Converter<'a> {
    registry: &'a Registry,
    sources: &'a SourceMap,
    main: SourceId,
    main_uri: &'a Uri,
    open: &'a OpenFiles,
    lines: &'a mut BTreeMap<SourceId, Lines>,
}

impl Converter<'_> {
    /// Whether a fix replaces what it means to: a word by a word (a name put where a
    /// bracketed or built name stood would write over more than the mistake).
    fn fix_fits(&self, fix: &polyasm_core::diagnostic::Fix) -> bool {
        let text = self.sources.get(fix.span.source).text();
        let Some(replaced) = text.get(fix.span.range()) else {
            return false;
        };
        let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || "_.$^#%:".contains(c));
        !word(&fix.replacement) || word(replaced)
    }

    /// The URI of a source: the document's own, or the file an include read.
    fn uri(&self, id: SourceId) -> Option<Uri> {
        if id == self.main {
            return Some(self.main_uri.clone());
        }
        let path = self.sources.get(id).path()?;
        let key = file_key(path);
        match self.open.get(&key) {
            Some(uri) => Some(uri.clone()),
            None => uri::from_path(&key),
        }
    }

    fn location(&mut self, span: polyasm_core::Span) -> Option<Location> {
        let uri = self.uri(span.source)?;
        Some(Location::new(uri, self.range(span.source, span.range())))
    }

    fn range(&mut self, id: SourceId, bytes: std::ops::Range<usize>) -> lsp_types::Range {
        let text = self.sources.get(id).text();
        let lines = self.lines.entry(id).or_insert_with(|| Lines::new(text));
        lines.range(text, bytes)
    }

    /// The URI of the file a diagnostic is in, and the diagnostic.
    fn diagnostic(&mut self, d: &Diagnostic) -> (String, lsp_types::Diagnostic) {
        let primary = d.primary_label().map(|label| label.span);
        let source = primary.map(|span| span.source).or(d.file).unwrap_or(self.main);
        // A diagnostic in a file with no URI (a built-in text) is shown where it was included.
        let (at, range) = match (self.uri(source), primary) {
            (Some(uri), Some(span)) => (uri, self.range(span.source, span.range())),
            (Some(uri), None) => (uri, lsp_types::Range::default()),
            (None, _) => {
                let from = self
                    .sources
                    .include_chain(source)
                    .find(|span| self.uri(span.source).is_some());
                match from {
                    Some(span) => (
                        self.uri(span.source).expect("found with one"),
                        self.range(span.source, span.range()),
                    ),
                    None => (self.main_uri.clone(), lsp_types::Range::default()),
                }
            }
        };
        // Bounded as the terminal shows them: a quoted word of a megabyte is cut.
        let mut message = bounded(&d.message).into_owned();
        for note in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(&bounded(note));
        }
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(&bounded_help(help));
        }
        let mut related = Vec::new();
        for label in d.labels.iter().filter(|l| !l.primary) {
            if let Some(location) = self.location(label.span) {
                related.push(DiagnosticRelatedInformation {
                    location,
                    message: label.message.clone(),
                });
            }
        }
        if let Some(label) = d.primary_label().filter(|l| !l.message.is_empty()) {
            // The primary label's text, where the editor shows related lines.
            if let Some(location) = self.location(label.span) {
                related.insert(
                    0,
                    DiagnosticRelatedInformation {
                        location,
                        message: label.message.clone(),
                    },
                );
            }
        }
        for span in self.sources.include_chain(source).collect::<Vec<_>>() {
            if let Some(location) = self.location(span) {
                related.push(DiagnosticRelatedInformation {
                    location,
                    message: "included from here".to_string(),
                });
            }
        }
        // The fix travels in `data`, which the client hands back with a code action request.
        let data = d.fix.as_ref().filter(|fix| self.fix_fits(fix)).and_then(|fix| {
            let location = self.location(fix.span)?;
            Some(serde_json::json!({ "fix": { "uri": location.uri, "range": location.range, "newText": fix.replacement } }))
        });
        let diagnostic = lsp_types::Diagnostic {
            data,
            range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.to_string())),
            code_description: code_description(self.registry, d.code),
            source: Some("polyasm".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..lsp_types::Diagnostic::default()
        };
        (at.as_str().to_string(), diagnostic)
    }
}

/// Where a code is explained: its section of docs/codes/<target>.md in the repository, as
/// `polyasm explain CODE` prints it.
fn code_description(registry: &Registry, code: &str) -> Option<CodeDescription> {
    let info = registry.explain(code)?;
    let core = Code::table().iter().any(|c| c.code == code);
    let file = match core {
        true => "core",
        false => {
            registry
                .targets()
                .iter()
                .find(|t| t.codes().iter().any(|c| c.code == code))?
                .info()
                .name
        }
    };
    let heading = format!("{code}: {}", info.title);
    // The anchor of a heading: its letters, digits, `-` and `_` in lower case, spaces as `-`.
    let anchor: String = heading
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c.to_ascii_lowercase() })
        .collect();
    let repository = env!("CARGO_PKG_REPOSITORY");
    let href = format!("{repository}/blob/main/docs/codes/{file}.md#{anchor}")
        .parse()
        .ok()?;
    Some(CodeDescription { href })
}

/// `path` made absolute against the current folder, for its URI.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
