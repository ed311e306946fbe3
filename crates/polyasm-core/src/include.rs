//! Included files: finding them, reading each once, and where each was included from.
//!
//! A dialect with an include directive makes one [`IncludeLoader`] per assembly and calls
//! [`IncludeLoader::load`] with the name as written and the directive's span. The loader
//! searches, in order: the including file's folder, the main file's folder, the `-I` folders
//! ([`crate::TargetOptions::include_dirs`]), the dialect's built-in files
//! ([`IncludeLoader::with_builtins`]), and the current folder. A source without a file
//! (standard input, a string) has the current folder as its folder; a built-in file has none.
//! An absolute name is used as it is. The first match that is a regular file wins; folders,
//! devices, FIFOs and sockets are looked at (never opened) and passed over, and when nothing else
//! matches, the error (PA020) says what the first of them is.
//!
//! Each file is read once: its canonical path is its identity, and a file already loaded (or
//! still being loaded: a cycle) comes back as [`Included::Again`] so that the dialect can skip
//! it. A new file is added to the [`SourceMap`] with the span of the directive, and every
//! diagnostic that points into it gets "included from FILE:LINE:COL" notes up the chain when it
//! is rendered ([`chain_notes`]), for every dialect and every error format.
//!
//! ```
//! use polyasm_core::include::{IncludeLoader, Included};
//! use polyasm_core::{SourceMap, Span};
//!
//! let dir = std::env::temp_dir().join(format!("polyasm-include-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("lib.mx"), "inc\n").unwrap();
//! let main_path = dir.join("main.mx");
//!
//! let mut sources = SourceMap::new();
//! let main = sources.try_add_file("main.mx", &main_path, "%include \"lib\"\n").unwrap();
//! let mut loader = IncludeLoader::new(&sources, main, &[]).with_default_extension("mx");
//! let directive = Span::new(main, 0, 14);
//! let Ok(Included::New(lib)) = loader.load(&mut sources, directive, "lib") else { panic!() };
//! assert_eq!(sources.get(lib).text(), "inc\n");
//! assert!(matches!(loader.load(&mut sources, directive, "lib.mx"), Ok(Included::Again { .. })));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::explain::Code;
use crate::source::{MAX_SOURCE_LEN, SourceId, SourceMap, Span};

/// The most includes that may lead to one file (the main file is at depth 0).
pub const MAX_INCLUDE_DEPTH: usize = 64;

/// The main file and every file it includes must hold fewer bytes than this together: the
/// limit of one input (4 GiB; at most [`crate::fs::MAX_INPUT_LEN`] bytes).
pub const MAX_TOTAL_SOURCE_LEN: u64 = MAX_SOURCE_LEN as u64;

/// A file a dialect carries inside itself (e.g. a standard library), found by its name after
/// the `-I` folders.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinFile {
    /// The name as a directive writes it, with `/` between folders and with its extension,
    /// e.g. `std/stack.mx`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// What [`IncludeLoader::load`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Included {
    /// A file read for the first time, now in the [`SourceMap`].
    New(SourceId),
    /// A file loaded before (the main file included). `active` is true when the file is
    /// still being included, i.e. it is on the include chain of the directive: a cycle.
    Again {
        /// The file's id from its first load.
        source: SourceId,
        /// Whether the file is on the include chain of the directive.
        active: bool,
    },
}

/// What identifies a loaded file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileKey {
    /// A file, by its canonical path.
    Path(PathBuf),
    /// A built-in file, by its index.
    Builtin(usize),
}

/// A place a name was looked up in, for the "not found" note.
enum Place {
    Folder(PathBuf),
    Builtins,
}

/// Finds, reads and registers included files for one assembly (see the module docs).
pub struct IncludeLoader {
    main: SourceId,
    include_dirs: Vec<PathBuf>,
    builtins: &'static [BuiltinFile],
    default_extension: Option<&'static str>,
    loaded: HashMap<FileKey, SourceId>,
    /// Files that could not be read as text, with their error: a file named again is not read
    /// again.
    undecodable: HashMap<FileKey, Diagnostic>,
    /// Names already resolved from a folder (the including file's folder, the name): a
    /// directive repeated many times costs one lookup.
    resolved: HashMap<(Option<PathBuf>, String), SourceId>,
    /// Bytes of every source of this assembly so far.
    total_len: u64,
}

