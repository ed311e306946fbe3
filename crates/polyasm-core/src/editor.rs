//! What an editor needs from a dialect besides its diagnostics and its instruction table
//! ([`crate::Target::instructions`]):
//!
//! - its [`Lexicon`]: how comments, names and numbers are written, its registers with what
//!   each is, and where files are included; [`tokens`] reads a text with it into the classed
//!   words an editor colours;
//! - the names a program defines and where each is used ([`Names`]), recorded by the dialect
//!   while it assembles when [`crate::TargetOptions::names`] asks for them: labels, uniforms,
//!   macros, constants and namespaces, for go to definition, references, rename and hover.
//!
//! The language server reads only these, so it holds nothing of any dialect.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use crate::Span;
use crate::table::Entry;

/// How a dialect's text is written, for editors.
#[derive(Debug)]
pub struct Lexicon {
    /// What starts a comment that runs to the end of the line (`//`, `;`, `#`).
    pub line_comments: &'static [&'static str],
    /// A comment's opening and closing text, when the dialect has comments that may span lines.
    pub block_comment: Option<(&'static str, &'static str)>,
    /// Characters that start a name besides letters and `_`: sigils such as nv2a's `#` or
    /// Lima's `^` and `$`, which belong to the word.
    pub sigils: &'static str,
    /// Characters inside a word besides letters, digits and `_` (Lima's `.` in `add.v1`,
    /// Masfix's `:` in `std:push`).
    pub word_chars: &'static str,
    /// Whether mnemonics and registers are the same in any letter case.
    pub any_case: bool,
    /// Every register, or family of them, the dialect has.
    pub registers: &'static [Register],
    /// The directive that includes a file (`%include`), and the extension an included name
    /// may leave out; `None` for dialects without includes.
    pub include: Option<(&'static str, &'static str)>,
    /// Names an include finds without a file (a library shipped in the binary).
    pub builtin_includes: &'static [&'static str],
    /// Whether the machine stores numbers written in the program as IEEE half floats
    /// ([`crate::half`]), so that an editor shows what a number becomes.
    pub half_floats: bool,
    /// Whether a word is an instruction, for a dialect whose instruction words are more than
    /// the names of its table (Masfix's operation letters glued to the name: `ldm`); else a
    /// word is an instruction when the table names it.
    pub is_instruction: Option<fn(&str) -> bool>,
    /// Whether an instruction's first operand is its destination, so that an editor offers
    /// there the registers that may be written, and after it those that may be read.
    pub destination_first: bool,
    /// Whether the assembler takes a register's number with leading zeros (`r01` is `r1`).
    pub leading_zeros: bool,
    /// What a mnemonic may take glued on before its unit (Lima's `_pos` in `max_pos.v1`), each
    /// with what it does, for completion.
    pub modifiers: &'static [(&'static str, &'static str)],
    /// Words that are the dialect's own and never a name (Masfix's directives `define`,
    /// `include`...): coloured as keywords after their sigil, refused as a new name.
    pub reserved: &'static [&'static str],
    /// What separates the operations of one instruction on a line (Lima's `,`): operands are
    /// counted from the last one.
    pub operation_separator: Option<char>,
}

impl Lexicon {
    /// A lexicon that knows nothing: no comments, no registers, no includes.
    pub const NONE: Lexicon = Lexicon {
        line_comments: &[],
        block_comment: None,
        sigils: "",
        word_chars: "",
        any_case: false,
        registers: &[],
        include: None,
        builtin_includes: &[],
        half_floats: false,
        is_instruction: None,
        destination_first: false,
        leading_zeros: false,
        modifiers: &[],
        reserved: &[],
        operation_separator: None,
    };

    /// Whether `c` may be inside a word.
    pub fn is_word_char(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || self.word_chars.contains(c)
    }

    /// Whether `c` may start a word.
    pub fn starts_word(&self, c: char) -> bool {
        c.is_ascii_alphabetic() || c == '_' || self.sigils.contains(c)
    }

    /// Whether `word` is an instruction: one `mnemonics` names, or one the dialect's own test
    /// accepts ([`Lexicon::is_instruction`]).
    pub fn is_mnemonic(&self, mnemonics: &Mnemonics, word: &str) -> bool {
        self.is_instruction
            .map_or_else(|| mnemonics.contains(word), |is| is(word))
    }

