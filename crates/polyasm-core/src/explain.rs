//! Stable diagnostic codes and their explanations (`polyasm explain CODE`).

use crate::diagnostic::Severity;

/// One stable code: what it is called and a paragraph on what it means and how to fix it.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    pub code: &'static str,
    /// Whether the code is reported as an error or as a warning (which `-W` may promote or
    /// silence).
    pub severity: Severity,
    pub title: &'static str,
    pub explanation: &'static str,
}

/// Looks codes up; the target registry implements it over every dialect's table.
pub trait Explain {
    fn explain(&self, code: &str) -> Option<&'static CodeInfo>;
}

/// No codes at all: renders JSON without explanations.
impl Explain for () {
    fn explain(&self, _code: &str) -> Option<&'static CodeInfo> {
        None
    }
}

/// Finds `code` (case-insensitively) in one table.
pub fn find(table: &'static [CodeInfo], code: &str) -> Option<&'static CodeInfo> {
    table.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

/// Codes of the CLI and the core, prefix `PA`.
pub static CORE_CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "PA001",
        severity: Severity::Error,
        title: "cannot read input",
        explanation: "The input file could not be read: it does not exist, is a directory, or \
            permissions forbid reading it. Check the path; use `-` to read standard input.",
    },
    CodeInfo {
        code: "PA002",
        severity: Severity::Error,
        title: "input is not UTF-8 text",
        explanation: "Assembly sources must be UTF-8 text. The file holds bytes that are not valid \
            UTF-8; the diagnostic points at the first of them, with its line and column. A \
            file of machine code is turned back into source with `polyasm disasm` (the help \
            line says so when the bytes look binary); a text file saved in a legacy encoding \
            (Latin-1, Windows-1252) or as UTF-16 is converted to UTF-8; a stray byte is removed.",
    },
    CodeInfo {
        code: "PA003",
        severity: Severity::Error,
        title: "cannot write output",
        explanation: "The output could not be written: the disk is full, standard output is closed, \
            the destination is a directory or read-only, or its directory does not exist or is \
            not writable. polyasm writes to a temporary file beside the destination and renames \
            it into place, so an existing output is left untouched when this happens. A reader \
            that closes a pipe early (`| head`) is not an error, on standard output or on \
            standard error where a run writes a trace (`--trace`): the run ends quietly.",
    },
    CodeInfo {
        code: "PA004",
        severity: Severity::Error,
        title: "binary input has a partial word",
        explanation: "A binary given to the disassembler must hold whole words (little-endian). \
            Its length is not a multiple of the word size, so it was probably truncated or is \
            not a program for this target.",
    },
    CodeInfo {
        code: "PA005",
        severity: Severity::Error,
        title: "invalid hex word",
        explanation: "Hex text given to the disassembler holds one word per token, separated by \
            whitespace or commas, with an optional `0x` prefix; `//`, `/* */`, `#` and `;` start \
            comments. A token is not a hex number, or it does not fit in one word.",
    },
    CodeInfo {
        code: "PA006",
        severity: Severity::Error,
        title: "invalid run input",
        explanation: "A value given to `polyasm run` could not be understood: a slot is out of \
            range, a vector has the wrong number of lanes, a number is malformed or too large for \
            a 32-bit float, or the JSON of `--data` does not have the documented shape. A bad \
            option value (`--input SLOT=X,Y,Z,W`, `--const`, `--format`) is a usage error (exit \
            2) and nothing runs; a problem inside the data file points at its line and column \
            (exit 1). The message says which. Options that cannot work together are refused \
            the same way: `--watch` with a program read from standard input (which is read \
            once and cannot be watched), or `--frames` and `--fps` that would put a frame at an \
            infinite time.",
    },
    CodeInfo {
        code: "PA007",
        severity: Severity::Error,
        title: "binary output to a terminal",
        explanation: "polyasm will not write a binary format to a terminal, where it would only \
            garble the screen. Write it to a file with `-o FILE`, pipe it into another program, or \
            pick a text format such as `-f hex` or `-f listing`.",
    },
    CodeInfo {
        code: "PA008",
        severity: Severity::Error,
        title: "unknown or missing target",
        explanation: "The target dialect is chosen with `-t NAME` (see `polyasm targets` for names \
            and aliases) or, when `-t` is absent, from the input's extension: `.vsh` for nv2a \
            (original Xbox) vertex shaders, `.vu` for the Dreambox VU. Standard input and \
            unknown extensions need `-t`.",
    },
    CodeInfo {
        code: "PA009",
        severity: Severity::Error,
        title: "unknown output format",
        explanation: "`-f` names an output format: bin, hex, c, rust, listing, json, or one of the \
            target's own formats listed by `polyasm targets`. Without `-f`, the format follows \
            the output's extension (.bin .hex .c .h .rs .lst .json, and a target's own, such as \
            nv2a's .vshinc and .inc) and is bin otherwise; a target's own format is refused for \
            a target that does not have it.",
    },
    CodeInfo {
        code: "PA010",
        severity: Severity::Error,
        title: "run option not for this target",
        explanation: "`polyasm run` accepts the options of every target, but each target \
            understands only its own (`polyasm run --help` groups them). The option given is not \
            one the chosen target uses, or the target has no emulator.",
    },
    CodeInfo {
        code: "PA011",
        severity: Severity::Error,
        title: "invalid warning option",
        explanation: "`-W` takes `error` (every warning becomes an error), `error=CODE` (one \
            warning becomes an error) or `no-CODE` (one warning is silenced). CODE must be a \
            warning's code: an unknown code, or the code of an error, is refused rather than \
            ignored. `polyasm explain` lists the codes.",
    },
    CodeInfo {
        code: "PA012",
        severity: Severity::Error,
        title: "unknown diagnostic code",
        explanation: "`polyasm explain` knows every code polyasm reports; run it without an \
            argument to list them. Codes have a dialect prefix (NV2A for nv2a, VU for the \
            Dreambox VU) or PA for the command line itself.",
    },
    CodeInfo {
        code: "PA013",
        severity: Severity::Error,
        title: "file too large",
        explanation: "Sources and data files are read whole, and positions in them are 32-bit, \
            so a file must be smaller than 4 GiB. Split a larger program into several files; an \
            endless input (such as /dev/zero) ends with this error.",
    },
    CodeInfo {
        code: "PA014",
        severity: Severity::Error,
        title: "output is the input",
        explanation: "The output file named with `-o` is the input file itself, or a file the \
            input includes, a file an option of `polyasm run` reads (`--data`, `--texture`), the \
            file standard input is redirected from (`-o FILE < FILE`, also when a run's program \
            reads it), or one of the frames `--frames` would write (perhaps through `./`, a \
            symbolic link or a hard link), so writing it would destroy that file. This is a \
            usage error (exit 2), found before anything is written: nothing is written; choose \
            another output path.",
    },
    CodeInfo {
        code: "PA015",
        severity: Severity::Error,
        title: "invalid command-line arguments",
        explanation: "The command line could not be understood: an unknown option, a missing or \
            empty value, a value an option does not take, an argument that is not UTF-8 text \
            (polyasm takes file names as text: rename such a file, or pass it through standard \
            input), or more than one input to the assembler (which takes one input at a time; \
            `polyasm check` takes several). \
            `polyasm --help` and `polyasm COMMAND --help` list what each command takes.",
    },
    CodeInfo {
        code: "PA016",
        severity: Severity::Error,
        title: "invalid array name",
        explanation: "`--name` sets the identifier of the `c` and `rust` output formats, so it must \
            be one in both languages, and the C array must compile as C and as C++: ASCII \
            letters, digits and `_`, starting with a letter (C reserves names that start with \
            `_`), not a keyword of C23 or C++23 (`class`, `typeof`, `xor_eq`), not `std` (the \
            namespace C++'s `stdint.h` declares), not a macro GCC predefines in its GNU modes \
            (`linux`, `unix`, `i386`), not a name `stdint.h` defines (`uint32_t`, `INT8_MAX`), \
            nor `main`, the function of the program that includes the array. Without `--name` \
            the input's file name is made into such an identifier: a reserved name gets a `_` \
            after it (`std.vu` gives `std_`).",
    },
    CodeInfo {
        code: "PA017",
        severity: Severity::Warning,
        title: "input longer than the machine holds",
        explanation: "A warning of `polyasm disasm`: the input holds more words than a program of \
            the target can have, so it is probably not one program for this target (several \
            programs, data, or another machine's code). Everything is disassembled anyway.",
    },
    CodeInfo {
        code: "PA018",
        severity: Severity::Error,
        title: "cannot read the program's standard input",
        explanation: "A program run by `polyasm run` reads polyasm's standard input, and reading it \
            failed: it was closed when polyasm started (`<&-`), or the system reported an error. \
            The end of the input is no error (programs see it as end of input). Give the program \
            its input with `< FILE` or a pipe. When the program itself comes from standard input \
            (`-`), the program's input is empty.",
    },
    CodeInfo {
        code: "PA019",
        severity: Severity::Error,
        title: "included file not found",
        explanation: "An include directive names a file that is in none of the places searched: \
            the including file's folder, the main file's folder, each `-I DIR` folder in order, \
            the dialect's built-in files (if it has any), and the current folder. A name without \
            an extension gets the dialect's (e.g. `.mx`); an absolute name is used as it is. The \
            note lists the folders searched; add the one that holds the file with `-I DIR`, or \
            correct the name.",
    },
    CodeInfo {
        code: "PA020",
        severity: Severity::Error,
        title: "cannot read an included file",
        explanation: "An included file was found but could not be read: permissions forbid it, it \
            vanished while polyasm ran, or it is not UTF-8 text. Included files are source text \
            like the main file, in regular files: when the name leads only to a folder, or to a \
            device, FIFO or socket (such as a link to /dev/zero), the error says what it is, and \
            such a file is not opened or read, since it may never end. Name a regular file, or \
            save what the device gives to one and include that.",
    },
    CodeInfo {
        code: "PA021",
        severity: Severity::Error,
        title: "includes nested too deep",
        explanation: "More than 64 includes lead from the main file to one file (a file that \
            includes a file that includes a file, and so on). Each file is read once, so this is \
            not a cycle (a file already included is skipped) but a very deep chain of distinct \
            files; include the deep files from a shallower place.",
    },
    CodeInfo {
        code: "PA022",
        severity: Severity::Error,
        title: "sources too large in all",
        explanation: "The main file and every file it includes must hold less than 4 GiB \
            together, the limit of one input. An include would pass it; split the program into \
            pieces that are assembled on their own.",
    },
    CodeInfo {
        code: "PA023",
        severity: Severity::Error,
        title: "include folder does not exist",
        explanation: "A folder given with `-I DIR` (`--include-dir DIR`) does not exist or is not \
            a folder. This is a usage error (exit 2), so that a misspelt folder is not ignored \
            silently and then found missing only when a file is not found. Correct the path, or \
            leave the option out.",
    },
    CodeInfo {
        code: "PA024",
        severity: Severity::Error,
        title: "`-E` cannot be used here",
        explanation: "`-E` (`--expand`) prints the source after the target's macro preprocessor, \
            as `cc -E` does, instead of assembling it. Only targets with a macro system have one \
            (masfix), and the output is always source text, so `-f` does not apply. This is a \
            usage error (exit 2).",
    },
    CodeInfo {
        code: "PA025",
        severity: Severity::Error,
        title: "`--emit-runtime` cannot be used here",
        explanation: "`--emit-runtime NAME` prints the source of a runtime the target ships for             people who run its programs in their own engine (shader: `wgsl`, the WebGPU             interpreter, and `glsl`, the OpenGL 4.30 one). It reads no input, so an input file             and `-f` do not apply, and the name must be one the target has. This is a usage             error (exit 2).",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_codes_are_unique_and_explained() {
        for (i, c) in CORE_CODES.iter().enumerate() {
            assert!(c.code.starts_with("PA"));
            assert!(c.explanation.len() > 40, "{} needs a real explanation", c.code);
            assert!(CORE_CODES[i + 1..].iter().all(|d| d.code != c.code));
        }
        assert_eq!(find(CORE_CODES, "pa003").map(|c| c.code), Some("PA003"));
    }
}
