//! Inputs and outputs of vertex-program emulators (`polyasm run`): vec4 slots given by flags
//! or a JSON file, any number of vertices, and outputs as a table or JSON written as each vertex
//! is computed.
//!
//! A problem with an option value (`--format`, `--input`, `--const`) is a usage error
//! ([`UsageError`], exit 2); a problem inside the `--data` file is a PA006 error with its file,
//! line and column (exit 1). The data file is read three times: for its syntax, for its
//! constants, then vertex by vertex while the outputs are printed, so memory does not grow with the
//! number of vertices beyond the file's own text.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufWriter, Write};

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::diagnostic::{Diagnostic, Outcome};
use crate::explain::Code;
use crate::options::{OptionKind, OptionSpec, TargetOptions, UsageError, parse_slot, usage};
pub use crate::options::{SlotKind, Vec4};
use crate::source::{SourceId, SourceMap, Span};
use crate::stream::output_written;
use crate::target::{RunOutcome, RunOutput};

/// The lanes an input value leaves out: 0 for x, y and z and 1 for w, as vertex fetch fills them
/// (`1,2,3` is `1,2,3,1`).
pub const INPUT_FILL: Vec4 = [0.0, 0.0, 0.0, 1.0];

/// The lanes a constant value leaves out: 0, as in a constant never set (`1,2,3` is `1,2,3,0`).
pub const CONSTANT_FILL: Vec4 = [0.0; 4];

/// The `polyasm run` options of every vertex emulator, with the dialect's slots.
pub const fn run_options(inputs: &'static SlotKind, constants: &'static SlotKind) -> [OptionSpec; 4] {
    [
        OptionSpec::new(
            "input",
            "SLOT=X,Y,Z,W",
            OptionKind::Slot {
                slots: inputs,
                fill: INPUT_FILL,
            },
            "Set a vertex input (lanes left out: 0, w 1); give a slot again for the next vertex (given once: every vertex)",
        )
        .short('i'),
        OptionSpec::new(
            "const",
            "SLOT=X,Y,Z,W",
            OptionKind::Slot {
                slots: constants,
                fill: CONSTANT_FILL,
            },
            "Set a constant (lanes left out: 0); overrides --data",
        )
        .short('c'),
        OptionSpec::new(
            "data",
            "FILE.json",
            OptionKind::Path,
            "Read constants and vertices from JSON: {\"constants\": {...}, \"vertices\": [{...}]}",
        ),
        OptionSpec::new(
            "format",
            "table|json",
            OptionKind::Words {
                plural: "run formats",
                words: &["table", "json"],
            },
            "How to print the outputs [default: table]",
        )
        .short('f'),
    ]
}

/// How run results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFormat {
    /// A table of aligned columns: vertex, output, `x`, `y`, `z`, `w`.
    Table,
    /// One JSON object, `{"vertices": [...]}`, one vertex per line.
    Json,
}

/// How `--format` says to print.
fn run_format(options: &TargetOptions) -> RunFormat {
    match options.values.word("format") {
        Some("json") => RunFormat::Json,
        _ => RunFormat::Table,
    }
}

/// The values of `--input` and `--const`, checked.
struct Flags {
    constants: Vec<(usize, Vec4)>,
    /// Per input slot, its values in command-line order: the n-th belongs to vertex n.
    inputs: BTreeMap<usize, Vec<Vec4>>,
    /// How many vertices the inputs describe (0 when none is given).
    vertices: usize,
}

fn read_flags(options: &TargetOptions) -> Result<Flags, UsageError> {
    let mut flags = Flags {
        constants: options.values.slots("const").collect(),
        inputs: BTreeMap::new(),
        vertices: 0,
    };
    for (slot, value) in options.values.slots("input") {
        flags.inputs.entry(slot).or_default().push(value);
    }
    flags.vertices = flags.inputs.values().map(Vec::len).max().unwrap_or(0);
    for (slot, values) in &flags.inputs {
        if values.len() != 1 && values.len() != flags.vertices {
            return Err(usage(
                format!(
                    "input slot {slot} is given {} times but other slots {} times",
                    values.len(),
                    flags.vertices
                ),
                "give each slot once (the same for every vertex) or once per vertex",
            ));
        }
    }
    Ok(flags)
}

