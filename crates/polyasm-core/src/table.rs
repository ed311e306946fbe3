//! One generating table per dialect: [`table!`](crate::table!) turns one row per instruction
//! form into the enum of forms, the rows in order, lookups by name, the names offered for
//! "did you mean", and a Markdown table for the docs; [`check_doc_regions`] holds a page's
//! generated tables to what the table makes.
//!
//! A row names its variant, its mnemonic, optionally its name in a second syntax (`second`)
//! and older or other names the first syntax also reads (`alias [...]`), the dialect's own
//! columns (opcode, unit, operand kinds, flags: whatever the dialect's struct declares), and a
//! one-line doc string:
//!
//! ```
//! #[derive(Clone, Copy, Debug, PartialEq, Eq)]
//! pub enum Operand {
//!     Register,
//!     Number,
//! }
//!
//! polyasm_core::table! {
//!     /// An operation.
//!     #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
//!     pub enum Op;
//!     /// One row of the table.
//!     #[derive(Debug)]
//!     pub struct OpInfo {
//!         /// Its opcode.
//!         opcode: u8,
//!         /// What each operand is.
//!         operands: &'static [Operand],
//!     }
//!     /// Every operation, in [`Op`] order.
//!     pub static OPS;
//!     rows {
//!         Load "load" { opcode: 1, operands: &[Operand::Register, Operand::Number] } "r = number";
//!         Move "move" second "mov" alias ["copy"] { opcode: 2, operands: &[Operand::Register, Operand::Register] } "a = b";
//!         Stop "stop" { opcode: 3, operands: &[] } "stops";
//!     }
//!     markdown {
//!         "opcode" => |row| row.opcode.to_string(),
//!         "mnemonic" => |row| format!("`{}`", row.mnemonic),
//!         "does" => |row| row.doc.to_string(),
//!     }
//! }
//!
//! assert_eq!(Op::from_mnemonic("copy"), Some(Op::Move));
//! assert_eq!(Op::from_second_mnemonic("mov"), Some(Op::Move));
//! assert_eq!(Op::from_mnemonic_ignore_case("LOAD"), Some(Op::Load));
//! assert_eq!(Op::Move.info().opcode, 2);
//! assert_eq!(Op::suggest("lod"), Some("load"));
//! assert_eq!(Op::entries()[1].to_markdown(), "`move`: a = b\n\n- opcode: 2\n- mnemonic: `move`\n- does: a = b");
//! assert!(Op::entries()[1].is_named("MOV") && Op::entries()[1].is_named("copy"));
//! assert_eq!(
//!     Op::markdown(),
//!     "| opcode | mnemonic | does |\n|---|---|---|\n| 1 | `load` | r = number |\n| 2 | `move` | a = b |\n| 3 | `stop` | stops |\n"
//! );
//! ```

use std::path::Path;

/// Set to `1` while running a dialect's docs test to rewrite the generated regions of its
/// pages instead of failing on a difference.
pub const BLESS_ENV: &str = "POLYASM_BLESS_DOCS";

/// The longest name a row may have: [`table!`](crate::table!)'s case-insensitive lookup
/// lower-cases a name into a buffer of this many bytes.
pub const MAX_NAME_LEN: usize = 32;

