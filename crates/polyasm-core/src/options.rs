//! Target options: a dialect declares each option once ([`OptionSpec`]: its name, the kind of
//! value it takes, its help), and [`OptionValues::read`] reads the values given as text into
//! typed values before anything is assembled or run, refusing a bad one with a usage error
//! ([`UsageError`], exit 2) in one wording for every dialect. The dialect then reads typed
//! values from [`TargetOptions::values`]: `values.whole("max-steps")`, `values.word("device")`,
//! `values.slots("input")`.
//!
//! What one value cannot say alone (two options that exclude each other, a slot given twice)
//! the dialect checks itself, from the typed values.

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;
use crate::explain::Code;

/// Four float lanes, x y z w.
pub type Vec4 = [f32; 4];

/// An option value a target cannot use: a usage error (exit 2), reported as it is, with no
/// summary line.
#[derive(Debug)]
pub struct UsageError(pub Box<Diagnostic>);

/// A usage error with a help line (PA006).
pub fn usage(message: impl Into<String>, help: impl Into<String>) -> UsageError {
    UsageError(Box::new(
        Diagnostic::error(Code::InvalidRunInput, message).with_help(help),
    ))
}

/// How a dialect names one kind of slot (inputs, constants, samplers).
#[derive(Debug)]
pub struct SlotKind {
    /// Used in messages, e.g. "input".
    pub what: &'static str,
    /// How many slots there are; they are numbered from 0.
    pub count: usize,
    /// Maps a slot name (`3`, `v3`, ...) to its index; only called on non-empty names.
    pub parse: fn(&str) -> Option<usize>,
    /// What a valid slot name looks like, for help lines.
    pub hint: &'static str,
}

/// The kind of value an option takes, and what makes one good.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// No value: the option is given or not.
    Flag,
    /// A whole number from `min` to `max` (`_` allowed between digits), e.g. `--max-steps N`;
    /// `example` is shown in the help of a bad value.
    Whole {
        /// The smallest value taken.
        min: u64,
        /// The largest value taken; `u64::MAX` for no limit.
        max: u64,
        /// A good value, shown as `--NAME example`.
        example: u64,
    },
    /// A finite decimal number, greater than 0 when `positive`.
    Decimal {
        /// Whether only numbers above 0 are taken.
        positive: bool,
        /// A good value as written, e.g. `1.5`.
        example: &'static str,
    },
    /// `min` to `max` (at most 4) comma-separated lanes; `fill` gives the lanes left out.
    Lanes {
        /// The fewest lanes to give.
        min: usize,
        /// The most lanes to give, 4 at most.
        max: usize,
        /// The value of each lane, x y z w, for lanes left out.
        fill: Vec4,
    },
    /// One of `words`; `plural` names them in the help of a bad value (`the devices are: ...`).
    Words {
        /// What the words are, in the plural: `devices`.
        plural: &'static str,
        /// Every value taken, in the order the help lists them.
        words: &'static [&'static str],
    },
    /// A picture's size, `WxH` (see [`crate::picture::parse_size`]).
    Size,
    /// A file the run reads.
    Path,
    /// `SLOT=X,Y,Z,W`, repeatable: a vec4 for a slot; `fill` gives the lanes left out.
    Slot {
        /// The slots a value may be for.
        slots: &'static SlotKind,
        /// The value of each lane, x y z w, for lanes left out.
        fill: Vec4,
    },
    /// `SLOT=FILE`, repeatable: a file for a slot.
    SlotFile {
        /// The slots a file may be for.
        slots: &'static SlotKind,
    },
    /// Text that `check` accepts, or says what is wrong with; `help` says how to write it.
    Checked {
        /// Accepts the text, or gives the reason it is refused (quoted after the value).
        check: fn(&str) -> Result<(), String>,
        /// The `help:` line of a refused value.
        help: &'static str,
    },
}

/// One command-line option that a target understands (of assembling, disassembling or
/// `polyasm run`).
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The long name, without dashes.
    pub long: &'static str,
    /// The one-letter name, if the option has one (`-f`).
    pub short: Option<char>,
    /// The value's placeholder in help (`N`, `WxH`); empty for a flag.
    pub value_name: &'static str,
    /// What the value may be, which [`OptionValues::read`] checks.
    pub kind: OptionKind,
    /// One line for `--help`.
    pub help: &'static str,
}