/// Checks the values of `--input` together (each slot once, or once per vertex), for
/// [`crate::Runner::plan`]: a vertex run prints text.
pub fn plan(options: &TargetOptions) -> Result<RunOutput, UsageError> {
    read_flags(options).map(|_| RunOutput::Text)
}

/// A loaded vertex program, run one vertex at a time.
pub trait VertexProgram {
    /// The names of the values each vertex reports, in order.
    fn names(&self) -> Vec<String>;
    /// Runs one vertex; `inputs` holds one vec4 per input slot (unset slots are 0). Pushes the
    /// reported values onto `values`, in the order of [`VertexProgram::names`].
    fn run_vertex(&mut self, inputs: &[Vec4], values: &mut Vec<Vec4>);
}

/// The whole of a vertex emulator's `polyasm run`: reads the options and the data file, lets
/// `load` load the program with the constants (one vec4 per constant slot), runs every vertex
/// and writes its outputs to `out` as soon as they are computed. `load` fails with the
/// diagnostic of a program that cannot run.
pub fn run_vertices<P: VertexProgram>(
    options: &TargetOptions,
    sources: &mut SourceMap,
    inputs: &SlotKind,
    constants: &SlotKind,
    load: impl FnOnce(&[Vec4]) -> Result<P, Diagnostic>,
    out: &mut dyn Write,
) -> RunOutcome {
    let format = run_format(options);
    let flags = read_flags(options)?;
    let mut constant_values = vec![[0.0; 4]; constants.count];
    let data = match options.values.text("data") {
        Some(path) => match read_data_file(path, sources, constants, &mut constant_values) {
            Ok(data) => Some(data),
            Err(d) => return Ok(Outcome::failed(vec![*d])),
        },
        None => None,
    };
    // A data file with a `vertices` list, even an empty one, says which vertices run.
    let file_vertices = data.as_ref().is_some_and(|d| d.vertices.is_some());
    if file_vertices && flags.vertices > 0 {
        return Err(usage(
            "--input cannot be combined with the vertices of --data",
            "put every vertex in the data file, or give them all with --input",
        ));
    }
    for &(slot, value) in &flags.constants {
        constant_values[slot] = value;
    }
    let mut program = match load(&constant_values) {
        Ok(program) => program,
        Err(d) => return Ok(Outcome::failed(vec![d])),
    };
    let mut printer = Printer::new(out, format, &program.names());
    let mut values = Vec::new();
    let mut vertex_inputs = vec![[0.0; 4]; inputs.count];
    let mut step = |printer: &mut Printer, inputs: &[Vec4]| {
        values.clear();
        program.run_vertex(inputs, &mut values);
        printer.vertex(&values)
    };
    let written = match data {
        Some(data) if file_vertices => {
            let mut stopped = None;
            let streamed = stream_vertices(sources, data.id, inputs, &mut vertex_inputs, &mut |vertex| {
                step(&mut printer, vertex).map_err(|e| stopped = Some(e))
            });
            if let Some(e) = stopped {
                Err(e)
            } else if let Err(e) = streamed {
                return Ok(Outcome::failed(vec![data_error(sources, data.id, &e)]));
            } else {
                Ok(())
            }
        }
        _ => (0..flags.vertices.max(1)).try_for_each(|v| {
            for (&slot, values) in &flags.inputs {
                vertex_inputs[slot] = values[v.min(values.len() - 1)];
            }
            step(&mut printer, &vertex_inputs)
        }),
    };
    // A reader that stopped early (`| head`) ends the run quietly.
    Ok(output_written(written.and_then(|()| printer.finish())))
}

