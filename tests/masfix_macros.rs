//! The Masfix macro system through the built binary, in the forms the reference's own standard
//! library uses: definitions inside macro bodies, parameters that shadow macros, arguments
//! across lines, names built from pieces, and one error for a compile-time call that recurses.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::*;

fn program(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `text` as a program; its output and exit status.
fn run_text(text: &str) -> Output {
    let dir = temp();
    let path = program(dir.path(), "prog.mx", text);
    run(&["run", path_str(&path)])
}

/// The standard output of a run that must succeed.
fn output_of(text: &str) -> String {
    let output = run_text(text);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

/// The `file:line:col: error[CODE]` lines of assembling `text`, which must fail with exit 1.
fn errors_of(text: &str) -> Vec<String> {
    let dir = temp();
    let path = program(dir.path(), "prog.mx", text);
    let output = run(&["--error-format", "short", path_str(&path), "-o", "out.mxb"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!dir.path().join("out.mxb").exists());
    stderr(&output)
        .lines()
        .filter(|l| l.contains(": error["))
        .map(|l| l.replace(path_str(&path), "prog.mx"))
        .collect()
}

#[test]
fn a_body_defines_constants_and_macros_in_the_namespace_of_its_use() {
    // As the reference's struct library does: a macro called inside a namespace defines
    // fields there, and a macro it calls defines macros there too.
    let text = r#"%namespace layout {
    %macro field(name, offset) {
        %define (%name) %offset
    }
    %macro helpers() {
        %macro at(field) { mova %(%field) }
    }
    %macro begin() {
        %define begun 1
        %helpers()
    }
}
%namespace point {
    %layout:begin()
    %layout:field(x, 0)
    %layout:field(y, 1)
}
mov 100
%point:at(y)
str 7
ldm
outur
outc ' '
outu %point:y
outc ' '
outu %point:begun
"#;
    assert_eq!(output_of(text), "7 1 1");
    // Not in the macro's own namespace, nor at the top level.
    let errors = errors_of(&format!("{text}outu %layout:x\n"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("error[MX050]"), "{errors:?}");
}

#[test]
fn a_body_defining_a_name_twice_where_it_is_used_is_one_error_per_use() {
    let errors = errors_of("%macro def() {\n    %define once 1\n}\n%def()\n%def()\nld %once\n");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:2:13: error[MX053]"), "{errors:?}");
    // A namespace cannot be opened in a body.
    let errors = errors_of("%macro ns() {\n    %namespace inner {}\n}\n%ns()\n");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("error[MX061]"), "{errors:?}");
}

#[test]
fn a_parameter_shadows_a_macro_of_the_same_name_inside_the_body() {
    let text =
        "%macro op(op, a, b) {\n    ld %a\n    ld(%op) %b\n}\nld !op(a, 40, 2)\noutur\noutc ' '\n%op(t, 6, 7)\noutur\n";
    assert_eq!(output_of(text), "42 42");
}

#[test]
fn arguments_may_span_lines_and_one_parameter_takes_an_empty_argument() {
    let text = "%macro pair(a, b) {\n    ld %a\n    lda %b\n    outur\n}\n%pair(9,\n10)\n%pair(\n    1\n    ,\n    2\n)\n%macro twice(body) {\n    %body\n    %body\n}\n%twice(\n    outc 'x'\n    outc 'y'\n)\n%macro one(x) { outc 'A' %x }\n%one()\n";
    assert_eq!(output_of(text), "193xyxyA");
}

#[test]
fn built_names_join_spaced_pieces_literals_and_computed_definition_names() {
    let text = "ld 5\noutu( r )\nout('u') 6\n%define escaped 7\noutu %(\"escaped\")\n%define (w_(3)) 33\noutu %w_3\n";
    assert_eq!(output_of(text), "56733");
    // Inside the brackets the pieces join, so `outurs( 2 )` is `outurs2`: no immediate.
    let errors = errors_of("outurs( 2 )\n");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:1:1: error[MX030]"), "{errors:?}");
}

#[test]
fn a_compile_time_call_that_recurses_is_one_error() {
    // A body that calls itself at compile time, with a mistake further down, 165 lines in all:
    // expansion stops at the depth limit once, and no level is assembled and reported again.
    let mut text = String::from("%macro f() {\n    ld 1\n    !f()\n");
    for i in 0..160 {
        text.push_str(&format!("    lda {i}\n"));
    }
    text.push_str("    bad 1\n}\nld !f()\n");
    assert_eq!(text.lines().count(), 166);
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:3:5: error[MX057]"), "{errors:?}");
    // Without its closing brace the body is never defined: the missing brace is the one
    // error, and what follows it belongs to the body that never ends.
    let unclosed = text.replace("}\n", "");
    assert_eq!(
        errors_of(&unclosed),
        ["prog.mx:1:12: error[MX003]: `{` is never closed"]
    );
    // So with a parameter list never closed, and in a definition inside a body.
    assert_eq!(
        errors_of("%macro f(a\nld 1\n"),
        ["prog.mx:1:9: error[MX003]: `(` is never closed"]
    );
    assert_eq!(
        errors_of("%macro f() {\n%macro g() {\nld 1\n}\n%g()\n"),
        ["prog.mx:1:12: error[MX003]: `{` is never closed"]
    );
    // A body that is not there at all is MX054.
    assert_eq!(
        errors_of("%macro f()\nld 1\n"),
        ["prog.mx:1:8: error[MX054]: invalid `%macro`: a body `{ ... }` must follow the parameter list"]
    );
}

#[test]
fn compile_time_code_may_call_a_procedure_of_the_program_before_it() {
    // `double` is program code; the compile-time bodies jump to it and it returns to them,
    // as the reference's standard library does with its procedures.
    let text = "jmp over\n:double\nldt 2\njmpm\n:over\n%macro twice(x) {\n    ld %x\n    mov 100\n    strpa 2\n    jmp double\n}\noutu !twice(21)\noutc ' '\n%macro nop(a) {}\n%nop(!twice(5))\nld !twice(4)\noutur\n%define d (!twice(10))\noutc ' '\noutu %d\n";
    assert_eq!(output_of(text), "42 8 20");
    // A label defined only after the call is still unknown to it.
    let late = "%macro f() {\n    jmp later\n}\nld !f()\n:later\n";
    let errors = errors_of(late);
    assert!(
        errors.iter().any(|e| e.starts_with("prog.mx:2:9: error[MX033]")),
        "{errors:?}"
    );
}

#[test]
fn a_mistake_in_a_body_used_many_times_is_one_error() {
    let text = "%macro m(x) {\n    ld %x\n    bogus %x\n}\n%m(1)\n%m(2)\n%m(3)\n";
    let errors = errors_of(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:3:6: error[MX022]"), "{errors:?}");
    // The same mistake written twice in the file is two.
    let errors = errors_of("bogus 1\nbogus 2\n");
    assert_eq!(errors.len(), 2, "{errors:?}");
}

#[test]
fn a_recursion_without_end_is_one_error_however_many_uses_each_level_makes() {
    // Each level builds a name from a compile-time counter and uses itself once; then twice,
    // which without a stop at the first error would grow to the expansion limit.
    let counter = "%macro next() {\n    mov 1000\n    ldm\n    stra 1\n}\n";
    let once = format!("{counter}%macro grow() {{\n    %macro (g_(!next()))() {{ ld 1 }}\n    %grow()\n}}\n%grow()\n");
    let errors = errors_of(&once);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("error[MX057]"), "{errors:?}");
    let twice = format!(
        "{counter}%macro grow() {{\n    %define (k_(!next())) 1\n    %grow()\n    %grow()\n}}\n%grow()\nld 1\n%grow()\n"
    );
    let errors = errors_of(&twice);
    // One error for both uses written in the file (the same place in the body).
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("error[MX057]"), "{errors:?}");
    let errors = errors_of(&format!("{}bogus\n", twice));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].starts_with("prog.mx:14:2: error[MX022]"), "{errors:?}");
}