/// Declares a dialect's instruction table. See the [module docs](mod@crate::table) for the shape
/// of an invocation; it generates:
///
/// - the enum, one variant per row (the row's doc string is the variant's doc), with `COUNT`,
///   `ALL` (every variant in row order) and `MNEMONICS` (every mnemonic in row order);
/// - the row struct, with the columns every table has (`op`, `mnemonic`, `second`, `aliases`,
///   `doc`) and the dialect's own, and the static array of rows in enum order;
/// - `info`, `mnemonic`; `from_mnemonic` (mnemonics and aliases, exact),
///   `from_mnemonic_ignore_case` (for tables whose names are lower case), and
///   `from_second_mnemonic` (the second syntax's names), each one `match`;
/// - `suggest`, the "did you mean" among the mnemonics ([`crate::text::suggest`]);
/// - `markdown`, the rows as a Markdown table with the columns the invocation lists.
///
/// Names (mnemonics and aliases together, and second names among themselves) must be
/// distinct and at most [`MAX_NAME_LEN`] bytes: a table that breaks this does not compile.
#[macro_export]
macro_rules! table {
    (@option) => { None };
    (@option $value:literal) => { Some($value) };
    (
        $(#[$enum_meta:meta])*
        $enum_vis:vis enum $Enum:ident;
        $(#[$row_meta:meta])*
        $row_vis:vis struct $Row:ident {
            $( $(#[$field_meta:meta])* $field:ident : $field_ty:ty ),* $(,)?
        }
        $(#[$rows_meta:meta])*
        $rows_vis:vis static $ROWS:ident;
        rows {
            $(
                $Variant:ident $mnemonic:literal
                $(second $second:literal)?
                $(alias [$($alias:literal),* $(,)?])?
                { $($column:ident : $value:expr),* $(,)? }
                $doc:literal;
            )*
        }
        markdown {
            $($header:literal => $cell:expr),* $(,)?
        }
    ) => {
        $(#[$enum_meta])*
        $enum_vis enum $Enum {
            $( #[doc = $doc] $Variant, )*
        }

        $(#[$row_meta])*
        $row_vis struct $Row {
            /// The form this row declares.
            pub op: $Enum,
            /// Its name in the dialect's syntax.
            pub mnemonic: &'static str,
            /// Its name in the dialect's second syntax, where the dialect has one.
            pub second: Option<&'static str>,
            /// Other names the syntax reads as this form: aliases and older names.
            pub aliases: &'static [&'static str],
            /// What it does, in one line.
            pub doc: &'static str,
            $( $(#[$field_meta])* pub $field: $field_ty, )*
        }

        $(#[$rows_meta])*
        $rows_vis static $ROWS: [$Row; $Enum::COUNT] = [
            $(
                $Row {
                    op: $Enum::$Variant,
                    mnemonic: $mnemonic,
                    second: $crate::table!(@option $($second)?),
                    aliases: &[$($($alias),*)?],
                    doc: $doc,
                    $($column: $value,)*
                },
            )*
        ];

        const _: () = $crate::table::assert_names(&[$($mnemonic, $($($alias,)*)?)*]);
        const _: () = $crate::table::assert_names(&[$($($second,)?)*]);

        impl $Enum {
            /// How many rows the table has.
            pub const COUNT: usize = [$(stringify!($Variant)),*].len();

            /// Every form, in row order.
            pub const ALL: [$Enum; $Enum::COUNT] = [$($Enum::$Variant),*];

            /// Every mnemonic, in row order: the names "did you mean" offers.
            pub const MNEMONICS: [&'static str; $Enum::COUNT] = [$($mnemonic),*];

            /// The form's row.
            #[inline]
            pub fn info(self) -> &'static $Row {
                &$ROWS[self as usize]
            }

            /// The form's name in the dialect's syntax.
            #[inline]
            pub fn mnemonic(self) -> &'static str {
                $Enum::MNEMONICS[self as usize]
            }

            /// The form a mnemonic or alias names, exactly as written.
            #[inline]
            pub fn from_mnemonic(name: &str) -> Option<$Enum> {
                match name {
                    $( $mnemonic $($(| $alias)*)? => Some($Enum::$Variant), )*
                    _ => None,
                }
            }

            /// The form a mnemonic or alias names in any letter case (for tables whose names
            /// are lower case).
            #[inline]
            pub fn from_mnemonic_ignore_case(name: &str) -> Option<$Enum> {
                let mut buffer = [0u8; $crate::table::MAX_NAME_LEN];
                $Enum::from_mnemonic($crate::table::lowercase_into(name, &mut buffer)?)
            }

            /// The form a name of the dialect's second syntax names.
            #[inline]
            pub fn from_second_mnemonic(name: &str) -> Option<$Enum> {
                match name {
                    $( $($second => Some($Enum::$Variant),)? )*
                    _ => None,
                }
            }

            /// The mnemonic closest to `word`, for a "did you mean" help line.
            pub fn suggest(word: &str) -> Option<&'static str> {
                $crate::text::suggest(word, $Enum::MNEMONICS)
            }

            /// The rows as a Markdown table, for the dialect's docs page.
            pub fn markdown() -> String {
                let columns: &[$crate::table::Column<$Row>] = &[$(($header, $cell)),*];
                $crate::table::markdown(columns, &$ROWS)
            }

            /// Every row as editors show it: its names, its doc line and its cells of the
            /// docs table.
            pub fn entries() -> Vec<$crate::table::Entry> {
                let columns: &[$crate::table::Column<$Row>] = &[$(($header, $cell)),*];
                $ROWS
                    .iter()
                    .map(|row| $crate::table::Entry {
                        mnemonic: row.mnemonic,
                        second: row.second,
                        aliases: row.aliases,
                        doc: row.doc,
                        cells: columns.iter().map(|(header, cell)| (*header, cell(row))).collect(),
                    })
                    .collect()
            }
        }
    };
}

/// Fails the build (in a `const`) when two of `names` are the same or one is longer than
/// [`MAX_NAME_LEN`] bytes.
pub const fn assert_names(names: &[&str]) {
    let mut i = 0;
    while i < names.len() {
        assert!(
            names[i].len() <= MAX_NAME_LEN,
            "a table name is longer than MAX_NAME_LEN"
        );
        let mut j = i + 1;
        while j < names.len() {
            assert!(!same(names[i], names[j]), "a table names two rows alike");
            j += 1;
        }
        i += 1;
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `name` lower-cased (ASCII) into `buffer`; `None` when it does not fit, so it names no row.
#[inline]
pub fn lowercase_into<'a>(name: &str, buffer: &'a mut [u8; MAX_NAME_LEN]) -> Option<&'a str> {
    let bytes = name.as_bytes();
    let lower = buffer.get_mut(..bytes.len())?;
    lower.copy_from_slice(bytes);
    lower.make_ascii_lowercase();
    std::str::from_utf8(lower).ok()
}

/// `a` followed by `b` in `buffer`, to look up a name written in two pieces (Lima's opcode and
/// its unit) without allocating; `None` when it does not fit, so it names no row.
#[inline]
pub fn join_into<'a>(a: &str, b: &str, buffer: &'a mut [u8; MAX_NAME_LEN]) -> Option<&'a str> {
    let joined = buffer.get_mut(..a.len() + b.len())?;
    joined[..a.len()].copy_from_slice(a.as_bytes());
    joined[a.len()..].copy_from_slice(b.as_bytes());
    std::str::from_utf8(joined).ok()
}

/// One row of a dialect's table as an editor shows it (hover text, completions): what
/// [`table!`](crate::table!)'s `entries()` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The row's mnemonic in the first syntax.
    pub mnemonic: &'static str,
    /// The row's name in the dialect's second syntax, where it has one.
    pub second: Option<&'static str>,
    /// Other names the first syntax reads for the row (older or other spellings).
    pub aliases: &'static [&'static str],
    /// What the row does, in one line.
    pub doc: &'static str,
    /// The row's cells of the docs table, each with its column's header.
    pub cells: Vec<(&'static str, String)>,
}

impl Entry {
    /// Whether `word` is one of its names (the mnemonic, the second syntax's, an alias), in
    /// any letter case.
    pub fn is_named(&self, word: &str) -> bool {
        let same = |name: &str| name.eq_ignore_ascii_case(word);
        same(self.mnemonic) || self.second.is_some_and(same) || self.aliases.iter().any(|a| same(a))
    }

    /// The row in Markdown: the name and its doc line, then a line per cell.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("`{}`: {}\n", self.mnemonic, self.doc);
        for (header, cell) in &self.cells {
            if !cell.is_empty() {
                out.push_str(&format!("\n- {header}: {cell}"));
            }
        }
        out
    }
}

/// A column of a generated Markdown table: its header and how a row's cell reads.
pub type Column<R> = (&'static str, fn(&R) -> String);

/// `rows` as a Markdown table: one column per `(header, cell)`, `|` in a cell escaped.
pub fn markdown<R>(columns: &[Column<R>], rows: &[R]) -> String {
    let mut out = String::new();
    for (header, _) in columns {
        out.push_str("| ");
        out.push_str(&escape_cell(header));
        out.push(' ');
    }
    out.push_str("|\n");
    for _ in columns {
        out.push_str("|---");
    }
    out.push_str("|\n");
    for row in rows {
        for (_, cell) in columns {
            out.push_str("| ");
            out.push_str(&escape_cell(&cell(row)));
            out.push(' ');
        }
        out.push_str("|\n");
    }
    out
}

fn escape_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The line that opens the generated region `name` of a page.
pub fn region_begin(name: &str) -> String {
    format!("<!-- table:begin {name} -->\n")
}

/// The line that closes a generated region.
pub const REGION_END: &str = "<!-- table:end -->";

/// The byte range of the text between region `name`'s opening line and its closing line.
pub fn region(page: &str, name: &str) -> Result<std::ops::Range<usize>, String> {
    let begin = region_begin(name);
    let start = page
        .find(&begin)
        .map(|at| at + begin.len())
        .ok_or_else(|| format!("no line `{}`", begin.trim_end()))?;
    if page[start..].contains(&begin) {
        return Err(format!("two lines `{}`", begin.trim_end()));
    }
    let end = page[start..]
        .find(REGION_END)
        .map(|at| start + at)
        .ok_or_else(|| format!("no `{REGION_END}` after `{}`", begin.trim_end()))?;
    Ok(start..end)
}

/// `page` with each region `(name, text)` holding `text`; the names of those that differed.
pub fn rewrite_regions(page: &str, regions: &[(&str, String)]) -> Result<(String, Vec<String>), String> {
    let mut out = page.to_string();
    let mut differed = Vec::new();
    for (name, text) in regions {
        let range = region(&out, name)?;
        if out[range.clone()] != **text {
            out.replace_range(range, text);
            differed.push(name.to_string());
        }
    }
    Ok((out, differed))
}

/// Checks that each generated region `(name, text)` of the page at `path` holds `text`. On a
/// difference the error names the region and prints the text it should hold; with
/// [`BLESS_ENV`] set to `1` the page is rewritten instead.
pub fn check_doc_regions(path: &Path, regions: &[(&str, String)]) -> Result<(), String> {
    let page = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (rewritten, differed) = rewrite_regions(&page, regions).map_err(|e| format!("{}: {e}", path.display()))?;
    if differed.is_empty() {
        return Ok(());
    }
    if std::env::var(BLESS_ENV).is_ok_and(|v| v == "1") {
        return std::fs::write(path, rewritten).map_err(|e| format!("{}: {e}", path.display()));
    }
    let mut message = String::new();
    for (name, text) in regions.iter().filter(|(name, _)| differed.iter().any(|d| d == name)) {
        message.push_str(&format!(
            "{}: the region `{name}` is out of date; it should read:\n{text}\n",
            path.display()
        ));
    }
    message.push_str(&format!("(run the test with {BLESS_ENV}=1 to rewrite it)"));
    Err(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::table! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Form;
        struct FormInfo {
            code: u8,
        }
        static FORMS;
        rows {
            Add "add" second "ADD.f" { code: 3 } "a + b";
            Move "mov" alias ["move", "copy"] { code: 1 } "a";
            Or "or" { code: 9 } "a | b";
        }
        markdown {
            "name" => |row| format!("`{}`", row.mnemonic),
            "code" => |row| row.code.to_string(),
            "does" => |row| row.doc.to_string(),
        }
    }

    #[test]
    fn rows_are_in_enum_order_and_every_name_finds_its_row() {
        assert_eq!(Form::COUNT, 3);
        for (i, row) in FORMS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(Form::ALL[i], row.op);
            assert_eq!(Form::from_mnemonic(row.mnemonic), Some(row.op));
            assert_eq!(row.op.mnemonic(), row.mnemonic);
            for alias in row.aliases {
                assert_eq!(Form::from_mnemonic(alias), Some(row.op));
            }
            if let Some(second) = row.second {
                assert_eq!(Form::from_second_mnemonic(second), Some(row.op));
                assert_eq!(Form::from_mnemonic(second), None);
            }
        }
        assert_eq!(Form::Move.info().code, 1);
        assert_eq!(Form::Add.info().second, Some("ADD.f"));
        assert_eq!(Form::from_second_mnemonic("add"), None);
        assert_eq!(Form::from_mnemonic("Add"), None);
        assert_eq!(Form::from_mnemonic_ignore_case("MoVe"), Some(Form::Move));
        assert_eq!(Form::from_mnemonic_ignore_case(&"a".repeat(MAX_NAME_LEN + 1)), None);
        assert_eq!(Form::from_mnemonic_ignore_case("ädd"), None);
    }

    #[test]
    fn names_in_two_pieces_are_joined_when_they_fit() {
        let mut buffer = [0u8; MAX_NAME_LEN];
        assert_eq!(join_into("add", ".v1", &mut buffer), Some("add.v1"));
        assert_eq!(join_into("", "", &mut buffer), Some(""));
        let long = "a".repeat(MAX_NAME_LEN);
        assert_eq!(join_into(&long, "", &mut buffer), Some(long.as_str()));
        assert_eq!(join_into(&long, ".", &mut buffer), None);
    }

    #[test]
    fn suggestions_offer_the_mnemonics() {
        assert_eq!(Form::suggest("ad"), Some("add"));
        assert_eq!(Form::suggest("movx"), Some("mov"));
        assert_eq!(Form::suggest("zzzzzz"), None);
    }

    #[test]
    fn markdown_has_the_chosen_columns_and_escapes_bars() {
        assert_eq!(
            Form::markdown(),
            "| name | code | does |\n|---|---|---|\n| `add` | 3 | a + b |\n| `mov` | 1 | a |\n| `or` | 9 | a \\| b |\n"
        );
    }

    #[test]
    fn entries_answer_to_every_name_and_show_their_cells() {
        let entries = Form::entries();
        assert_eq!(entries.len(), Form::COUNT);
        let add = &entries[0];
        assert!(add.is_named("add") && add.is_named("ADD") && add.is_named("add.F"));
        assert!(!add.is_named("ad") && !add.is_named("or"));
        assert!(entries[1].is_named("Copy"));
        assert_eq!(
            add.to_markdown(),
            "`add`: a + b\n\n- name: `add`\n- code: 3\n- does: a + b"
        );
        // An empty cell is left out.
        let bare = Entry {
            cells: vec![("unit", String::new()), ("code", "9".to_string())],
            ..entries[2].clone()
        };
        assert_eq!(bare.to_markdown(), "`or`: a | b\n\n- code: 9");
    }

    fn region_text(page: &str, name: &str) -> Result<String, String> {
        region(page, name).map(|range| page[range].to_string())
    }

    #[test]
    fn regions_are_found_between_their_markers() {
        let page = "intro\n<!-- table:begin ops -->\n| a |\n<!-- table:end -->\n<!-- table:begin regs -->\n<!-- table:end -->\nend\n";
        assert_eq!(region_text(page, "ops"), Ok("| a |\n".to_string()));
        assert_eq!(region_text(page, "regs"), Ok(String::new()));
        assert!(region_text(page, "fields").unwrap_err().contains("no line"));
        assert!(
            region_text("<!-- table:begin ops -->\nx\n", "ops")
                .unwrap_err()
                .contains("table:end")
        );
        let twice = format!("{page}<!-- table:begin ops -->\n<!-- table:end -->\n");
        assert!(region_text(&twice, "ops").unwrap_err().contains("two lines"));
    }

    #[test]
    fn rewriting_changes_only_the_regions_that_differ() {
        let page =
            "a\n<!-- table:begin x -->\nold\n<!-- table:end -->\nb\n<!-- table:begin y -->\nsame\n<!-- table:end -->\n";
        let (out, differed) = rewrite_regions(page, &[("x", "new\nrows\n".into()), ("y", "same\n".into())]).unwrap();
        assert_eq!(
            out,
            "a\n<!-- table:begin x -->\nnew\nrows\n<!-- table:end -->\nb\n<!-- table:begin y -->\nsame\n<!-- table:end -->\n"
        );
        assert_eq!(differed, ["x"]);
        let (again, none) = rewrite_regions(&out, &[("x", "new\nrows\n".into())]).unwrap();
        assert_eq!((again.as_str(), none.len()), (out.as_str(), 0));
    }

    #[test]
    fn a_page_that_differs_fails_with_the_expected_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("page.md");
        std::fs::write(&path, "<!-- table:begin ops -->\nold\n<!-- table:end -->\n").unwrap();
        let error = check_doc_regions(&path, &[("ops", "| new |\n".into())]).unwrap_err();
        assert!(
            error.contains("`ops` is out of date") && error.contains("| new |"),
            "{error}"
        );
        assert!(error.contains(BLESS_ENV), "{error}");
        std::fs::write(&path, "<!-- table:begin ops -->\n| new |\n<!-- table:end -->\n").unwrap();
        assert_eq!(check_doc_regions(&path, &[("ops", "| new |\n".into())]), Ok(()));
    }
}