/// Prints each vertex's named outputs as a table or as JSON, one vertex at a time.
pub struct Printer<'w> {
    out: BufWriter<&'w mut dyn Write>,
    format: RunFormat,
    /// The table's names, or the JSON object keys with their quotes and colon.
    names: Vec<String>,
    vertices: usize,
}

/// The width of a table's number column: the longest exponent form of an `f32`
/// (`-1.2345678e-38`) is 15 characters.
const CELL: usize = 15;

/// A lane for the table: as written when that fits the column, else in exponent form.
fn table_cell(value: f32) -> String {
    let plain = value.to_string();
    if plain.len() <= CELL {
        plain
    } else {
        format!("{value:e}")
    }
}

impl<'w> Printer<'w> {
    /// A printer to `out` of the outputs named `names`, in that order.
    pub fn new(out: &'w mut dyn Write, format: RunFormat, names: &[String]) -> Printer<'w> {
        let names = match format {
            RunFormat::Table => names.to_vec(),
            RunFormat::Json => names
                .iter()
                .map(|n| format!("{}:", serde_json::Value::from(n.as_str())))
                .collect(),
        };
        Printer {
            out: BufWriter::with_capacity(64 * 1024, out),
            format,
            names,
            vertices: 0,
        }
    }

    /// Writes one vertex's values, in the order of the names.
    pub fn vertex(&mut self, values: &[Vec4]) -> io::Result<()> {
        let v = self.vertices;
        self.vertices += 1;
        match self.format {
            RunFormat::Table => {
                if v == 0 {
                    writeln!(
                        self.out,
                        "{:<7} {:<7} {:>CELL$} {:>CELL$} {:>CELL$} {:>CELL$}",
                        "vertex", "output", "x", "y", "z", "w"
                    )?;
                }
                for (name, value) in self.names.iter().zip(values) {
                    let [x, y, z, w] = value.map(table_cell);
                    writeln!(self.out, "{v:<7} {name:<7} {x:>CELL$} {y:>CELL$} {z:>CELL$} {w:>CELL$}")?;
                }
            }
            RunFormat::Json => {
                // One vertex per line: compact enough to read, still one JSON document.
                self.out
                    .write_all(if v == 0 { b"{\"vertices\": [\n  {" } else { b",\n  {" })?;
                for (i, (name, value)) in self.names.iter().zip(values).enumerate() {
                    if i > 0 {
                        self.out.write_all(b",")?;
                    }
                    self.out.write_all(name.as_bytes())?;
                    // f32 lanes print as the shortest text that reads back as the same f32;
                    // JSON has no NaN or infinity, so those lanes print as `null`.
                    serde_json::to_writer(&mut self.out, value).map_err(io::Error::other)?;
                }
                self.out.write_all(b"}")?;
            }
        }
        Ok(())
    }

    /// Ends the output and flushes it.
    pub fn finish(mut self) -> io::Result<()> {
        if self.format == RunFormat::Json {
            self.out.write_all(if self.vertices == 0 {
                b"{\"vertices\": [\n"
            } else {
                b"\n"
            })?;
            self.out.write_all(b"]}\n")?;
        }
        self.out.flush()
    }
}

/// What the first reading of a data file found.
struct DataFile {
    id: SourceId,
    /// How many vertices the file lists; `None` when it has no `vertices` key.
    vertices: Option<usize>,
}

/// Where a value of the data file belongs, for messages.
#[derive(Clone, Copy)]
enum Place {
    Constants,
    Vertex(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Constants => f.write_str("constants"),
            Place::Vertex(i) => write!(f, "vertex {i}"),
        }
    }
}

