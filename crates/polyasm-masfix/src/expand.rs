//! The macro system: tokens in, tokens out, before lines are parsed. Directives start with `%`
//! (or `!` for a compile-time call):
//!
//! - `%define NAME value`: a constant, a number or character (or a token list that expands to
//!   one); `%NAME` stands for it.
//! - `%macro name(a, b) { body }`: `%name(x, y)` stands for the body, each `%a` in it replaced
//!   by its argument; arguments are expanded first, where the use is; the body is expanded in
//!   the namespace the macro was defined in.
//! - `%namespace ns { ... }`, `%ns:inner:name`, `%using ns`.
//! - `%include "file"`: the file's code comes before the including file's (`.mx` implied).
//! - `!name(args)`: the body is expanded, assembled and run on the compile-time machine, whose
//!   memory, `h` and `r` persist from call to call; the use is replaced by `r` in decimal.
//!
//! A name may be built from pieces: a bracket group right after `%` or `!` is expanded and the
//! text of its pieces joined is the name (`%(%prefix)` with `%define prefix 3` names `%3`). Every expansion is recorded, so that an error in a
//! body can name the chain of uses that led to it. Expansion depth, the number of tokens made
//! and compile-time steps are bounded, and each bound is an error with a code.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;

use polyasm_core::editor::NameSink;
use polyasm_core::include::{IncludeLoader, Included};
use polyasm_core::text::SuggestionBudget;
use polyasm_core::{Severity, SourceMap, Span};

use crate::error::{Code, MxError};
use crate::expansions::Expansions;
use crate::found::Found;
use crate::lexer::{DIRECTIVES, NO_EXPANSION, SOURCE_TEXT, Tok, Token, is_label_name};
use crate::limits::Limits;
use crate::ops::Kind;

/// Stack left below which expansion continues on a new segment, and that segment's size.
const STACK_RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// Where the texts of tokens are: a file's tokens in their sources, made tokens in the
/// expander's table ([`Token::text`]).
#[derive(Clone, Copy)]
pub struct TokenText<'a> {
    /// The sources a file's tokens are read from, by their spans.
    pub sources: &'a SourceMap,
    made: &'a [String],
}

impl<'a> TokenText<'a> {
    /// The text of a token.
    pub fn get(&self, token: &Token) -> &'a str {
        match token.text {
            SOURCE_TEXT => &self.sources.get(token.span.source).text()[token.span.range()],
            i => &self.made[i as usize],
        }
    }
}

/// Compile-time code, assembled and run: what the expander's runner gives back.
pub enum CompileTimeRun {
    /// The code does not assemble: its errors (warnings among them), each with the expansion
    /// it arose in.
    NotAssembled(Vec<(MxError, u32)>),
    /// The code assembled, with these warnings, and ran: `r` afterwards, or the error that
    /// stopped it.
    Ran {
        /// The assembly's warnings, each with the expansion it arose in.
        warnings: Vec<(MxError, u32)>,
        /// `r` when the program ended, or the run's error as a diagnostic.
        result: Result<u16, MxError>,
    },
}

/// How compile-time code runs. The expander never assembles: it hands the tokens of a
/// compile-time body (and, when the body jumps to labels it does not define, the body followed
/// by the program made so far) to the runner it is given, which the driver implements.
pub trait CompileTime {
    /// Assembles `code`, lines of expanded tokens whose texts `text` gives, for the call at
    /// `at`, and runs it on the compile-time machine, whose state persists from call to call.
    fn run(&mut self, code: &[Token], text: TokenText<'_>, at: Span) -> CompileTimeRun;
}

#[derive(Default)]
struct Namespace {
    /// Its path from the root (`outer:inner`; empty for the root).
    path: String,
    /// Its name where it was first opened.
    opened: Option<Span>,
    parent: Option<usize>,
    /// How many namespaces enclose it.
    depth: usize,
    children: HashMap<String, usize>,
    defines: HashMap<String, (Token, Span)>,
    /// Constants whose definition failed (reported): a use of one is no further error.
    failed: HashSet<String>,
    macros: HashMap<String, usize>,
    usings: Vec<usize>,
    used: HashSet<usize>,
}

struct MacroDef {
    /// The name in its definition.
    span: Span,
    params: Rc<[String]>,
    /// The body is `tokens[body]`: a macro defined in another's body shares that body's
    /// tokens instead of copying them, so that definitions nested n deep cost O(n), not n²/2.
    tokens: Rc<[Token]>,
    body: Range<usize>,
    namespace: usize,
}

/// Where tokens are being expanded: the namespace names are looked up in, the arguments of
/// the macro whose body this is, and the expansion the made tokens belong to.
#[derive(Clone, Copy)]
struct Scope<'a> {
    namespace: usize,
    /// The namespace definitions made here go into: the file's current namespace, also in
    /// the bodies of the uses written there (a body defines at its use, not in its own
    /// namespace).
    defines_in: usize,
    params: Option<(&'a [String], &'a [Vec<Token>])>,
    /// The tokens of the macro whose body is being expanded: a definition whose body lies
    /// in them keeps its body as a range of them.
    body_tokens: Option<&'a Rc<[Token]>>,
    origin: u32,
    depth: usize,
    /// What is made here goes into the current file's program (not into an argument, a
    /// built name, a constant's value or a compile-time body).
    in_program: bool,
}

impl Scope<'_> {
    fn in_body(&self) -> bool {
        self.params.is_some()
    }
}

/// The name of a use: built, or not, after errors.
enum Name {
    Built(String),
    Failed,
}

/// What a name stands for.
enum Meaning {
    Param(usize),
    Define(Token),
    Macro(usize),
    /// A constant whose definition failed.
    Failed,
}

/// The macro expander of one assembly.
pub struct Expander<'c> {
    namespaces: Vec<Namespace>,
    macros: Vec<MacroDef>,
    /// Texts of made tokens ([`Token::text`]).
    pub texts: Vec<String>,
    /// Every expansion, indexed by [`Token::origin`].
    pub expansions: Expansions,
    /// Errors with the expansion they arose in: one for each code and place in a macro body
    /// (`Self::report`), and under `--max-errors` only those shown.
    pub errors: Found,
    /// Errors made so far, counting those not reported again ([`Self::report`]).
    failures: usize,
    made: usize,
    /// Set when a use inside a word failed: the line it is on is dropped, up to its end.
    broken_line: bool,
    /// Set when uses nested too deeply (MX057): every expansion in the chain stops, up to
    /// the use written in the file, so that a recursion without end is one error, not one
    /// per use in each level's body.
    unwinding: bool,
    /// Namespaces looked in.
    looked: usize,
    limits: Limits,
    suggestions: SuggestionBudget,
    loader: Option<IncludeLoader>,
    /// Tokens of included files, in the order the files were finished.
    included: Vec<Token>,
    /// What outputs held when expansion went on into an argument or a compile-time body, and
    /// whether each was the program's ([`Self::set_aside`]).
    set_aside: Vec<(Vec<Token>, bool)>,
    /// The first of [`Self::set_aside`] made in the file being expanded.
    file_base: usize,
    ctime: &'c mut dyn CompileTime,
    /// Where definitions and uses of names are recorded, for editors.
    pub names: Option<NameSink>,
}