impl IncludeLoader {
    /// A loader for the assembly of `main`, searching `include_dirs` (the `-I` folders) after
    /// the including and main files' folders.
    pub fn new(sources: &SourceMap, main: SourceId, include_dirs: &[PathBuf]) -> IncludeLoader {
        let source = sources.get(main);
        let mut loaded = HashMap::new();
        if let Some(path) = source.path()
            && let Ok(canonical) = std::fs::canonicalize(path)
        {
            loaded.insert(FileKey::Path(canonical), main);
        }
        IncludeLoader {
            main,
            include_dirs: include_dirs.to_vec(),
            builtins: &[],
            default_extension: None,
            loaded,
            undecodable: HashMap::new(),
            resolved: HashMap::new(),
            total_len: source.text().len() as u64,
        }
    }

    /// Files the dialect carries, searched after the `-I` folders and before the current
    /// folder.
    pub fn with_builtins(mut self, builtins: &'static [BuiltinFile]) -> IncludeLoader {
        self.builtins = builtins;
        self
    }

    /// The extension a name without one gets (e.g. `mx`: `%include "lib"` reads `lib.mx`).
    pub fn with_default_extension(mut self, extension: &'static str) -> IncludeLoader {
        self.default_extension = Some(extension);
        self
    }

    /// Finds the file `name` that the directive at `directive` includes, and reads it unless it
    /// was loaded before. Errors (PA019 not found, PA020 unreadable or no regular file, PA021
    /// too deep, PA022 too much source) point at the directive and can be returned as they are.
    pub fn load(&mut self, sources: &mut SourceMap, directive: Span, name: &str) -> Result<Included, Diagnostic> {
        let name = self.with_extension(name);
        let from_folder = self.folder_of(sources, directive.source);
        let cache_key = (from_folder.clone(), name.clone());
        if let Some(&source) = self.resolved.get(&cache_key) {
            return Ok(self.again(sources, directive, source));
        }
        let Some(found) = self.find(&name, from_folder.as_deref(), sources) else {
            return Err(self.not_found(sources, directive, &name));
        };
        let key = match &found {
            Found::File(path) => {
                FileKey::Path(std::fs::canonicalize(path).map_err(|e| unreadable(directive, path, &e))?)
            }
            Found::Builtin(index) => FileKey::Builtin(*index),
            Found::Folder(path) => return Err(a_folder(directive, path)),
            Found::Special(path, kind) => return Err(not_regular(directive, path, kind)),
        };
        if let Some(&source) = self.loaded.get(&key) {
            self.resolved.insert(cache_key, source);
            return Ok(self.again(sources, directive, source));
        }
        if let Some(error) = self.undecodable.get(&key) {
            return Err(error.clone());
        }
        if sources.get(directive.source).include_depth() >= MAX_INCLUDE_DEPTH {
            return Err(too_deep(sources, directive, &name));
        }
        let (display, path, text) = match found {
            Found::File(path) => {
                let bytes = self.read(directive, &path)?;
                let display = path.display().to_string();
                match self.decode(sources, directive, &path, &display, bytes) {
                    Ok(text) => (display, Some(path), text),
                    Err(error) => {
                        self.undecodable.insert(key, error.clone());
                        return Err(error);
                    }
                }
            }
            Found::Builtin(index) => {
                let file = self.builtins[index];
                (format!("<builtin>/{}", file.name), None, file.text.to_string())
            }
            Found::Folder(_) | Found::Special(..) => unreachable!("refused above"),
        };
        if self.total_len + text.len() as u64 >= MAX_TOTAL_SOURCE_LEN {
            return Err(too_much(directive, &display));
        }
        let id = sources
            .try_add_included(display.clone(), path, text, directive)
            .map_err(|_| too_much(directive, &display))?;
        self.total_len += sources.get(id).text().len() as u64;
        self.loaded.insert(key, id);
        self.resolved.insert(cache_key, id);
        Ok(Included::New(id))
    }

    /// The folders searched for `name` from `from` (the including source), in order; built-in
    /// files are not folders and are left out. Duplicates are kept.
    pub fn search_folders(&self, sources: &SourceMap, from: SourceId) -> Vec<PathBuf> {
        self.places(self.folder_of(sources, from).as_deref(), sources)
            .into_iter()
            .filter_map(|place| match place {
                Place::Folder(folder) => Some(folder),
                Place::Builtins => None,
            })
            .collect()
    }