impl OptionSpec {
    /// An option that takes a value.
    pub const fn new(long: &'static str, value_name: &'static str, kind: OptionKind, help: &'static str) -> Self {
        OptionSpec {
            long,
            short: None,
            value_name,
            kind,
            help,
        }
    }

    /// An option without a value.
    pub const fn flag(long: &'static str, help: &'static str) -> Self {
        OptionSpec::new(long, "", OptionKind::Flag, help)
    }

    /// The option with a short name too.
    pub const fn short(self, short: char) -> Self {
        OptionSpec {
            short: Some(short),
            ..self
        }
    }

    /// Whether the option takes a value (everything but a [`OptionKind::Flag`]).
    pub fn takes_value(&self) -> bool {
        !matches!(self.kind, OptionKind::Flag)
    }

    /// Whether the option may be given more than once: a slot's value, once per slot.
    pub fn repeatable(&self) -> bool {
        matches!(self.kind, OptionKind::Slot { .. } | OptionKind::SlotFile { .. })
    }
}

/// A value, read.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// A flag, a path or checked text: the text is the value.
    Text,
    Whole(u64),
    Decimal(f32),
    Lanes(Vec4),
    Word(&'static str),
    Size(u32, u32),
    Slot(usize, Vec4),
    SlotFile(usize, String),
}

/// One option given, with its text as given.
#[derive(Clone, Debug)]
struct Given {
    spec: &'static OptionSpec,
    text: String,
    value: Value,
}

/// The target options a user gave, read and checked, and what the command asks of the target.
#[derive(Clone, Debug, Default)]
pub struct TargetOptions {
    /// The values of the options the target declares.
    pub values: OptionValues,
    /// Assemble without listing entries: the CLI sets it when the output format prints no
    /// listing ([`crate::FormatInfo::listing`]), so that a big program does not pay for one.
    /// The words and the diagnostics are the same either way.
    pub skip_listing: bool,
    /// Stop after the dialect's macro preprocessor and return the expanded source in
    /// [`crate::Object::preprocessed`] (`polyasm -E`); only for targets that preprocess
    /// ([`crate::TargetInfo::preprocesses`]).
    pub preprocess_only: bool,
    /// The `-I DIR` folders, in command-line order: where [`crate::include::IncludeLoader`]
    /// looks for included files after the including file's and the main file's folders.
    pub include_dirs: Vec<PathBuf>,
    /// Where to record the names the program defines and their uses, for editors; the
    /// dialect records nothing when it is `None` (the command line).
    pub names: Option<crate::editor::NameSink>,
}

/// The values of a target's options, read and checked as declared, each with its text as
/// given.
#[derive(Clone, Debug, Default)]
pub struct OptionValues {
    given: Vec<Given>,
}

impl OptionValues {
    /// Reads `given` (long names and the text given, in command-line order; a flag's text is
    /// ignored) as `specs` declare them, refusing the first bad value. A name no spec declares
    /// is ignored: the caller refuses options of other targets first.
    pub fn read(specs: &[&'static [OptionSpec]], given: &[(&str, &str)]) -> Result<OptionValues, UsageError> {
        let mut options = OptionValues::default();
        let mut seen: Vec<&str> = Vec::new();
        for spec in specs.iter().copied().flatten() {
            if seen.contains(&spec.long) {
                continue;
            }
            seen.push(spec.long);
            for (_, text) in given.iter().filter(|(long, _)| *long == spec.long) {
                let value = read_value(spec, text)?;
                options.given.push(Given {
                    spec,
                    text: text.to_string(),
                    value,
                });
            }
        }
        Ok(options)
    }

    fn last(&self, long: &str) -> Option<&Given> {
        self.given.iter().rev().find(|g| g.spec.long == long)
    }

    fn each(&self, long: &str) -> impl Iterator<Item = &Given> {
        self.given.iter().filter(move |g| g.spec.long == long)
    }

    /// Whether the option was given.
    pub fn flag(&self, long: &str) -> bool {
        self.last(long).is_some()
    }

    /// The option's text as given (the last, if given more than once).
    pub fn text(&self, long: &str) -> Option<&str> {
        self.last(long).map(|g| g.text.as_str())
    }

    /// The number of a [`OptionKind::Whole`] option, if given.
    pub fn whole(&self, long: &str) -> Option<u64> {
        match self.last(long)?.value {
            Value::Whole(n) => Some(n),
            _ => None,
        }
    }

    /// The number of a [`OptionKind::Decimal`] option, if given.
    pub fn decimal(&self, long: &str) -> Option<f32> {
        match self.last(long)?.value {
            Value::Decimal(x) => Some(x),
            _ => None,
        }
    }

    /// The lanes of a [`OptionKind::Lanes`] option, if given; those left out come from its `fill`.
    pub fn lanes(&self, long: &str) -> Option<Vec4> {
        match self.last(long)?.value {
            Value::Lanes(lanes) => Some(lanes),
            _ => None,
        }
    }

    /// Which of its words the option was given.
    pub fn word(&self, long: &str) -> Option<&'static str> {
        match self.last(long)?.value {
            Value::Word(word) => Some(word),
            _ => None,
        }
    }