impl<'c> Expander<'c> {
    /// An expander within `limits`; `loader` finds included files (without one, `%include`
    /// is an error).
    pub fn new(loader: Option<IncludeLoader>, ctime: &'c mut dyn CompileTime, limits: Limits) -> Expander<'c> {
        Expander {
            namespaces: vec![Namespace::default()],
            macros: Vec::new(),
            texts: Vec::new(),
            expansions: Expansions::default(),
            errors: Found::new(),
            failures: 0,
            made: 0,
            broken_line: false,
            unwinding: false,
            looked: 0,
            limits,
            suggestions: SuggestionBudget::new(limits.expanded_tokens),
            loader,
            included: Vec::new(),
            set_aside: Vec::new(),
            file_base: 0,
            ctime,
            names: None,
        }
    }

    /// The text of a token.
    pub fn text<'s>(&'s self, sources: &'s SourceMap, token: &Token) -> &'s str {
        self.token_text(sources).get(token)
    }

    /// Where the texts of tokens are.
    pub fn token_text<'s>(&'s self, sources: &'s SourceMap) -> TokenText<'s> {
        TokenText {
            sources,
            made: &self.texts,
        }
    }

    fn error(&mut self, error: MxError, scope: &Scope) {
        self.report(error, scope.origin);
    }

    /// Records an error made in expansion `origin`. An error in a macro body is reported
    /// once for its place and code, however many uses expand the body: one mistake, one
    /// error. [`Self::failures`] counts it every time, so that each use still knows it failed.
    fn report(&mut self, error: MxError, origin: u32) {
        // A warning is no failure: the use it arose in still stands.
        if error.severity() == Severity::Error {
            self.failures += 1;
        }
        self.errors.push(error, origin);
    }

    /// Expands a whole file: the tokens of every file it includes (in the order they were
    /// finished), then its own.
    pub fn expand_file(&mut self, sources: &mut SourceMap, tokens: &[Token]) -> Vec<Token> {
        let scope = Scope {
            namespace: 0,
            defines_in: 0,
            params: None,
            body_tokens: None,
            origin: NO_EXPANSION,
            depth: 0,
            in_program: true,
        };
        let mut out = Vec::with_capacity(tokens.len());
        self.process(sources, tokens, &scope, &mut out);
        let mut program = std::mem::take(&mut self.included);
        program.append(&mut out);
        program
    }

    /// Whether expansion has made, or looked up, all it may; everything stops then.
    fn over_budget(&self) -> bool {
        self.made > self.limits.expanded_tokens || self.looked > self.limits.name_lookups
    }

    /// Counts `namespaces` looked in against their budget; false (after one error) once it
    /// is spent.
    fn spend_lookups(&mut self, namespaces: usize, span: Span, scope: &Scope) -> bool {
        let before = self.looked;
        self.looked = self.looked.saturating_add(namespaces);
        let limit = self.limits.name_lookups;
        if before <= limit && self.looked > limit {
            self.error(MxError::TooManyLookups { span, limit }, scope);
        }
        !self.over_budget()
    }

    /// Counts one made token or macro use against the budget; false (after one error) once
    /// it is spent.
    fn spend(&mut self, span: Span, scope: &Scope) -> bool {
        let limit = self.limits.expanded_tokens;
        if self.made == limit {
            self.error(MxError::ExpansionTooLarge { span, limit }, scope);
        }
        self.made += 1;
        !self.over_budget()
    }

    /// Counts `n` tokens copied by a definition against the budget; false (after one error)
    /// once it is spent.
    fn spend_many(&mut self, n: usize, span: Span, scope: &Scope) -> bool {
        let limit = self.limits.expanded_tokens;
        if self.made <= limit && self.made.saturating_add(n) > limit {
            self.error(MxError::ExpansionTooLarge { span, limit }, scope);
        }
        self.made = self.made.saturating_add(n);
        !self.over_budget()
    }

    /// Appends a made token, counting it against the budget.
    fn emit(&mut self, token: Token, scope: &Scope, out: &mut Vec<Token>) -> bool {
        if !self.spend(token.span, scope) {
            return false;
        }
        out.push(token);
        true
    }

    /// Expands `tokens` in `scope` into `out`. Expansion recurses once per nested use or
    /// bracket group, so the stack grows on the heap when it runs low: no input overflows it.
    fn process(&mut self, sources: &mut SourceMap, tokens: &[Token], scope: &Scope, out: &mut Vec<Token>) {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || {
            self.process_here(sources, tokens, scope, out)
        });
    }

    fn process_here(&mut self, sources: &mut SourceMap, tokens: &[Token], scope: &Scope, out: &mut Vec<Token>) {
        let mut i = 0;
        while i < tokens.len() && !self.over_budget() && !self.unwinding {
            // Tokens take the expansion they are made in (a macro body's, the use's).
            let token = Token {
                origin: scope.origin,
                ..tokens[i]
            };
            if matches!(token.tok, Tok::Punct('%' | '!')) {
                i = self.directive(sources, tokens, i, scope, out);
                if scope.depth == 0 {
                    // The chain that went too deep has stopped; what follows is expanded.
                    self.unwinding = false;
                }
                if self.broken_line {
                    // The line is dropped: what was made of it, and the rest of it here.
                    let line_start = out.iter().rposition(|t| t.tok == Tok::Newline).map_or(0, |i| i + 1);
                    out.truncate(line_start);
                    i = Self::line_end(tokens, i);
                }
            } else {
                if token.tok == Tok::Newline {
                    self.broken_line = false;
                }
                if !self.emit(token, scope, out) {
                    return;
                }
                i += 1;
            }
        }
    }

