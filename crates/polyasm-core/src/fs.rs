//! Atomic output: write beside the destination, then rename over it; and the checks around it.
//! Bounded input: every file polyasm reads whole is read through [`read_bounded`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::explain::Code;
use crate::source::{SourceId, SourceMap};

/// The most bytes one input may hold: a source, a data file, or machine code to disassemble or
/// load. Sources keep 32-bit positions, so a source must be shorter than 4 GiB
/// ([`crate::source::MAX_SOURCE_LEN`]); the same bound holds for every file read whole, so
/// that an endless input (`/dev/zero`, a pipe that never ends) stops with an error instead of
/// filling the memory.
pub const MAX_INPUT_LEN: u64 = crate::source::MAX_SOURCE_LEN as u64 - 1;

/// Why a bounded read failed.
#[derive(Debug)]
pub enum ReadError {
    /// More bytes came than the limit allows; what was read is dropped.
    TooLarge,
    /// The system reported an error.
    Io(std::io::Error),
}

/// Reads `reader` to its end, but no more than `limit` bytes: one byte more is read through
/// [`Read::take`] to tell an input of exactly `limit` bytes from a longer one, which is
/// [`ReadError::TooLarge`]. `size_hint` (a regular file's length) is reserved up front; a hint
/// above the limit fails before anything is read.
pub fn read_bounded(reader: impl Read, limit: u64, size_hint: u64) -> Result<Vec<u8>, ReadError> {
    if size_hint > limit {
        return Err(ReadError::TooLarge);
    }
    let mut bytes = Vec::new();
    let reserve = usize::try_from(size_hint).unwrap_or(usize::MAX);
    bytes
        .try_reserve_exact(reserve)
        .map_err(|_| ReadError::Io(std::io::ErrorKind::OutOfMemory.into()))?;
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// Reads the file at `path` whole, up to [`MAX_INPUT_LEN`] bytes (see [`read_bounded`]). A
/// regular file longer than that is refused before it is read.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_file_within(path, MAX_INPUT_LEN)
}

/// [`read_file`] with a limit of `limit` bytes.
pub fn read_file_within(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let size_hint = match file.metadata() {
        Ok(meta) if meta.is_file() => meta.len(),
        _ => 0,
    };
    read_bounded(file, limit, size_hint)
}

/// [`read_file_within`] for a file that must be a regular file: anything else (a device, a
/// FIFO, a socket, a folder) is refused without being read, with the reason `it is not a
/// regular file` (`ErrorKind::InvalidInput`). On Unix the file is opened without blocking, so a
/// FIFO put in its place after the caller looked at it cannot hang the open.
pub fn read_regular_file_within(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a regular file",
        )));
    }
    read_bounded(file, limit, meta.len())
}

/// Opens `path` for reading without waiting for a writer: a FIFO that nobody writes opens at
/// once and reads as empty, instead of hanging the open; a pipe that has a writer (`<(cmd)`,
/// `/dev/stdin`) reads as usual, its reads waiting for data.
pub fn open_for_reading(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: F_GETFL and F_SETFL only read and set the status flags of a descriptor that
        // `file` owns and keeps open.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags == -1 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } == -1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(file)
}

/// What a file that is neither a regular file nor a folder is, in words (`a FIFO`), for
/// messages that refuse it.
pub fn special_file_kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    let _ = file_type;
    "not a regular file"
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed into place. On any error `path` is left as it was, and the temporary
/// file is removed (also when the process is interrupted, once
/// [`remove_temporary_on_signals`] is installed).
///
/// - A destination that is not a regular file (`/dev/stdout`, a FIFO, `/dev/null`) cannot be
///   replaced, so it is written directly; a directory is refused.
/// - A read-only destination is refused, as writing it in place would be.
/// - Through a symbolic link, the file the link points to is replaced (or created, if the link
///   dangles); the link stays.
/// - A replaced file keeps its permissions; a new one gets `rw-r--r--` on Unix.
///
/// Errors carry the reason in words (`it is a directory`, `cannot create a temporary file in
/// DIR: ...`), ready to follow `cannot write PATH: `.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut writer = AtomicWriter::create(path)?;
    writer.write_all(bytes)?;
    writer.commit()
}

