//! Inputs and outputs of vertex-program emulators (`polyasm run`): vec4 slots given by flags
//! or a JSON file, several vertices at once, and outputs as a table or JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::diagnostic::{Diagnostic, Outcome};
use crate::source::{SourceMap, Span};
use crate::target::{OptionSpec, RunReport, TargetOptions};

/// Four float lanes, x y z w.
pub type Vec4 = [f32; 4];

/// The `polyasm run` options of every vertex emulator.
pub static RUN_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        long: "input",
        short: Some('i'),
        value_name: Some("SLOT=X,Y,Z,W"),
        help: "Set a vertex input; give a slot again for the next vertex (given once: every vertex)",
        repeatable: true,
    },
    OptionSpec {
        long: "const",
        short: Some('c'),
        value_name: Some("SLOT=X,Y,Z,W"),
        help: "Set a constant (overrides --data)",
        repeatable: true,
    },
    OptionSpec {
        long: "data",
        short: None,
        value_name: Some("FILE.json"),
        help: "Read constants and vertices from JSON: {\"constants\": {...}, \"vertices\": [{...}]}",
        repeatable: false,
    },
    OptionSpec {
        long: "format",
        short: Some('f'),
        value_name: Some("table|json"),
        help: "How to print the outputs [default: table]",
        repeatable: false,
    },
];

/// How a dialect names one kind of slot (inputs or constants).
pub struct SlotKind {
    /// Used in messages, e.g. "input".
    pub what: &'static str,
    pub count: usize,
    /// Maps a slot name (`3`, `v3`, ...) to its index; only called on non-empty names.
    pub parse: fn(&str) -> Option<usize>,
    /// What a valid slot name looks like, for help lines.
    pub hint: &'static str,
}

/// Constants and per-vertex inputs, by slot index; unset slots are zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunData {
    pub constants: BTreeMap<usize, Vec4>,
    pub vertices: Vec<BTreeMap<usize, Vec4>>,
}

/// How run results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFormat {
    Table,
    Json,
}

fn invalid(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("PA006", message)
}

/// Reads `--format`.
pub fn run_format(options: &TargetOptions) -> Result<RunFormat, Box<Diagnostic>> {
    match options.value("format") {
        None | Some("table") => Ok(RunFormat::Table),
        Some("json") => Ok(RunFormat::Json),
        Some(other) => Err(invalid(format!("unknown run format `{other}`"))
            .with_help("use `--format table` or `--format json`")
            .into()),
    }
}

/// Reads 1 to 4 comma-separated lanes; missing lanes are 0 for x, y, z and 1 for w, as in
/// vertex fetch (`1,2,3` is `1,2,3,1`).
pub fn parse_vec4(text: &str) -> Result<Vec4, String> {
    let mut lanes = [0.0, 0.0, 0.0, 1.0];
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() > 4 {
        return Err(format!("`{text}` has {} lanes; a vec4 has at most 4", parts.len()));
    }
    for (lane, part) in lanes.iter_mut().zip(&parts) {
        *lane = part.parse::<f32>().map_err(|_| format!("`{part}` is not a number"))?;
    }
    Ok(lanes)
}

fn parse_slot(name: &str, kind: &SlotKind) -> Result<usize, String> {
    match (kind.parse)(name.trim()) {
        Some(slot) if slot < kind.count => Ok(slot),
        Some(slot) => Err(format!(
            "{} slot {slot} is out of range (0..{})",
            kind.what,
            kind.count - 1
        )),
        None => Err(format!(
            "`{}` is not an {} slot ({})",
            name.trim(),
            kind.what,
            kind.hint
        )),
    }
}