    /// The width and height in pixels of a [`OptionKind::Size`] option, if given.
    pub fn size(&self, long: &str) -> Option<(u32, u32)> {
        match self.last(long)?.value {
            Value::Size(width, height) => Some((width, height)),
            _ => None,
        }
    }

    /// The `SLOT=X,Y,Z,W` values of a [`OptionKind::Slot`] option, in command-line order.
    pub fn slots(&self, long: &str) -> impl Iterator<Item = (usize, Vec4)> {
        self.each(long).filter_map(|g| match g.value {
            Value::Slot(slot, value) => Some((slot, value)),
            _ => None,
        })
    }

    /// The `SLOT=FILE` values of a [`OptionKind::SlotFile`] option, in command-line order.
    pub fn slot_files(&self, long: &str) -> impl Iterator<Item = (usize, &str)> {
        self.each(long).filter_map(|g| match &g.value {
            Value::SlotFile(slot, path) => Some((*slot, path.as_str())),
            _ => None,
        })
    }

    /// Every file the option values name ([`OptionKind::Path`], [`OptionKind::SlotFile`]): a
    /// run's inputs, which its output must not replace.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.given.iter().filter_map(|g| match (&g.spec.kind, &g.value) {
            (OptionKind::Path, _) => Some(g.text.as_str()),
            (_, Value::SlotFile(_, path)) => Some(path.as_str()),
            _ => None,
        })
    }
}

/// "1 number", "2 to 4 numbers".
fn numbers(min: usize, max: usize) -> String {
    match min == max {
        true => crate::text::count(min, "number"),
        false => format!("{min} to {max} numbers"),
    }
}

/// Reads one option's text as its spec declares.
fn read_value(spec: &OptionSpec, text: &str) -> Result<Value, UsageError> {
    let long = spec.long;
    let invalid = |help: String| usage(format!("invalid value `{text}` for `--{long}`"), help);
    let invalid_because =
        |problem: String, help: String| usage(format!("invalid value `{text}` for `--{long}`: {problem}"), help);
    // The value is quoted, so a long one is cut in the message and the reason after it stays.
    let quoted = |e: ValueError| usage(format!("`--{long} {text}`: {}", e.message), e.help);
    match spec.kind {
        OptionKind::Flag | OptionKind::Path => Ok(Value::Text),
        OptionKind::Whole { min, max, example } => match text.trim().replace('_', "").parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Value::Whole(n)),
            _ => {
                let range = match (min, max) {
                    (0, u64::MAX) => String::new(),
                    (min, u64::MAX) => format!(" from {min}"),
                    (min, max) => format!(" from {min} to {max}"),
                };
                Err(invalid(format!(
                    "give a whole number{range}, e.g. `--{long} {example}`"
                )))
            }
        },
        OptionKind::Decimal { positive, example } => match parse_lane(text) {
            Ok(x) if x.is_finite() && (!positive || x > 0.0) => Ok(Value::Decimal(x)),
            _ => Err(invalid(format!(
                "give a {} number, e.g. `--{long} {example}`",
                if positive { "positive" } else { "finite" }
            ))),
        },
        OptionKind::Lanes { min, max, fill } => {
            let count = text.split(',').count();
            if !(min..=max).contains(&count) {
                return Err(usage(
                    format!(
                        "`--{long} {text}` has {}, and `--{long}` takes {}",
                        crate::text::count(count, "number"),
                        numbers(min, max)
                    ),
                    match max {
                        1 => "give one number".to_string(),
                        _ => format!("give {}, separated by commas", numbers(min, max)),
                    },
                ));
            }
            parse_vec4(text, fill).map(Value::Lanes).map_err(quoted)
        }
        OptionKind::Words { plural, words } => match words.iter().find(|w| **w == text) {
            Some(word) => Ok(Value::Word(word)),
            None => Err(invalid(format!("the {plural} are: {}", words.join(", ")))),
        },
        OptionKind::Size => crate::picture::parse_size(text)
            .map(|(width, height)| Value::Size(width, height))
            .map_err(|problem| {
                invalid_because(
                    problem,
                    format!("give the size in pixels as WIDTHxHEIGHT, e.g. `--{long} 640x360`"),
                )
            }),
        OptionKind::Slot { slots, fill } => parse_assignment(text, slots, fill)
            .map(|(slot, value)| Value::Slot(slot, value))
            .map_err(quoted),
        OptionKind::SlotFile { slots } => {
            let help = || format!("write the {} number, `=`, then the file", slots.what);
            let Some((slot, path)) = text.split_once('=') else {
                return Err(quoted(ValueError::new(
                    format!("`{text}` should be {}", spec.value_name),
                    help(),
                )));
            };
            let slot = parse_slot(slot, slots).map_err(quoted)?;
            if path.is_empty() {
                return Err(quoted(ValueError::new("the file is missing", help())));
            }
            Ok(Value::SlotFile(slot, path.to_string()))
        }
        OptionKind::Checked { check, help } => check(text)
            .map(|()| Value::Text)
            .map_err(|problem| invalid_because(problem, help.to_string())),
    }
}

