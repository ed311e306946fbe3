//! Every Masfix example in examples/masfix/ runs through the built binary with fixed standard
//! input and prints exactly its expected output, from source (on the VM and as native code)
//! and from bytecode; its disassembly reassembles to the same bytecode.
//!
//! The cases live beside the examples: `examples/masfix/expected/NAME.out` is what `NAME.mx`
//! prints, with `NAME.in` as its standard input when the program reads one (empty otherwise);
//! `NAME.CASE.in` and `NAME.CASE.out` are further cases of the same program. Where a program
//! computes something, the expected file is also checked against a model written here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::*;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/masfix");
/// Enough for every example; a program that loops for ever stops with MX071 instead of hanging.
const MAX_STEPS: &str = "100000000";

/// One run of an example: its standard input and what it must print.
struct Case {
    example: String,
    label: String,
    stdin: Vec<u8>,
    expected: Vec<u8>,
}

fn expected_dir() -> PathBuf {
    Path::new(EXAMPLES).join("expected")
}

fn example_path(name: &str) -> PathBuf {
    Path::new(EXAMPLES).join(format!("{name}.mx"))
}

/// The examples: the stems of the `.mx` files.
fn examples() -> BTreeSet<String> {
    std::fs::read_dir(EXAMPLES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mx"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect()
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(expected_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        let Some(label) = name.strip_suffix(".out") else {
            continue;
        };
        let example = label.split('.').next().unwrap().to_string();
        let stdin = std::fs::read(expected_dir().join(format!("{label}.in"))).unwrap_or_default();
        cases.push(Case {
            example,
            label: label.to_string(),
            stdin,
            expected: std::fs::read(&path).unwrap(),
        });
    }
    cases.sort_by(|a, b| a.label.cmp(&b.label));
    cases
}

fn case(label: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.label == label)
        .unwrap_or_else(|| panic!("no case {label}"))
}

fn run_program(program: &Path, stdin: &[u8]) -> Output {
    run_with_stdin(&["run", path_str(program), "--max-steps", MAX_STEPS], stdin)
}

fn run_on(program: &Path, stdin: &[u8], engine: &str) -> Output {
    let args = ["run", path_str(program), "--max-steps", MAX_STEPS, "--engine", engine];
    run_with_stdin(&args, stdin)
}

fn assert_prints(case: &Case, output: &Output, how: &str) {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{} {how}: {}",
        case.label,
        stderr(output)
    );
    assert!(output.stderr.is_empty(), "{} {how}: {}", case.label, stderr(output));
    assert!(
        output.stdout == case.expected,
        "{} {how} printed\n{}\ninstead of\n{}",
        case.label,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&case.expected)
    );
}

#[test]
fn every_example_has_a_case_and_every_case_file_an_example() {
    let examples = examples();
    assert!(examples.len() >= 7, "{examples:?}");
    for entry in std::fs::read_dir(EXAMPLES).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            name == "expected" || name == "README.md" || (path.is_file() && name.ends_with(".mx")),
            "examples/masfix/{name} is neither an example, the README nor the expected/ folder"
        );
    }
    let cases = cases();
    for example in &examples {
        assert!(
            cases.iter().any(|c| &c.example == example),
            "examples/masfix/{example}.mx has no expected/{example}.out"
        );
    }
    for entry in std::fs::read_dir(expected_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let (label, kind) = name.rsplit_once('.').unwrap_or((&name, ""));
        assert!(
            kind == "in" || kind == "out",
            "expected/{name}: only .in and .out files belong here"
        );
        let example = label.split('.').next().unwrap();
        assert!(examples.contains(example), "expected/{name} belongs to no example");
        assert!(
            expected_dir().join(format!("{label}.out")).is_file(),
            "expected/{name} has no {label}.out"
        );
    }
}

#[test]
fn every_example_assembles_without_warnings() {
    for example in examples() {
        let output = run(&["check", path_str(&example_path(&example)), "--color", "never"]);
        assert_eq!(output.status.code(), Some(0), "{example}: {}", stderr(&output));
        assert!(output.stderr.is_empty(), "{example}: {}", stderr(&output));
        assert!(output.stdout.is_empty(), "{example}: {}", stdout(&output));
    }
}

