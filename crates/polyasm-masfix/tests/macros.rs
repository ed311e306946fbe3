//! The macro system through the library: includes from files, compile-time output and step
//! limits, `-E`, and the bounds that keep expansion finite.

use polyasm_core::options::OptionValues;
use polyasm_core::{Diagnostic, SourceMap, Target, TargetOptions};
use polyasm_masfix::{AssembleOptions, Limits, TARGET, assemble, decode, print};

/// Assembles `file` of `sources` as the CLI does; the program's text, or the diagnostics'
/// codes. Compile-time output goes to `printed`.
fn assemble_file(
    sources: &mut SourceMap,
    file: polyasm_core::SourceId,
    options: &TargetOptions,
    printed: &mut Vec<u8>,
) -> Result<String, Vec<Diagnostic>> {
    let outcome = TARGET.assemble(sources, file, options, printed);
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(match object.preprocessed {
            Some(text) => text,
            None => print::print_program(&decode::read(&object.bytes).expect("bytecode we wrote").instrs),
        }),
        _ => Err(outcome.diagnostics),
    }
}

fn assemble_text(text: &str, options: &TargetOptions) -> (Result<String, Vec<Diagnostic>>, Vec<u8>) {
    let mut sources = SourceMap::new();
    let file = sources.add("main.mx", text);
    let mut printed = Vec::new();
    (assemble_file(&mut sources, file, options, &mut printed), printed)
}

/// Assembles `text` through the library within `limits`: the program's text, or the
/// diagnostics.
fn assemble_within(text: &str, limits: Limits) -> Result<String, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("main.mx", text);
    let options = AssembleOptions {
        limits,
        ..AssembleOptions::default()
    };
    let outcome = assemble(&mut sources, file, &options, &mut std::io::sink());
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(print::print_program(
            &decode::read(&object.bytes).expect("bytecode we wrote").instrs,
        )),
        _ => Err(outcome.diagnostics),
    }
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn included_code_comes_first_each_file_once_and_cycles_end() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    std::fs::create_dir(&lib).unwrap();
    std::fs::write(
        lib.join("a.mx"),
        "%include \"b\"\n%macro from_a() { outc 'a' }\noutc 'A'\n",
    )
    .unwrap();
    // b includes a again (a cycle) and the main file (already being included).
    std::fs::write(
        lib.join("b.mx"),
        "%include \"a\"\n%include \"../main\"\n%define B 'b'\noutc 'B'",
    )
    .unwrap();
    let main = dir.path().join("main.mx");
    let text = "%include \"lib/a\"\n%include \"lib/a.mx\"\n%from_a()\noutc %B\n";
    std::fs::write(&main, text).unwrap();
    let mut sources = SourceMap::new();
    let file = sources.try_add_file("main.mx", &main, text).unwrap();
    let mut printed = Vec::new();
    let program = assemble_file(&mut sources, file, &TargetOptions::default(), &mut printed).unwrap();
    assert_eq!(
        program,
        "outc 'B'\nouts 'A'\n".replace("outs", "outc") + "outc 'a'\noutc 'b'\n"
    );
    assert_eq!(sources.len(), 3, "each file is read once");
}

#[test]
fn include_folders_are_searched_in_order() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, letter) in [("first", 'F'), ("second", 'S')] {
        let path = dir.path().join(folder);
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("pick.mx"), format!("outc '{letter}'\n")).unwrap();
    }
    let options = TargetOptions {
        include_dirs: vec![dir.path().join("second"), dir.path().join("first")],
        ..TargetOptions::default()
    };
    let (program, _) = assemble_text("%include \"pick\"\n", &options);
    assert_eq!(program.unwrap(), "outc 'S'\n");
    let (missing, _) = assemble_text("%include \"nowhere\"\n", &options);
    assert_eq!(codes(&missing.unwrap_err()), ["PA019"]);
}

#[test]
fn compile_time_code_prints_keeps_its_state_and_is_bounded() {
    let text = "%macro count() {\n  mov 7\n  stra 1\n  ldm\n  outur\n}\nld !count()\nld !count()\n";
    let (program, printed) = assemble_text(text, &TargetOptions::default());
    assert_eq!(program.unwrap(), "ld 1\nld 2\n");
    assert_eq!(printed, b"12");

    let spin = "%macro spin() {\n:top\n  jmp top\n}\nld !spin()\n";
    let options = TargetOptions {
        values: OptionValues::read(&[TARGET.info().assemble_options], &[("ctime-steps", "1000")]).unwrap(),
        ..TargetOptions::default()
    };
    let (program, _) = assemble_text(spin, &options);
    let diagnostics = program.unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX065"]);
    assert!(diagnostics[0].message.contains("1000"), "{}", diagnostics[0].message);
    assert!(diagnostics[0].notes.iter().any(|n| n.contains("`!spin`")));
}

#[test]
fn labels_in_compile_time_bodies_belong_to_each_call() {
    let text =
        "%macro three() {\n  ld 3\n:loop\n  lds 1\n  bne loop\n  ld 3\n}\nld !three()\nld !three()\n:loop\njmp loop\n";
    let (program, _) = assemble_text(text, &TargetOptions::default());
    assert_eq!(program.unwrap(), "ld 3\nld 3\n:L2\njmp L2\n");
}