/// [`write_atomic`] for a program to run: the file may be executed by whoever may read it.
pub fn write_atomic_executable(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut writer = AtomicWriter::create(path)?;
    writer.executable = true;
    writer.write_all(bytes)?;
    writer.commit()
}

/// A file written atomically as it is streamed, with the rules of [`write_atomic`]:
/// [`AtomicWriter::create`] opens a temporary file beside the destination and
/// [`AtomicWriter::commit`] renames it into place. Dropped without `commit` (the run failed),
/// the temporary file is removed and the destination is left as it was.
pub struct AtomicWriter {
    inner: AtomicInner,
    /// Whether the file is a program: executable by whoever may read it.
    executable: bool,
}

enum AtomicInner {
    Temporary {
        file: signals::Guarded,
        destination: PathBuf,
        permissions: Option<std::fs::Permissions>,
    },
    /// A destination that is not a regular file, written in place.
    Direct(std::fs::File),
}

impl AtomicWriter {
    /// Starts writing `path` into a temporary file beside it, which replaces `path` at
    /// [`AtomicWriter::commit`]; a destination that is no regular file (`/dev/stdout`, a pipe)
    /// is written in place. Fails for an empty path or a folder.
    pub fn create(path: &Path) -> std::io::Result<AtomicWriter> {
        use std::io::{Error, ErrorKind};
        if path.as_os_str().is_empty() {
            return Err(Error::new(ErrorKind::InvalidInput, "the path is empty"));
        }
        let existing = std::fs::metadata(path).ok();
        match &existing {
            Some(meta) if meta.is_dir() => return Err(Error::new(ErrorKind::IsADirectory, "it is a directory")),
            Some(meta) if !meta.is_file() => {
                let file = std::fs::OpenOptions::new().write(true).open(path)?;
                return Ok(AtomicWriter {
                    inner: AtomicInner::Direct(file),
                    executable: false,
                });
            }
            Some(meta) if meta.permissions().readonly() => {
                return Err(Error::new(ErrorKind::PermissionDenied, "it is read-only"));
            }
            _ => {}
        }
        let destination = resolve_links(path)?;
        let dir = match destination.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let file = signals::Guarded::create(|| {
            tempfile::Builder::new()
                .prefix(".polyasm-")
                .suffix(".tmp")
                .tempfile_in(dir)
        })
        .map_err(|e| {
            Error::new(
                e.kind(),
                format!("cannot create a temporary file in {}: {}", dir.display(), reason(&e)),
            )
        })?;
        Ok(AtomicWriter {
            inner: AtomicInner::Temporary {
                file,
                destination,
                permissions: existing.map(|meta| meta.permissions()),
            },
            executable: false,
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
                let handle = file.file().as_file_mut();
                handle.flush()?;
                match permissions {
                    Some(permissions) => handle.set_permissions(permissions)?,
                    None => set_new_file_permissions(handle)?,
                }
                if self.executable {
                    make_executable(handle)?;
                }
                handle.sync_all()?;
                file.persist(&destination).map_err(|e| {
                    std::io::Error::new(
                        e.kind(),
                        format!("cannot rename the temporary file into place: {}", reason(&e)),
                    )
                })
            }
        }
    }

