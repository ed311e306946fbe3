//! The sources `polyasm serve` lists: the files given, and every file under the folders given
//! whose target polyasm knows (by its extension or its folder's `polyasm.toml`). Nothing else
//! is ever read for the page: a link that leads out of the folders is passed over.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use polyasm_core::config::{self, Config};
use polyasm_core::{Registry, SourceMap, Target};

use crate::check::{Listed, canonical};

/// The most sources listed; a larger tree is cut, with a note.
pub const MAX_SOURCES: usize = 5_000;

/// The most directory entries looked at in one scan, so that a huge tree costs a bounded time.
pub const MAX_ENTRIES: usize = 200_000;

/// The most PNG pictures listed as textures.
pub const MAX_PICTURES: usize = 1_000;

/// How deep folders are walked.
pub const MAX_DEPTH: usize = 24;

/// A path given on the command line.
#[derive(Clone, Debug)]
pub struct Root {
    /// As given (the names of its files start with it).
    pub given: PathBuf,
    /// Resolved: where links must stay.
    pub canonical: PathBuf,
    /// Whether it is a folder (else a single file).
    pub is_folder: bool,
}

impl Root {
    /// Reads a command-line path; an error names what is wrong with it.
    pub fn new(given: &Path) -> Result<Root, String> {
        let meta =
            std::fs::metadata(given).map_err(|e| format!("{}: {}", given.display(), polyasm_core::fs::reason(&e)))?;
        let canonical = std::fs::canonicalize(given)
            .map_err(|e| format!("{}: {}", given.display(), polyasm_core::fs::reason(&e)))?;
        if !meta.is_dir() && !meta.is_file() {
            return Err(format!("{} is not a file or a folder", given.display()));
        }
        Ok(Root {
            given: given.to_path_buf(),
            canonical,
            is_folder: meta.is_dir(),
        })
    }
}

/// What one scan found.
#[derive(Default)]
pub struct Scan {
    /// By name.
    pub listed: BTreeMap<String, Listed>,
    /// The PNG pictures under the folders, by name: what the page may bind as textures.
    pub pictures: BTreeMap<String, PathBuf>,
    /// Whether the scan stopped at a limit.
    pub cut: bool,
}

/// Lists the sources under `roots`.
pub fn scan(registry: &Registry, roots: &[Root]) -> Scan {
    let mut scan = Scan::default();
    let mut walker = Walker {
        registry,
        roots,
        settings: HashMap::new(),
        entries: 0,
    };
    for root in roots {
        if root.is_folder {
            walker.folder(&root.given, 0, &mut scan);
        } else if let Some(target) = walker.target_of(&root.given, true) {
            walker.add(&root.given, target, &mut scan);
        }
    }
    scan
}

struct Walker<'a> {
    registry: &'a Registry,
    roots: &'a [Root],
    /// The settings of each folder looked at (`None`: no readable `polyasm.toml` above it).
    settings: HashMap<PathBuf, Option<Config>>,
    entries: usize,
}

impl Walker<'_> {
    fn folder(&mut self, dir: &Path, depth: usize, scan: &mut Scan) {
        if depth > MAX_DEPTH {
            return;
        }
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<(String, PathBuf)> = Vec::new();
        for entry in read.flatten() {
            self.entries += 1;
            if self.entries > MAX_ENTRIES {
                scan.cut = true;
                return;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            // Hidden folders and files, and the build folders of the usual tools.
            if name.starts_with('.') || name == "target" || name == "node_modules" {
                continue;
            }
            entries.push((name, entry.path()));
        }
        entries.sort();
        for (_, path) in entries {
            if scan.listed.len() >= MAX_SOURCES {
                scan.cut = true;
                return;
            }
            let Ok(link) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if link.file_type().is_symlink() && !self.inside_roots(&path) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                // A linked folder is not followed: it could lead back up and round.
                if !link.file_type().is_symlink() {
                    self.folder(&path, depth + 1, scan);
                }
            } else if meta.is_file()
                && let Some(target) = self.target_of(&path, false)
            {
                self.add(&path, target, scan);
            } else if meta.is_file()
                && scan.pictures.len() < MAX_PICTURES
                && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
            {
                scan.pictures.insert(display_name(&path), path);
            }
        }
    }

    /// Whether `path` resolves to a place inside one of the folders (or is a file) given.
    fn inside_roots(&self, path: &Path) -> bool {
        let resolved = canonical(path);
        self.roots.iter().any(|root| {
            if root.is_folder {
                resolved.starts_with(&root.canonical)
            } else {
                resolved == root.canonical
            }
        })
    }

    /// The target of the file at `path`: its folder's settings or its extension. A file given
    /// by name may also take the settings' default target.
    fn target_of(&mut self, path: &Path, given: bool) -> Option<&'static dyn Target> {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let registry = self.registry;
        let settings = self.settings.entry(dir.clone()).or_insert_with(|| {
            let found = config::find(&dir)?;
            config::load(&found, registry, &mut SourceMap::new()).ok()
        });
        match settings {
            Some(config) if given => config.target_for(registry, path),
            Some(config) => config.target_by_extension(registry, path),
            None => path.to_str().and_then(|p| registry.by_path(p)),
        }
        // Bytecode files are programs too, but the page shows sources.
        .filter(|t| path.to_str().is_none_or(|p| !t.info().is_binary_path(p)))
    }

    fn add(&mut self, path: &Path, target: &'static dyn Target, scan: &mut Scan) {
        let name = display_name(path);
        scan.listed.insert(
            name.clone(),
            Listed {
                name,
                path: path.to_path_buf(),
                target,
            },
        );
    }
}

/// How a path is named on the page and in diagnostics: as given, `/`-separated, without a
/// leading `./`.
pub fn display_name(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut name = text.as_str();
    while let Some(rest) = name.strip_prefix("./") {
        name = rest;
    }
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_drop_a_leading_dot_folder() {
        assert_eq!(display_name(Path::new("./a/b.mx")), "a/b.mx");
        assert_eq!(display_name(Path::new("a/./b.mx")), "a/./b.mx");
        assert_eq!(display_name(Path::new("/x/b.mx")), "/x/b.mx");
    }
}
