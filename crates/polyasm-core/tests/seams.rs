//! The seams a dialect with includes and interactive programs plugs into, proven with a tiny
//! target: includes through `IncludeLoader` with the chain in every error format, streaming
//! runs with an exit status, and binary programs found by extension.

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;

use polyasm_core::include::{IncludeLoader, Included};
use polyasm_core::render::{ErrorFormat, render};
use polyasm_core::stream::{self, ExitStatus, RunIo};
use polyasm_core::target::{DisasmInput, RunInfo, RunOutcome, RunOutput, Runner, TargetInfo};
use polyasm_core::{
    CodeInfo, Diagnostic, Object, Outcome, Registry, Severity, SourceId, SourceMap, Span, Target, TargetOptions,
    UsageError,
};

/// A target whose lines are `include NAME`, `print TEXT` (printed while assembling), `ask`
/// (prompt, read a line, echo it in capitals) and `exit N`. Its binary format (`.seamb`) is `SEAM` and the words, one byte each.
struct Seam;

static INFO: TargetInfo = TargetInfo {
    name: "seam",
    aliases: &[],
    extensions: &["seam"],
    binary_extensions: &["seamb"],
    description: "a test target",
    word_bytes: 4,
    program_limit: None,
    assemble_options: &[],
    disassemble_options: &[],
    formats: &[],
    preprocesses: false,
};

static CODES: &[CodeInfo] = &[CodeInfo {
    code: "SEAM1",
    severity: Severity::Error,
    title: "unknown line",
    explanation: "A line of the seam test target is not `include NAME`, `ask` or `exit N`.",
}];

static RUN_INFO: RunInfo = RunInfo {
    options: &[],
    needs_listing: false,
    runtimes: &[],
};

const ASK: u32 = 1000;

impl Seam {
    /// Assembles `file`'s lines into `object`, and the lines of each file it includes in place.
    fn lines(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        loader: &mut IncludeLoader,
        object: &mut Object,
        out: &mut dyn Write,
    ) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        let text = sources.get(file).text().to_string();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let body = line.trim();
            let start = offset + line.len() - line.trim_start().len();
            let span = Span::new(file, start, start + body.len());
            offset += line.len();
            if let Some(name) = body.strip_prefix("include ") {
                match loader.load(sources, span, name) {
                    Ok(Included::New(id)) => diagnostics.extend(self.lines(sources, id, loader, object, out)),
                    Ok(Included::Again { .. }) => {}
                    Err(d) => diagnostics.push(d),
                }
            } else if let Some(text) = body.strip_prefix("print ") {
                let _ = writeln!(out, "{text}");
            } else if body == "ask" {
                object.push(0, &[ASK], Some(span), None);
            } else if let Some(Ok(code)) = body.strip_prefix("exit ").map(str::parse::<u8>) {
                object.push(0, &[code.into()], Some(span), None);
            } else if !body.is_empty() {
                diagnostics.push(Diagnostic::error("SEAM1", "unknown line").with_primary(span, "here"));
            }
        }
        diagnostics
    }
}

impl Target for Seam {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        CODES
    }

    fn assemble(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        out: &mut dyn Write,
    ) -> Outcome<Object> {
        let mut loader = IncludeLoader::new(sources, file, &options.include_dirs).with_default_extension("seam");
        let mut object = Object::new(4);
        let diagnostics = self.lines(sources, file, &mut loader, &mut object, out);
        let _ = out.flush();
        Outcome::new(object, diagnostics)
    }

    fn disassemble(&self, _sources: &SourceMap, _input: &DisasmInput, _options: &TargetOptions) -> Outcome<String> {
        Outcome::ok(String::new())
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }
}

impl Runner for Seam {
    fn run_info(&self) -> &RunInfo {
        &RUN_INFO
    }

    fn plan(&self, _options: &TargetOptions) -> Result<RunOutput, UsageError> {
        Ok(RunOutput::Text)
    }

    fn run(
        &self,
        object: &Object,
        _options: &TargetOptions,
        _sources: &mut SourceMap,
        io: &mut RunIo<'_>,
    ) -> RunOutcome {
        let mut out = io::BufWriter::new(&mut *io.stdout);
        for word in object.words() {
            if word != ASK {
                return Ok(Outcome::ok(ExitStatus(word as u8)));
            }
            // The prompt is flushed before the program waits for input.
            if let Err(e) = out.write_all(b"? ").and_then(|()| out.flush()) {
                return Ok(Outcome::new(
                    ExitStatus::SUCCESS,
                    stream::stdout_failed(&e).into_iter().collect(),
                ));
            }
            let mut line = String::new();
            if let Err(e) = io.stdin.read_line(&mut line) {
                return Ok(Outcome {
                    value: Some(ExitStatus::FAILURE),
                    diagnostics: vec![stream::stdin_failed(&e)],
                });
            }
            if out.write_all(line.to_uppercase().as_bytes()).is_err() {
                break;
            }
        }
        let _ = out.flush();
        Ok(Outcome::ok(ExitStatus::SUCCESS))
    }