/// Reads one `SLOT=X,Y,Z,W` flag value.
pub fn parse_assignment(text: &str, kind: &SlotKind) -> Result<(usize, Vec4), String> {
    let (slot, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` should be SLOT=X,Y,Z,W"))?;
    Ok((parse_slot(slot, kind)?, parse_vec4(value)?))
}

fn json_vec4(value: &Value) -> Result<Vec4, String> {
    let lanes = value
        .as_array()
        .ok_or_else(|| format!("{value} is not an array of 1 to 4 numbers"))?;
    if lanes.is_empty() || lanes.len() > 4 {
        return Err(format!("{value} has {} lanes; a vec4 has 1 to 4", lanes.len()));
    }
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (lane, v) in out.iter_mut().zip(lanes) {
        *lane = v.as_f64().ok_or_else(|| format!("{v} is not a number"))? as f32;
    }
    Ok(out)
}

/// Reads `{"0": [..], "1": [..]}` or `[[..], [..]]` (index = slot).
fn json_slots(value: &Value, kind: &SlotKind) -> Result<BTreeMap<usize, Vec4>, String> {
    let mut slots = BTreeMap::new();
    match value {
        Value::Object(map) => {
            for (name, v) in map {
                slots.insert(parse_slot(name, kind)?, json_vec4(v)?);
            }
        }
        Value::Array(list) => {
            if list.len() > kind.count {
                return Err(format!(
                    "{} {} slots given; there are {}",
                    list.len(),
                    kind.what,
                    kind.count
                ));
            }
            for (slot, v) in list.iter().enumerate() {
                slots.insert(slot, json_vec4(v)?);
            }
        }
        other => return Err(format!("{other} should be an object of slots or an array of vec4")),
    }
    Ok(slots)
}

fn read_data_file(
    path: &str,
    sources: &mut SourceMap,
    inputs: &SlotKind,
    constants: &SlotKind,
) -> Result<RunData, Box<Diagnostic>> {
    let text = std::fs::read_to_string(path).map_err(|e| invalid(format!("cannot read data file {path}: {e}")))?;
    let id = sources
        .try_add(path, text)
        .map_err(|_| invalid(format!("data file {path} is 4 GiB or larger")))?;
    let text = sources.get(id).text();
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let source = sources.get(id);
        let line_start = if e.line() == 0 {
            0
        } else {
            text.split_inclusive('\n').take(e.line() - 1).map(str::len).sum()
        };
        let offset = source.floor_char_boundary(line_start + e.column().saturating_sub(1));
        invalid(format!("{path} is not valid JSON")).with_primary(
            Span::new(id, offset, source.floor_char_boundary(offset + 1).max(offset)),
            e.to_string(),
        )
    })?;
    let in_file = |message: String| invalid(message).in_file(id);
    let object = value
        .as_object()
        .ok_or_else(|| in_file("the data file should hold one JSON object".into()))?;
    let mut data = RunData::default();
    for (key, v) in object {
        match key.as_str() {
            "constants" => data.constants = json_slots(v, constants).map_err(|m| in_file(format!("constants: {m}")))?,
            "vertices" => {
                let list = v
                    .as_array()
                    .ok_or_else(|| in_file("vertices: should be an array".into()))?;
                for (i, vertex) in list.iter().enumerate() {
                    data.vertices
                        .push(json_slots(vertex, inputs).map_err(|m| in_file(format!("vertex {i}: {m}")))?);
                }
            }
            other => {
                return Err(in_file(format!("unknown key `{other}`"))
                    .with_help("the data file has the keys `constants` and `vertices`")
                    .into());
            }
        }
    }
    Ok(data)
}

/// Gathers `--data`, `--const` and `--input` into one [`RunData`] with at least one vertex.
pub fn collect_run_data(
    options: &TargetOptions,
    sources: &mut SourceMap,
    inputs: &SlotKind,
    constants: &SlotKind,
) -> Outcome<RunData> {
    let mut data = match options.value("data") {
        Some(path) => match read_data_file(path, sources, inputs, constants) {
            Ok(data) => data,
            Err(d) => return Outcome::failed(vec![*d]),
        },
        None => RunData::default(),
    };
    let mut diagnostics = Vec::new();
    for text in options.values("const") {
        match parse_assignment(text, constants) {
            Ok((slot, value)) => {
                data.constants.insert(slot, value);
            }
            Err(m) => diagnostics.push(invalid(format!("--const {text}: {m}"))),
        }
    }
    let flags = options.values("input");
    if !flags.is_empty() && !data.vertices.is_empty() {
        diagnostics.push(
            invalid("--input cannot be combined with the vertices of --data")
                .with_help("put every vertex in the data file, or give them all with --input"),
        );
    }
    // The n-th occurrence of a slot belongs to vertex n; a slot given once applies to all.
    let mut per_slot: BTreeMap<usize, Vec<Vec4>> = BTreeMap::new();
    for text in flags {
        match parse_assignment(text, inputs) {
            Ok((slot, value)) => per_slot.entry(slot).or_default().push(value),
            Err(m) => diagnostics.push(invalid(format!("--input {text}: {m}"))),
        }
    }
    let count = per_slot.values().map(Vec::len).max().unwrap_or(0);
    for (slot, values) in &per_slot {
        if values.len() != 1 && values.len() != count {
            diagnostics.push(
                invalid(format!(
                    "input slot {slot} is given {} times but other slots {count} times",
                    values.len()
                ))
                .with_help("give each slot once (the same for every vertex) or once per vertex"),
            );
        }
    }
    if diagnostics.is_empty() && count > 0 {
        data.vertices = (0..count)
            .map(|v| {
                per_slot
                    .iter()
                    .map(|(&slot, values)| (slot, values[v.min(values.len() - 1)]))
                    .collect()
            })
            .collect();
    }
    if data.vertices.is_empty() {
        data.vertices.push(BTreeMap::new());
    }
    Outcome::new(data, diagnostics)
}

/// Copies a slot map into a fixed array, zero where unset.
pub fn slots_to_array<const N: usize>(slots: &BTreeMap<usize, Vec4>) -> [Vec4; N] {
    let mut out = [[0.0; 4]; N];
    for (&slot, &value) in slots {
        if slot < N {
            out[slot] = value;
        }
    }
    out
}

/// What a vertex emulator computed: the names of the values it reports and, per vertex, the
/// values in that order.
pub struct RunResults<'n> {
    pub names: Vec<std::borrow::Cow<'n, str>>,
    pub vertices: Vec<Vec<Vec4>>,
}

/// The whole of a vertex emulator's `polyasm run`: reads `--format`, the data (`--data`,
/// `--const`, `--input`), lets `run` load the program and run every vertex, and prints the
/// results. `run` fails with the diagnostic of a program that cannot run.
pub fn run_vertices<'n>(
    options: &TargetOptions,
    sources: &mut SourceMap,
    inputs: &SlotKind,
    constants: &SlotKind,
    run: impl FnOnce(&RunData) -> Result<RunResults<'n>, Diagnostic>,
) -> Outcome<RunReport> {
    let format = match run_format(options) {
        Ok(format) => format,
        Err(d) => return Outcome::failed(vec![*d]),
    };
    let data = collect_run_data(options, sources, inputs, constants);
    let Some(data) = data.value else {
        return Outcome::failed(data.diagnostics);
    };
    match run(&data) {
        Ok(results) => {
            let names: Vec<&str> = results.names.iter().map(|n| n.as_ref()).collect();
            Outcome::ok(RunReport {
                output: format_outputs(&names, &results.vertices, format).into_bytes(),
                binary: false,
            })
        }
        Err(d) => Outcome::failed(vec![d]),
    }
}

/// Prints each vertex's named outputs as a table or as JSON.
pub fn format_outputs(names: &[&str], vertices: &[Vec<Vec4>], format: RunFormat) -> String {
    match format {
        RunFormat::Table => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "{:<7} {:<7} {:>14} {:>14} {:>14} {:>14}",
                "vertex", "output", "x", "y", "z", "w"
            );
            for (v, outputs) in vertices.iter().enumerate() {
                for (name, value) in names.iter().zip(outputs) {
                    let _ = writeln!(
                        out,
                        "{v:<7} {name:<7} {:>14} {:>14} {:>14} {:>14}",
                        value[0], value[1], value[2], value[3]
                    );
                }
            }
            out
        }
        RunFormat::Json => {
            let list: Vec<Value> = vertices
                .iter()
                .map(|outputs| {
                    let map: serde_json::Map<String, Value> = names
                        .iter()
                        .zip(outputs)
                        .map(|(name, value)| (name.to_string(), json!(value)))
                        .collect();
                    Value::Object(map)
                })
                .collect();
            // One vertex per line: compact enough to read, still one JSON document.
            let lines: Vec<String> = list.iter().map(|v| format!("  {v}")).collect();
            format!("{{\"vertices\": [\n{}\n]}}\n", lines.join(",\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOTS: SlotKind = SlotKind {
        what: "input",
        count: 8,
        parse: |s| s.parse().ok(),
        hint: "0 to 7",
    };

    fn options(pairs: &[(&'static str, &str)]) -> TargetOptions {
        let mut o = TargetOptions::default();
        for (k, v) in pairs {
            o.values.entry(k).or_default().push(v.to_string());
        }
        o
    }

    #[test]
    fn vec4_defaults_w_to_one() {
        assert_eq!(parse_vec4("1, 2,3"), Ok([1.0, 2.0, 3.0, 1.0]));
        assert!(parse_vec4("1,2,3,4,5").is_err());
        assert!(parse_vec4("x").is_err());
        assert_eq!(parse_assignment("7=0.5", &SLOTS), Ok((7, [0.5, 0.0, 0.0, 1.0])));
        assert!(parse_assignment("8=1", &SLOTS).is_err());
    }

    #[test]
    fn repeated_inputs_make_vertices_and_single_ones_broadcast() {
        let mut sources = SourceMap::new();
        let o = options(&[
            ("input", "0=1,0,0"),
            ("input", "0=2,0,0"),
            ("input", "1=9"),
            ("const", "3=4,4,4,4"),
        ]);
        let data = collect_run_data(&o, &mut sources, &SLOTS, &SLOTS).value.unwrap();
        assert_eq!(data.vertices.len(), 2);
        assert_eq!(data.vertices[1][&0], [2.0, 0.0, 0.0, 1.0]);
        assert_eq!(data.vertices[1][&1], [9.0, 0.0, 0.0, 1.0]);
        assert_eq!(data.constants[&3], [4.0; 4]);
    }

    #[test]
    fn mismatched_repeat_counts_are_an_error() {
        let mut sources = SourceMap::new();
        let o = options(&[
            ("input", "0=1"),
            ("input", "0=2"),
            ("input", "0=3"),
            ("input", "1=1"),
            ("input", "1=2"),
        ]);
        let outcome = collect_run_data(&o, &mut sources, &SLOTS, &SLOTS);
        assert_eq!(outcome.diagnostics[0].code, "PA006");
    }

    #[test]
    fn outputs_print_as_table_and_json() {
        let table = format_outputs(&["pos"], &[vec![[1.0, 0.5, 0.0, 1.0]]], RunFormat::Table);
        assert!(table.lines().nth(1).unwrap().starts_with("0       pos"));
        let json: Value = serde_json::from_str(&format_outputs(
            &["pos"],
            &[vec![[1.0, 0.5, 0.0, 1.0]]],
            RunFormat::Json,
        ))
        .unwrap();
        assert_eq!(json["vertices"][0]["pos"][1], 0.5);
    }
}