#[test]
fn every_example_prints_its_expected_output_on_both_engines() {
    for case in cases() {
        for engine in ["vm", "jit"] {
            let output = run_on(&example_path(&case.example), &case.stdin, engine);
            assert_prints(&case, &output, &format!("from source on the {engine} engine"));
        }
    }
}

#[test]
fn every_example_prints_the_same_from_bytecode() {
    let dir = temp();
    for example in examples() {
        let mxb = dir.path().join(format!("{example}.mxb"));
        let assembled = run(&[path_str(&example_path(&example)), "-o", path_str(&mxb)]);
        assert!(assembled.status.success(), "{example}: {}", stderr(&assembled));
        assert!(assembled.stdout.is_empty() && assembled.stderr.is_empty(), "{example}");
        for case in cases().iter().filter(|c| c.example == example) {
            assert_prints(case, &run_program(&mxb, &case.stdin), "from bytecode");
        }
    }
}

#[test]
fn every_example_disassembles_to_source_that_reassembles_to_the_same_bytecode() {
    let dir = temp();
    for example in examples() {
        let stripped = dir.path().join(format!("{example}.stripped.mxb"));
        let with_debug = dir.path().join(format!("{example}.mxb"));
        let source = path_str(&example_path(&example)).to_string();
        for (out, strip) in [(&stripped, true), (&with_debug, false)] {
            let mut args = vec![source.as_str(), "-o", path_str(out)];
            if strip {
                args.push("--strip");
            }
            let output = run(&args);
            assert!(output.status.success(), "{example}: {}", stderr(&output));
        }

        let listing = run(&["disasm", path_str(&with_debug)]);
        assert!(listing.status.success(), "{example}: {}", stderr(&listing));
        let disassembled = dir.path().join(format!("{example}.dis.mx"));
        std::fs::write(&disassembled, &listing.stdout).unwrap();
        let again = dir.path().join(format!("{example}.again.mxb"));
        let output = run(&[path_str(&disassembled), "--strip", "-o", path_str(&again)]);
        assert!(output.status.success(), "{example}: {}", stderr(&output));
        let first = std::fs::read(&stripped).unwrap();
        assert!(!first.is_empty());
        assert_eq!(std::fs::read(&again).unwrap(), first, "{example}");

        // The disassembly runs like the example itself.
        for case in cases().iter().filter(|c| c.example == example) {
            assert_prints(case, &run_program(&disassembled, &case.stdin), "disassembled");
        }
    }
}

#[test]
fn fizzbuzz_runs_by_its_documented_command() {
    // From the repository root, with the path as the README and the issue write it.
    let output = polyasm()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "examples/masfix/fizzbuzz.mx"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), fizzbuzz_model());
}

// Models of what the examples compute, to check the expected files against.

fn fizzbuzz_model() -> String {
    (1..=100)
        .map(|n| match (n % 3, n % 5) {
            (0, 0) => "FizzBuzz\n".to_string(),
            (0, _) => "Fizz\n".to_string(),
            (_, 0) => "Buzz\n".to_string(),
            _ => format!("{n}\n"),
        })
        .collect()
}