    /// Whether `word`, its sigils left out, is a word of the dialect's own ([`Lexicon::reserved`]).
    pub fn is_reserved(&self, word: &str) -> bool {
        self.reserved
            .contains(&word.trim_start_matches(|c| self.sigils.contains(c)))
    }

    /// The register `word` names, with the part of it that names the register (a swizzle or
    /// mask after a `.` is left out: `r0.xyz` is `r0`).
    pub fn register(&self, word: &str) -> Option<&'static Register> {
        let base = match word.find('.') {
            Some(dot) if dot > 0 => &word[..dot],
            _ => word,
        };
        let digits = base.find(|c: char| c.is_ascii_digit()).unwrap_or(base.len());
        let number = &base[digits..];
        let trimmed;
        let base = if self.leading_zeros && number.len() > 1 && number.bytes().all(|b| b.is_ascii_digit()) {
            let kept = number.trim_start_matches('0');
            trimmed = format!("{}{}", &base[..digits], if kept.is_empty() { "0" } else { kept });
            trimmed.as_str()
        } else {
            base
        };
        self.registers.iter().find(|r| r.names(base, self.any_case))
    }
}

/// One register, or a numbered family of them (`r0` ... `r15`).
#[derive(Debug)]
pub struct Register {
    /// Its name, or the family's prefix.
    pub name: &'static str,
    /// The numbers after the prefix, first and last; `None` for a single register.
    pub numbers: Option<(u16, u16)>,
    /// What it is, in one line.
    pub doc: &'static str,
    /// Whether instructions may read it and write it.
    pub read: bool,
    /// Whether instructions may write it (`read` says the same of reading).
    pub write: bool,
}

impl Register {
    /// Whether `word` is this register (a family's member by its number).
    pub fn names(&self, word: &str, any_case: bool) -> bool {
        let prefix_len = self.name.len();
        if word.len() < prefix_len || !word.is_char_boundary(prefix_len) {
            return false;
        }
        let (prefix, rest) = word.split_at(prefix_len);
        let same = if any_case {
            prefix.eq_ignore_ascii_case(self.name)
        } else {
            prefix == self.name
        };
        if !same {
            return false;
        }
        match self.numbers {
            None => rest.is_empty(),
            Some((first, last)) => {
                // No leading zeros: `r01` is not `r1`.
                let canonical = rest == "0" || !rest.starts_with('0');
                canonical
                    && !rest.is_empty()
                    && rest.len() <= 5
                    && rest.bytes().all(|b| b.is_ascii_digit())
                    && rest.parse::<u16>().is_ok_and(|n| (first..=last).contains(&n))
            }
        }
    }

    /// How it is written: `oPos`, or `r0`...`r15` for a family.
    pub fn written(&self) -> String {
        match self.numbers {
            None => self.name.to_string(),
            Some((first, last)) => format!("{0}{first}...{0}{last}", self.name),
        }
    }

    /// Every name it has (a family's members one by one).
    pub fn every_name(&self) -> Vec<String> {
        match self.numbers {
            None => vec![self.name.to_string()],
            Some((first, last)) => (first..=last).map(|n| format!("{}{n}", self.name)).collect(),
        }
    }
}

/// What a word of a text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A comment: to the end of the line, or a whole block comment.
    Comment,
    /// A word the dialect's table names (or [`Lexicon::is_instruction`] accepts).
    Mnemonic,
    /// A word one of the lexicon's [`Register`]s names (`r0`, `oPos`).
    Register,
    /// A name the program defines or uses (a label, a uniform, a macro): what kind [`Names`]
    /// tells.
    Name,
    /// A number literal: `42`, `0x1f`, `0.5`.
    Number,
    /// A quoted string, quotes included.
    String,
    /// An operator or sign that belongs to the syntax (`=`, `+`, `-`).
    Operator,
}

/// A word of a text and what it is; `range` is in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where the word is in the text, in bytes.
    pub range: Range<usize>,
    /// What the word is.
    pub kind: TokenKind,
}

