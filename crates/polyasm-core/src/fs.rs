//! Atomic output: write beside the destination, then rename over it.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed into place. On any error `path` is left as it was.
///
/// - A destination that is not a regular file (`/dev/stdout`, a FIFO, `/dev/null`) cannot be
///   replaced, so it is written directly.
/// - Through a symbolic link, the file the link points to is replaced; the link stays.
/// - A replaced file keeps its permissions; a new one gets `rw-r--r--` on Unix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let existing = std::fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|meta| !meta.is_file()) {
        return std::fs::OpenOptions::new().write(true).open(path)?.write_all(bytes);
    }
    let destination = resolve_links(path)?;
    let dir = match destination.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".polyasm-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    match existing {
        Some(meta) => temp.as_file().set_permissions(meta.permissions())?,
        None => set_new_file_permissions(temp.as_file())?,
    }
    temp.as_file().sync_all()?;
    temp.persist(&destination).map_err(|e| e.error)?;
    Ok(())
}

/// A file written atomically as it is streamed: [`AtomicWriter::create`] opens a temporary file
/// beside the destination and [`AtomicWriter::commit`] renames it into place. Dropped without
/// `commit` (the run failed), the temporary file is removed and the destination is left as it
/// was. Destinations that are not regular files are written directly, as by [`write_atomic`].
pub struct AtomicWriter {
    inner: AtomicInner,
}

enum AtomicInner {
    Temporary {
        file: tempfile::NamedTempFile,
        destination: PathBuf,
        permissions: Option<std::fs::Permissions>,
    },
    Direct(std::fs::File),
}

impl AtomicWriter {
    pub fn create(path: &Path) -> std::io::Result<AtomicWriter> {
        let existing = std::fs::metadata(path).ok();
        if existing.as_ref().is_some_and(|meta| !meta.is_file()) {
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok(AtomicWriter {
                inner: AtomicInner::Direct(file),
            });
        }
        let destination = resolve_links(path)?;
        let dir = match destination.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file = tempfile::Builder::new()
            .prefix(".polyasm-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        Ok(AtomicWriter {
            inner: AtomicInner::Temporary {
                file,
                destination,
                permissions: existing.map(|meta| meta.permissions()),
            },
        })
    }

    /// Puts the written file in place of the destination.
    pub fn commit(self) -> std::io::Result<()> {
        match self.inner {
            AtomicInner::Direct(mut file) => file.flush(),
            AtomicInner::Temporary {
                mut file,
                destination,
                permissions,
            } => {
                file.flush()?;
                match permissions {
                    Some(permissions) => file.as_file().set_permissions(permissions)?,
                    None => set_new_file_permissions(file.as_file())?,
                }
                file.as_file().sync_all()?;
                file.persist(&destination).map_err(|e| e.error)?;
                Ok(())
            }
        }
    }

    fn file(&mut self) -> &mut std::fs::File {
        match &mut self.inner {
            AtomicInner::Direct(file) => file,
            AtomicInner::Temporary { file, .. } => file.as_file_mut(),
        }
    }
}

impl Write for AtomicWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.file().write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file().flush()
    }
}

/// The path a chain of symbolic links at `path` ends at (`path` itself if it is no link).
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path),
        _ => Ok(path.to_path_buf()),
    }
}

#[cfg(unix)]
fn set_new_file_permissions(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_permissions(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_destination_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        std::fs::write(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomic(&dir.path().join("no/such/out.bin"), b"x").is_err());
    }

    #[test]
    fn a_streamed_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, b"old").unwrap();
        let mut dropped = AtomicWriter::create(&path).unwrap();
        dropped.write_all(b"partial").unwrap();
        drop(dropped);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut kept = AtomicWriter::create(&path).unwrap();
        kept.write_all(b"new").unwrap();
        kept.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn special_files_links_and_permissions() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        write_atomic(Path::new("/dev/null"), b"discarded").unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());

        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.bin");
        let link = dir.path().join("link.bin");
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);

        let fresh = dir.path().join("fresh.bin");
        write_atomic(&fresh, b"x").unwrap();
        assert_eq!(std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, 0o644);
    }
}