/// What is wrong with one value, and how to write it instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// What is wrong, e.g. "`abc` is not a number"; the usage error quotes it.
    pub message: String,
    /// How to write the value instead: the `help:` line.
    pub help: String,
}

impl ValueError {
    /// A problem with one value and the help that fixes it.
    pub fn new(message: impl Into<String>, help: impl Into<String>) -> ValueError {
        ValueError {
            message: message.into(),
            help: help.into(),
        }
    }
}

const NUMBER_HELP: &str = "lanes are decimal numbers such as `1`, `-0.5`, `2.5e-3` or `1_000`";

/// Reads one lane: a decimal number, `_` allowed between its digits as in sources, or `inf`,
/// `-inf` and `nan` spelled out. A number too large for a 32-bit float is an error, not an
/// infinity.
pub fn parse_lane(text: &str) -> Result<f32, ValueError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ValueError::new("a lane is empty", NUMBER_HELP));
    }
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let not_a_number = || ValueError::new(format!("`{text}` is not a number"), NUMBER_HELP);
    if unsigned.starts_with('_') {
        return Err(not_a_number());
    }
    let value = if text.contains('_') {
        text.replace('_', "").parse::<f32>()
    } else {
        text.parse::<f32>()
    }
    .map_err(|_| not_a_number())?;
    if value.is_infinite() && !unsigned.get(..3).is_some_and(|s| s.eq_ignore_ascii_case("inf")) {
        return Err(ValueError::new(
            format!("`{text}` is too large for a 32-bit float"),
            format!("the largest is {:e}", f32::MAX),
        ));
    }
    Ok(value)
}

/// Reads 1 to 4 comma-separated lanes; `fill` gives the lanes left out.
pub fn parse_vec4(text: &str, fill: Vec4) -> Result<Vec4, ValueError> {
    let mut lanes = fill;
    let count = text.split(',').count();
    if count > 4 {
        return Err(ValueError::new(
            format!("`{text}` has {count} lanes; a vec4 has at most 4"),
            "give 1 to 4 numbers, x,y,z,w",
        ));
    }
    for (lane, part) in lanes.iter_mut().zip(text.split(',')) {
        *lane = parse_lane(part)?;
    }
    Ok(lanes)
}

/// Reads a slot's name.
pub fn parse_slot(name: &str, kind: &SlotKind) -> Result<usize, ValueError> {
    let name = name.trim();
    let help = || format!("{} slots are {}", kind.what, kind.hint);
    match (kind.parse)(name) {
        Some(slot) if slot < kind.count => Ok(slot),
        Some(slot) => Err(ValueError::new(
            format!("{} slot {slot} is out of range (0 to {})", kind.what, kind.count - 1),
            help(),
        )),
        None if name.is_empty() => Err(ValueError::new(format!("the {} slot is missing", kind.what), help())),
        None => Err(ValueError::new(format!("`{name}` names no {} slot", kind.what), help())),
    }
}