    fn load_program(&self, _sources: &mut SourceMap, bytes: &[u8], name: &str) -> Option<Outcome<Object>> {
        Some(match bytes.strip_prefix(b"SEAM") {
            Some(words) => {
                let words: Vec<u32> = words.iter().map(|&b| if b == b'?' { ASK } else { b.into() }).collect();
                Outcome::ok(Object::from_words(&words))
            }
            None => Outcome::failed(vec![Diagnostic::error("SEAM1", format!("{name} is not a seam binary"))]),
        })
    }
}

static SEAM: Seam = Seam;

/// Files in a temporary folder; `main` is assembled from its path as the CLI does.
struct Tree(tempfile::TempDir);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Tree(dir)
    }

    fn assemble(&self, main: &str, include_dirs: &[&str]) -> (SourceMap, Outcome<Object>) {
        let path = self.0.path().join(main);
        let mut sources = SourceMap::new();
        let file = sources
            .try_add_file(main, &path, std::fs::read_to_string(&path).unwrap())
            .unwrap();
        let options = TargetOptions {
            include_dirs: include_dirs
                .iter()
                .map(|d| self.0.path().join(d))
                .collect::<Vec<PathBuf>>(),
            ..TargetOptions::default()
        };
        let outcome = SEAM.assemble(&mut sources, file, &options, &mut io::sink());
        (sources, outcome)
    }
}

#[test]
fn included_words_land_in_place_and_each_file_is_read_once() {
    let tree = Tree::new(&[
        ("main.seam", "include lib\nexit 1\ninclude lib\ninclude main\n"),
        ("lib.seam", "exit 7\ninclude main.seam\n"),
    ]);
    let (sources, outcome) = tree.assemble("main.seam", &[]);
    assert_eq!(outcome.diagnostics, []);
    assert_eq!(outcome.value.unwrap().words().collect::<Vec<_>>(), [7, 1]);
    assert_eq!(sources.len(), 2);
}

#[test]
fn include_dirs_reach_the_target_through_the_options() {
    let tree = Tree::new(&[("src/main.seam", "include util\n"), ("lib/util.seam", "exit 3\n")]);
    let (_, outcome) = tree.assemble("src/main.seam", &[]);
    assert_eq!(
        outcome.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
        ["PA019"]
    );
    let (_, outcome) = tree.assemble("src/main.seam", &["lib"]);
    assert_eq!(outcome.value.unwrap().words().collect::<Vec<_>>(), [3]);
}

/// main.seam:2 includes a.seam, whose line 3 includes sub/b.seam, whose line 2 is wrong.
fn error_two_includes_deep() -> (SourceMap, Diagnostic) {
    let tree = Tree::new(&[
        ("main.seam", "exit 0\n  include a\n"),
        ("a.seam", "ask\n\ninclude sub/b\n"),
        ("sub/b.seam", "ask\noops\n"),
    ]);
    let (sources, outcome) = tree.assemble("main.seam", &[]);
    let [error] = <[Diagnostic; 1]>::try_from(outcome.diagnostics).unwrap();
    (sources, error)
}

#[test]
fn a_diagnostic_in_an_included_file_carries_the_chain_in_the_human_format() {
    let (sources, error) = error_two_includes_deep();
    let (_, main) = sources.iter().next().unwrap();
    let dir = main.path().unwrap().parent().unwrap().to_path_buf();
    let a = dir.join("a.seam").display().to_string();
    let text = render(&error, &sources, ErrorFormat::Human, false, &());
    assert!(text.contains("b.seam:2:1"), "{text}");
    let notes: Vec<&str> = text.lines().filter(|l| l.contains("included from")).collect();
    assert_eq!(notes.len(), 2, "{text}");
    assert!(notes[0].ends_with(&format!("included from {a}:3:1")), "{text}");
    assert!(notes[1].ends_with("included from main.seam:2:3"), "{text}");
}

#[test]
fn the_short_format_gives_each_link_its_own_line_at_the_directive() {
    let (sources, error) = error_two_includes_deep();
    let text = render(&error, &sources, ErrorFormat::Short, false, &());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with("b.seam:2:1: error[SEAM1]: unknown line"), "{text}");
    assert!(
        lines[1].contains("a.seam:3:1: note: ") && lines[1].ends_with("b.seam included from here"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("main.seam:2:3: note: ") && lines[2].ends_with("a.seam included from here"),
        "{text}"
    );
}