    /// The index just past the bracket group that opens at `open`, or `None` if it never
    /// closes (the lexer has reported that). One step: the lexer noted where it closes.
    fn group_end(tokens: &[Token], open: usize) -> Option<usize> {
        let close = open + tokens.get(open)?.close as usize;
        (close > open && close < tokens.len()).then_some(close + 1)
    }

    /// Reads the name after the `%` or `!` at `at`: a bracket group, expanded and joined, or
    /// a run of joined name pieces with `:` between namespaces. The name and the index after
    /// it; `Name::Failed` when building it made errors (reported), so the use says no more.
    fn name(&mut self, sources: &mut SourceMap, tokens: &[Token], at: usize, scope: &Scope) -> Option<(Name, usize)> {
        let next = at + 1;
        let first = tokens.get(next).filter(|t| t.joined)?;
        if let Tok::Open(_) = first.tok {
            let end = Self::group_end(tokens, next)?;
            return match self.built_name(sources, tokens, at, next, end, scope) {
                Some(Some(name)) => Some((Name::Built(name), end)),
                Some(None) => Some((Name::Failed, end)),
                None => None,
            };
        }
        let mut end = next;
        while let Some(t) = tokens.get(end).filter(|t| end == next || t.joined) {
            match t.tok {
                Tok::Letters | Tok::Number | Tok::Punct('_') | Tok::Colon => end += 1,
                _ => break,
            }
        }
        if end == next {
            return None;
        }
        let name = tokens[next..end].iter().map(|t| self.text(sources, t)).collect();
        Some((Name::Built(name), end))
    }

    /// The name a bracket group `tokens[open..end]` builds: its pieces expanded and their
    /// texts joined (a character or string stands for what it holds, so `%("x")` is `%x`).
    /// `Some(None)` when building it made errors (reported); `None` when it builds nothing.
    fn built_name(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        sigil: usize,
        open: usize,
        end: usize,
        scope: &Scope,
    ) -> Option<Option<String>> {
        if scope.depth >= self.limits.expansion_depth {
            self.error(
                MxError::ExpansionTooDeep {
                    span: tokens[sigil].span.to(tokens[open].span),
                    limit: self.limits.expansion_depth,
                },
                scope,
            );
            self.unwinding = true;
            return Some(None);
        }
        let errors = self.failures;
        let mut inner = Vec::new();
        let deeper = Scope {
            depth: scope.depth + 1,
            in_program: false,
            ..*scope
        };
        self.process(sources, &tokens[open + 1..end - 1], &deeper, &mut inner);
        if self.failures > errors || self.over_budget() {
            return Some(None);
        }
        // A literal with a bad escape has its error from the lexer: the name says no more.
        let bad_escape = inner
            .iter()
            .any(|t| matches!(t.tok, Tok::Char | Tok::Str) && crate::lexer::has_bad_escape(self.text(sources, t)));
        if bad_escape {
            self.failures += 1;
            return Some(None);
        }
        let name: String = inner
            .iter()
            .filter(|t| !matches!(t.tok, Tok::Open(_) | Tok::Close(_) | Tok::Newline))
            .map(|t| self.piece_text(sources, t))
            .collect();
        (!name.is_empty()).then_some(Some(name))
    }

    /// The text a token adds to a name built from pieces.
    fn piece_text(&self, sources: &SourceMap, token: &Token) -> String {
        let text = self.text(sources, token);
        match token.tok {
            Tok::Char | Tok::Str => String::from_utf8_lossy(&crate::lexer::unquote(text)).into_owned(),
            _ => text.to_string(),
        }
    }

    /// Handles the directive or use at `at`; the index after it.
    fn directive(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        at: usize,
        scope: &Scope,
        out: &mut Vec<Token>,
    ) -> usize {
        let sigil = tokens[at];
        let compile_time = sigil.tok == Tok::Punct('!');
        // After an error, so that one mistake makes one error, a use takes its argument list
        // along, and: inside a word (joined to what comes before it) the word is broken, so
        // its line goes; after something on its line (an operand) it stands for a number.
        let operand = !sigil.joined && out.last().is_some_and(|t| t.tok != Tok::Newline);
        let stand_in = |this: &mut Self, out: &mut Vec<Token>, span: Span, end: usize| {
            if sigil.joined {
                this.broken_line = true;
                return end;
            }
            if operand {
                this.emit_number(0, span, false, scope, out);
            }
            end
        };
        let named = self.set_aside(out, scope, |this| this.name(sources, tokens, at, scope));
        let Some((built, after)) = named else {
            self.error(
                MxError::MissingDirectiveName {
                    span: sigil.span,
                    sigil: if compile_time { '!' } else { '%' },
                },
                scope,
            );
            // What follows was meant as the name: the rest of the line goes with the error.
            let end = Self::line_end(tokens, at + 1);
            return stand_in(self, out, sigil.span, end);
        };
        let name_span = sigil.span.to(tokens[after - 1].span);
        let give_up = |this: &mut Self, out: &mut Vec<Token>| {
            let mut end = match tokens.get(after).map(|t| t.tok) {
                Some(Tok::Open(_)) => Self::group_end(tokens, after).unwrap_or(after),
                _ => after,
            };
            // So do the pieces joined to it: they belong to the word the use was part of.
            while tokens
                .get(end)
                .is_some_and(|t| t.joined && !matches!(t.tok, Tok::Open(_)))
            {
                end += 1;
            }
            stand_in(this, out, name_span, end)
        };
        let Name::Built(name) = built else {
            return give_up(self, out);
        };
        if !compile_time && DIRECTIVES.contains(&name.as_str()) {
            // A body may define constants and macros (they go where the use is), but it
            // cannot open a namespace or include a file.
            if scope.in_body() && matches!(name.as_str(), "namespace" | "include") {
                self.error(
                    MxError::DefinitionInBody {
                        span: name_span,
                        directive: name.clone(),
                    },
                    scope,
                );
                return Self::line_end(tokens, after);
            }
            return match name.as_str() {
                "define" => self.set_aside(out, scope, |this| this.define(sources, tokens, after, name_span, scope)),
                "macro" => self.macro_definition(sources, tokens, after, name_span, scope),
                "namespace" => self.namespace(sources, tokens, after, name_span, scope, out),
                "using" => self.using(sources, tokens, after, name_span, scope),
                _ => self.include(sources, tokens, after, name_span, scope),
            };
        }
        let meaning = self.lookup(&name, name_span, scope);
        match meaning {
            Some(Meaning::Macro(id)) => match self.expand_use(sources, tokens, sigil, &name, after, scope, id, out) {
                Ok(end) => end,
                Err(end) => stand_in(self, out, name_span, end),
            },
            // Its definition's error said what is wrong.
            Some(Meaning::Failed) => give_up(self, out),
            Some(_) if compile_time => {
                self.error(MxError::CompileTimeNotMacro { span: name_span, name }, scope);
                give_up(self, out)
            }
            Some(Meaning::Param(index)) => {
                let (_, args) = scope.params.expect("a parameter is found only in a body");
                for (k, token) in args[index].iter().enumerate() {
                    let token = if k == 0 {
                        Token {
                            joined: sigil.joined,
                            ..*token
                        }
                    } else {
                        *token
                    };
                    if !self.emit(token, scope, out) {
                        break;
                    }
                }
                after
            }
            Some(Meaning::Define(value)) => {
                self.emit(
                    Token {
                        joined: sigil.joined,
                        ..value
                    },
                    scope,
                    out,
                );
                after
            }
            None if self.over_budget() => give_up(self, out),
            None => {
                let suggestion = self.suggest(&name, scope);
                self.error(
                    MxError::UnknownName {
                        span: name_span,
                        name,
                        suggestion,
                    },
                    scope,
                );
                give_up(self, out)
            }
        }
    }