    fn with_extension(&self, name: &str) -> String {
        match self.default_extension {
            Some(ext) if Path::new(name).extension().is_none() => format!("{name}.{ext}"),
            _ => name.to_string(),
        }
    }

    /// The folder of a source: its file's folder, the current folder for a source without a
    /// file, and none for a built-in file.
    fn folder_of(&self, sources: &SourceMap, id: SourceId) -> Option<PathBuf> {
        let source = sources.get(id);
        match source.path() {
            Some(path) => Some(match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => PathBuf::from("."),
            }),
            None if source.included_from().is_some() => None,
            None => Some(PathBuf::from(".")),
        }
    }

    fn places(&self, from_folder: Option<&Path>, sources: &SourceMap) -> Vec<Place> {
        let mut places = Vec::with_capacity(self.include_dirs.len() + 4);
        places.extend(from_folder.map(|f| Place::Folder(f.to_path_buf())));
        places.extend(self.folder_of(sources, self.main).map(Place::Folder));
        places.extend(self.include_dirs.iter().cloned().map(Place::Folder));
        if !self.builtins.is_empty() {
            places.push(Place::Builtins);
        }
        places.push(Place::Folder(PathBuf::from(".")));
        places
    }

    /// The first regular file or built-in file of that name in the search order. Folders,
    /// devices, FIFOs and sockets are passed over (looked at, never opened); when no file is
    /// found, the first of them is returned, so that the error can say what it is.
    fn find(&self, name: &str, from_folder: Option<&Path>, sources: &SourceMap) -> Option<Found> {
        if Path::new(name).is_absolute() {
            return classify(PathBuf::from(name));
        }
        let mut passed_over = None;
        for place in self.places(from_folder, sources) {
            match place {
                Place::Folder(folder) => match classify(join(&folder, name)) {
                    Some(found @ Found::File(_)) => return Some(found),
                    Some(other) => {
                        passed_over.get_or_insert(other);
                    }
                    None => {}
                },
                Place::Builtins => {
                    if let Some(index) = self.builtins.iter().position(|b| b.name == name) {
                        return Some(Found::Builtin(index));
                    }
                }
            }
        }
        passed_over
    }

    fn again(&self, sources: &SourceMap, directive: Span, source: SourceId) -> Included {
        let active = source == directive.source || sources.include_chain(directive.source).any(|s| s.source == source);
        Included::Again { source, active }
    }

    /// Reads a found file, refusing one that would pass the total limit (before reading it,
    /// when its length says so).
    fn read(&self, directive: Span, path: &Path) -> Result<Vec<u8>, Diagnostic> {
        // Bounded by what is left of the total, so a file that grows or never ends stops there.
        let left = crate::fs::MAX_INPUT_LEN.saturating_sub(self.total_len);
        crate::fs::read_regular_file_within(path, left).map_err(|e| match e {
            crate::fs::ReadError::TooLarge => too_much(directive, &path.display().to_string()),
            crate::fs::ReadError::Io(e) => unreadable(directive, path, &e),
        })
    }

    /// The bytes of an included file as UTF-8 text without a byte-order mark. Bytes that are
    /// not UTF-8 (or UTF-16 without a mark) are PA020 at the first bad byte, as PA002 points
    /// at it in a main file: the file's text up to there is registered as included by the
    /// directive, so the error has the file's line and column and an "included from" note.
    fn decode(
        &self,
        sources: &mut SourceMap,
        directive: Span,
        path: &Path,
        display: &str,
        bytes: Vec<u8>,
    ) -> Result<String, Diagnostic> {
        let error = || {
            Diagnostic::error(
                Code::CannotReadInclude,
                format!("cannot include {display}: not UTF-8 text"),
            )
        };
        let mut add =
            |text: String| sources.try_add_included(display.to_string(), Some(path.to_path_buf()), text, directive);
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err(crate::text::not_utf8_at(e, error(), &mut add)),
        };
        let mut text = crate::text::undecodable_utf16(text, error(), &mut add)?;
        crate::text::strip_bom(&mut text);
        Ok(text)
    }

    fn not_found(&self, sources: &SourceMap, directive: Span, name: &str) -> Diagnostic {
        let diagnostic = Diagnostic::error(Code::IncludeNotFound, format!("cannot find `{name}` to include"))
            .with_primary(directive, "not found");
        if Path::new(name).is_absolute() {
            return diagnostic.with_note("an absolute name is used as it is");
        }
        let mut searched: Vec<String> = Vec::new();
        for place in self.places(self.folder_of(sources, directive.source).as_deref(), sources) {
            let shown = match place {
                Place::Folder(folder) => format!("`{}`", folder.display()),
                Place::Builtins => "the built-in files".to_string(),
            };
            if !searched.contains(&shown) {
                searched.push(shown);
            }
        }
        diagnostic
            .with_note(format!("searched, in order: {}", searched.join(", ")))
            .with_help("add the folder that holds it with `-I DIR`")
    }
}

