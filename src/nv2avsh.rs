//! `polyasm nv2avsh`, and polyasm run under the name `nv2avsh`: the command line of nv2avsh
//! (`nv2avsh [-e] [-v] SOURCE [TARGET]`) over the assembler, which writes the C include text
//! as that command does, so that build scripts written for it run unchanged.

use std::ffi::{OsStr, OsString};

use polyasm_core::Object;

use crate::args::{AssembleArgs, IncludeArgs, Nv2avshArgs, Nv2avshMode, TargetIo, TargetOptionArgs};
use crate::io::{Input, Output};
use crate::report::Reporter;

/// The command's name, and the executable's name that selects it.
const NAME: &str = "nv2avsh";

/// `args` as polyasm reads them: when the executable's file name is `nv2avsh` (or
/// `nv2avsh.exe`), they are those of `polyasm nv2avsh`, so that a link named nv2avsh behaves
/// as that command (and its messages name it so).
pub fn from_executable_name(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.first().is_some_and(|first| is_nv2avsh(first)) {
        args[0] = "polyasm".into();
        args.insert(1, NAME.into());
    }
    args
}

/// Whether the program's path names an executable called nv2avsh.
fn is_nv2avsh(program: &OsStr) -> bool {
    let Some(name) = std::path::Path::new(program).file_name().and_then(OsStr::to_str) else {
        return false;
    };
    let stem = match name.len().checked_sub(4) {
        Some(cut) if name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".exe") => &name[..cut],
        _ => name,
    };
    stem == NAME
}

/// What the assembler is asked: `SOURCE -t nv2a -f vshinc [-o TARGET] [--explicit-final]`,
/// with the settings of the nearest polyasm.toml as for any assembly.
pub fn assemble_args(args: &Nv2avshArgs) -> AssembleArgs {
    let mut target_options = TargetOptionArgs::default();
    if args.explicit_final {
        target_options.given.push(("explicit-final", String::new()));
    }
    AssembleArgs {
        io: TargetIo {
            target: Some("nv2a".to_string()),
            input: Some(args.source.clone()),
            output: args.target.clone(),
        },
        includes: IncludeArgs {
            include_dirs: Vec::new(),
        },
        expand: false,
        emit_runtime: None,
        format: Some("vshinc".to_string()),
        name: None,
        depfile: None,
        nv2avsh: Some(Nv2avshMode { verbose: args.verbose }),
        target_options,
        more_inputs: Vec::new(),
    }
}

/// The assembler's `vshinc` text as nv2avsh writes it: a file ends without a newline after its
/// last line, standard output with one (so an empty program prints an empty line).
pub fn shape(text: &[u8], output: &Output) -> Vec<u8> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let mut bytes = body.to_vec();
    if matches!(output, Output::Stdout) {
        bytes.push(b'\n');
    }
    bytes
}

/// `-v`: one note on standard error once the output is written, saying what was assembled,
/// how the program ends and where it went.
pub fn report_written(mode: &Nv2avshMode, object: &Object, input: &Input, output: &Output, reporter: &mut Reporter) {
    if !mode.verbose {
        return;
    }
    let instructions = object.bytes.len() / 16;
    let ending = if ends_with_final_marker(object) {
        ", the last the final marker"
    } else if instructions > 0 {
        ", FINAL set on the last"
    } else {
        ""
    };
    let destination = match output {
        Output::Stdout => "standard output".to_string(),
        Output::Path(path) => path.clone(),
    };
    reporter.emit_note(&format!(
        "{NAME}: {}: {}{ending}; written to {destination}",
        input.display_name(),
        polyasm_core::text::count(instructions, "instruction"),
    ));
}

/// Whether the program ends with the final marker `0, 0, 0, 1` (NOP/NOP with FINAL), as
/// `--explicit-final` appends it.
fn ends_with_final_marker(object: &Object) -> bool {
    const MARKER: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
    object.bytes.ends_with(&MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_executable_name_selects_the_command() {
        for name in ["nv2avsh", "/usr/local/bin/nv2avsh", "bin/nv2avsh.exe", "NV2AVSH.EXE"] {
            let args = from_executable_name(vec![name.into(), "x.vsh".into()]);
            let expected = name != "NV2AVSH.EXE";
            assert_eq!(args == ["polyasm", "nv2avsh", "x.vsh"], expected, "{name}: {args:?}");
        }
        for name in ["polyasm", "nv2avshd", "my-nv2avsh", "nv2avsh.sh"] {
            let args = from_executable_name(vec![name.into(), "x.vsh".into()]);
            assert_eq!(args, vec![OsString::from(name), "x.vsh".into()], "{name}");
        }
    }

    #[test]
    fn a_file_ends_without_a_newline_and_standard_output_with_one() {
        let text = b"/* mov oPos, v0 */\n0x00000000, 0x0020001b, 0x0836106c, 0x2070f801,\n";
        let file = shape(text, &Output::Path("x.vshinc".into()));
        assert_eq!(file, &text[..text.len() - 1]);
        assert_eq!(shape(text, &Output::Stdout), text);
        assert_eq!(shape(b"", &Output::Stdout), b"\n");
        assert_eq!(shape(b"", &Output::Path("x.vshinc".into())), b"");
    }
}