/// Reads `text` with `lexicon` into its comments, mnemonics (the words `entries` name),
/// registers, other names, numbers, strings and operators, in order. Whitespace and
/// punctuation are left out. Linear in the text: each byte is looked at a bounded number of
/// times, and a word is looked up in a hash set of the mnemonics.
pub fn tokens(lexicon: &Lexicon, mnemonics: &Mnemonics, text: &str) -> Vec<Token> {
    tokens_in(lexicon, mnemonics, text, 0..text.len())
}

/// The words of `text` that start in `window` (byte offsets), read as [`tokens`] reads them:
/// the text before the window is passed over for where its comments and strings end, without
/// looking its words up.
pub fn tokens_in(lexicon: &Lexicon, mnemonics: &Mnemonics, text: &str, window: Range<usize>) -> Vec<Token> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len().min(window.end) {
        let rest = &text[at..];
        let c = rest.chars().next().expect("invariant: at is inside the text");
        let start = at;
        let kind = if let Some(len) = comment_len(lexicon, rest) {
            at += len;
            Some(TokenKind::Comment)
        } else if c == '"' || c == '\'' {
            at += quoted_len(rest, c);
            Some(TokenKind::String)
        } else if c.is_ascii_digit() {
            at += number_len(rest);
            Some(TokenKind::Number)
        } else if lexicon.starts_word(c) {
            at += c.len_utf8();
            at += text[at..]
                .find(|c: char| !lexicon.is_word_char(c))
                .unwrap_or(text.len() - at);
            let word = &text[start..at];
            Some(if !window.contains(&start) {
                // Not looked up: it is not kept.
                TokenKind::Name
            } else if lexicon.register(word).is_some() {
                TokenKind::Register
            } else if lexicon.is_mnemonic(mnemonics, word) || lexicon.is_reserved(word) {
                TokenKind::Mnemonic
            } else if word.len() == c.len_utf8() {
                // A sigil alone is punctuation.
                TokenKind::Operator
            } else {
                TokenKind::Name
            })
        } else {
            at += c.len_utf8();
            matches!(c, '+' | '-' | '*' | '/' | '=' | '<' | '>' | '&' | '|' | '~').then_some(TokenKind::Operator)
        };
        debug_assert!(at > start && at <= text.len());
        // A comment over several lines that reaches into the window is in it.
        let seen = window.contains(&start) || (kind == Some(TokenKind::Comment) && at > window.start);
        if let Some(kind) = kind.filter(|_| seen) {
            out.push(Token { range: start..at, kind });
        }
    }
    out
}

/// The length of the number `rest` starts with: digits, letters (`0x1f`, `1e3`), `.` and `_`,
/// and a sign right after an exponent's `e` (`2.5e-3`; not after a hex digit `e`).
fn number_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let hex = rest.starts_with("0x") || rest.starts_with("0X");
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        let exponent_sign = matches!(b, b'+' | b'-')
            && !hex
            && matches!(bytes[at - 1], b'e' | b'E')
            && bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
        if !(b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || exponent_sign) {
            break;
        }
        at += 1;
    }
    at
}

/// The length of the comment `rest` starts with, if it starts with one.
fn comment_len(lexicon: &Lexicon, rest: &str) -> Option<usize> {
    if lexicon.line_comments.iter().any(|c| rest.starts_with(c)) {
        return Some(rest.find(['\n', '\r']).unwrap_or(rest.len()));
    }
    let (open, close) = lexicon.block_comment?;
    rest.starts_with(open).then(|| {
        rest[open.len()..]
            .find(close)
            .map_or(rest.len(), |end| open.len() + end + close.len())
    })
}

/// The length of the string or character `rest` starts with (its quote `quote`), to its
/// closing quote or the end of the line; a backslash escapes the next character.
fn quoted_len(rest: &str, quote: char) -> usize {
    let mut escaped = false;
    for (i, c) in rest.char_indices().skip(1) {
        match c {
            '\n' | '\r' => return i,
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == quote => return i + 1,
            _ => {}
        }
    }
    rest.len()
}