/// Which part of the data file a reading takes; the other is checked and skipped.
enum Reading<'a> {
    Constants {
        kind: &'a SlotKind,
        into: &'a mut [Vec4],
        vertices: Option<usize>,
    },
    Vertices {
        kind: &'a SlotKind,
        into: &'a mut [Vec4],
        each: &'a mut dyn FnMut(&[Vec4]) -> Result<(), ()>,
    },
}

const DATA_SHAPE: &str =
    "the data file is {\"constants\": {SLOT: [x, y, z, w], ...}, \"vertices\": [{SLOT: [x, y, z, w], ...}, ...]}";

impl<'de> DeserializeSeed<'de> for &mut Reading<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut Reading<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("one JSON object with the keys `constants` and `vertices`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut constants, mut vertices) = (false, false);
        while let Some(key) = map.next_key::<String>()? {
            let seen = match key.as_str() {
                "constants" => &mut constants,
                "vertices" => &mut vertices,
                other => {
                    return Err(de::Error::custom(format!(
                        "unknown key `{other}`; the data file has the keys `constants` and `vertices`"
                    )));
                }
            };
            if std::mem::replace(seen, true) {
                return Err(de::Error::custom(format!("`{key}` is given twice")));
            }
            match (key.as_str(), &mut *self) {
                ("constants", Reading::Constants { kind, into, .. }) => map.next_value_seed(Slots {
                    kind,
                    fill: CONSTANT_FILL,
                    place: Place::Constants,
                    into,
                })?,
                ("vertices", Reading::Constants { vertices, .. }) => {
                    *vertices = Some(map.next_value_seed(CountVertices)?)
                }
                ("vertices", Reading::Vertices { kind, into, each }) => {
                    map.next_value_seed(Vertices { kind, into, each })?
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `vertices` array, counted and checked as JSON only.
struct CountVertices;

impl<'de> DeserializeSeed<'de> for CountVertices {
    type Value = usize;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for CountVertices {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("`vertices` to be an array of vertices")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut count = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(count)
    }
}

/// The `vertices` array, each vertex read into `into` and handed to `each`.
struct Vertices<'r, 'a> {
    kind: &'r SlotKind,
    into: &'r mut [Vec4],
    each: &'r mut &'a mut dyn FnMut(&[Vec4]) -> Result<(), ()>,
}

impl<'de> DeserializeSeed<'de> for Vertices<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Vertices<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("`vertices` to be an array of vertices")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for index in 0.. {
            self.into.fill([0.0; 4]);
            let slots = Slots {
                kind: self.kind,
                fill: INPUT_FILL,
                place: Place::Vertex(index),
                into: self.into,
            };
            if seq.next_element_seed(slots)?.is_none() {
                break;
            }
            (self.each)(self.into).map_err(|()| de::Error::custom("the output could not be written"))?;
        }
        Ok(())
    }
}

/// `{"SLOT": [..], ...}` or `[[..], [..]]` (index = slot), written into `into`.
struct Slots<'r> {
    kind: &'r SlotKind,
    fill: Vec4,
    place: Place,
    into: &'r mut [Vec4],
}

impl<'de> DeserializeSeed<'de> for Slots<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Slots<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} to be an object of slots or an array of vec4", self.place)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(slot) = map.next_key_seed(SlotName {
            kind: self.kind,
            place: self.place,
        })? {
            self.into[slot] = map.next_value_seed(Lanes {
                fill: self.fill,
                place: self.place,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let lanes = Lanes {
            fill: self.fill,
            place: self.place,
        };
        for slot in 0.. {
            let Some(value) = seq.next_element_seed(lanes)? else {
                break;
            };
            let Some(target) = self.into.get_mut(slot) else {
                return Err(de::Error::custom(format!(
                    "{}: more than {} {} slots given",
                    self.place, self.kind.count, self.kind.what
                )));
            };
            *target = value;
        }
        Ok(())
    }
}

/// A slot name as a JSON key.
struct SlotName<'r> {
    kind: &'r SlotKind,
    place: Place,
}

