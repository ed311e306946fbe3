//! A crate's module graph, read from its source text: which file's code names which other
//! module, through `use` declarations and paths in code (`crate::x::f`, `super::y`, `z::T`
//! for a child `z`).
//!
//! Each file is one node (a module and its children are separate nodes; a `mod x { }` block
//! written inside a file is part of that file). `mod x;` declarations build the tree but are
//! not edges: a parent that declares a child depends on it only where its code names it.
//! Code under `#[cfg(test)]` is left out: a unit test may call the crate's public API from any
//! module without that module depending on it. A path stops at the deepest module it names,
//! following names that a module imports with `use` (a re-export is transparent).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One token of Rust source, as far as paths need: identifiers and the punctuation around
/// them. Literals and comments are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

/// Skips a string literal's body starting after its opening quote; `hashes` is the number of
/// `#` of a raw string (`None` for a string with escapes). Returns the index after it.
fn skip_string(bytes: &[u8], mut i: usize, hashes: Option<usize>, line: &mut usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => *line += 1,
            b'\\' if hashes.is_none() => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    *line += 1;
                }
                i += 1;
            }
            b'"' => {
                let n = hashes.unwrap_or(0);
                if bytes.len() >= i + 1 + n && bytes[i + 1..i + 1 + n].iter().all(|&b| b == b'#') {
                    return i + 1 + n;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The tokens of `text`, comments, strings, characters and numbers left out.
fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < bytes.len() {
                    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if bytes[i] == b'\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            b'"' => i = skip_string(bytes, i + 1, None, &mut line),
            b'\'' => {
                // A character literal, or a lifetime (which has no closing quote).
                if bytes.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    let len = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                    if bytes.get(i + 1 + len) == Some(&b'\'') {
                        i += 2 + len;
                    } else {
                        i += 1;
                        while i < bytes.len() && is_ident_continue(bytes[i]) {
                            i += 1;
                        }
                    }
                }
            }
            b'0'..=b'9' => {
                while i < bytes.len()
                    && (is_ident_continue(bytes[i])
                        || bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
                {
                    i += 1;
                }
            }
            b':' if bytes.get(i + 1) == Some(&b':') => {
                out.push(Token {
                    tok: Tok::PathSep,
                    line,
                });
                i += 2;
            }
            b'$' if bytes.get(i + 1).is_some_and(|&b| is_ident_start(b)) => {
                let start = i;
                i += 1;
                while i < bytes.len() && is_ident_continue(bytes[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(text[start..i].to_string()),
                    line,
                });
            }
            _ if is_ident_start(b) => {
                let start = i;
                while i < bytes.len() && is_ident_continue(bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                let prefix = matches!(word, "r" | "b" | "br" | "c" | "cr");
                match bytes.get(i) {
                    Some(b'"') if prefix => i = skip_string(bytes, i + 1, word.contains('r').then_some(0), &mut line),
                    Some(b'#') if word.contains('r') && prefix => {
                        let mut hashes = 0;
                        while bytes.get(i + hashes) == Some(&b'#') {
                            hashes += 1;
                        }
                        if bytes.get(i + hashes) == Some(&b'"') {
                            i = skip_string(bytes, i + hashes + 1, Some(hashes), &mut line);
                        } else if word == "r" {
                            // A raw identifier, `r#type`.
                            let from = i + 1;
                            i = from;
                            while i < bytes.len() && is_ident_continue(bytes[i]) {
                                i += 1;
                            }
                            out.push(Token {
                                tok: Tok::Ident(text[from..i].to_string()),
                                line,
                            });
                        }
                    }
                    Some(b'\'') if word == "b" => {
                        i += 1;
                        if bytes.get(i) == Some(&b'\\') {
                            i += 1;
                        }
                        i += 1;
                        while i < bytes.len() && bytes[i] != b'\'' {
                            i += 1;
                        }
                        i += 1;
                    }
                    _ => out.push(Token {
                        tok: Tok::Ident(word.to_string()),
                        line,
                    }),
                }
            }
            b' ' | b'\t' | b'\r' => i += 1,
            _ => {
                let c = text[i..]
                    .chars()
                    .next()
                    .expect("invariant: i is on a character boundary");
                out.push(Token {
                    tok: Tok::Punct(c),
                    line,
                });
                i += c.len_utf8();
            }
        }
    }
    out
}

/// A path as written, with the line it is on and how many `mod x { }` blocks of its file
/// enclose it.
#[derive(Clone, Debug)]
pub struct WrittenPath {
    pub segments: Vec<String>,
    pub line: usize,
    inline_depth: usize,
    /// From a `use` declaration (which can also import a name for other paths).
    from_use: bool,
}

/// What one file says about modules: the child modules it declares with `mod x;`, and the
/// paths its code writes.
#[derive(Debug, Default)]
pub struct FileFacts {
    pub children: Vec<String>,
    pub paths: Vec<WrittenPath>,
}

fn ident(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

fn punct(tokens: &[Token], i: usize, c: char) -> bool {
    tokens.get(i).is_some_and(|t| t.tok == Tok::Punct(c))
}

/// The index after the item that starts at `i`: its `;`, or the `}` closing its first block.
fn skip_item(tokens: &[Token], mut i: usize) -> usize {
    // Further attributes of the same item.
    while punct(tokens, i, '#') && punct(tokens, i + 1, '[') {
        i = skip_group(tokens, i + 1);
    }
    let mut depth = 0usize;
    while i < tokens.len() {
        match tokens[i].tok {
            Tok::Punct('(' | '[') => depth += 1,
            Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Tok::Punct(';') if depth == 0 => return i + 1,
            Tok::Punct('{') if depth == 0 => return skip_group(tokens, i),
            _ => {}
        }
        i += 1;
    }
    i
}

/// The index after the bracketed group that opens at `i`.
fn skip_group(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < tokens.len() {
        match tokens[i].tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether the attribute at `i` (`#[...]`) is `#[cfg(test)]`.
fn is_cfg_test(tokens: &[Token], i: usize) -> bool {
    punct(tokens, i, '#')
        && punct(tokens, i + 1, '[')
        && ident(tokens, i + 2) == Some("cfg")
        && punct(tokens, i + 3, '(')
        && ident(tokens, i + 4) == Some("test")
        && punct(tokens, i + 5, ')')
        && punct(tokens, i + 6, ']')
}

/// Reads one use tree from `i` with `prefix` before it; pushes every path it names and
/// returns the index after it.
fn use_tree(tokens: &[Token], mut i: usize, prefix: &[String], into: &mut Vec<(Vec<String>, usize)>) -> usize {
    let mut path = prefix.to_vec();
    if tokens.get(i).is_some_and(|t| t.tok == Tok::PathSep) {
        i += 1; // `use ::std::x`: an extern crate
        path.push("::".to_string());
    }
    loop {
        match tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(name)) => {
                let line = tokens[i].line;
                if name == "self" && !path.is_empty() {
                    into.push((path.clone(), line));
                } else {
                    path.push(name.clone());
                }
                i += 1;
                if tokens.get(i).is_some_and(|t| t.tok == Tok::PathSep) {
                    i += 1;
                    continue;
                }
                if ident(tokens, i) == Some("as") {
                    i += 2;
                }
                if name != "self" || prefix.is_empty() {
                    into.push((path, line));
                }
                return i;
            }
            Some(Tok::Punct('*')) => {
                into.push((path, tokens[i].line));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while i < tokens.len() && !punct(tokens, i, '}') {
                    i = use_tree(tokens, i, &path, into);
                    if punct(tokens, i, ',') {
                        i += 1;
                    } else if !punct(tokens, i, '}') {
                        // Not a use tree this reader knows: stop at the group's end.
                        while i < tokens.len() && !punct(tokens, i, '}') {
                            i += 1;
                        }
                    }
                }
                return i + 1;
            }
            _ => return i,
        }
    }
}

/// The module facts of one file's text.
pub fn file_facts(text: &str) -> FileFacts {
    let tokens = tokens(text);
    let mut facts = FileFacts::default();
    // The brace depth at which each enclosing `mod x {` block opened.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        if is_cfg_test(&tokens, i) {
            i = skip_item(&tokens, i + 7);
            continue;
        }
        match &tokens[i].tok {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(word) if word == "mod" => match (ident(&tokens, i + 1), tokens.get(i + 2).map(|t| &t.tok)) {
                (Some(name), Some(Tok::Punct(';'))) => {
                    if inline.is_empty() {
                        facts.children.push(name.to_string());
                    }
                    i += 3;
                }
                (Some(_), Some(Tok::Punct('{'))) => {
                    depth += 1;
                    inline.push(depth);
                    i += 3;
                }
                _ => i += 1,
            },
            Tok::Ident(word) if word == "use" => {
                let mut found = Vec::new();
                i = use_tree(&tokens, i + 1, &[], &mut found);
                for (segments, line) in found {
                    facts.paths.push(WrittenPath {
                        segments,
                        line,
                        inline_depth: inline.len(),
                        from_use: true,
                    });
                }
            }
            Tok::Ident(first) => {
                let after_sep = i > 0 && tokens[i - 1].tok == Tok::PathSep;
                let starts_path = tokens.get(i + 1).is_some_and(|t| t.tok == Tok::PathSep);
                if after_sep || !starts_path {
                    i += 1;
                    continue;
                }
                let line = tokens[i].line;
                let mut segments = vec![first.clone()];
                i += 1;
                while tokens.get(i).is_some_and(|t| t.tok == Tok::PathSep) {
                    match ident(&tokens, i + 1) {
                        Some(next) => {
                            segments.push(next.to_string());
                            i += 2;
                        }
                        None => break,
                    }
                }
                facts.paths.push(WrittenPath {
                    segments,
                    line,
                    inline_depth: inline.len(),
                    from_use: false,
                });
            }
            _ => i += 1,
        }
    }
    facts
}