    /// An argument without the line breaks before and after it: an argument may start or end
    /// on another line than its comma (`%pair(9,` then `10)`); the breaks inside it stay.
    fn trim_lines(tokens: &[Token]) -> &[Token] {
        let start = tokens
            .iter()
            .position(|t| t.tok != Tok::Newline)
            .unwrap_or(tokens.len());
        let end = tokens
            .iter()
            .rposition(|t| t.tok != Tok::Newline)
            .map_or(start, |i| i + 1);
        &tokens[start..end]
    }

    /// The index of the line break that ends the line `at` is on (or the end).
    fn line_end(tokens: &[Token], at: usize) -> usize {
        let mut i = at;
        while i < tokens.len() {
            match tokens[i].tok {
                Tok::Newline => return i,
                Tok::Open(_) => i = Self::group_end(tokens, i).unwrap_or(tokens.len()),
                _ => i += 1,
            }
        }
        i
    }

    /// The first `Some` that `find` gives for the namespaces whose names are visible from
    /// `namespace`, in order: it, the namespaces it uses, then its parent and the namespaces
    /// that one uses, up to the root. Counts the namespaces looked in.
    fn find_visible<'n, T>(
        namespaces: &'n [Namespace],
        namespace: usize,
        looked: &mut usize,
        mut find: impl FnMut(&'n Namespace) -> Option<T>,
    ) -> Option<T> {
        let mut at = Some(namespace);
        while let Some(ns) = at {
            let ns = &namespaces[ns];
            *looked += 1;
            if let Some(found) = find(ns) {
                return Some(found);
            }
            for &used in &ns.usings {
                *looked += 1;
                if let Some(found) = find(&namespaces[used]) {
                    return Some(found);
                }
            }
            at = ns.parent;
        }
        None
    }

    /// The namespace a path of namespace names leads to from `scope`.
    fn namespace_path(&mut self, path: &[&str], span: Span, scope: &Scope) -> Option<usize> {
        let (first, rest) = path.split_first()?;
        let mut looked = 0;
        let found = Self::find_visible(&self.namespaces, scope.namespace, &mut looked, |ns| {
            ns.children.get(*first).copied()
        });
        if !self.spend_lookups(looked + rest.len(), span, scope) {
            return None;
        }
        let mut ns = found?;
        for part in rest {
            ns = *self.namespaces[ns].children.get(*part)?;
        }
        Some(ns)
    }

    fn lookup(&mut self, name: &str, span: Span, scope: &Scope) -> Option<Meaning> {
        let path: Vec<&str> = name.split(':').collect();
        let (last, namespaces) = path.split_last()?;
        let find = |macros: &[MacroDef], ns: &Namespace| {
            ns.defines
                .get(*last)
                .map(|&(value, defined)| (Meaning::Define(value), Some(defined)))
                .or_else(|| ns.macros.get(*last).map(|&m| (Meaning::Macro(m), Some(macros[m].span))))
                .or_else(|| ns.failed.contains(*last).then_some((Meaning::Failed, None)))
        };
        let found = if !namespaces.is_empty() {
            let ns = self.namespace_path(namespaces, span, scope)?;
            let found = find(&self.macros, &self.namespaces[ns]);
            self.record_path_uses(ns, namespaces, name, span);
            found
        } else {
            if let Some((params, _)) = scope.params
                && let Some(i) = params.iter().position(|p| p == last)
            {
                return Some(Meaning::Param(i));
            }
            let mut looked = 0;
            let macros = &self.macros;
            let found = Self::find_visible(&self.namespaces, scope.namespace, &mut looked, |ns| find(macros, ns));
            if !self.spend_lookups(looked, span, scope) {
                return None;
            }
            found
        };
        let (meaning, defined) = found?;
        if let (Some(names), Some(defined)) = (&self.names, defined) {
            names.used(Self::tail(span, last.len()), defined);
        }
        Some(meaning)
    }

    /// The last `len` bytes of `span`: the name of a use (`push` of `%std:push`).
    fn tail(span: Span, len: usize) -> Span {
        Span {
            start: span.end.saturating_sub(len as u32).max(span.start),
            ..span
        }
    }

    /// Records the uses of the namespaces of `path`, the namespaces of a use of `name` that
    /// ends `span` and resolved to namespace `ns` (`std` in `%std:push`).
    fn record_path_uses(&self, ns: usize, path: &[&str], name: &str, span: Span) {
        let Some(names) = &self.names else {
            return;
        };
        let Some(mut end) = (span.end as usize).checked_sub(name.len()) else {
            return;
        };
        let mut spans = Vec::with_capacity(path.len());
        for part in path {
            spans.push(Span::new(span.source, end, end + part.len()));
            end += part.len() + 1;
        }
        let mut at = Some(ns);
        for part_span in spans.into_iter().rev() {
            let Some(ns) = at else {
                return;
            };
            if let Some(opened) = self.namespaces[ns].opened {
                names.used(part_span, opened);
            }
            at = self.namespaces[ns].parent;
        }
    }

    /// Records a definition of `name` in the namespace definitions go into.
    fn record_definition(&self, name: &str, kind: &'static str, span: Span, detail: String, scope: &Scope) {
        if let Some(names) = &self.names {
            let path = &self.namespaces[scope.defines_in].path;
            let full = if path.is_empty() {
                name.to_string()
            } else {
                format!("{path}:{name}")
            };
            names.define(full, kind, span, detail);
        }
    }