    fn file(&mut self) -> &mut std::fs::File {
        match &mut self.inner {
            AtomicInner::Direct(file) => file,
            AtomicInner::Temporary { file, .. } => file.file().as_file_mut(),
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

/// Reads the file at `path` as a source named `name` (a file the command line or a build
/// reads, rather than an include): PA001 when it cannot be read, PA013 when it reaches
/// [`MAX_INPUT_LEN`], PA002 when it is not UTF-8 text. The source remembers `path`, so that
/// its includes are found beside it.
pub fn read_source(sources: &mut SourceMap, name: &str, path: &Path) -> Result<SourceId, Diagnostic> {
    let bytes = read_file(path).map_err(|e| match e {
        ReadError::TooLarge => too_large(name),
        ReadError::Io(e) => cannot_read(name, &e),
    })?;
    let text = crate::text::source_text(sources, name, bytes)?;
    sources.try_add_file(name, path, text).map_err(|_| too_large(name))
}

/// PA001: the input named `name` could not be read.
pub fn cannot_read(name: &str, error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(Code::CannotReadInput, format!("cannot read {name}: {}", reason(error)))
}

/// PA013: an input that reached the limit of every input while it was read.
pub fn too_large(name: &str) -> Diagnostic {
    Diagnostic::error(Code::FileTooLarge, format!("{name} is 4 GiB or larger")).with_help("split it into smaller files")
}

/// The OS's reason for an I/O error without its "(os error N)" suffix, to follow
/// `cannot write PATH: ` in a message.
pub fn reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Whether `a` and `b` name the same existing regular file, through `.`/`..`, symbolic links or
/// hard links. A path that does not exist is no file, so it is the same as nothing; devices and
/// pipes are not compared (`/dev/stdin` and `/dev/stdout` may both be one terminal).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(meta_a), Ok(meta_b)) if meta_a.is_file() && meta_b.is_file() => same_identity(&meta_a, &meta_b, a, b),
        _ => false,
    }
}

#[cfg(unix)]
fn same_identity(a: &std::fs::Metadata, b: &std::fs::Metadata, _: &Path, _: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_identity(_: &std::fs::Metadata, _: &std::fs::Metadata, a: &Path, b: &Path) -> bool {
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
}

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporary file a
/// [`write_atomic`] in progress has open, then end the process by the same signal (so the
/// parent sees it killed by that signal, exit status 128 + N in a shell). A signal that was
/// ignored when the process started (`nohup`) stays ignored. Does nothing off Unix.
pub fn remove_temporary_on_signals() {
    signals::install();
}

/// The path a chain of symbolic links at `path` ends at (`path` itself if it is no link). The
/// end need not exist: writing through a dangling link creates its target, as a shell's `>` does.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) => parent.join(target),
                    None => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
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

/// Lets whoever may read `file` execute it.
#[cfg(unix)]
fn make_executable(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = file.metadata()?.permissions().mode();
    file.set_permissions(std::fs::Permissions::from_mode(mode | (mode & 0o444) >> 2))
}

#[cfg(not(unix))]
fn make_executable(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// The temporary file of the write in progress, known to the signal handlers.
#[cfg(unix)]
mod signals {
    use std::ffi::{CString, c_char, c_int};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr::null_mut;
    use std::sync::atomic::{AtomicPtr, Ordering};

    use tempfile::NamedTempFile;

    /// The path of the temporary file being written, or null. Only atomic loads and stores
    /// touch it, so the handler may read it (async-signal-safe).
    static TEMPORARY: AtomicPtr<c_char> = AtomicPtr::new(null_mut());

    const SIGNALS: [c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// Removes the temporary file, then dies of the same signal. Calls only async-signal-safe
    /// functions (`unlink`, `signal`, `raise`).
    extern "C" fn on_signal(signal: c_int) {
        let path = TEMPORARY.swap(null_mut(), Ordering::SeqCst);
        // SAFETY: `path` is null or a NUL-terminated string that stays allocated while it is
        // registered; the three calls are async-signal-safe.
        unsafe {
            if !path.is_null() {
                libc::unlink(path);
            }
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    pub fn install() {
        for signal in SIGNALS {
            // SAFETY: plain sigaction calls with zero-initialised structures.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &action, null_mut());
            }
        }
    }

    /// Blocks the handled signals until [`unblock`]; returns the previous mask.
    fn block() -> libc::sigset_t {
        // SAFETY: sigset_t is plain data, initialised by sigemptyset before use.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for signal in SIGNALS {
                libc::sigaddset(&mut set, signal);
            }
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
            old
        }
    }

    fn unblock(old: libc::sigset_t) {
        // SAFETY: `old` came from pthread_sigmask.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, null_mut());
        }
    }

    /// A temporary file whose path is registered for the signal handlers while it exists.
    /// One write is registered at a time: a second one made meanwhile is not (the first keeps
    /// the slot).
    pub struct Guarded {
        file: Option<NamedTempFile>,
        path: *mut c_char,
        registered: bool,
    }

    impl Guarded {
        /// Creates the file with `make` and registers its path; a signal arriving meanwhile
        /// waits until the path is registered, so it cannot leave the file behind.
        pub fn create(make: impl FnOnce() -> std::io::Result<NamedTempFile>) -> std::io::Result<Guarded> {
            let old = block();
            let result = make().map(|file| {
                let path = CString::new(file.path().as_os_str().as_bytes())
                    .expect("a path from the OS holds no NUL byte")
                    .into_raw();
                let registered = TEMPORARY
                    .compare_exchange(null_mut(), path, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                Guarded {
                    file: Some(file),
                    path,
                    registered,
                }
            });
            unblock(old);
            result
        }

        pub fn file(&mut self) -> &mut NamedTempFile {
            self.file.as_mut().expect("the file is present until persisted")
        }

        /// Renames the file to `destination`; on failure it is removed.
        pub fn persist(mut self, destination: &Path) -> std::io::Result<()> {
            let file = self.file.take().expect("the file is present until persisted");
            file.persist(destination).map(drop).map_err(|e| e.error)
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            // Remove the file first (if it was not persisted), then forget its path.
            drop(self.file.take());
            let taken_back = self.registered
                && TEMPORARY
                    .compare_exchange(self.path, null_mut(), Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
            if taken_back || !self.registered {
                // SAFETY: `path` came from `CString::into_raw`, and no handler can reach it.
                drop(unsafe { CString::from_raw(self.path) });
            }
            // Otherwise a handler took the path and may be using it: the process is dying of
            // that signal, so the string is left to it.
        }
    }
}

#[cfg(not(unix))]
mod signals {
    use std::path::Path;

    use tempfile::NamedTempFile;

    pub fn install() {}

    pub struct Guarded(NamedTempFile);

    impl Guarded {
        pub fn create(make: impl FnOnce() -> std::io::Result<NamedTempFile>) -> std::io::Result<Guarded> {
            make().map(Guarded)
        }

        pub fn file(&mut self) -> &mut NamedTempFile {
            &mut self.0
        }

        pub fn persist(self, destination: &Path) -> std::io::Result<()> {
            self.0.persist(destination).map(drop).map_err(|e| e.error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_read_stops_one_byte_after_the_limit() {
        assert_eq!(read_bounded(&b"abcd"[..], 4, 0).unwrap(), b"abcd");
        assert_eq!(read_bounded(&b""[..], 0, 0).unwrap(), b"");
        assert!(matches!(read_bounded(&b"abcde"[..], 4, 0), Err(ReadError::TooLarge)));
        // An endless reader ends: no more than limit + 1 bytes are taken from it.
        let mut endless = std::io::repeat(0);
        assert!(matches!(read_bounded(&mut endless, 1000, 0), Err(ReadError::TooLarge)));
        let mut counted = CountingReader {
            inner: std::io::repeat(7),
            taken: 0,
        };
        assert!(matches!(read_bounded(&mut counted, 4096, 0), Err(ReadError::TooLarge)));
        assert_eq!(counted.taken, 4097);
        // A size hint above the limit fails before reading.
        let mut untouched = CountingReader {
            inner: std::io::repeat(7),
            taken: 0,
        };
        assert!(matches!(read_bounded(&mut untouched, 10, 11), Err(ReadError::TooLarge)));
        assert_eq!(untouched.taken, 0);
        // A hint below the truth only reserves: the real length counts.
        assert!(matches!(read_bounded(&b"abcdef"[..], 4, 2), Err(ReadError::TooLarge)));
        assert_eq!(read_bounded(&b"ab"[..], 4, 3).unwrap(), b"ab");
    }

    #[cfg(unix)]
    #[test]
    fn a_regular_file_read_refuses_fifos_devices_and_folders_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        for path in [fifo.as_path(), Path::new("/dev/zero"), dir.path()] {
            match read_regular_file_within(path, 1 << 16) {
                Err(ReadError::Io(e)) => {
                    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{path:?}");
                    assert_eq!(reason(&e), "it is not a regular file");
                }
                other => panic!("{path:?}: {other:?}"),
            }
        }
        let file = dir.path().join("file");
        std::fs::write(&file, b"text").unwrap();
        assert_eq!(read_regular_file_within(&file, 4).unwrap(), b"text");
        assert!(matches!(read_regular_file_within(&file, 3), Err(ReadError::TooLarge)));
        let kind = |path: &Path| special_file_kind(&std::fs::metadata(path).unwrap().file_type());
        assert_eq!(kind(&fifo), "a FIFO");
        assert_eq!(kind(Path::new("/dev/null")), "a character device");
    }

    struct CountingReader<R> {
        inner: R,
        taken: u64,
    }

    impl<R: Read> Read for CountingReader<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.taken += n as u64;
            Ok(n)
        }
    }

    #[test]
    fn a_bounded_file_read_refuses_a_long_file_before_reading_and_an_endless_device_after_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_file_within(&path, 5).unwrap(), b"12345");
        assert!(matches!(read_file_within(&path, 4), Err(ReadError::TooLarge)));
        assert!(matches!(
            read_file_within(&dir.path().join("missing"), 4),
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound
        ));
        // A sparse file as long as the limit allows is refused by its length, unread.
        let huge = dir.path().join("huge");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(MAX_INPUT_LEN + 1)
            .unwrap();
        assert!(matches!(read_file(&huge), Err(ReadError::TooLarge)));
        #[cfg(unix)]
        assert!(matches!(
            read_file_within(Path::new("/dev/zero"), 1 << 16),
            Err(ReadError::TooLarge)
        ));
    }

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
    fn two_writers_at_once_each_commit_or_clean_up() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
        let mut first = AtomicWriter::create(&a).unwrap();
        let mut second = AtomicWriter::create(&b).unwrap();
        first.write_all(b"a").unwrap();
        second.write_all(b"b").unwrap();
        drop(second);
        first.commit().unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"a");
        assert!(!b.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The slot is free again for the next write.
        write_atomic(&b, b"b").unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"b");
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

        let dangling = dir.path().join("dangling.bin");
        std::os::unix::fs::symlink("made.bin", &dangling).unwrap();
        write_atomic(&dangling, b"through").unwrap();
        assert_eq!(std::fs::read(dir.path().join("made.bin")).unwrap(), b"through");
        let looped = dir.path().join("loop.bin");
        std::os::unix::fs::symlink("loop.bin", &looped).unwrap();
        assert!(write_atomic(&looped, b"x").is_err());

        let fresh = dir.path().join("fresh.bin");
        write_atomic(&fresh, b"x").unwrap();
        assert_eq!(std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, 0o644);
    }

