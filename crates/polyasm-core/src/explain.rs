//! Stable diagnostic codes and their explanations (`polyasm explain CODE`), and the `PA`
//! codes of the command line and the core.

use crate::codes::CodeInfo;

/// Looks codes up; the target registry implements it over every dialect's table.
pub trait Explain {
    /// The code's entry, looked up case-insensitively; `None` for a code no table holds.
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

crate::codes! {
    /// The codes of the command line and the core, prefix `PA`; docs/codes/core.md explains
    /// them.
    pub enum Code, explained in "../codes.md" {
        CannotReadInput = "PA001", Error, "cannot read input";
        InputNotUtf8 = "PA002", Error, "input is not UTF-8 text";
        CannotWriteOutput = "PA003", Error, "cannot write output";
        PartialWord = "PA004", Error, "binary input has a partial word";
        InvalidHexWord = "PA005", Error, "invalid hex word";
        InvalidRunInput = "PA006", Error, "invalid run input";
        BinaryToTerminal = "PA007", Error, "binary output to a terminal";
        UnknownTarget = "PA008", Error, "unknown or missing target";
        UnknownFormat = "PA009", Error, "unknown output format";
        RunOptionNotForTarget = "PA010", Error, "run option not for this target";
        InvalidWarningOption = "PA011", Error, "invalid warning option";
        UnknownCode = "PA012", Error, "unknown diagnostic code";
        FileTooLarge = "PA013", Error, "file too large";
        OutputIsInput = "PA014", Error, "output is the input";
        InvalidArguments = "PA015", Error, "invalid command-line arguments";
        InvalidArrayName = "PA016", Error, "invalid array name";
        InputTooLong = "PA017", Warning, "input longer than the machine holds";
        CannotReadProgramInput = "PA018", Error, "cannot read the program's standard input";
        IncludeNotFound = "PA019", Error, "included file not found";
        CannotReadInclude = "PA020", Error, "cannot read an included file";
        IncludesTooDeep = "PA021", Error, "includes nested too deep";
        SourcesTooLarge = "PA022", Error, "sources too large in all";
        IncludeFolderMissing = "PA023", Error, "include folder does not exist";
        ExpandNotHere = "PA024", Error, "`-E` cannot be used here";
        EmitRuntimeNotHere = "PA025", Error, "`--emit-runtime` cannot be used here";
        ConfigUnreadable = "PA026", Error, "cannot read polyasm.toml";
        InvalidConfig = "PA027", Error, "invalid polyasm.toml";
        InternalError = "PA028", Error, "internal error";
        CannotServe = "PA029", Error, "cannot start the server";
        DepfileNotWritten = "PA030", Error, "cannot write the depfile as asked";
        OutsidePackage = "PA031", Error, "file outside the package";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_codes_are_unique_and_explained() {
        assert_eq!(
            crate::codes::check(Code::ROWS, Code::EXPLANATIONS),
            Vec::<String>::new()
        );
        for c in Code::table() {
            assert!(c.code.starts_with("PA"));
            assert!(c.explanation.len() > 40, "{} needs a real explanation", c.code);
        }
        assert_eq!(find(Code::table(), "pa003").map(|c| c.code), Some("PA003"));
        assert_eq!(Code::find("pa003"), Some(Code::CannotWriteOutput));
    }
}
