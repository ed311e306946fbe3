//! Checking a listed source as `polyasm check` does, for the page: the terminal's report as
//! HTML, the diagnostics, the listing, and the assembled program that runs and pictures start
//! from.

use std::path::{Path, PathBuf};

use polyasm_core::config::{self, Config};
use polyasm_core::diagnostic::{Limit, within_limit};
use polyasm_core::explain::Code;
use polyasm_core::fs::{ReadError, read_regular_file_within};
use polyasm_core::render::{ErrorFormat, Renderer};
use polyasm_core::{Diagnostic, Object, Registry, Severity, SourceId, SourceMap, Target, WarningPolicy};
use serde_json::{Value, json};

use crate::html;

/// The largest source the page shows: a larger one is refused unread (`polyasm check` takes
/// it).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The most errors a report shows; the rest are counted.
pub const MAX_ERRORS: usize = 200;

/// The most rows of a listing sent to the page.
pub const MAX_LISTING_ROWS: usize = 20_000;

/// The most characters of a source line a listing row shows.
const LISTING_SOURCE_CHARS: usize = 160;

/// A source the page lists: its name (the path as the page and the diagnostics show it), where
/// it is, and its target.
#[derive(Clone)]
pub struct Listed {
    /// The path as the page and the diagnostics show it.
    pub name: String,
    /// Where the file is.
    pub path: PathBuf,
    /// The target its extension names.
    pub target: &'static dyn Target,
}

/// A program that assembled, kept to run and render: the object, its sources (runtime errors
/// point into them), and the options of its settings file.
pub struct Program {
    /// The assembled words and listing.
    pub object: Object,
    /// The source and the files it includes.
    pub sources: SourceMap,
    /// The `polyasm.toml` options for its target, as
    /// [`OptionValues::read`](polyasm_core::options::OptionValues::read) takes them.
    pub settings: Vec<(String, String)>,
}

/// A source checked: the page's `file` message (without its version), the program when it
/// assembled, and every file that was read (the source, its includes, its settings file), to
/// know when to check it again.
pub struct Checked {
    /// The page's `file` message, without its version.
    pub message: Value,
    /// The program, when it assembled.
    pub program: Option<Program>,
    /// Every file the check read: a change to one checks the source again.
    pub read: Vec<PathBuf>,
}

/// Checks `listed`.
pub fn check(registry: &Registry, listed: &Listed) -> Checked {
    let mut sources = SourceMap::new();
    let mut read = vec![canonical(&listed.path)];
    let mut diagnostics = Vec::new();
    let found = listed.path.parent().and_then(config::find);
    let settings: Option<Config> = match &found {
        Some(file) => {
            read.push(canonical(file));
            match config::load(file, registry, &mut sources) {
                Ok(config) => Some(config),
                Err(problems) => {
                    diagnostics.extend(problems);
                    None
                }
            }
        }
        None => None,
    };
    let text = read_source(&listed.path, &listed.name, &mut sources);
    let mut program = None;
    let mut hidden_errors = 0;
    let mut main = None;
    match text {
        Err(d) => diagnostics.push(d),
        Ok(text) => match sources.try_add_file(listed.name.clone(), listed.path.clone(), text) {
            Err(_) => diagnostics.push(too_large(&listed.name)),
            Ok(file) => {
                main = Some(file);
                let (outcome, hidden) = assemble(listed.target, &mut sources, file, settings.as_ref());
                hidden_errors = hidden;
                diagnostics.extend(outcome.diagnostics);
                if let Some(object) = outcome.value {
                    let pairs = settings
                        .as_ref()
                        .map(|c| c.options_for(listed.target))
                        .unwrap_or_default();
                    let settings = pairs.iter().map(|(l, t)| (l.to_string(), t.to_string())).collect();
                    program = Some((object, settings));
                }
            }
        },
    }
    read.extend(
        sources
            .iter()
            .filter(|(id, _)| Some(*id) != main)
            .filter_map(|(_, s)| s.path().map(canonical)),
    );
    read.sort();
    read.dedup();
    let ok = program.is_some() && !diagnostics.iter().any(Diagnostic::is_error);
    let message = file_message(
        registry,
        listed,
        &sources,
        main,
        &diagnostics,
        hidden_errors,
        program.as_ref().map(|(o, _)| o),
        ok,
    );
    Checked {
        message,
        program: program.filter(|_| ok).map(|(object, settings)| Program {
            object,
            sources,
            settings,
        }),
        read,
    }
}

/// `path` with links and `..` resolved; for a file that does not exist, its folder resolved
/// and its name: how a file read is named when the watcher reports a change to it.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(resolved) = std::fs::canonicalize(path) {
        return resolved;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) if !dir.as_os_str().is_empty() => canonical(dir).join(name),
        (_, Some(name)) => std::env::current_dir()
            .map(|d| d.join(name))
            .unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

/// The source's text, or why it cannot be shown.
fn read_source(path: &Path, name: &str, sources: &mut SourceMap) -> Result<String, Diagnostic> {
    match read_regular_file_within(path, MAX_SOURCE_BYTES) {
        Ok(bytes) => polyasm_core::text::source_text(sources, name, bytes),
        Err(ReadError::TooLarge) => Err(too_large(name)),
        Err(ReadError::Io(e)) => Err(Diagnostic::error(
            Code::CannotReadInput,
            format!("cannot read {name}: {}", polyasm_core::fs::reason(&e)),
        )),
    }
}

fn too_large(name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::FileTooLarge,
        format!(
            "{name} is larger than the {} MiB the page shows",
            MAX_SOURCE_BYTES >> 20
        ),
    )
    .with_help(format!("`polyasm check {name}` checks it"))
}