#[test]
fn expand_only_prints_the_expanded_source() {
    let options = TargetOptions {
        preprocess_only: true,
        ..TargetOptions::default()
    };
    let (text, _) = assemble_text(
        "%define c 'x'\n%macro two(v) { outc %v\n  outc %v }\n%two(%c)\n:end_label ldm\n",
        &options,
    );
    assert_eq!(text.unwrap(), "outc 'x'\noutc 'x'\n:end_label ldm\n");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // Brackets nested 20,000 deep in a built name, and a macro that uses itself.
    let deep = format!("%{}x{}\n", "(".repeat(20_000), ")".repeat(20_000));
    let (program, _) = assemble_text(&deep, &TargetOptions::default());
    assert_eq!(codes(&program.unwrap_err()), ["MX050"]);
    let (program, _) = assemble_text("%macro again() { %again() }\n%again()\n", &TargetOptions::default());
    let diagnostics = program.unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX057"]);
    assert!(diagnostics[0].notes.len() < 12, "the chain is shortened");
}

#[test]
fn expansion_that_doubles_without_end_stops_at_its_budget() {
    let mut text = String::from("%macro m0() { swap }\n");
    for i in 1..=26 {
        text.push_str(&format!("%macro m{i}() {{ %m{}() %m{}() }}\n", i - 1, i - 1));
    }
    text.push_str("%m26()\n");
    let limits = Limits {
        expanded_tokens: 10_000,
        ..Limits::default()
    };
    let diagnostics = assemble_within(&text, limits).unwrap_err();
    assert!(codes(&diagnostics).contains(&"MX058"), "{:?}", codes(&diagnostics));
    assert!(diagnostics.iter().any(|d| d.message.contains("more than 10000 tokens")));
}

#[test]
fn uses_nested_in_arguments_and_built_names_count_toward_the_depth_limit() {
    // One error each, whatever the depth: the use one too deep, nothing after it.
    let args = format!(
        "%macro m(a) {{ %a }}\nld {}1{}\n",
        "%m(".repeat(5_000),
        ")".repeat(5_000)
    );
    let (program, _) = assemble_text(&args, &TargetOptions::default());
    let diagnostics = program.unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX057"]);
    let names = format!("ld {}x{}\n", "%(".repeat(5_000), ")".repeat(5_000));
    let (program, _) = assemble_text(&names, &TargetOptions::default());
    assert_eq!(codes(&program.unwrap_err()), ["MX057"]);
    // Within the limit, nested arguments expand.
    let shallow = format!("%macro m(a) {{ %a }}\nld {}7{}\n", "%m(".repeat(500), ")".repeat(500));
    let (program, _) = assemble_text(&shallow, &TargetOptions::default());
    assert_eq!(program.unwrap(), "ld 7\n");
    // The limit an assembly sets holds the same way: 8 nested uses expand, 9 are one error.
    let limits = Limits {
        expansion_depth: 8,
        ..Limits::default()
    };
    let nested = |n: usize| format!("%macro m(a) {{ %a }}\nld {}7{}\n", "%m(".repeat(n), ")".repeat(n));
    assert_eq!(assemble_within(&nested(8), limits).unwrap(), "ld 7\n");
    let diagnostics = assemble_within(&nested(9), limits).unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX057"]);
    assert!(
        diagnostics[0].message.contains("deeper than 8"),
        "{}",
        diagnostics[0].message
    );
    let names = format!("ld {}x{}\n", "%(".repeat(9), ")".repeat(9));
    assert_eq!(codes(&assemble_within(&names, limits).unwrap_err()), ["MX057"]);
}