enum Found {
    File(PathBuf),
    Builtin(usize),
    /// A folder of the name, and no file.
    Folder(PathBuf),
    /// A device, FIFO or socket of the name (what it is, in words), and no file.
    Special(PathBuf, &'static str),
}

/// What `path` is, by its metadata (the file is not opened, so a FIFO cannot block); `None`
/// when there is nothing there.
fn classify(path: PathBuf) -> Option<Found> {
    let file_type = std::fs::metadata(&path).ok()?.file_type();
    Some(if file_type.is_file() {
        Found::File(path)
    } else if file_type.is_dir() {
        Found::Folder(path)
    } else {
        Found::Special(path, crate::fs::special_file_kind(&file_type))
    })
}

/// `folder/name`, without a leading `./` for the current folder.
fn join(folder: &Path, name: &str) -> PathBuf {
    if folder == Path::new(".") {
        PathBuf::from(name)
    } else {
        folder.join(name)
    }
}

fn a_folder(directive: Span, path: &Path) -> Diagnostic {
    Diagnostic::error(
        Code::CannotReadInclude,
        format!("`{}` is a folder, not a file", path.display()),
    )
    .with_primary(directive, "included here")
    .with_help(format!(
        "include a file in it by its path, such as `{}`",
        path.join("NAME").display()
    ))
}

fn not_regular(directive: Span, path: &Path, kind: &str) -> Diagnostic {
    Diagnostic::error(
        Code::CannotReadInclude,
        format!("`{}` is not a regular file: it is {kind}", path.display()),
    )
    .with_primary(directive, "included here")
    .with_note("devices, FIFOs and sockets are not read as included files: they may never end")
    .with_help("save what it gives to a regular file and include that")
}

fn unreadable(directive: Span, path: &Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::CannotReadInclude,
        format!("cannot include {}: {}", path.display(), crate::fs::reason(error)),
    )
    .with_primary(directive, "included here")
}

fn too_deep(sources: &SourceMap, directive: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::IncludesTooDeep,
        format!("includes nested more than {MAX_INCLUDE_DEPTH} deep at `{name}`"),
    )
    .with_primary(directive, "one include too many")
    .with_note(format!(
        "{} includes lead to {}",
        sources.get(directive.source).include_depth(),
        sources.get(directive.source).name()
    ))
    .with_help("include the file from a shallower place, or merge files")
}

fn too_much(directive: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SourcesTooLarge,
        format!("including {name} makes the sources 4 GiB or larger in all"),
    )
    .with_primary(directive, "included here")
    .with_help("split the program into smaller pieces assembled on their own")
}