#[test]
fn an_argument_list_left_open_is_one_error() {
    let mut text = String::from("%macro m(x) { ld 1 }\n%m(\n");
    text.push_str(&"ld 1\n".repeat(5000));
    let errors = errors_of(&text);
    assert_eq!(errors, ["prog.mx:2:3: error[MX003]: `(` is never closed"]);
}

#[test]
fn the_expansion_limit_in_a_compile_time_call_into_the_program_is_its_only_error() {
    // Each call assembles the program made so far again; 1,000 calls after 1,000 lines copy
    // more than the limit allows. The procedure's label is not undefined.
    let mut text = String::from("jmp over\n:double\nldt 2\njmpm\n");
    text.push_str(&"ld 1\n".repeat(1000));
    text.push_str(":over\n%macro twice(x) {\n    ld %x\n    mov 100\n    strpa 2\n    jmp double\n}\n");
    text.push_str(&"outu !twice(3)\n".repeat(1000));
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("error[MX058]"), "{errors:?}");
}

#[test]
fn a_constant_or_macro_cannot_take_a_directive_name() {
    // `%define` is always the directive: a constant named `define` could never be used.
    let errors = errors_of("%define define 6\n%macro (\"macro\")() {\n    ld 1\n}\n%define (using) 3\nld 1\n");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:1:9: error[MX052]"), "{errors:?}");
    assert!(errors[1].starts_with("prog.mx:2:8: error[MX054]"), "{errors:?}");
    assert!(errors[2].starts_with("prog.mx:5:9: error[MX052]"), "{errors:?}");
    // A namespace may have such a name: `%define:x` reaches into it.
    assert_eq!(
        output_of("%namespace define {\n    %define x 7\n}\noutu %define:x\n"),
        "7"
    );
}