impl<'de> DeserializeSeed<'de> for SlotName<'_> {
    type Value = usize;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for SlotName<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a slot name in {}", self.place)
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<usize, E> {
        parse_slot(name, self.kind).map_err(|e| E::custom(format!("{}: {}; {}", self.place, e.message, e.help)))
    }
}

/// A vec4: an array of 1 to 4 numbers.
#[derive(Clone, Copy)]
struct Lanes {
    fill: Vec4,
    place: Place,
}

impl<'de> DeserializeSeed<'de> for Lanes {
    type Value = Vec4;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Vec4, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Lanes {
    type Value = Vec4;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an array of 1 to 4 numbers in {}", self.place)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec4, A::Error> {
        let mut value = self.fill;
        let mut count = 0;
        while let Some(lane) = seq.next_element_seed(Lane { place: self.place })? {
            if count == 4 {
                return Err(de::Error::custom(format!("{}: a vec4 has at most 4 lanes", self.place)));
            }
            value[count] = lane;
            count += 1;
        }
        if count == 0 {
            return Err(de::Error::custom(format!(
                "{}: a vec4 has 1 to 4 lanes, not 0",
                self.place
            )));
        }
        Ok(value)
    }
}

/// One number of a vec4, checked to fit an `f32`.
#[derive(Clone, Copy)]
struct Lane {
    place: Place,
}

impl<'de> DeserializeSeed<'de> for Lane {
    type Value = f32;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<f32, D::Error> {
        deserializer.deserialize_f64(self)
    }
}