/// The notes a diagnostic pointing into an included file gets when it is rendered: "included
/// from FILE:LINE:COL", innermost first, up to the main file. Empty for other diagnostics.
pub fn chain_notes(diagnostic: &Diagnostic, sources: &SourceMap) -> Vec<String> {
    let Some(source) = diagnostic.source() else {
        return Vec::new();
    };
    if source.index() >= sources.len() {
        return Vec::new();
    }
    sources
        .include_chain(source)
        .map(|span| {
            let from = sources.get(span.source);
            format!("included from {}:{}", from.name(), from.line_col(span.start as usize))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Tree(tempfile::TempDir);

    impl Tree {
        fn new(files: &[(&str, &str)]) -> Tree {
            let dir = tempfile::tempdir().expect("a temporary folder");
            for (name, text) in files {
                let path = dir.path().join(name);
                std::fs::create_dir_all(path.parent().expect("files are in a folder")).expect("folder");
                std::fs::write(path, text).expect("write");
            }
            Tree(dir)
        }

        fn path(&self, name: &str) -> PathBuf {
            self.0.path().join(name)
        }

        /// `sources` with the main file `name` added from its path.
        fn main(&self, sources: &mut SourceMap, name: &str) -> SourceId {
            let path = self.path(name);
            let text = std::fs::read_to_string(&path).expect("main file");
            sources.try_add_file(name, path, text).expect("small")
        }
    }

    fn whole(sources: &SourceMap, id: SourceId) -> Span {
        Span::new(id, 0, sources.get(id).text().len())
    }

    /// Loads `name` from a directive that spans the whole of `from`.
    fn load(
        loader: &mut IncludeLoader,
        sources: &mut SourceMap,
        from: SourceId,
        name: &str,
    ) -> Result<Included, Diagnostic> {
        let directive = whole(sources, from);
        loader.load(sources, directive, name)
    }

    fn new_id(result: Result<Included, Diagnostic>) -> SourceId {
        match result {
            Ok(Included::New(id)) => id,
            other => panic!("expected a new file, got {other:?}"),
        }
    }

    #[test]
    fn the_including_files_folder_comes_before_the_main_files() {
        let tree = Tree::new(&[
            ("main.mx", "main"),
            ("lib.mx", "main's lib"),
            ("sub/inner.mx", "inner"),
            ("sub/lib.mx", "sub's lib"),
        ]);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let mut loader = IncludeLoader::new(&sources, main, &[]).with_default_extension("mx");
        let inner = new_id(load(&mut loader, &mut sources, main, "sub/inner"));
        let lib = new_id(load(&mut loader, &mut sources, inner, "lib"));
        assert_eq!(sources.get(lib).text(), "sub's lib");
        // From the main file, `lib` is the main folder's.
        let main_lib = new_id(load(&mut loader, &mut sources, main, "lib"));
        assert_eq!(sources.get(main_lib).text(), "main's lib");
        assert_eq!(sources.get(lib).include_depth(), 2);
    }

    #[test]
    fn include_dirs_are_searched_in_order_after_the_main_folder() {
        let tree = Tree::new(&[
            ("src/main.mx", "main"),
            ("a/x.mx", "a's x"),
            ("b/x.mx", "b's x"),
            ("b/y.inc", "b's y"),
        ]);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "src/main.mx");
        let dirs = [tree.path("a"), tree.path("b")];
        let mut loader = IncludeLoader::new(&sources, main, &dirs).with_default_extension("mx");
        let x = new_id(load(&mut loader, &mut sources, main, "x"));
        assert_eq!(sources.get(x).text(), "a's x");
        // A name with an extension keeps it.
        let y = new_id(load(&mut loader, &mut sources, main, "y.inc"));
        assert_eq!(sources.get(y).text(), "b's y");
        assert_eq!(sources.get(y).path(), Some(tree.path("b/y.inc").as_path()));
    }

    #[test]
    fn a_file_is_read_once_and_a_cycle_is_reported_as_active() {
        let tree = Tree::new(&[("main.mx", "m"), ("a.mx", "a"), ("dir/b.mx", "b")]);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let mut loader = IncludeLoader::new(&sources, main, &[]).with_default_extension("mx");
        let a = new_id(load(&mut loader, &mut sources, main, "a"));
        let b = new_id(load(&mut loader, &mut sources, a, "dir/b"));
        // b includes a (through another spelling of the path): a is still being included.
        assert_eq!(
            load(&mut loader, &mut sources, b, "../a.mx"),
            Ok(Included::Again {
                source: a,
                active: true
            })
        );
        // b includes the main file: a cycle too.
        assert_eq!(
            load(&mut loader, &mut sources, b, "../main"),
            Ok(Included::Again {
                source: main,
                active: true
            })
        );
        // The main file includes b again: loaded before, but not on the chain.
        assert_eq!(
            load(&mut loader, &mut sources, main, "dir/b.mx"),
            Ok(Included::Again {
                source: b,
                active: false
            })
        );
        assert_eq!(sources.len(), 3);
    }

    #[test]
    fn not_found_lists_the_folders_searched_once_each() {
        let tree = Tree::new(&[("main.mx", "m")]);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let dirs = [tree.path("extra")];
        let mut loader = IncludeLoader::new(&sources, main, &dirs).with_default_extension("mx");
        let error = loader.load(&mut sources, Span::new(main, 0, 1), "nope").unwrap_err();
        assert_eq!(error.code, "PA019");
        assert_eq!(error.message, "cannot find `nope.mx` to include");
        assert_eq!(error.primary_label().map(|l| l.span), Some(Span::new(main, 0, 1)));
        let folder = format!("`{}`", tree.0.path().display());
        let extra = format!("`{}`", tree.path("extra").display());
        assert_eq!(error.notes, [format!("searched, in order: {folder}, {extra}, `.`")]);
        assert!(error.help.is_some());
    }

    #[test]
    fn standard_input_has_the_current_folder_and_absolute_names_are_used_as_they_are() {
        let tree = Tree::new(&[("abs.mx", "absolute")]);
        let mut sources = SourceMap::new();
        let main = sources.add("<stdin>", "x");
        let mut loader = IncludeLoader::new(&sources, main, &[]);
        assert_eq!(loader.search_folders(&sources, main), vec![PathBuf::from("."); 3]);
        let absolute = tree.path("abs.mx");
        let id = new_id(load(&mut loader, &mut sources, main, &absolute.display().to_string()));
        assert_eq!(sources.get(id).text(), "absolute");
        let missing = tree.path("missing.mx").display().to_string();
        let error = load(&mut loader, &mut sources, main, &missing).unwrap_err();
        assert_eq!(error.code, "PA019");
    }

    #[test]
    fn builtins_come_after_the_include_dirs() {
        static BUILTINS: &[BuiltinFile] = &[
            BuiltinFile {
                name: "std/stack.mx",
                text: "builtin stack",
            },
            BuiltinFile {
                name: "std/io.mx",
                text: "builtin io",
            },
        ];
        let tree = Tree::new(&[("main.mx", "m"), ("over/std/io.mx", "my io")]);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let dirs = [tree.path("over")];
        let mut loader = IncludeLoader::new(&sources, main, &dirs)
            .with_default_extension("mx")
            .with_builtins(BUILTINS);
        let stack = new_id(load(&mut loader, &mut sources, main, "std/stack"));
        assert_eq!(sources.get(stack).text(), "builtin stack");
        assert_eq!(sources.get(stack).name(), "<builtin>/std/stack.mx");
        assert_eq!(sources.get(stack).path(), None);
        let io = new_id(load(&mut loader, &mut sources, stack, "std/io"));
        assert_eq!(sources.get(io).text(), "my io");
        assert!(matches!(
            load(&mut loader, &mut sources, io, "std/stack"),
            Ok(Included::Again { active: true, .. })
        ));
    }

    #[test]
    fn unreadable_files_are_errors_at_the_directive() {
        let tree = Tree::new(&[("main.mx", "m")]);
        std::fs::write(tree.path("bad.mx"), b"ld 1\n; caf\xe9\nld 2\n").expect("write");
        std::fs::create_dir(tree.path("folder.mx")).expect("folder");
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let mut loader = IncludeLoader::new(&sources, main, &[]);
        let error = loader.load(&mut sources, Span::new(main, 0, 1), "bad.mx").unwrap_err();
        assert_eq!(error.code, "PA020");
        let bad = tree.path("bad.mx");
        assert_eq!(
            error.message,
            format!("cannot include {}: not UTF-8 text", bad.display())
        );
        // The error points at the byte in the included file (shown as U+FFFD), which the
        // directive included.
        let label = error.primary_label().expect("a label at the byte");
        let file = sources.get(label.span.source);
        assert_eq!(
            (file.name(), label.span.range()),
            (bad.display().to_string().as_str(), 10..13)
        );
        assert_eq!(file.included_from(), Some(Span::new(main, 0, 1)));
        assert_eq!(file.line_col(10).line, 2);
        assert_eq!(label.message, "byte 0xe9 (offset 10) is not UTF-8");
        assert!(
            error
                .help
                .as_deref()
                .is_some_and(|h| h.contains("save the file as UTF-8"))
        );
        // Named again, the file is not read again: the same error comes back, and no other
        // source is added.
        let count = sources.len();
        std::fs::write(tree.path("bad.mx"), "fixed").expect("write");
        let again = loader.load(&mut sources, Span::new(main, 0, 1), "bad.mx").unwrap_err();
        assert_eq!((again, sources.len()), (error, count));
        // UTF-16 without a byte-order mark is refused at its first zero byte.
        std::fs::write(tree.path("wide.mx"), "l\0d\0 \x001\0".as_bytes()).expect("write");
        let error = loader.load(&mut sources, Span::new(main, 0, 1), "wide.mx").unwrap_err();
        assert_eq!(error.code, "PA020");
        assert_eq!(error.primary_label().map(|l| l.span.range()), Some(1..2));
        // A folder is not a file to include.
        let error = loader
            .load(&mut sources, Span::new(main, 0, 1), "folder.mx")
            .unwrap_err();
        assert_eq!(error.code, "PA020");
        let folder = tree.path("folder.mx");
        assert_eq!(error.message, format!("`{}` is a folder, not a file", folder.display()));
        assert_eq!(error.primary_label().map(|l| l.span), Some(Span::new(main, 0, 1)));
        assert!(error.help.is_some());
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_sockets_are_refused_unopened_and_passed_over_for_a_file() {
        let tree = Tree::new(&[("main.mx", "m"), ("lib/pipe.mx", "the file")]);
        let fifo = tree.path("pipe.mx");
        let name = std::ffi::CString::new(fifo.to_str().expect("UTF-8 temporary path")).expect("no NUL");
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let _socket = std::os::unix::net::UnixListener::bind(tree.path("socket.mx")).expect("socket");
        std::os::unix::fs::symlink("/dev/zero", tree.path("zero.mx")).expect("link");
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "main.mx");
        let mut loader = IncludeLoader::new(&sources, main, &[]).with_default_extension("mx");
        for (name, path, kind) in [
            ("pipe", fifo.clone(), "a FIFO"),
            ("socket", tree.path("socket.mx"), "a socket"),
            ("zero", tree.path("zero.mx"), "a character device"),
        ] {
            let error = load(&mut loader, &mut sources, main, name).unwrap_err();
            assert_eq!(error.code, "PA020", "{name}");
            assert_eq!(
                error.message,
                format!("`{}` is not a regular file: it is {kind}", path.display()),
                "{name}"
            );
            assert!(error.help.is_some() && !error.notes.is_empty(), "{name}");
        }
        // An absolute name is looked at the same way.
        let mut plain = IncludeLoader::new(&sources, main, &[]);
        let error = load(&mut plain, &mut sources, main, "/dev/null").unwrap_err();
        assert_eq!(
            error.message,
            "`/dev/null` is not a regular file: it is a character device"
        );
        // A regular file of the name further down the search order is taken instead.
        let mut with_lib = IncludeLoader::new(&sources, main, &[tree.path("lib")]).with_default_extension("mx");
        let id = new_id(load(&mut with_lib, &mut sources, main, "pipe"));
        assert_eq!(sources.get(id).text(), "the file");
    }

    #[test]
    fn nesting_is_limited() {
        let files: Vec<(String, String)> = (0..=MAX_INCLUDE_DEPTH + 1)
            .map(|i| (format!("f{i}.mx"), format!("f{}", i + 1)))
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let tree = Tree::new(&refs);
        let mut sources = SourceMap::new();
        let main = tree.main(&mut sources, "f0.mx");
        let mut loader = IncludeLoader::new(&sources, main, &[]).with_default_extension("mx");
        let mut current = main;
        for _ in 0..MAX_INCLUDE_DEPTH {
            let next = sources.get(current).text().to_string();
            current = new_id(load(&mut loader, &mut sources, current, &next));
        }
        assert_eq!(sources.get(current).include_depth(), MAX_INCLUDE_DEPTH);
        let next = sources.get(current).text().to_string();
        let error = load(&mut loader, &mut sources, current, &next).unwrap_err();
        assert_eq!(error.code, "PA021");
        assert_eq!(sources.include_chain(current).count(), MAX_INCLUDE_DEPTH);
    }

    #[test]
    fn chain_notes_name_each_directive_innermost_first() {
        let mut sources = SourceMap::new();
        let main = sources.add("main.mx", "one\n  %include \"a\"\n");
        let a = sources
            .try_add_included("a.mx".into(), None, "x\n%include \"b\"".into(), Span::new(main, 6, 18))
            .expect("small");
        let b = sources
            .try_add_included("b.mx".into(), None, "bad".into(), Span::new(a, 2, 14))
            .expect("small");
        let error = Diagnostic::error("X1", "bad").with_primary(Span::new(b, 0, 3), "here");
        assert_eq!(
            chain_notes(&error, &sources),
            ["included from a.mx:2:1", "included from main.mx:2:3"]
        );
        let in_main = Diagnostic::error("X1", "bad").with_primary(Span::new(main, 0, 3), "here");
        assert!(chain_notes(&in_main, &sources).is_empty());
        assert!(chain_notes(&Diagnostic::error("X1", "no span"), &sources).is_empty());
    }
}