#[test]
fn the_json_format_gives_the_chain_as_note_children() {
    let (sources, error) = error_two_includes_deep();
    let text = render(&error, &sources, ErrorFormat::Json, false, &());
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let children: Vec<(&str, &str)> = json["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["level"].as_str().unwrap(), c["message"].as_str().unwrap()))
        .collect();
    assert_eq!(children.len(), 2, "{text}");
    assert!(children.iter().all(|(level, _)| *level == "note"));
    assert!(children[1].1 == "included from main.seam:2:3", "{text}");
    assert!(
        json["rendered"]
            .as_str()
            .unwrap()
            .contains("included from main.seam:2:3")
    );
    // The diagnostic itself is unchanged: the notes are added when rendering.
    assert!(error.notes.is_empty());
}

/// Standard output as a terminal sees it: only what was flushed.
#[derive(Clone, Default)]
struct Screen {
    shown: Rc<RefCell<Vec<u8>>>,
    pending: Vec<u8>,
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.shown.borrow_mut().append(&mut self.pending);
        Ok(())
    }
}

/// Standard input typed by someone who answers only after seeing a prompt.
struct Typist {
    screen: Rc<RefCell<Vec<u8>>>,
    answers: Vec<&'static [u8]>,
    current: &'static [u8],
}

impl Read for Typist {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Typist {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.current.is_empty() && !self.answers.is_empty() {
            assert!(
                self.screen.borrow().ends_with(b"? "),
                "asked for input before the prompt showed"
            );
            self.current = self.answers.remove(0);
        }
        Ok(self.current)
    }

    fn consume(&mut self, amount: usize) {
        self.current = &self.current[amount..];
    }
}

fn run_with(object: &Object, stdin: &mut dyn BufRead, stdout: &mut dyn Write) -> Outcome<ExitStatus> {
    let mut stderr = Vec::new();
    let mut io = RunIo {
        stdin,
        stdout,
        stderr: &mut stderr,
        files: None,
        end: None,
    };
    SEAM.run(object, &TargetOptions::default(), &mut SourceMap::new(), &mut io)
        .expect("no usage error")
}

#[test]
fn a_run_streams_input_and_output_and_returns_the_programs_exit_status() {
    let object = Object::from_words(&[ASK, ASK, 42]);
    let mut screen = Screen::default();
    let shown = screen.shown.clone();
    let mut typist = Typist {
        screen: shown.clone(),
        answers: vec![b"one\n", b"two\n"],
        current: b"",
    };
    let outcome = run_with(&object, &mut typist, &mut screen);
    assert_eq!(outcome.value, Some(ExitStatus(42)));
    screen.flush().unwrap();
    assert_eq!(String::from_utf8(shown.borrow().clone()).unwrap(), "? ONE\n? TWO\n");
}

#[test]
fn a_broken_standard_input_is_an_error_with_a_code() {
    let object = Object::from_words(&[ASK]);
    let mut closed = stream::UnreadableInput { reason: "it is closed" };
    let outcome = run_with(&object, &mut closed, &mut Vec::new());
    assert_eq!(outcome.value, Some(ExitStatus::FAILURE));
    assert_eq!(outcome.diagnostics[0].code, "PA018");
    assert!(outcome.diagnostics[0].message.contains("it is closed"));
}

#[test]
fn binary_programs_are_found_by_extension_and_loaded_instead_of_assembled() {
    let registry = Registry::new(vec![&SEAM]);
    let target = registry
        .by_path("dir/prog.SEAMB")
        .expect("binary extension selects the target");
    assert!(target.info().is_binary_path("dir/prog.SEAMB"));
    assert!(!target.info().is_binary_path("dir/prog.seam"));
    assert!(registry.by_path("prog.seam").is_some());
    let runner = target.runner().expect("seam runs");
    let object = runner
        .load_program(&mut SourceMap::new(), b"SEAM?\x05", "p.seamb")
        .unwrap();
    let object = object.value.unwrap();
    let outcome = run_with(&object, &mut &b"x\n"[..], &mut Vec::new());
    assert_eq!(outcome.value, Some(ExitStatus(5)));
    let bad = runner.load_program(&mut SourceMap::new(), b"nope", "p.seamb").unwrap();
    assert!(bad.value.is_none());
}

#[test]
fn compile_time_output_goes_to_the_writer_the_caller_gives() {
    let tree = Tree::new(&[
        ("main.seam", "print one\ninclude lib\nexit 0\n"),
        ("lib.seam", "print two\n"),
    ]);
    let path = tree.0.path().join("main.seam");
    let mut sources = SourceMap::new();
    let file = sources
        .try_add_file("main.seam", &path, std::fs::read_to_string(&path).unwrap())
        .unwrap();
    let mut printed = Vec::new();
    let outcome = SEAM.assemble(&mut sources, file, &TargetOptions::default(), &mut printed);
    assert!(outcome.value.is_some());
    assert_eq!(String::from_utf8(printed).unwrap(), "one\ntwo\n");
}