    #[test]
    fn refusals_say_why_and_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let reason = |path: &Path| write_atomic(path, b"x").unwrap_err().to_string();
        assert_eq!(reason(Path::new("")), "the path is empty");
        assert_eq!(reason(dir.path()), "it is a directory");
        let missing = reason(&dir.path().join("no/such/out.bin"));
        assert!(missing.starts_with("cannot create a temporary file in "), "{missing}");
        let locked = dir.path().join("locked.bin");
        std::fs::write(&locked, b"old").unwrap();
        let mut permissions = std::fs::metadata(&locked).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&locked, permissions).unwrap();
        assert_eq!(reason(&locked), "it is read-only");
        assert_eq!(std::fs::read(&locked).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn same_file_sees_through_dots_and_links() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.vu");
        std::fs::write(&file, b"end\n").unwrap();
        let dotted = dir.path().join(".").join("a.vu");
        let symlink = dir.path().join("link.vu");
        let hard = dir.path().join("hard.vu");
        let other = dir.path().join("b.vu");
        std::os::unix::fs::symlink(&file, &symlink).unwrap();
        std::fs::hard_link(&file, &hard).unwrap();
        std::fs::write(&other, b"end\n").unwrap();
        assert!(same_file(&file, &dotted));
        assert!(same_file(&file, &symlink));
        assert!(same_file(&file, &hard));
        assert!(!same_file(&file, &other));
        assert!(!same_file(&file, &dir.path().join("missing.vu")));
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
    }
}