#[test]
fn a_bad_escape_in_a_built_name_is_one_error() {
    let errors = errors_of("ld %(\"a\\xb\")\n%define (\"q\\y\") 1\nld %(\"a\\\\b\")\n");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("prog.mx:1:8: error[MX004]"), "{errors:?}");
    assert!(errors[1].starts_with("prog.mx:2:12: error[MX004]"), "{errors:?}");
    // A good escape builds the name it stands for.
    assert!(
        errors[2].starts_with("prog.mx:3:4: error[MX050]: unknown macro or constant `a\\b`"),
        "{errors:?}"
    );
}

#[test]
fn namespaces_nest_at_most_1024_deep() {
    let nested = |n: usize| {
        format!(
            "{}%define x 3\n{}outu %a{}:x\n",
            "%namespace a {\n".repeat(n),
            "}\n".repeat(n),
            ":a".repeat(n - 1)
        )
    };
    assert_eq!(output_of(&nested(1024)), "3");
    // 100,000 levels: one error at the first too deep, and the rest is left out with its body.
    let errors = errors_of(&format!(
        "{}ld 1\n{}",
        "%namespace a {\n".repeat(100_000),
        "}\n".repeat(100_000)
    ));
    assert_eq!(
        errors,
        ["prog.mx:1025:12: error[MX060]: invalid `%namespace`: namespaces nest deeper than 1024"]
    );
}

/// Macros `m0` .. `mn`, each defined in the body of the one before, each emitting a line
/// after that definition; then each used in turn at top level. The expected `-E` output is
/// the lines `ld r0 0` .. `ld r0 n`.
fn nested_definitions(n: usize) -> (String, String) {
    let mut text = String::new();
    for i in 0..n {
        text += &format!("%macro m{i}() {{\n");
    }
    text += &format!("%macro m{n}() {{ ld r0 {n} }}\n");
    for i in (0..n).rev() {
        text += &format!("ld r0 {i}\n}}\n");
    }
    for i in 0..=n {
        text += &format!("%m{i}()\n");
    }
    let expected: String = (0..=n).map(|i| format!("ld r0 {i}\n")).collect();
    (text, expected)
}

/// The `-E` output of `text`, which must succeed.
fn expanded(text: &str) -> String {
    let dir = temp();
    let path = program(dir.path(), "prog.mx", text);
    let output = run(&["-E", path_str(&path)]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn definitions_nested_in_bodies_share_their_tokens_and_stay_linear() {
    let (text, expected) = nested_definitions(3);
    assert_eq!(expanded(&text), expected);
    // A body copied at each level would make 2000²/2 tokens, past the expansion limit (MX058).
    let (text, expected) = nested_definitions(2000);
    assert_eq!(expanded(&text), expected);
}

#[test]
fn a_macro_defined_in_a_body_keeps_its_body_as_written() {
    // The outer macro's parameter is not filled into the inner body, shared or not.
    let text = "%macro outer(a) {\n%macro inner(b) { ld %a }\nld %a\n}\n%outer(1)\n%inner(2)\n";
    assert_eq!(
        errors_of(text),
        ["prog.mx:2:22: error[MX050]: unknown macro or constant `a`"]
    );
    // A definition inside an argument in a body keeps its body too.
    let text = "%macro id(x) { %x }\n%macro outer() {\n%id(%macro inner() { ld r0 5 })\n}\n%outer()\n%inner()\n";
    assert_eq!(expanded(text), "ld r0 5\n");
}

#[test]
fn a_warning_in_a_compile_time_body_keeps_the_use_around_it() {
    // `ldr` changes nothing (warning MX042); the call still stands for r, 5, and the use of
    // `id` that takes it as its argument still expands.
    let text = "%macro w() {\nldr\nld 5\n}\n%macro id(a) { ld %a }\n%id(!w())\noutur\n";
    assert_eq!(expanded(text), "ld 5\noutur\n");
    let dir = temp();
    let path = program(dir.path(), "prog.mx", text);
    let output = run(&["run", "--error-format", "short", path_str(&path)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "5");
    assert!(stderr(&output).contains("warning[MX042]"), "{}", stderr(&output));
}