/// Assembles with a listing, the settings file's options and warnings applied; a panic is an
/// error, not the end of the server. Returns the outcome and the errors counted, not kept.
fn assemble(
    target: &'static dyn Target,
    sources: &mut SourceMap,
    file: SourceId,
    settings: Option<&Config>,
) -> (polyasm_core::Outcome<Object>, usize) {
    let options = settings.map(|c| c.assemble_options(target)).unwrap_or_default();
    let limit = Limit {
        errors: Some(MAX_ERRORS),
        warnings: settings
            .map(|c| c.warning_policy(&WarningPolicy::default()))
            .unwrap_or_default(),
    };
    let assembled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        within_limit(limit, || target.assemble(sources, file, &options, &mut std::io::sink()))
    }));
    match assembled {
        Ok((outcome, hidden)) => (outcome, hidden.errors),
        Err(_) => {
            let d = Diagnostic::error(
                Code::InternalError,
                format!("the {} assembler failed on this file", target.info().name),
            )
            .with_help("this is a bug in polyasm; `polyasm check` on the file shows the same");
            (polyasm_core::Outcome::failed(vec![d]), 0)
        }
    }
}

/// The page's `file` message.
#[allow(clippy::too_many_arguments)]
fn file_message(
    registry: &Registry,
    listed: &Listed,
    sources: &SourceMap,
    main: Option<SourceId>,
    diagnostics: &[Diagnostic],
    hidden_errors: usize,
    object: Option<&Object>,
    ok: bool,
) -> Value {
    let (report, items) = report(registry, sources, diagnostics, hidden_errors);
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    let (listing, listing_truncated) = match (object, main) {
        (Some(object), Some(main)) => listing(object, sources, main),
        _ => (Vec::new(), false),
    };
    json!({
        "type": "file",
        "path": listed.name,
        "target": listed.target.info().name,
        "panel": panel_of(listed.target),
        "source": main.map_or("", |id| sources.get(id).text()),
        "source_truncated": false,
        "ok": ok,
        "errors": count(Severity::Error) + hidden_errors,
        "warnings": count(Severity::Warning),
        "report": report,
        "diagnostics": items,
        "listing": listing,
        "listing_truncated": listing_truncated,
    })
}

/// The report as the terminal shows it, as HTML, and each diagnostic for the page.
pub fn report(
    registry: &Registry,
    sources: &SourceMap,
    diagnostics: &[Diagnostic],
    hidden_errors: usize,
) -> (String, Vec<Value>) {
    let renderer = Renderer::new(sources, ErrorFormat::Human, true, registry);
    let files: Vec<String> = sources.iter().map(|(_, s)| s.name().to_string()).collect();
    let mut html = String::new();
    let mut items = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        let links = html::Links {
            files: &files,
            codes: &[d.code],
        };
        html.push_str(&html::ansi_to_html(&renderer.render(d), &links));
        items.push(item(sources, d));
    }
    if hidden_errors > 0 {
        html.push_str(&html::escape(&format!(
            "… and {} not shown\n",
            polyasm_core::text::count(hidden_errors, "more error")
        )));
    }
    (html, items)
}

/// One diagnostic for the page: where its primary label (or its file) is.
fn item(sources: &SourceMap, d: &Diagnostic) -> Value {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut value = json!({"severity": severity, "code": d.code, "message": d.message});
    let place = d.primary_label().map(|l| l.span);
    if let Some(span) = place {
        let source = sources.get(span.source);
        let start = source.line_col(span.range().start);
        let end = source.line_col(span.range().end);
        value["file"] = json!(source.name());
        value["line"] = json!(start.line);
        value["column"] = json!(start.column);
        value["end_line"] = json!(end.line);
        value["end_column"] = json!(end.column);
    } else if let Some(file) = d.file {
        value["file"] = json!(sources.get(file).name());
    }
    value
}

/// The listing rows of the statements of `main`: address, words and source line.
fn listing(object: &Object, sources: &SourceMap, main: SourceId) -> (Vec<Value>, bool) {
    let digits = object.word_bytes * 2;
    let source = sources.get(main);
    let mut rows = Vec::new();
    let mut truncated = false;
    for (index, entry) in object.listing.iter().enumerate().filter(|(_, e)| e.len > 0) {
        if rows.len() == MAX_LISTING_ROWS {
            truncated = true;
            break;
        }
        let (start, len) = (entry.offset as usize, entry.len as usize);
        let words: Vec<String> = object
            .words_in(start..start + len)
            .map(|w| format!("{w:0digits$x}"))
            .collect();
        let mut row = json!({"address": entry.address, "words": words.join(" ")});
        match entry.span {
            Some(span) if span.source == main => {
                let line = source.line_index(span.range().start);
                let text: String = source
                    .line_text(line)
                    .trim()
                    .chars()
                    .take(LISTING_SOURCE_CHARS)
                    .collect();
                row["line"] = json!(line + 1);
                row["source"] = json!(text);
            }
            Some(span) => {
                let other = sources.get(span.source);
                let line = other.line_index(span.range().start);
                row["source"] = json!(format!("{}:{}", other.name(), line + 1));
            }
            None => {
                if let Some(note) = object.note(index) {
                    row["source"] = json!(note);
                }
            }
        }
        rows.push(row);
    }
    (rows, truncated)
}

/// Which panel the page shows for a target.
pub fn panel_of(target: &dyn Target) -> &'static str {
    match target.info().name {
        "shader" => "shader",
        "lima" => "lima",
        "masfix" => "masfix",
        "nv2a" | "vu" => "vertex",
        _ => "none",
    }
}