/// One module of a crate: the file that holds it, its path from the crate root, its children.
#[derive(Debug)]
pub struct Module {
    pub file: PathBuf,
    pub parent: Option<usize>,
    pub children: BTreeMap<String, usize>,
    facts: FileFacts,
    /// Names this module's `use` declarations bring in that lead to another module.
    imports: BTreeMap<String, usize>,
}

/// A crate's modules (index 0 is the root) and the edges between them: (from, to, line of the
/// first path in `from` that names `to`).
#[derive(Debug)]
pub struct ModuleGraph {
    pub modules: Vec<Module>,
    pub edges: BTreeMap<(usize, usize), usize>,
}

/// Every crate root of the workspace at `root`: `src/lib.rs`, `src/main.rs` and each
/// `crates/*/src/lib.rs`, in that order.
pub fn workspace_roots(root: &Path) -> Vec<PathBuf> {
    let mut roots = vec![root.join("src/lib.rs"), root.join("src/main.rs")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("the workspace has a crates folder")
        .map(|e| e.expect("a readable folder entry").path().join("src/lib.rs"))
        .filter(|p| p.is_file())
        .collect();
    crates.sort();
    roots.extend(crates);
    roots
}

/// Where the file of child `name` of a module held in `file` lives.
fn child_file(file: &Path, is_root: bool, name: &str) -> Option<PathBuf> {
    let dir = if is_root || file.file_name().is_some_and(|n| n == "mod.rs") {
        file.parent()?.to_path_buf()
    } else {
        file.with_extension("")
    };
    [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
        .into_iter()
        .find(|p| p.is_file())
}

impl ModuleGraph {
    /// Reads the crate whose root file is `root` (a `lib.rs` or `main.rs`).
    pub fn read(root: &Path) -> ModuleGraph {
        let mut modules = Vec::new();
        let mut pending = vec![(root.to_path_buf(), None::<(usize, String)>)];
        while let Some((file, parent)) = pending.pop() {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let index = modules.len();
            let facts = file_facts(&text);
            for name in &facts.children {
                if let Some(child) = child_file(&file, index == 0, name) {
                    pending.push((child, Some((index, name.clone()))));
                }
            }
            if let Some((parent, name)) = &parent {
                let parent_module: &mut Module = &mut modules[*parent];
                parent_module.children.insert(name.clone(), index);
            }
            modules.push(Module {
                file,
                parent: parent.map(|(p, _)| p),
                children: BTreeMap::new(),
                facts,
                imports: BTreeMap::new(),
            });
        }
        Self::link(modules)
    }

    /// Builds a graph from modules given as text: `(name, parent, text)`, the root first.
    /// For testing the reader on made-up crates.
    pub fn from_texts(files: &[(&str, Option<usize>, &str)]) -> ModuleGraph {
        let mut modules: Vec<Module> = Vec::new();
        for (index, (name, parent, text)) in files.iter().enumerate() {
            if let Some(parent) = parent {
                modules[*parent].children.insert(name.to_string(), index);
            }
            modules.push(Module {
                file: PathBuf::from(format!("{name}.rs")),
                parent: *parent,
                children: BTreeMap::new(),
                facts: file_facts(text),
                imports: BTreeMap::new(),
            });
        }
        Self::link(modules)
    }

    fn link(mut modules: Vec<Module>) -> ModuleGraph {
        // Imports first, so that `crate::Name` can follow a name a module re-exports. An
        // import may rest on another module's import: repeat until nothing changes (at most
        // once per module, since each round settles at least one more).
        for _ in 0..=modules.len() {
            let mut changed = false;
            for m in 0..modules.len() {
                let found: Vec<(String, usize)> = modules[m]
                    .facts
                    .paths
                    .iter()
                    .filter(|p| p.from_use)
                    .filter_map(|p| {
                        let target = resolve(&modules, m, p)?;
                        let name = p.segments.last()?.clone();
                        Some((name, target))
                    })
                    .collect();
                for (name, target) in found {
                    if target != m && modules[m].imports.insert(name, target) != Some(target) {
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut edges = BTreeMap::new();
        for m in 0..modules.len() {
            for p in &modules[m].facts.paths {
                if let Some(target) = resolve(&modules, m, p)
                    && target != m
                {
                    edges.entry((m, target)).or_insert(p.line);
                }
            }
        }
        ModuleGraph { modules, edges }
    }

    /// The file of module `m`, relative to `base` where it lies under it.
    pub fn name(&self, m: usize, base: &Path) -> String {
        let file = &self.modules[m].file;
        file.strip_prefix(base).unwrap_or(file).display().to_string()
    }

    /// The successors of each module.
    pub fn successors(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.modules.len()];
        for &(from, to) in self.edges.keys() {
            out[from].push(to);
        }
        out
    }
}

/// The module a path names, or `None` when it names none of this crate's modules (another
/// crate, a local name, a module written inline in the file).
fn resolve(modules: &[Module], from: usize, path: &WrittenPath) -> Option<usize> {
    let mut segments = path.segments.iter().map(String::as_str).peekable();
    let mut inline_depth = path.inline_depth;
    let mut at = match *segments.peek()? {
        "crate" | "$crate" => {
            segments.next();
            0
        }
        "self" => {
            segments.next();
            if inline_depth > 0 {
                return None;
            }
            from
        }
        "super" => {
            let mut at = from;
            while segments.peek() == Some(&"super") {
                segments.next();
                if inline_depth > 0 {
                    inline_depth -= 1;
                } else {
                    at = modules[at].parent?;
                }
            }
            if inline_depth > 0 {
                return None;
            }
            at
        }
        first => {
            if inline_depth > 0 {
                return None;
            }
            // A relative path starts at a child module or at a name this module imports.
            let next = modules[from].children.get(first).or_else(|| match path.from_use {
                true => None,
                false => modules[from].imports.get(first),
            })?;
            segments.next();
            *next
        }
    };
    for segment in segments {
        if let Some(&child) = modules[at].children.get(segment) {
            at = child;
        } else if let Some(&imported) = modules[at].imports.get(segment) {
            at = imported;
            break;
        } else {
            break;
        }
    }
    Some(at)
}