#[test]
fn the_expected_outputs_agree_with_models() {
    assert_eq!(case("hello").expected, b"Hello, world!\n");
    assert_eq!(String::from_utf8(case("fizzbuzz").expected).unwrap(), fizzbuzz_model());

    let primes: Vec<String> = (2u32..1000)
        .filter(|&n| (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0))
        .map(|n| n.to_string())
        .collect();
    let sieve = format!("{}\n{} primes below 1000\n", primes.join(", "), primes.len());
    assert_eq!(primes.len(), 168);
    assert_eq!(String::from_utf8(case("sieve").expected).unwrap(), sieve);

    let (width, rule) = (64, 110u32);
    let mut cells = vec![0u32; width + 2];
    cells[width] = 1;
    let mut automaton = String::new();
    for _ in 0..32 {
        automaton.extend(cells[1..=width].iter().map(|&c| if c == 1 { '#' } else { '.' }));
        automaton.push('\n');
        let next: Vec<u32> = (0..width + 2)
            .map(|i| match i {
                0 => 0,
                i if i > width => 0,
                i => (rule >> (4 * cells[i - 1] + 2 * cells[i] + cells[i + 1])) & 1,
            })
            .collect();
        cells = next;
    }
    assert_eq!(String::from_utf8(case("rule110").expected).unwrap(), automaton);

    let mut tables = String::from("n\tF(n)\tT(n)\n");
    let (mut a, mut b) = (1u32, 1u32);
    for n in 1..=24u32 {
        tables.push_str(&format!("{n}\t{a}\t{}\n", n * (n + 1) / 2));
        (a, b) = (b, a + b);
    }
    assert_eq!(String::from_utf8(case("compile_time").expected).unwrap(), tables);

    let reverse = case("reverse");
    let mut reversed: Vec<u8> = Vec::new();
    for line in reverse.stdin.split_inclusive(|&b| b == b'\n') {
        let (text, end): (&[u8], &[u8]) = if let Some(t) = line.strip_suffix(b"\r\n") {
            (t, b"\r\n")
        } else if let Some(t) = line.strip_suffix(b"\n") {
            (t, b"\n")
        } else {
            (line, b"")
        };
        reversed.extend(text.iter().rev());
        reversed.extend(end);
    }
    assert!(reverse.stdin.contains(&b'\r') && !reverse.stdin.ends_with(b"\n"));
    assert_eq!(reverse.expected, reversed);

    for label in ["stats", "stats.empty"] {
        let stats = case(label);
        assert_eq!(
            String::from_utf8(stats.expected).unwrap(),
            stats_model(&stats.stdin),
            "{label}"
        );
    }

    for label in ["guess.win", "guess.ended"] {
        let game = case(label);
        assert_eq!(
            String::from_utf8(game.expected).unwrap(),
            guess_model(&game.stdin),
            "{label}"
        );
    }
}

/// stats.mx's report for an input, in 16-bit arithmetic.
fn stats_model(input: &[u8]) -> String {
    let numbers: Vec<u16> = String::from_utf8(input.to_vec())
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u32>().map_or(65535, |n| n.min(65535)) as u16)
        .collect();
    if numbers.is_empty() {
        return "no numbers\n".to_string();
    }
    let sum = numbers.iter().fold(0u16, |s, &n| s.wrapping_add(n));
    let mean = sum / numbers.len() as u16;
    let (min, max) = (numbers.iter().min().unwrap(), numbers.iter().max().unwrap());
    let mut out = format!(
        "count  {}\nsum    {sum}\nmin    {min}\nmax    {max}\nmean   {mean}\nfrom it\n",
        numbers.len()
    );
    for (i, n) in numbers.iter().rev().enumerate() {
        out.push_str(&(n.wrapping_sub(mean) as i16).to_string());
        out.push(if i % 2 == 1 { '\n' } else { ' ' });
    }
    if numbers.len() % 2 == 1 {
        out.push('\n');
    }
    out
}

/// What `inu` reads from the start of a line: its leading digits, at most 65535.
fn leading_number(line: &str) -> u32 {
    line.chars()
        .take_while(char::is_ascii_digit)
        .fold(0u32, |n, d| (n * 10 + d.to_digit(10).unwrap()).min(65535))
}

/// The number-guessing game's transcript for an input.
fn guess_model(input: &[u8]) -> String {
    let text = String::from_utf8(input.to_vec()).unwrap();
    let mut lines = text.lines();
    let seed = leading_number(lines.next().unwrap_or(""));
    let secret = (((seed * 25173 + 13849) % 65536) >> 8) % 100 + 1;
    let mut out = String::from("Seed: I am thinking of a number from 1 to 100.\n");
    let mut tries = 0;
    loop {
        out.push_str("Your guess: ");
        let Some(line) = lines.next() else {
            return out + &format!("\nThe input ended. The number was {secret}.\n");
        };
        let guess = leading_number(line);
        if !(1..=100).contains(&guess) {
            out.push_str("Please give a number from 1 to 100.\n");
            continue;
        }
        tries += 1;
        if guess == secret {
            let plural = if tries == 1 { "" } else { "es" };
            return out + &format!("Right! You found {secret} in {tries} guess{plural}.\n");
        }
        out.push_str(if guess < secret { "Too low.\n" } else { "Too high.\n" });
    }
}
