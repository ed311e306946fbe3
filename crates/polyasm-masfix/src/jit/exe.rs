//! Native executables: the program's object file, the runtime (`runtime.c`) and a file of the
//! program's own texts, linked by the system's C compiler.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use super::{JitError, object};
use crate::exec::Program;

/// The runtime every executable links: buffers, calls, errors and exit codes.
const RUNTIME: &str = include_str!("runtime.c");

/// Why no executable was written.
#[derive(Debug)]
pub enum ExeError {
    /// The program could not be compiled.
    Compile(JitError),
    /// The C compiler could not be started (`cc` is not installed).
    NoCompiler {
        /// The compiler's name or path, as the message quotes it.
        cc: String,
        /// Why it did not start, from the operating system.
        reason: String,
    },
    /// The C compiler failed: how it exited, and what it printed.
    Link {
        /// The compiler's name or path, as the message quotes it.
        cc: String,
        /// How it exited: `exit status: 1`.
        status: String,
        /// What it printed, standard error then standard output.
        output: String,
    },
    /// A temporary file could not be written.
    Io(std::io::Error),
}

impl std::fmt::Display for ExeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExeError::Compile(e) => e.fmt(f),
            ExeError::NoCompiler { cc, reason } => write!(f, "cannot run the C compiler `{cc}`: {reason}"),
            ExeError::Link { cc, status, .. } => write!(f, "the C compiler `{cc}` failed ({status})"),
            ExeError::Io(e) => write!(f, "cannot write the files to link: {e}"),
        }
    }
}

/// What an executable prints when it stops with an error, without colour and with it (the
/// runtime chooses as polyasm does): each text with `\x01` where the reason (or, for a jump,
/// its target) goes.
pub struct Texts {
    /// What the executable prints when writing its output fails.
    pub write_failed: [String; 2],
    /// What the executable prints when reading its input fails.
    pub read_failed: [String; 2],
    /// For each instruction, what a jump past the end from it prints (empty for the others).
    pub jump_failed: Vec<[String; 2]>,
}

/// `text` as a C string literal.
fn c_string(text: &str) -> String {
    let mut out = String::from("\"");
    for byte in text.bytes() {
        match byte {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(byte as char);
            }
            b' '..=b'~' => out.push(byte as char),
            _ => out.push_str(&format!("\\{byte:03o}")),
        }
    }
    out.push('"');
    out
}

/// The C file of the program's texts.
fn texts_file(texts: &Texts) -> String {
    let pair = |texts: &[String; 2]| format!("{{{}, {}}}", c_string(&texts[0]), c_string(&texts[1]));
    let mut c = String::from("/* The texts of one program's errors, written by polyasm. */\n");
    c.push_str(&format!(
        "const char *const polyasm_masfix_write_failed[2] = {};\n",
        pair(&texts.write_failed)
    ));
    c.push_str(&format!(
        "const char *const polyasm_masfix_read_failed[2] = {};\n",
        pair(&texts.read_failed)
    ));
    c.push_str("const char *const polyasm_masfix_jump_failed[][2] = {\n");
    for text in &texts.jump_failed {
        c.push_str(&format!("    {},\n", pair(text)));
    }
    c.push_str("    {\"\", \"\"}\n};\n");
    c
}

/// Writes the executable `out` of `program`, linked by `cc`, in the folder `work`.
pub fn link(program: &Program, texts: &Texts, cc: &OsStr, work: &Path, out: &Path) -> Result<(), ExeError> {
    let object = object(program).map_err(ExeError::Compile)?;
    let write = |name: &str, bytes: &[u8]| std::fs::write(work.join(name), bytes).map_err(ExeError::Io);
    write("program.o", &object)?;
    write("runtime.c", RUNTIME.as_bytes())?;
    write("texts.c", texts_file(texts).as_bytes())?;
    let name = cc.to_string_lossy().into_owned();
    let output = Command::new(cc)
        .current_dir(work)
        .args(["-std=c99", "-D_POSIX_C_SOURCE=200809L", "-O2", "-o"])
        .arg(out)
        .args(["runtime.c", "texts.c", "program.o"])
        .output()
        .map_err(|e| ExeError::NoCompiler {
            cc: name.clone(),
            reason: e.to_string(),
        })?;
    if !output.status.success() {
        let mut text = String::from_utf8_lossy(&output.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stdout));
        return Err(ExeError::Link {
            cc: name,
            status: output.status.to_string(),
            output: text,
        });
    }
    Ok(())
}