    /// A visible name close to `name`, while the budget for suggestions lasts.
    fn suggest(&mut self, name: &str, scope: &Scope) -> Option<String> {
        if self.suggestions.is_spent() {
            return None;
        }
        let mut names: Vec<&str> = Vec::new();
        if let Some((params, _)) = scope.params {
            names.extend(params.iter().map(String::as_str));
        }
        let mut looked = 0;
        Self::find_visible(&self.namespaces, scope.namespace, &mut looked, |ns| {
            names.extend(ns.defines.keys().map(String::as_str));
            names.extend(ns.macros.keys().map(String::as_str));
            None::<()>
        });
        names.extend(DIRECTIVES);
        self.suggestions.suggest(name, names).map(str::to_string)
    }

    /// Whether `name` is free in `namespace`; records the error if not.
    fn claim(&mut self, name: &str, span: Span, scope: &Scope) -> bool {
        let ns = &self.namespaces[scope.defines_in];
        let first = ns
            .defines
            .get(name)
            .map(|d| d.1)
            .or_else(|| ns.macros.get(name).map(|&m| self.macros[m].span));
        match first {
            Some(first) => {
                self.error(
                    MxError::NameDefinedTwice {
                        span,
                        first: (first != span).then_some(first),
                        name: name.to_string(),
                    },
                    scope,
                );
                false
            }
            None => true,
        }
    }