/// The names of a target's instructions, looked up as written or, for a dialect that takes
/// them in any letter case, in any.
#[derive(Debug, Default)]
pub struct Mnemonics {
    names: std::collections::HashSet<String>,
    any_case: bool,
    /// Whether a name may have modifiers glued on before its unit ([`Lexicon::modifiers`]).
    modifiers: bool,
}

impl Mnemonics {
    /// Every name of every row (mnemonic, second syntax's name, aliases), read as `lexicon`
    /// says: in any letter case or as written, with modifiers or without.
    pub fn new(entries: &[Entry], lexicon: &Lexicon) -> Mnemonics {
        let any_case = lexicon.any_case;
        let fold = |name: &str| {
            if any_case {
                name.to_ascii_lowercase()
            } else {
                name.to_string()
            }
        };
        let mut names = std::collections::HashSet::new();
        for entry in entries {
            let all = std::iter::once(entry.mnemonic)
                .chain(entry.second)
                .chain(entry.aliases.iter().copied());
            names.extend(all.map(fold));
        }
        Mnemonics {
            names,
            any_case,
            modifiers: !lexicon.modifiers.is_empty(),
        }
    }

    /// Whether `word` names an instruction, as written or, in a dialect with modifiers, with
    /// them glued on with `_` before a unit (`max_pos.v1` is `max.v1`). Allocates only for
    /// words over 64 bytes and for words with a `_` in such a dialect.
    pub fn contains(&self, word: &str) -> bool {
        let mut buffer = [0u8; 64];
        let folded: std::borrow::Cow<'_, str> = match (self.any_case, word.len() <= buffer.len()) {
            (false, _) => word.into(),
            (true, true) => {
                let bytes = &mut buffer[..word.len()];
                bytes.copy_from_slice(word.as_bytes());
                bytes.make_ascii_lowercase();
                std::str::from_utf8(bytes)
                    .expect("ASCII case folding keeps UTF-8")
                    .into()
            }
            (true, false) => word.to_ascii_lowercase().into(),
        };
        if self.names.contains(folded.as_ref()) {
            return true;
        }
        if !self.modifiers {
            return false;
        }
        without_modifiers(&folded).is_some_and(|base| self.names.contains(&base))
    }
}

/// A mnemonic written with modifiers glued on with `_` before its unit, without them
/// (`max_pos.v1` is `max.v1`, `branch_lt` is `branch`); `None` for a word without `_`.
pub fn without_modifiers(word: &str) -> Option<String> {
    let (name, unit) = word.split_at(word.find('.').unwrap_or(word.len()));
    let (base, _) = name.split_once('_')?;
    Some(format!("{base}{unit}"))
}

/// A name a program defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The name as a use writes it, without a sigil (`LIMIT` for `%define LIMIT`); a name in a
    /// namespace has its path (`std:push`).
    pub name: String,
    /// What the dialect calls it (`label`, `vector`, `constant`, `macro`, `namespace`).
    pub kind: &'static str,
    /// The name in the definition, exactly the text a rename replaces.
    pub span: Span,
    /// What it stands for, in one line (`= 1000`, `address 12`, `c96...c99`, `(a, b)`).
    pub detail: String,
}

/// The names a program defines and the uses of each: what a dialect records while it
/// assembles, when asked ([`crate::TargetOptions::names`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Every name the program defines, in the order they were met.
    pub definitions: Vec<Definition>,
    /// Each use: the name as written there (exactly the text a rename replaces) and the span
    /// of the definition it resolved to ([`Definition::span`]). A use in a macro body expanded
    /// several times may appear several times.
    pub uses: Vec<(Span, Span)>,
}

/// Where a dialect records [`Names`]: shared with the caller, which reads it after
/// assembling, whether assembling succeeded or not.
#[derive(Clone, Debug, Default)]
pub struct NameSink(Arc<Mutex<Names>>);

impl NameSink {
    /// An empty sink, for [`crate::TargetOptions::names`].
    pub fn new() -> NameSink {
        NameSink::default()
    }

    /// Records a definition.
    pub fn define(&self, name: impl Into<String>, kind: &'static str, span: Span, detail: impl Into<String>) {
        self.lock().definitions.push(Definition {
            name: name.into(),
            kind,
            span,
            detail: detail.into(),
        });
    }