impl<'de> Visitor<'de> for Lane {
    type Value = f32;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a number in {}", self.place)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<f32, E> {
        let lane = value as f32;
        if lane.is_infinite() {
            return Err(E::custom(format!(
                "{}: {value:e} is too large for a 32-bit float (the largest is {:e})",
                self.place,
                f32::MAX
            )));
        }
        Ok(lane)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<f32, E> {
        self.visit_f64(value as f64)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<f32, E> {
        self.visit_f64(value as f64)
    }
}

/// Reads the data file into `sources`, its constants into `constants` and counts its vertices;
/// the whole file is checked as JSON.
fn read_data_file(
    path: &str,
    sources: &mut SourceMap,
    kind: &SlotKind,
    constants: &mut [Vec4],
) -> Result<DataFile, Box<Diagnostic>> {
    let too_large = || {
        Diagnostic::error(Code::FileTooLarge, format!("data file {path} is 4 GiB or larger"))
            .with_help("split it into smaller files")
    };
    let cannot_read = |e: &io::Error| {
        Diagnostic::error(
            Code::CannotReadInput,
            format!("cannot read data file {path}: {}", crate::fs::reason(e)),
        )
    };
    let bytes = crate::fs::read_file(std::path::Path::new(path)).map_err(|e| match e {
        crate::fs::ReadError::TooLarge => too_large(),
        crate::fs::ReadError::Io(e) => cannot_read(&e),
    })?;
    let mut text = String::from_utf8(bytes).map_err(|_| {
        cannot_read(&io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })?;
    crate::text::strip_bom(&mut text);
    let id = sources.try_add(path, text).map_err(|_| too_large())?;
    let text = sources.get(id).text();
    // JSON syntax first, so that a file that is not JSON is reported as such.
    serde_json::from_str::<IgnoredAny>(text).map_err(|e| data_error(sources, id, &e))?;
    let mut reading = Reading::Constants {
        kind,
        into: constants,
        vertices: None,
    };
    read_json(text, &mut reading).map_err(|e| data_error(sources, id, &e))?;
    let Reading::Constants { vertices, .. } = reading else {
        unreachable!("the reading keeps its kind")
    };
    Ok(DataFile { id, vertices })
}

/// Reads the vertices of the data file `id` one at a time into `into`, calling `each` on every
/// one; an `Err` from `each` stops the reading.
fn stream_vertices(
    sources: &SourceMap,
    id: SourceId,
    kind: &SlotKind,
    into: &mut [Vec4],
    mut each: &mut dyn FnMut(&[Vec4]) -> Result<(), ()>,
) -> Result<(), serde_json::Error> {
    let mut reading = Reading::Vertices {
        kind,
        into,
        each: &mut each,
    };
    read_json(sources.get(id).text(), &mut reading)
}

fn read_json(text: &str, reading: &mut Reading) -> Result<(), serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    reading.deserialize(&mut deserializer)?;
    deserializer.end()
}

/// A PA006 error at the line and column serde_json reports.
fn data_error(sources: &SourceMap, id: SourceId, e: &serde_json::Error) -> Diagnostic {
    let source = sources.get(id);
    let text = source.text();
    let line_start: usize = if e.line() == 0 {
        0
    } else {
        text.split_inclusive('\n').take(e.line() - 1).map(str::len).sum()
    };
    let offset = source.floor_char_boundary(line_start + e.column().saturating_sub(1));
    let end = source.floor_char_boundary(offset + 1).max(offset);
    let full = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&position).unwrap_or(&full);
    let diagnostic = if e.is_data() {
        Diagnostic::error(Code::InvalidRunInput, message).with_primary(Span::new(id, offset, end), "here")
    } else {
        Diagnostic::error(Code::InvalidRunInput, format!("{} is not valid JSON", source.name()))
            .with_primary(Span::new(id, offset, end), message)
    };
    diagnostic.with_help(DATA_SHAPE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::OptionValues;
    use crate::stream::ExitStatus;

    static SLOTS: SlotKind = SlotKind {
        what: "input",
        count: 8,
        parse: |s| s.parse().ok(),
        hint: "0 to 7",
    };

    static SPECS: [OptionSpec; 4] = run_options(&SLOTS, &SLOTS);

    fn read(pairs: &[(&str, &str)]) -> Result<TargetOptions, UsageError> {
        OptionValues::read(&[&SPECS], pairs).map(|values| TargetOptions {
            values,
            ..TargetOptions::default()
        })
    }

    fn options(pairs: &[(&str, &str)]) -> TargetOptions {
        read(pairs).expect("good values")
    }

    /// Reports its inputs 0 and 1, and constant 0 in every vertex.
    struct Echo {
        constant: Vec4,
    }

    impl VertexProgram for Echo {
        fn names(&self) -> Vec<String> {
            vec!["in0".into(), "in1".into(), "c0".into()]
        }

        fn run_vertex(&mut self, inputs: &[Vec4], values: &mut Vec<Vec4>) {
            values.extend([inputs[0], inputs[1], self.constant]);
        }
    }

    fn run(o: &TargetOptions, sources: &mut SourceMap) -> Result<(Outcome<ExitStatus>, String), UsageError> {
        let mut out = Vec::new();
        let outcome = run_vertices(o, sources, &SLOTS, &SLOTS, |c| Ok(Echo { constant: c[0] }), &mut out)?;
        Ok((outcome, String::from_utf8(out).unwrap()))
    }

    #[test]
    fn inputs_fill_w_with_one_and_constants_with_zero() {
        let o = options(&[("input", "1=1, 2,3"), ("const", "7=7")]);
        assert_eq!(o.values.slots("input").collect::<Vec<_>>(), [(1, [1.0, 2.0, 3.0, 1.0])]);
        assert_eq!(o.values.slots("const").collect::<Vec<_>>(), [(7, [7.0, 0.0, 0.0, 0.0])]);
        assert!(read(&[("input", "8=1")]).is_err());
        assert!(read(&[("const", "1=1,2,3,4,5")]).is_err());
    }

    #[test]
    fn repeated_inputs_make_vertices_and_single_ones_broadcast() {
        let mut sources = SourceMap::new();
        let o = options(&[
            ("input", "0=1,0,0"),
            ("input", "0=2,0,0"),
            ("input", "1=9"),
            ("const", "0=4"),
            ("format", "json"),
        ]);
        let (outcome, text) = run(&o, &mut sources).unwrap();
        assert!(outcome.value.is_some());
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["vertices"][1]["in0"], serde_json::json!([2.0, 0.0, 0.0, 1.0]));
        assert_eq!(json["vertices"][1]["in1"], serde_json::json!([9.0, 0.0, 0.0, 1.0]));
        assert_eq!(json["vertices"][0]["c0"], serde_json::json!([4.0, 0.0, 0.0, 0.0]));
    }