    /// The name of a definition: the joined name pieces from `at` (after spaces), or a
    /// bracket group that builds it (`%define (w_(3)) 33`). `Ok` with the name, its span and
    /// the index after it; `Err(None)` when no name is there, `Err(Some(end))` when building
    /// it failed (reported) and the name ends before `end`.
    fn definition_name(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        at: usize,
        scope: &Scope,
        bad: fn(Span, &'static str) -> MxError,
    ) -> Result<(String, Span, usize), Option<usize>> {
        let found = self.any_definition_name(sources, tokens, at, scope, bad)?;
        // `%define` after `%` is always the directive: a constant or macro of that name
        // could never be used.
        if DIRECTIVES.contains(&found.0.as_str()) {
            let problem = "a directive's name (`define`, `macro`, `namespace`, `using`, `include`) cannot be defined";
            self.error(bad(found.1, problem), scope);
            return Err(Some(found.2));
        }
        Ok(found)
    }

    /// [`Self::definition_name`], a directive's name included (a namespace may have one).
    fn any_definition_name(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        at: usize,
        scope: &Scope,
        bad: fn(Span, &'static str) -> MxError,
    ) -> Result<(String, Span, usize), Option<usize>> {
        let Some(first) = tokens.get(at) else {
            return Err(None);
        };
        if let Tok::Open(_) = first.tok {
            let Some(end) = Self::group_end(tokens, at) else {
                return Err(None);
            };
            let span = first.span.to(tokens[end - 1].span);
            return match self.built_name(sources, tokens, at, at, end, scope) {
                Some(Some(name)) if is_label_name(&name) => Ok((name, span, end)),
                Some(Some(_)) => {
                    let problem = "the name built must be letters, digits and `_`, not starting with a digit";
                    self.error(bad(span, problem), scope);
                    Err(Some(end))
                }
                Some(None) => Err(Some(end)),
                None => Err(None),
            };
        }
        if !matches!(first.tok, Tok::Letters | Tok::Punct('_')) {
            return Err(None);
        }
        let mut end = at + 1;
        while tokens
            .get(end)
            .is_some_and(|t| t.joined && matches!(t.tok, Tok::Letters | Tok::Number | Tok::Punct('_')))
        {
            end += 1;
        }
        let name = tokens[at..end].iter().map(|t| self.text(sources, t)).collect();
        Ok((name, first.span.to(tokens[end - 1].span), end))
    }

    /// `%define NAME value`.
    fn define(&mut self, sources: &mut SourceMap, tokens: &[Token], at: usize, head: Span, scope: &Scope) -> usize {
        let end = Self::line_end(tokens, at);
        let bad = |span, problem| MxError::BadDefine { span, problem };
        let (name, name_span, after) = match self.definition_name(sources, tokens, at, scope, bad) {
            Ok(found) => found,
            Err(Some(_)) => return end,
            Err(None) => {
                self.error(
                    MxError::BadDefine {
                        span: tokens.get(at).filter(|_| at < end).map_or(head, |t| t.span),
                        problem: "a name must follow `%define`",
                    },
                    scope,
                );
                return end;
            }
        };
        let value_tokens: &[Token] = match tokens.get(after).map(|t| t.tok) {
            Some(Tok::Open(_)) => match Self::group_end(tokens, after) {
                Some(group_end) => &tokens[after + 1..group_end - 1],
                None => &[],
            },
            _ => &tokens[after..end],
        };
        let mut value = Vec::new();
        let errors = self.failures;
        let in_value = Scope {
            in_program: false,
            ..*scope
        };
        self.process(sources, value_tokens, &in_value, &mut value);
        if self.failures > errors || self.over_budget() {
            // The value's own error says what is wrong; uses of the name make no more.
            self.namespaces[scope.defines_in].failed.insert(name);
            return end;
        }
        value.retain(|t| !matches!(t.tok, Tok::Open(_) | Tok::Close(_) | Tok::Newline));
        let span = value_tokens
            .first()
            .map_or(name_span, |t| t.span.to(value_tokens[value_tokens.len() - 1].span));
        match value.as_slice() {
            [one] if matches!(one.tok, Tok::Number | Tok::Char) => {
                if self.claim(&name, name_span, scope) {
                    let detail = self.text(sources, one).to_string();
                    self.record_definition(&name, "constant", name_span, detail, scope);
                    self.namespaces[scope.defines_in]
                        .defines
                        .insert(name, (*one, name_span));
                }
            }
            [] => {
                self.error(
                    MxError::BadDefine {
                        span: name_span,
                        problem: "a value must follow the name",
                    },
                    scope,
                );
                self.namespaces[scope.defines_in].failed.insert(name);
            }
            _ => {
                self.error(
                    MxError::BadDefine {
                        span,
                        problem: "the value must be one number or character",
                    },
                    scope,
                );
                self.namespaces[scope.defines_in].failed.insert(name);
            }
        }
        end
    }

    /// `%macro name(a, b) { body }`.
    fn macro_definition(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        at: usize,
        head: Span,
        scope: &Scope,
    ) -> usize {
        let bad = |span: Span, problem: &'static str| MxError::BadMacro { span, problem };
        let (name, name_span, after) = match self.definition_name(sources, tokens, at, scope, bad) {
            Ok(found) => found,
            Err(None) => {
                self.error(bad(head, "a name must follow `%macro`"), scope);
                return Self::line_end(tokens, at);
            }
            Err(Some(mut end)) => {
                // The parameter list and the body go with the error, so that they make no more.
                for _ in 0..2 {
                    if tokens.get(end).is_some_and(|t| matches!(t.tok, Tok::Open(_))) {
                        end = Self::group_end(tokens, end).unwrap_or(tokens.len());
                    }
                }
                return end;
            }
        };
        let params_end = match tokens.get(after).map(|t| t.tok) {
            Some(Tok::Open(_)) => Self::group_end(tokens, after),
            _ => None,
        };
        // A bracket never closed is already an error (MX003), and takes the rest with it.
        let opens = |at: usize| tokens.get(at).is_some_and(|t| matches!(t.tok, Tok::Open(_)));
        let Some(params_end) = params_end else {
            if opens(after) {
                return tokens.len();
            }
            self.error(bad(name_span, "a parameter list `(a, b)` must follow the name"), scope);
            return Self::line_end(tokens, after);
        };
        let body_start = params_end;
        let body_end = if opens(body_start) {
            Self::group_end(tokens, body_start)
        } else {
            None
        };
        let Some(body_end) = body_end else {
            if opens(body_start) {
                return tokens.len();
            }
            self.error(bad(name_span, "a body `{ ... }` must follow the parameter list"), scope);
            return Self::line_end(tokens, params_end);
        };
        let mut params: Vec<String> = Vec::new();
        let mut ok = true;
        for piece in tokens[after + 1..params_end - 1].split(|t| t.tok == Tok::Comma) {
            let piece: Vec<&Token> = piece.iter().filter(|t| t.tok != Tok::Newline).collect();
            if piece.is_empty() && params_end - after == 2 {
                break;
            }
            let text: String = piece.iter().map(|t| self.text(sources, t)).collect();
            let span = piece
                .first()
                .map_or(name_span, |t| t.span.to(piece[piece.len() - 1].span));
            let problem = if !is_label_name(&text) || piece.iter().skip(1).any(|t| !t.joined) {
                Some("a parameter is one name")
            } else if params.contains(&text) {
                Some("two parameters have the same name")
            } else {
                None
            };
            match problem {
                Some(problem) => {
                    self.error(bad(span, problem), scope);
                    ok = false;
                }
                // A parameter shadows any macro or constant of the same name in the body.
                None => params.push(text),
            }
        }
        // The body is kept as written. Inside another macro's body it is a range of that
        // body's tokens, shared, and counts one against the expansion budget; elsewhere it is
        // copied, and the copy counts against the budget, so that a body defining a macro at
        // each of many uses stays linear.
        let body = &tokens[body_start + 1..body_end - 1];
        let shared = scope
            .body_tokens
            .and_then(|all| Some((all, Self::range_within(all, body)?)));
        let cost = if shared.is_some() { 1 } else { body.len() };
        if ok && self.spend_many(cost, name_span, scope) && self.claim(&name, name_span, scope) {
            let (tokens, body) = match shared {
                Some((all, range)) => (Rc::clone(all), range),
                None => (Rc::from(body), 0..body.len()),
            };
            let detail = format!("({})", params.join(", "));
            self.record_definition(&name, "macro", name_span, detail, scope);
            let id = self.macros.len();
            self.macros.push(MacroDef {
                span: name_span,
                params: params.into(),
                tokens,
                body,
                namespace: scope.defines_in,
            });
            self.namespaces[scope.defines_in].macros.insert(name, id);
        }
        body_end
    }

    /// Where `part` lies in `all`, when it is a run of `all`'s tokens.
    fn range_within(all: &[Token], part: &[Token]) -> Option<Range<usize>> {
        let size = std::mem::size_of::<Token>();
        let base = all.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        let offset = at.checked_sub(base)?;
        let start = offset / size;
        let end = start + part.len();
        (offset % size == 0 && end <= all.len()).then_some(start..end)
    }

    /// `%namespace name { ... }`: the body's code comes through; its names live in `name`.
    fn namespace(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        at: usize,
        head: Span,
        scope: &Scope,
        out: &mut Vec<Token>,
    ) -> usize {
        let bad = |span, problem: &'static str| MxError::BadNamespace {
            span,
            problem: problem.into(),
        };
        let Ok((name, name_span, after)) = self.any_definition_name(sources, tokens, at, scope, bad) else {
            self.error(
                MxError::BadNamespace {
                    span: head,
                    problem: "a name must follow `%namespace`".into(),
                },
                scope,
            );
            return Self::line_end(tokens, at);
        };
        let end = match tokens.get(after).map(|t| t.tok) {
            Some(Tok::Open(_)) => Self::group_end(tokens, after),
            _ => None,
        };
        let Some(end) = end else {
            self.error(
                MxError::BadNamespace {
                    span: name_span,
                    problem: "a body `{ ... }` must follow the name".into(),
                },
                scope,
            );
            return Self::line_end(tokens, after);
        };
        let depth = self.namespaces[scope.namespace].depth + 1;
        if depth > self.limits.namespace_depth {
            // Each level is a nested expansion: without a bound, memory would grow by a
            // stack segment per few hundred levels. The body goes with the error.
            self.error(
                MxError::BadNamespace {
                    span: name_span,
                    problem: format!("namespaces nest deeper than {}", self.limits.namespace_depth).into(),
                },
                scope,
            );
            return end;
        }
        let child = match self.namespaces[scope.namespace].children.get(&name) {
            Some(&child) => {
                if let (Some(names), Some(opened)) = (&self.names, self.namespaces[child].opened) {
                    names.used(name_span, opened);
                }
                child
            }
            None => {
                let child = self.namespaces.len();
                let parent = &self.namespaces[scope.namespace].path;
                let path = if parent.is_empty() {
                    name.clone()
                } else {
                    format!("{parent}:{name}")
                };
                if let Some(names) = &self.names {
                    names.define(path.clone(), "namespace", name_span, String::new());
                }
                self.namespaces.push(Namespace {
                    path,
                    opened: Some(name_span),
                    parent: Some(scope.namespace),
                    depth,
                    ..Namespace::default()
                });
                self.namespaces[scope.namespace].children.insert(name, child);
                child
            }
        };
        let inner = Scope {
            namespace: child,
            defines_in: child,
            ..*scope
        };
        self.process(sources, &tokens[after + 1..end - 1], &inner, out);
        end
    }

    /// `%using path`.
    fn using(&mut self, sources: &mut SourceMap, tokens: &[Token], at: usize, head: Span, scope: &Scope) -> usize {
        let end = Self::line_end(tokens, at);
        let path: String = tokens[at..end]
            .iter()
            .filter(|t| matches!(t.tok, Tok::Letters | Tok::Number | Tok::Punct('_') | Tok::Colon))
            .map(|t| self.text(sources, t))
            .collect();
        let span = tokens[at..end].iter().fold(head, |s, t| s.to(t.span));
        let parts: Vec<&str> = path.split(':').collect();
        match self.namespace_path(&parts, span, scope) {
            Some(ns) if !path.is_empty() => {
                if let Some(last) = tokens[at..end].iter().rev().find(|t| t.tok != Tok::Colon) {
                    self.record_path_uses(ns, &parts, &path, last.span);
                }
                let here = &mut self.namespaces[scope.namespace];
                if ns != scope.namespace && here.used.insert(ns) {
                    here.usings.push(ns);
                }
            }
            _ if self.over_budget() => {}
            _ => self.error(MxError::UnknownNamespace { span, name: path }, scope),
        }
        end
    }

    /// `%include "file"`: the file is expanded now (its names are known from here on) and its
    /// code goes before this file's.
    fn include(&mut self, sources: &mut SourceMap, tokens: &[Token], at: usize, head: Span, scope: &Scope) -> usize {
        let end = Self::line_end(tokens, at);
        let Some(name_token) = tokens.get(at).filter(|t| t.tok == Tok::Str && at < end) else {
            self.error(MxError::BadInclude { span: head }, scope);
            return end;
        };
        let name = String::from_utf8_lossy(&crate::lexer::unquote(self.text(sources, name_token))).into_owned();
        let directive = head.to(name_token.span);
        let Some(loader) = self.loader.as_mut() else {
            self.error(MxError::BadInclude { span: directive }, scope);
            return end;
        };
        match loader.load(sources, directive, &name) {
            Ok(Included::New(file)) => {
                let text = sources.get(file).text();
                let len = text.len();
                let (file_tokens, lex_errors) = crate::lexer::lex(file, text, self.limits.expanded_tokens);
                for error in lex_errors {
                    self.report(crate::error::lex_error(error, text), NO_EXPANSION);
                }
                let root = Scope {
                    namespace: 0,
                    defines_in: 0,
                    params: None,
                    body_tokens: None,
                    origin: NO_EXPANSION,
                    depth: scope.depth,
                    in_program: true,
                };
                let mut module = Vec::with_capacity(file_tokens.len());
                let base = std::mem::replace(&mut self.file_base, self.set_aside.len());
                self.process(sources, &file_tokens, &root, &mut module);
                self.file_base = base;
                // A last line without a line break must not run into the next file's first.
                if module.last().is_some_and(|t| t.tok != Tok::Newline) {
                    module.push(Token::new(Tok::Newline, Span::new(file, len, len), false));
                }
                self.included.append(&mut module);
            }
            Ok(Included::Again { .. }) => {}
            Err(diagnostic) => self.error(
                MxError::Core {
                    span: directive,
                    diagnostic: Box::new(diagnostic),
                },
                scope,
            ),
        }
        end
    }

    /// `%name(args)` or `!name(args)` of macro `id`, its name ending before `after`: the
    /// index after it, or `Err` with that index when the use fails before its body is expanded.
    #[allow(clippy::too_many_arguments)]
    fn expand_use(
        &mut self,
        sources: &mut SourceMap,
        tokens: &[Token],
        sigil: Token,
        name: &str,
        after: usize,
        scope: &Scope,
        id: usize,
        out: &mut Vec<Token>,
    ) -> Result<usize, usize> {
        let name_span = sigil.span.to(tokens[after - 1].span);
        let compile_time = sigil.tok == Tok::Punct('!');
        let written = format!("{}{name}", if compile_time { '!' } else { '%' });
        let args_end = match tokens.get(after).map(|t| t.tok) {
            Some(Tok::Open(_)) => Self::group_end(tokens, after),
            _ => None,
        };
        let Some(args_end) = args_end else {
            // A list opened and never closed is the lexer's error (MX003): it takes the rest
            // of the file, and the use makes no second error.
            if matches!(tokens.get(after).map(|t| t.tok), Some(Tok::Open(_))) {
                self.failures += 1;
                return Err(tokens.len());
            }
            self.error(
                MxError::MissingArguments {
                    span: name_span,
                    name: written,
                },
                scope,
            );
            return Err(after);
        };
        let use_span = name_span.to(tokens[args_end - 1].span);
        // Uses in arguments nest too: the limit holds before they are expanded, so a use
        // nested too deeply is one error.
        let limit = self.limits.expansion_depth;
        if scope.depth >= limit {
            self.error(MxError::ExpansionTooDeep { span: name_span, limit }, scope);
            self.unwinding = true;
            return Err(args_end);
        }
        // Arguments are split at top-level commas and expanded where the use is.
        let inner = &tokens[after + 1..args_end - 1];
        let in_args = Scope {
            depth: scope.depth + 1,
            in_program: false,
            ..*scope
        };
        let errors = self.failures;
        let mut args = self.set_aside(out, scope, |this| this.arguments(sources, inner, &in_args));
        // `%one()` passes one empty argument to a macro of one parameter.
        if args.is_empty() && self.macros[id].params.len() == 1 {
            args.push(Vec::new());
        }
        // An argument that failed would only make more errors in the body.
        if self.failures > errors || self.over_budget() {
            return Err(args_end);
        }
        let takes = self.macros[id].params.len();
        if args.len() != takes {
            self.error(
                MxError::ArgumentCount {
                    span: use_span,
                    name: written,
                    takes,
                    found: args.len(),
                },
                scope,
            );
            return Err(args_end);
        }
        if !self.spend(use_span, scope) {
            return Err(args_end);
        }
        let origin = self.expansions.push(written, use_span, scope.origin);
        let def = &self.macros[id];
        let namespace = def.namespace;
        let params = Rc::clone(&def.params);
        let all = Rc::clone(&def.tokens);
        let body = &all[def.body.clone()];
        let inner_scope = Scope {
            namespace,
            defines_in: scope.defines_in,
            params: Some((&params, &args)),
            body_tokens: Some(&all),
            origin,
            depth: scope.depth + 1,
            in_program: scope.in_program && !compile_time,
        };
        if !compile_time {
            self.process(sources, body, &inner_scope, out);
            return Ok(args_end);
        }
        let mut code = Vec::new();
        let errors = self.failures;
        self.set_aside(out, scope, |this| this.process(sources, body, &inner_scope, &mut code));
        // A body whose expansion failed is not assembled: its errors are reported, and a
        // compile-time call that recurses makes one error, not one per level.
        let value = if self.failures > errors || self.over_budget() {
            None
        } else {
            self.run_compile_time(sources, &code, use_span, scope, origin, out)
        };
        match value {
            Some(value) => {
                self.emit_number(value, use_span, sigil.joined, scope, out);
                Ok(args_end)
            }
            // The use failed: it stands in as any failed use does.
            None => Err(args_end),
        }
    }

    /// The arguments of a use, `inner` being what its brackets hold: split at top-level
    /// commas, each expanded without the line breaks around it.
    fn arguments(&mut self, sources: &mut SourceMap, inner: &[Token], in_args: &Scope) -> Vec<Vec<Token>> {
        let mut args: Vec<Vec<Token>> = Vec::new();
        if !inner.iter().any(|t| t.tok != Tok::Newline) {
            return args;
        }
        let mut start = 0;
        let mut i = 0;
        while i < inner.len() {
            match inner[i].tok {
                Tok::Open(_) => {
                    i = Self::group_end(inner, i).unwrap_or(inner.len());
                    continue;
                }
                Tok::Comma => {
                    let mut arg = Vec::new();
                    self.process(sources, Self::trim_lines(&inner[start..i]), in_args, &mut arg);
                    args.push(arg);
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let mut arg = Vec::new();
        self.process(sources, Self::trim_lines(&inner[start..]), in_args, &mut arg);
        args.push(arg);
        args
    }

    /// Runs `f` with what `out` holds set aside (moved, not copied), so that a compile-time
    /// call inside can see the program made so far; `out` gets it back afterwards.
    fn set_aside<R>(&mut self, out: &mut Vec<Token>, scope: &Scope, f: impl FnOnce(&mut Self) -> R) -> R {
        self.set_aside.push((std::mem::take(out), scope.in_program));
        let result = f(self);
        *out = self.set_aside.pop().expect("set aside above").0;
        result
    }

    /// The program before a compile-time call: the files finished so far, then the complete
    /// lines the current file has made (`out` when the call is made in the program itself).
    fn program_so_far(&self, out: &[Token], scope: &Scope) -> Vec<Token> {
        let current: &[Token] = if scope.in_program {
            out
        } else {
            self.set_aside[self.file_base.min(self.set_aside.len())..]
                .iter()
                .find(|(_, in_program)| *in_program)
                .map_or(&[], |(tokens, _)| tokens.as_slice())
        };
        let lines = current.iter().rposition(|t| t.tok == Tok::Newline).map_or(0, |i| i + 1);
        let mut program = Vec::with_capacity(self.included.len() + lines);
        program.extend_from_slice(&self.included);
        program.extend_from_slice(&current[..lines]);
        program
    }

    /// Emits a number the macro system made, standing at `span`.
    fn emit_number(&mut self, value: u16, span: Span, joined: bool, scope: &Scope, out: &mut Vec<Token>) {
        let text = self.texts.len() as u32;
        self.texts.push(value.to_string());
        self.emit(
            Token {
                tok: Tok::Number,
                span,
                joined,
                origin: scope.origin,
                text,
                close: 0,
            },
            scope,
            out,
        );
    }

    /// Has the runner assemble and run a compile-time body; `r` afterwards, or `None` after
    /// the errors. A body that jumps to labels it does not define (a procedure of the program)
    /// runs after the program made so far, as in the reference: the body first, then `jmp end`,
    /// then that program, so that the run starts at the body and ends after it.
    fn run_compile_time(
        &mut self,
        sources: &SourceMap,
        code: &[Token],
        at: Span,
        scope: &Scope,
        origin: u32,
        out: &[Token],
    ) -> Option<u16> {
        let text = TokenText {
            sources,
            made: &self.texts,
        };
        let mut run = self.ctime.run(code, text, at);
        let only_labels_missing = matches!(&run, CompileTimeRun::NotAssembled(errors)
            if !errors.is_empty() && errors.iter().all(|(e, _)| e.masfix_code() == Some(Code::UndefinedLabel)));
        if only_labels_missing {
            let program = self.program_so_far(out, scope);
            if !program.is_empty() && !self.spend_many(code.len() + program.len(), at, scope) {
                // The limit's error (MX058) is the only one: the labels are not undefined.
                return None;
            }
            if !program.is_empty() {
                let mut joined = Vec::with_capacity(code.len() + program.len() + 4);
                joined.extend_from_slice(code);
                joined.extend(self.made_line(&[Kind::Jmp.mnemonic(), "end"], at, origin));
                joined.extend(program);
                let text = TokenText {
                    sources,
                    made: &self.texts,
                };
                // Assembled with the program, the body's warnings are not reported.
                if let CompileTimeRun::Ran { result, .. } = self.ctime.run(&joined, text, at) {
                    run = CompileTimeRun::Ran {
                        warnings: Vec::new(),
                        result,
                    };
                }
            }
        }
        match run {
            CompileTimeRun::NotAssembled(errors) => {
                for (error, origin) in errors {
                    self.report(error, origin);
                }
                self.error(
                    MxError::CompileTimeFailed {
                        span: at,
                        problem: None,
                    },
                    scope,
                );
                None
            }
            CompileTimeRun::Ran { warnings, result } => {
                for (error, origin) in warnings {
                    self.report(error, origin);
                }
                match result {
                    Ok(r) => Some(r),
                    Err(error) => {
                        self.report(error, origin);
                        None
                    }
                }
            }
        }
    }

    /// A line the macro system writes: its words, then a line break, standing at `at`.
    fn made_line(&mut self, words: &[&str], at: Span, origin: u32) -> Vec<Token> {
        let mut line = vec![Token {
            tok: Tok::Newline,
            span: Span::new(at.source, at.start as usize, at.start as usize),
            joined: false,
            origin,
            text: SOURCE_TEXT,
            close: 0,
        }];
        for word in words {
            let text = self.texts.len() as u32;
            self.texts.push((*word).to_string());
            line.push(Token {
                tok: Tok::Letters,
                span: at,
                joined: false,
                origin,
                text,
                close: 0,
            });
        }
        line.push(line[0]);
        line
    }
}
