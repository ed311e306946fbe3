//! Where a build's files are: relative to the package (the folder of its Cargo.toml), and
//! whether a file is inside it.

use std::path::{Path, PathBuf};

use polyasm_core::explain::Code;
use polyasm_core::{Diagnostic, SourceMap};

/// The package a build script belongs to and how its paths are written.
pub(crate) struct Package {
    /// The folder of the package's Cargo.toml, as given.
    dir: PathBuf,
    /// The same folder with links followed, to compare with files; `None` when it cannot be
    /// resolved (it does not exist), in which case nothing is inside it.
    canonical: Option<PathBuf>,
    /// Whether the current folder is the package's, as when Cargo runs a build script: paths
    /// are then written as the user wrote them, relative to it.
    is_current_dir: bool,
}

impl Package {
    pub(crate) fn new(dir: PathBuf) -> Package {
        let canonical = std::fs::canonicalize(&dir).ok();
        let current = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
        let is_current_dir = canonical.is_some() && canonical == current;
        Package {
            dir,
            canonical,
            is_current_dir,
        }
    }

    /// `path` (relative to the package, or absolute) as diagnostics name it and as it is read:
    /// as written when the package is the current folder, else joined to the package's folder.
    pub(crate) fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() || self.is_current_dir {
            path.to_path_buf()
        } else {
            self.dir.join(path)
        }
    }

    /// Whether the file or folder at `path` is under the package once links are followed; a
    /// path that does not exist is, so that reading it reports that it is missing.
    pub(crate) fn holds(&self, path: &Path) -> bool {
        let Ok(canonical) = std::fs::canonicalize(self.resolve(path)) else {
            return true;
        };
        self.canonical.as_ref().is_some_and(|dir| canonical.starts_with(dir))
    }

    /// PA031 for `what` (`the source`, `include folder`) at `path`.
    pub(crate) fn outside(&self, what: &str, path: &Path) -> Diagnostic {
        Diagnostic::error(
            Code::OutsidePackage,
            format!("{what} `{}` is outside the package", path.display()),
        )
        .with_note(format!(
            "Cargo packages only the files under {}, so a published build would not find it",
            self.dir.display()
        ))
        .with_help(OUTSIDE_HELP)
    }

    /// PA031 for each file that an include directive found outside the package, at the
    /// directive.
    pub(crate) fn included_outside(&self, sources: &SourceMap) -> Vec<Diagnostic> {
        sources
            .iter()
            .filter_map(|(_, source)| {
                let directive = source.included_from()?;
                let path = source.path()?;
                (!self.holds(path)).then(|| {
                    self.outside("included file", path)
                        .with_primary(directive, "included here")
                })
            })
            .collect()
    }
}

const OUTSIDE_HELP: &str =
    "move the file into the package, or call `allow_outside_package()` if the package is never published";