    #[test]
    fn option_values_are_usage_errors() {
        let mut sources = SourceMap::new();
        for pairs in [
            &[
                ("input", "0=1"),
                ("input", "0=2"),
                ("input", "0=3"),
                ("input", "1=1"),
                ("input", "1=2"),
            ][..],
            &[("format", "xml")],
            &[("input", "0")],
            &[("input", "0=a,b")],
            &[("const", "16=1")],
            &[("const", "1=1e40")],
        ] {
            let refused = read(pairs).and_then(|o| run(&o, &mut sources));
            let Err(UsageError(d)) = refused else {
                panic!("{pairs:?} is a usage error");
            };
            assert_eq!(d.code, "PA006");
            assert!(d.help.is_some(), "{pairs:?} has a help line");
        }
    }

    #[test]
    fn outputs_print_as_an_aligned_table_and_json_of_f32_values() {
        let mut sources = SourceMap::new();
        let o = options(&[("input", "0=0.1,1e30,-1.1754944e-38,-3e38")]);
        let (_, table) = run(&o, &mut sources).unwrap();
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[1].starts_with("0       in0"), "{table}");
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{table}");
        assert!(lines[1].contains("1e30"), "{table}");

        let o = options(&[("input", "0=0.1,1e30"), ("format", "json")]);
        let (_, json) = run(&o, &mut sources).unwrap();
        assert!(json.contains("\"in0\":[0.1,1e+30,0.0,1.0]"), "{json}");
    }

    #[test]
    fn the_data_file_streams_its_vertices_and_points_at_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.json");
        std::fs::write(
            &path,
            "{\"vertices\": [{\"0\": [1, 2]}, [[3], [4, 4, 4, 4]]],\n \"constants\": {\"0\": [5]}}",
        )
        .unwrap();
        let mut sources = SourceMap::new();
        let o = options(&[("data", path.to_str().unwrap()), ("format", "json")]);
        let (outcome, text) = run(&o, &mut sources).unwrap();
        assert!(outcome.value.is_some(), "{:?}", outcome.diagnostics);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["vertices"][0]["in0"], serde_json::json!([1.0, 2.0, 0.0, 1.0]));
        assert_eq!(json["vertices"][0]["in1"], serde_json::json!([0.0, 0.0, 0.0, 0.0]));
        assert_eq!(json["vertices"][1]["in1"], serde_json::json!([4.0, 4.0, 4.0, 4.0]));
        assert_eq!(json["vertices"][1]["c0"], serde_json::json!([5.0, 0.0, 0.0, 0.0]));

        std::fs::write(&path, "{\"vertices\": [{\"0\": [1]},\n  {\"9\": [1]}]}").unwrap();
        let (outcome, _) = run(&o, &mut sources).unwrap();
        let d = &outcome.diagnostics[0];
        assert_eq!(d.code, "PA006");
        assert!(
            d.message.starts_with("vertex 1: input slot 9 is out of range"),
            "{}",
            d.message
        );
        let span = d.primary_label().unwrap().span;
        assert_eq!(sources.get(span.source).line_col(span.start as usize).line, 2);

        let o = options(&[("data", path.to_str().unwrap()), ("input", "0=1")]);
        assert!(run(&o, &mut sources).is_err(), "--input with the file's vertices");
    }
}
