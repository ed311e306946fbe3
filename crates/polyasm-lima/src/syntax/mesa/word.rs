//! The pieces every reader of Mesa's text shares: a word of the text with its offset, and
//! the error of a line.

use std::ops::Range;

/// Why Mesa's text cannot be read: where (a byte range of the text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MesaError {
    /// Byte range of the offending text.
    pub span: Range<usize>,
    /// What is wrong.
    pub kind: MesaErrorKind,
}

/// What is wrong with a line of Mesa's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MesaErrorKind {
    /// An operation no unit has.
    UnknownOp {
        /// The text found.
        name: String,
        /// A known operation spelt nearly the same.
        suggestion: Option<&'static str>,
    },
    /// A field after one that comes later in the control word, or a second one of a field.
    FieldOrder {
        /// Mesa's name of the field.
        field: &'static str,
        /// Mesa's name of the field it follows.
        after: &'static str,
        /// The line's fields in control-word order (empty for a repeated field).
        reordered: String,
    },
    /// Text that is not what goes there.
    Expected {
        /// What goes there.
        expected: &'static str,
        /// The text found.
        found: String,
    },
    /// An operation with too many or too few operands.
    OperandCount {
        /// The operation as written.
        op: String,
        /// How many operands it takes, in words.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A number that does not fit its field.
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The text found.
        found: String,
        /// The values the field holds.
        range: &'static str,
    },
    /// A constant that is not a number IEEE binary16 holds.
    Constant {
        /// The text found.
        found: String,
    },
    /// An `@` offset that is not where the instructions before it end.
    Offset {
        /// The offset printed.
        printed: u64,
        /// Where the instruction starts, by the sizes of those before it.
        actual: usize,
    },
    /// A branch target where no instruction starts, or too far away.
    Target {
        /// The absolute word offset written.
        target: i64,
        /// The nearest instruction starts before and after it.
        nearest: (Option<usize>, Option<usize>),
    },
    /// An operand that Mesa's text never has in this place.
    Misplaced {
        /// The text found.
        found: String,
        /// Where it is.
        place: &'static str,
        /// What goes there instead.
        help: &'static str,
    },
    /// `sync` or `stop` out of place or repeated, or an empty field.
    Flags {
        /// The text found (empty for an empty field).
        found: String,
    },
}

impl MesaError {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            MesaErrorKind::UnknownOp { .. } => crate::error::Code::MesaUnknownOp.as_str(),
            MesaErrorKind::FieldOrder { .. } => crate::error::Code::MesaFieldOrder.as_str(),
            MesaErrorKind::Expected { .. } => crate::error::Code::MesaExpected.as_str(),
            MesaErrorKind::OperandCount { .. } => crate::error::Code::MesaOperandCount.as_str(),
            MesaErrorKind::OutOfRange { .. } => crate::error::Code::MesaOutOfRange.as_str(),
            MesaErrorKind::Constant { .. } => crate::error::Code::MesaConstant.as_str(),
            MesaErrorKind::Offset { .. } => crate::error::Code::MesaOffset.as_str(),
            MesaErrorKind::Target { .. } => crate::error::Code::MesaTarget.as_str(),
            MesaErrorKind::Misplaced { .. } => crate::error::Code::MesaMisplaced.as_str(),
            MesaErrorKind::Flags { .. } => crate::error::Code::MesaFlags.as_str(),
        }
    }
}

impl std::fmt::Display for MesaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            MesaErrorKind::UnknownOp { name, .. } => write!(f, "unknown operation `{name}`"),
            MesaErrorKind::FieldOrder {
                field,
                after,
                reordered,
            } if reordered.is_empty() => write!(f, "a second {field} field in one instruction (after {after})"),
            MesaErrorKind::FieldOrder { field, after, .. } => {
                write!(f, "the {field} field comes before the {after} field")
            }
            MesaErrorKind::Expected { expected, found } => write!(f, "expected {expected}, found `{found}`"),
            MesaErrorKind::OperandCount { op, expected, found } => {
                write!(f, "`{op}` takes {expected}, found {found}")
            }
            MesaErrorKind::OutOfRange { what, found, range } => {
                write!(f, "{what} `{found}` is out of range ({range})")
            }
            MesaErrorKind::Constant { found } => write!(f, "`{found}` is not a binary16 constant"),
            MesaErrorKind::Offset { printed, actual } => write!(
                f,
                "the line says it is at word {printed}, but the instructions before it end at word {actual}"
            ),
            MesaErrorKind::Target { target, .. } => {
                write!(f, "no instruction starts at word {target}, the branch target")
            }
            MesaErrorKind::Misplaced { found, place, .. } => write!(f, "`{found}` cannot be {place}"),
            MesaErrorKind::Flags { found } if found.is_empty() => write!(f, "an empty field"),
            MesaErrorKind::Flags { found } => write!(f, "`{found}` out of place"),
        }
    }
}

/// A piece of the text and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Word<'a> {
    pub(super) text: &'a str,
    pub(super) at: usize,
}

impl<'a> Word<'a> {
    pub(super) fn span(self) -> Range<usize> {
        self.at..self.at + self.text.len()
    }

    pub(super) fn from(self, i: usize) -> Word<'a> {
        Word {
            text: &self.text[i..],
            at: self.at + i,
        }
    }

    pub(super) fn until(self, i: usize) -> Word<'a> {
        Word {
            text: &self.text[..i],
            at: self.at,
        }
    }

    pub(super) fn strip_prefix(self, prefix: &str) -> Option<Word<'a>> {
        self.text.starts_with(prefix).then(|| self.from(prefix.len()))
    }

    pub(super) fn strip_suffix(self, suffix: &str) -> Option<Word<'a>> {
        self.text
            .ends_with(suffix)
            .then(|| self.until(self.text.len() - suffix.len()))
    }

    pub(super) fn trim(self) -> Word<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        let word = self.from(start);
        word.until(word.text.trim_end().len())
    }

    pub(super) fn error(self, kind: MesaErrorKind) -> MesaError {
        MesaError {
            span: self.span(),
            kind,
        }
    }

    pub(super) fn expected(self, expected: &'static str) -> MesaError {
        self.error(MesaErrorKind::Expected {
            expected,
            found: self.text.to_string(),
        })
    }

    pub(super) fn misplaced(self, place: &'static str, help: &'static str) -> MesaError {
        self.error(MesaErrorKind::Misplaced {
            found: self.text.to_string(),
            place,
            help,
        })
    }

    pub(super) fn out_of_range(self, what: &'static str, range: &'static str) -> MesaError {
        self.error(MesaErrorKind::OutOfRange {
            what,
            found: self.text.to_string(),
            range,
        })
    }

    /// The pieces between the ASCII characters `sep` matches.
    pub(super) fn split(self, sep: impl Fn(char) -> bool) -> impl Iterator<Item = Word<'a>> {
        // Each piece is followed by one separator byte.
        let mut at = 0;
        self.text.split(sep).map(move |piece| {
            let word = self.from(at).until(piece.len());
            at += piece.len() + 1;
            word
        })
    }

    /// The words of this piece, split at whitespace.
    pub(super) fn words(self) -> Vec<Word<'a>> {
        let pieces = self.split(|c| c.is_ascii_whitespace());
        pieces.filter(|word| !word.text.is_empty()).collect()
    }
}