    /// Records that `at` uses the name defined at `definition`.
    pub fn used(&self, at: Span, definition: Span) {
        self.lock().uses.push((at, definition));
    }

    /// What was recorded, leaving the sink empty.
    pub fn take(&self) -> Names {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Names> {
        // A panic while recording leaves the names as they were: still usable.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Two sinks are equal when they are the same sink (clones of one).
impl PartialEq for NameSink {
    fn eq(&self, other: &NameSink) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for NameSink {}

#[cfg(test)]
mod tests {
    use super::*;

    static REGISTERS: &[Register] = &[
        Register {
            name: "r",
            numbers: Some((0, 11)),
            doc: "a temporary",
            read: true,
            write: true,
        },
        Register {
            name: "oPos",
            numbers: None,
            doc: "the position output",
            read: false,
            write: true,
        },
    ];

    static LEXICON: Lexicon = Lexicon {
        line_comments: &["//", ";"],
        block_comment: Some(("/*", "*/")),
        sigils: "#",
        word_chars: ".",
        any_case: true,
        registers: REGISTERS,
        ..Lexicon::NONE
    };

    fn kinds(text: &str) -> Vec<(&str, TokenKind)> {
        let entries = [Entry {
            mnemonic: "mov",
            second: None,
            aliases: &[],
            doc: "copies",
            cells: Vec::new(),
        }];
        tokens(&LEXICON, &Mnemonics::new(&entries, &LEXICON), text)
            .into_iter()
            .map(|t| (&text[t.range], t.kind))
            .collect()
    }

    #[test]
    fn a_line_is_read_into_its_kinds_of_word() {
        use TokenKind::*;
        assert_eq!(
            kinds("MOV oPos, r11.xy, #tint /* a\nb */ 0x1f -2 'c' ; done"),
            [
                ("MOV", Mnemonic),
                ("oPos", Register),
                ("r11.xy", Register),
                ("#tint", Name),
                ("/* a\nb */", Comment),
                ("0x1f", Number),
                ("-", Operator),
                ("2", Number),
                ("'c'", String),
                ("; done", Comment),
            ]
        );
    }

    #[test]
    fn a_family_names_only_its_numbers_written_plainly() {
        let r = &REGISTERS[0];
        assert!(r.names("r0", false) && r.names("r11", false) && r.names("R3", true));
        assert!(!r.names("r12", false) && !r.names("r01", false) && !r.names("r", false));
        assert!(!r.names("R3", false) && !r.names("r99999999", false) && !r.names("rx", false));
        assert_eq!(r.written(), "r0...r11");
        assert_eq!(r.every_name().len(), 12);
    }

    #[test]
    fn leading_zeros_name_a_register_only_where_the_assembler_takes_them() {
        let strict = Lexicon {
            registers: REGISTERS,
            ..Lexicon::NONE
        };
        let lenient = Lexicon {
            leading_zeros: true,
            ..strict
        };
        assert!(strict.register("r01").is_none() && strict.register("r1").is_some());
        assert!(lenient.register("r01").is_some() && lenient.register("r000").is_some());
        assert!(lenient.register("r012").is_none(), "r12 is past the family");
        assert!(lenient.register("r01x").is_none());
    }

    #[test]
    fn unclosed_strings_and_comments_end_at_the_line_or_the_text() {
        use TokenKind::*;
        assert_eq!(kinds("'abc\nmov"), [("'abc", String), ("mov", Mnemonic)]);
        assert_eq!(kinds("/* open"), [("/* open", Comment)]);
        assert_eq!(kinds("#"), [("#", Operator)]);
        assert_eq!(kinds("é mov"), [("mov", Mnemonic)]);
    }

    #[test]
    fn a_sink_hands_over_what_was_recorded() {
        let sink = NameSink::new();
        let id = crate::SourceMap::new().add("a.s", " top".to_string());
        let span = Span::new(id, 1, 4);
        sink.define("top", "label", span, "address 0");
        sink.used(span, span);
        let names = sink.clone().take();
        assert_eq!(names.definitions[0].name, "top");
        assert_eq!(names.uses, [(span, span)]);
        assert!(sink.take().definitions.is_empty());
    }
}