#[test]
fn namespaces_nested_too_deeply_are_one_error() {
    let nested = |n: usize| format!("{}ld 1\n{}", "%namespace n {\n".repeat(n), "}\n".repeat(n));
    // At the default limit, and at one an assembly sets.
    let diagnostics = assemble_text(&nested(1025), &TargetOptions::default()).0.unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX060"]);
    assert!(
        diagnostics[0].message.contains("deeper than 1024"),
        "{}",
        diagnostics[0].message
    );
    let limits = Limits {
        namespace_depth: 3,
        ..Limits::default()
    };
    assert_eq!(assemble_within(&nested(3), limits).unwrap(), "ld 1\n");
    let diagnostics = assemble_within(&nested(4), limits).unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX060"]);
    assert!(
        diagnostics[0].message.contains("deeper than 3"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn a_failed_argument_or_name_piece_makes_one_error() {
    for (text, expected) in [
        // The unknown name in the argument; the macro is not expanded with a hole.
        ("%macro m(a) { ld %a }\n%m(%nope)\n", ["MX050"]),
        ("%macro m(a) { %a }\nld %m(%nope)\n", ["MX050"]),
        // The unknown piece of a built name, and not the name it would build.
        ("%define xy 3\nld %(%nope)y\n", ["MX050"]),
        ("ld %(%(%(%nope)))\n", ["MX050"]),
        // An empty built name is a missing name.
        ("ld %()\n", ["MX051"]),
        // A macro used without its argument list stands for a number after the error.
        ("%macro m() { 1 }\nld %m\n", ["MX056"]),
    ] {
        let (program, _) = assemble_text(text, &TargetOptions::default());
        let diagnostics = program.unwrap_err();
        assert_eq!(codes(&diagnostics), expected, "{text}");
    }
}

#[test]
fn every_misspelt_use_is_reported_once() {
    // The "did you mean" work grows with the token limit: a small limit keeps the test quick.
    let n = 3_000;
    let mut text: String = (0..n).map(|i| format!("%define value{i} {i}\n")).collect();
    text.extend((0..n).map(|i| format!("ld %vaule{i}\n")));
    let limits = Limits {
        expanded_tokens: 100_000,
        ..Limits::default()
    };
    let diagnostics = assemble_within(&text, limits).unwrap_err();
    assert_eq!(diagnostics.len(), n);
    assert!(diagnostics.iter().all(|d| d.code == "MX050"));
    assert_eq!(diagnostics[0].help.as_deref(), Some("did you mean `value0`?"));
}

#[test]
fn a_file_too_large_to_assemble_stops_at_the_token_limit() {
    // Two tokens a line; no false errors after the cut (the label at the end is defined).
    let limits = Limits {
        expanded_tokens: 1_000,
        instructions: 100,
        ..Limits::default()
    };
    let lines = limits.expanded_tokens / 2 + 10;
    let text = format!("jmp done\n{}:done\n", "swap\n".repeat(lines));
    let diagnostics = assemble_within(&text, limits).unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX043", "MX058"]);
    assert!(diagnostics[0].message.contains("more than 100 instructions"));
    assert!(diagnostics[1].message.contains("the program is too large"));
    assert!(diagnostics[1].message.contains("more than 1000 tokens"));
}

#[test]
fn a_program_too_long_is_one_error_at_its_first_extra_instruction() {
    // The machine's limit (65,536) is held by the command line's tests; a smaller one an
    // assembly sets holds the same way.
    let program = |n: usize| "swap\n".repeat(n);
    let limits = Limits {
        instructions: 3,
        ..Limits::default()
    };
    assert_eq!(assemble_within(&program(3), limits).unwrap(), program(3));
    let diagnostics = assemble_within(&program(5), limits).unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX043"]);
    assert!(diagnostics[0].message.contains("more than 3 instructions"));
    let at = diagnostics[0].primary_label().expect("a label").span.start as usize;
    assert_eq!(at, program(3).len(), "the fourth instruction");
}

#[test]
fn a_failed_use_inside_a_word_takes_its_line_along() {
    for (text, expected) in [
        // The condition was to come from the name: `b` alone is no second error.
        ("b%(x_%c)()\noutc 65\n", vec!["MX050"]),
        ("l%nope r 1\n", vec!["MX050"]),
        // From a body, the line it is used on goes too.
        ("%macro m() { s%nope }\nld %m() 3\n", vec!["MX050"]),
        // At the start of a line, a failed compile-time call stands for nothing.
        ("!(x)\n", vec!["MX050"]),
        ("ld %\nld !\nld %%\n", vec!["MX051", "MX051", "MX051"]),
    ] {
        let (program, _) = assemble_text(text, &TargetOptions::default());
        let diagnostics = program.unwrap_err();
        assert_eq!(codes(&diagnostics), expected, "{text}");
    }
    // The lines around it are kept.
    let (program, _) = assemble_text("outc 65\nld%nope\noutc 66\n", &TargetOptions::default());
    let diagnostics = program.unwrap_err();
    assert_eq!(codes(&diagnostics), ["MX050"]);
}

#[test]
fn name_lookups_stop_at_their_budget_with_one_error() {
    let within = |text: &str, name_lookups: usize| {
        let limits = Limits {
            name_lookups,
            ..Limits::default()
        };
        assemble_within(text, limits).map_err(|d| codes(&d).into_iter().map(str::to_string).collect::<Vec<_>>())
    };
    // Each use looks in 21 namespaces (20 nested and the root) to find `x`.
    let text = format!(
        "%define x 1\n{}{}{}\n",
        "%namespace n {\n".repeat(20),
        "ld %x\n".repeat(100),
        "}".repeat(20)
    );
    assert!(within(&text, 21 * 100).is_ok());
    assert_eq!(within(&text, 21 * 100 - 1).unwrap_err(), ["MX066"]);
    // `%using` lists are looked through too, and an unknown namespace after the budget is
    // spent is not reported.
    let text = format!(
        "{}{}ld %v0\n%using nope\n",
        (0..50)
            .map(|i| format!("%namespace n{i} {{ %define v{i} {i} }}\n"))
            .collect::<String>(),
        (0..50).rev().map(|i| format!("%using n{i}\n")).collect::<String>(),
    );
    assert_eq!(within(&text, 1000).unwrap_err(), ["MX059"]);
    assert_eq!(within(&text, 40).unwrap_err(), ["MX066"]);
}