/// Reads one `SLOT=X,Y,Z,W` value; `fill` gives the lanes left out.
pub fn parse_assignment(text: &str, kind: &SlotKind, fill: Vec4) -> Result<(usize, Vec4), ValueError> {
    let (slot, value) = text.split_once('=').ok_or_else(|| {
        ValueError::new(
            format!("`{text}` should be SLOT=X,Y,Z,W"),
            format!("e.g. `{}=1,2,3`: the slot, `=`, then 1 to 4 numbers", text.trim()),
        )
    })?;
    Ok((parse_slot(slot, kind)?, parse_vec4(value, fill)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    static SLOTS: SlotKind = SlotKind {
        what: "input",
        count: 8,
        parse: |s| s.parse().ok(),
        hint: "0 to 7",
    };

    fn even(text: &str) -> Result<(), String> {
        match text.len() % 2 {
            0 => Ok(()),
            _ => Err("it has an odd length".to_string()),
        }
    }

    static SPECS: &[OptionSpec] = &[
        OptionSpec::flag("trace", "a flag"),
        OptionSpec::new(
            "steps",
            "N",
            OptionKind::Whole {
                min: 1,
                max: 10,
                example: 5,
            },
            "a number",
        ),
        OptionSpec::new(
            "time",
            "T",
            OptionKind::Decimal {
                positive: true,
                example: "1.5",
            },
            "a decimal",
        ),
        OptionSpec::new(
            "at",
            "X,Y",
            OptionKind::Lanes {
                min: 2,
                max: 4,
                fill: [0.0, 0.0, 0.0, 1.0],
            },
            "lanes",
        ),
        OptionSpec::new(
            "device",
            "cpu|gpu",
            OptionKind::Words {
                plural: "devices",
                words: &["cpu", "gpu"],
            },
            "a word",
        ),
        OptionSpec::new("size", "WxH", OptionKind::Size, "a size"),
        OptionSpec::new("data", "FILE", OptionKind::Path, "a file"),
        OptionSpec::new(
            "input",
            "N=X,Y,Z,W",
            OptionKind::Slot {
                slots: &SLOTS,
                fill: [0.0; 4],
            },
            "slots",
        )
        .short('i'),
        OptionSpec::new("texture", "N=FILE", OptionKind::SlotFile { slots: &SLOTS }, "files"),
        OptionSpec::new(
            "even",
            "TEXT",
            OptionKind::Checked {
                check: even,
                help: "give text of an even length",
            },
            "checked",
        ),
    ];

    fn read(given: &[(&str, &str)]) -> Result<OptionValues, UsageError> {
        OptionValues::read(&[SPECS], given)
    }

    #[test]
    fn values_are_read_into_their_types() {
        let options = read(&[
            ("trace", ""),
            ("steps", "1_0"),
            ("time", " 2.5"),
            ("at", "1,2"),
            ("device", "gpu"),
            ("size", "4x3"),
            ("data", "d.json"),
            ("input", "3=1"),
            ("input", "1=2,3"),
            ("texture", "2=t.png"),
            ("even", "ab"),
        ])
        .unwrap();
        assert!(options.flag("trace"));
        assert_eq!(options.whole("steps"), Some(10));
        assert_eq!(options.decimal("time"), Some(2.5));
        assert_eq!(options.text("time"), Some(" 2.5"));
        assert_eq!(options.lanes("at"), Some([1.0, 2.0, 0.0, 1.0]));
        assert_eq!(options.word("device"), Some("gpu"));
        assert_eq!(options.size("size"), Some((4, 3)));
        assert_eq!(
            options.slots("input").collect::<Vec<_>>(),
            [(3, [1.0, 0.0, 0.0, 0.0]), (1, [2.0, 3.0, 0.0, 0.0])]
        );
        assert_eq!(options.slot_files("texture").collect::<Vec<_>>(), [(2, "t.png")]);
        assert_eq!(options.files().collect::<Vec<_>>(), ["d.json", "t.png"]);
        assert_eq!(options.text("even"), Some("ab"));
        let none = read(&[]).unwrap();
        assert!(!none.flag("trace"));
        assert_eq!((none.whole("steps"), none.word("device")), (None, None));
        assert!(SPECS[7].repeatable() && !SPECS[1].repeatable() && !SPECS[0].takes_value());
    }

    #[test]
    fn bad_values_are_usage_errors_in_one_wording() {
        for (given, message, help) in [
            (
                ("steps", "0"),
                "invalid value `0` for `--steps`",
                "give a whole number from 1 to 10, e.g. `--steps 5`",
            ),
            (
                ("steps", "-1"),
                "invalid value `-1` for `--steps`",
                "give a whole number from 1 to 10",
            ),
            (
                ("time", "0"),
                "invalid value `0` for `--time`",
                "give a positive number, e.g. `--time 1.5`",
            ),
            (("time", "inf"), "invalid value `inf` for `--time`", "positive"),
            (
                ("at", "1"),
                "`--at 1` has 1 number, and `--at` takes 2 to 4 numbers",
                "give 2 to 4",
            ),
            (("at", "1,z"), "`--at 1,z`: `z` is not a number", "lanes are decimal"),
            (
                ("device", "tpu"),
                "invalid value `tpu` for `--device`",
                "the devices are: cpu, gpu",
            ),
            (
                ("size", "10"),
                "invalid value `10` for `--size`: write the width",
                "WIDTHxHEIGHT",
            ),
            (
                ("input", "8=1"),
                "`--input 8=1`: input slot 8 is out of range (0 to 7)",
                "input slots",
            ),
            (
                ("input", "1"),
                "`--input 1`: `1` should be SLOT=X,Y,Z,W",
                "e.g. `1=1,2,3`",
            ),
            (
                ("texture", "a.png"),
                "`--texture a.png`: `a.png` should be N=FILE",
                "write the input number",
            ),
            (("texture", "x=a.png"), "`x` names no input slot", "input slots"),
            (
                ("texture", "1="),
                "`--texture 1=`: the file is missing",
                "then the file",
            ),
            (
                ("even", "abc"),
                "invalid value `abc` for `--even`: it has an odd length",
                "even length",
            ),
        ] {
            let Err(UsageError(d)) = read(&[given]) else {
                panic!("{given:?} is refused");
            };
            assert_eq!(d.code, "PA006");
            assert!(d.message.contains(message), "{given:?}: {}", d.message);
            assert!(d.help.as_deref().unwrap().contains(help), "{given:?}: {:?}", d.help);
        }
    }

    #[test]
    fn names_no_spec_declares_are_left_to_the_caller_and_the_first_bad_value_is_reported() {
        assert!(read(&[("other", "x")]).is_ok());
        let Err(UsageError(d)) = read(&[("device", "tpu"), ("steps", "0")]) else {
            panic!("refused");
        };
        assert!(d.message.contains("--steps"), "{}", d.message);
    }

    #[test]
    fn lanes_take_underscores_and_refuse_to_overflow() {
        assert_eq!(parse_lane("1_000.5"), Ok(1000.5));
        assert_eq!(parse_lane("-2_5e-1"), Ok(-2.5));
        assert!(parse_lane("_1").is_err());
        assert!(parse_lane("").is_err());
        let e = parse_lane("1e39").unwrap_err();
        assert!(e.message.contains("too large"), "{e:?}");
        assert!(parse_lane("-4e38").is_err());
        assert_eq!(parse_lane("-inf"), Ok(f32::NEG_INFINITY));
        assert!(parse_lane("nan").unwrap().is_nan());
        assert_eq!(parse_lane("3.4028235e38"), Ok(f32::MAX));
    }

    #[test]
    fn vectors_fill_the_lanes_left_out() {
        assert_eq!(parse_vec4("1, 2,3", [0.0, 0.0, 0.0, 1.0]), Ok([1.0, 2.0, 3.0, 1.0]));
        assert_eq!(parse_vec4("7", [0.0; 4]), Ok([7.0, 0.0, 0.0, 0.0]));
        assert!(parse_vec4("1,2,3,4,5", [0.0; 4]).is_err());
        assert!(parse_vec4("x", [0.0; 4]).is_err());
        assert_eq!(
            parse_assignment("7=0.5", &SLOTS, [0.0, 0.0, 0.0, 1.0]),
            Ok((7, [0.5, 0.0, 0.0, 1.0]))
        );
        assert!(parse_assignment("8=1", &SLOTS, [0.0; 4]).is_err());
    }
}
