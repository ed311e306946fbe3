//! The standard library (`%include "std/..."`): every macro in a program assembled and run
//! through the library API, with fixed input and the exact output, memory or diagnostics.

use polyasm_core::{Diagnostic, SourceMap};
use polyasm_masfix::exec::{Limits, Machine, Program};
use polyasm_masfix::{AssembleOptions, assemble, decode};

/// The library's cells (docs/masfix-std.md).
const STACK_PTR: usize = 65535;
const STACK_FIRST: usize = 65527;
const SCRATCH: std::ops::RangeInclusive<usize> = 65528..=65533;

/// The folder the test programs say they are in. It does not exist, so `%include "std/..."`
/// finds the built-in files (a program without a folder would look in the current folder
/// first, which is the crate's, where the library's own files lie).
fn program_folder() -> std::path::PathBuf {
    std::env::temp_dir().join("polyasm-std-tests-no-such-folder")
}

/// Assembles `text` with `options`: the bytecode, what compile-time code printed, the
/// diagnostics and the sources.
fn assemble_full(
    text: &str,
    options: &AssembleOptions,
) -> (Option<decode::Bytecode>, String, Vec<Diagnostic>, SourceMap) {
    let mut sources = SourceMap::new();
    let file = sources
        .try_add_file("test.mx", program_folder().join("test.mx"), text)
        .expect("a short source");
    let mut printed = Vec::new();
    let outcome = assemble(&mut sources, file, options, &mut printed);
    let bytecode = outcome
        .value
        .map(|object| decode::read(&object.bytes).expect("the assembler writes valid bytecode"));
    (
        bytecode,
        String::from_utf8_lossy(&printed).into_owned(),
        outcome.diagnostics,
        sources,
    )
}

/// [`assemble_full`] without the sources.
fn assemble_with(text: &str, options: &AssembleOptions) -> (Option<decode::Bytecode>, String, Vec<Diagnostic>) {
    let (bytecode, printed, diagnostics, _) = assemble_full(text, options);
    (bytecode, printed, diagnostics)
}

/// What a run left: its output and the machine.
struct Ran {
    out: String,
    machine: Machine,
}

/// Assembles `text` (which must assemble without any diagnostic) and runs it on `input`.
fn run_with(text: &str, input: &str, options: &AssembleOptions) -> Ran {
    let (bytecode, printed, diagnostics) = assemble_with(text, options);
    let described: Vec<String> = diagnostics
        .iter()
        .map(|d| format!("{} {} {:?}", d.code, d.message, d.notes))
        .collect();
    assert!(diagnostics.is_empty(), "diagnostics: {described:#?}");
    assert_eq!(printed, "", "the library prints nothing while assembling");
    let bytecode = bytecode.expect("a program without diagnostics assembles");
    let program = Program::new(&bytecode.instrs).expect("a short program");
    let mut machine = Machine::new();
    let mut out = Vec::new();
    let limits = Limits {
        max_steps: Some(50_000_000),
    };
    program
        .run(&mut machine, &mut input.as_bytes(), &mut out, limits)
        .expect("the program ends");
    Ran {
        out: String::from_utf8(out).expect("text output"),
        machine,
    }
}

fn run(text: &str, input: &str) -> Ran {
    run_with(text, input, &AssembleOptions::default())
}

fn output(text: &str) -> String {
    run(text, "").out
}

/// The diagnostics of a program that must not assemble.
fn errors(text: &str) -> Vec<Diagnostic> {
    let (bytecode, _, diagnostics) = assemble_with(text, &AssembleOptions::default());
    assert!(bytecode.is_none(), "the program assembled");
    diagnostics
}

// ---------------------------------------------------------------------------------------------
// std/stack

#[test]
fn push_and_pop_are_last_in_first_out() {
    let text = r#"%include "std/stack"
%using std
ld 1
%push()
ld 2
%push()
%push_imm(3)
%push_imm('A')
%pop()
outur
outc ' '
%pop()
outur
outc ' '
%pop()
outur
outc ' '
%pop()
outur
"#;
    assert_eq!(output(text), "65 3 2 1");
}

#[test]
fn values_go_down_from_65527_and_the_pointer_cell_holds_minus_the_depth() {
    let text = r#"%include "std/stack"
%using std
ld 11
%push()
ld 22
%push()
%push_imm(33)
"#;
    let ran = run(text, "");
    let memory = &ran.machine.memory;
    assert_eq!(memory[STACK_FIRST], 11);
    assert_eq!(memory[STACK_FIRST - 1], 22);
    assert_eq!(memory[STACK_FIRST - 2], 33);
    assert_eq!(memory[STACK_PTR], 3u16.wrapping_neg());
    // push leaves the head on the new top; push_imm keeps r.
    assert_eq!(ran.machine.h as usize, STACK_FIRST - 2);
    assert_eq!(ran.machine.r, 22);
}

#[test]
fn push_push_imm_and_drop_keep_r() {
    let text = r#"%include "std/stack"
%using std
ld 7
%push()
outur
%push_imm(9)
outur
%drop()
outur
%pop()
outur
"#;
    assert_eq!(output(text), "7777");
}

#[test]
fn top_puts_the_head_on_the_top_value() {
    let text = r#"%include "std/stack"
%using std
%push_imm(40)
%push_imm(2)
ld 100
%top()
ldam
outur
outc ' '
strr
%pop()
outur
outc ' '
%top()
outum
"#;
    assert_eq!(output(text), "102 102 40");
}

#[test]
fn depth_counts_the_values_and_drop_removes_one() {
    let text = r#"%include "std/stack"
%using std
%depth()
outur
%push_imm(5)
%push_imm(6)
%push_imm(7)
%depth()
outur
%drop()
%depth()
outur
%pop()
outur
%depth()
outur
"#;
    assert_eq!(output(text), "03261");
}

#[test]
fn a_deep_stack_holds_every_value() {
    // 1000 pushes of 0..1000 in a loop, then 1000 pops summed: 499500 mod 65536.
    let text = r#"%include "std/stack"
%include "std/control"
%using std
%for(0, 0, 1000, {
    %push()
})
%depth()
outur
outc ' '
mov 1
str 0
%for(2, 0, 1000, {
    %pop()
    mov 1
    strar
})
mov 1
outum
outc ' '
%depth()
outur
"#;
    assert_eq!(output(text), format!("1000 {} 0", 499_500 % 65536));
}

// ---------------------------------------------------------------------------------------------
// std/control: the label counter

#[test]
fn next_id_counts_from_1_at_compile_time() {
    let text = r#"%include "std/control"
outu !std:next_id()
outc ' '
outu !std:next_id()
outc ' '
outu !std:next_id()
"#;
    assert_eq!(output(text), "1 2 3");
}

#[test]
fn next_id_keeps_the_compile_time_head() {
    let text = r#"%include "std/control"
%macro park() {
    mov 500
    ld 9
}
%macro where() {
    ldh
}
outu !park()
outc ' '
outu !std:next_id()
outc ' '
outu !where()
"#;
    assert_eq!(output(text), "9 1 500");
}

#[test]
fn many_uses_make_no_label_twice() {
    let mut text = String::from("%include \"std/control\"\n%using std\nld 1\n");
    for _ in 0..200 {
        text.push_str("%if(ne, { outc 'x' })\n%while({}, eq, {})\n");
    }
    assert_eq!(output(&text), "x".repeat(200));
}

// ---------------------------------------------------------------------------------------------
// std/control: %if and %if_else with every condition

/// Whether branch condition `cond` holds for `value` (the condition register against 0).
fn holds(cond: &str, value: u16) -> bool {
    let signed = value as i16;
    match cond {
        "eq" => value == 0,
        "ne" => value != 0,
        "lt" => signed < 0,
        "le" => signed <= 0,
        "gt" => signed > 0,
        "ge" => signed >= 0,
        "ab" => value > 0,
        "ae" => true,
        "bl" => false,
        "be" => value == 0,
        _ => unreachable!("a condition of the table"),
    }
}

const CONDS: [&str; 10] = ["eq", "ne", "lt", "le", "gt", "ge", "ab", "ae", "bl", "be"];
const VALUES: [u16; 7] = [0, 1, 2, 32767, 32768, 32769, 65535];

#[test]
fn if_runs_its_body_exactly_when_each_condition_on_r_holds() {
    for register in ["", "r"] {
        for cond in CONDS {
            let mut text = String::from("%include \"std/control\"\n%using std\n");
            let mut expected = String::new();
            for value in VALUES {
                text.push_str(&format!(
                    "ld {value}\n%if({register}{cond}, {{\n    outc 'T'\n}})\noutc '.'\n"
                ));
                expected.push_str(if holds(cond, value) { "T." } else { "." });
            }
            assert_eq!(output(&text), expected, "%if({register}{cond}, ...)");
        }
    }
}

#[test]
fn if_with_m_tests_the_cell_under_the_head_not_r() {
    for cond in CONDS {
        let mut text = String::from("%include \"std/control\"\n%using std\n");
        let mut expected = String::new();
        for value in VALUES {
            for r in [0, 40000] {
                text.push_str(&format!(
                    "mov 3\nstr {value}\nld {r}\n%if(m{cond}, {{ outc 'T' }})\noutc '.'\n"
                ));
                expected.push_str(if holds(cond, value) { "T." } else { "." });
            }
        }
        assert_eq!(output(&text), expected, "%if(m{cond}, ...)");
    }
}

#[test]
fn if_else_runs_one_branch_for_each_condition() {
    for cond in CONDS {
        let mut text = String::from("%include \"std/control\"\n%using std\n");
        let mut expected = String::new();
        for value in VALUES {
            text.push_str(&format!(
                "ld {value}\n%if_else({cond}, {{\n    outc 'T'\n}}, {{\n    outc 'F'\n}})\noutc '.'\n"
            ));
            expected.push_str(if holds(cond, value) { "T." } else { "F." });
        }
        assert_eq!(output(&text), expected, "%if_else({cond}, ...)");
    }
}

#[test]
fn if_else_with_m_conditions() {
    let text = r#"%include "std/control"
%using std
mov 0
str 65535
ld 0
%if_else(mlt, { outc '<' }, { outc '>' })
str 5
%if_else(mlt, { outc '<' }, { outc '>' })
%if_else(mab, { outc 'a' }, { outc 'b' })
"#;
    assert_eq!(output(text), "<>a");
}

#[test]
fn ifs_nest() {
    // Classify r: zero, small positive (< 10), large positive, negative.
    let text = r#"%include "std/control"
%using std
%define X 0
%for(1, 0, 5, {
    mov 1
    ldm
    mov %X
    %if_else(eq, { str 0 }, {
        %if_else(eq, {}, {
            %if(ne, {
                str 1
            })
        })
    })
    mov 1
    ldm
    %if(ne, {
        %if(ne, {
            %if_else(eq, { outc '?' }, {
                mov %X
                outum
            })
        })
    })
    %if(eq, { outc 'z' })
})
"#;
    assert_eq!(output(text), "z1111");
}

#[test]
fn an_empty_body_is_allowed() {
    let text = r#"%include "std/control"
%using std
ld 1
%if(ne, {})
%if_else(eq, {}, {})
%while({ ld 0 }, ne, {})
outc 'k'
"#;
    assert_eq!(output(text), "k");
}

// ---------------------------------------------------------------------------------------------
// std/control: loops

#[test]
fn while_tests_before_each_round() {
    let text = r#"%include "std/control"
%using std
ld 3
%while({}, ne, {
    outur
    lds 1
})
outc '|'
ld 0
%while({}, ne, {
    outc 'x'
})
outc '|'
"#;
    assert_eq!(output(text), "321||");
}

#[test]
fn while_runs_its_test_code_each_round() {
    // Count cell 9 up while it is below 4; the test runs 5 times.
    let text = r#"%include "std/control"
%using std
%while({
    mov 8
    stra 1
    mov 9
    lmbl 4
}, ne, {
    mov 9
    outum
    stra 1
})
mov 8
outc ' '
outum
"#;
    assert_eq!(output(text), "0123 5");
}

#[test]
fn while_with_an_m_condition() {
    let text = r#"%include "std/control"
%using std
mov 4
str 3
%while({ mov 4 }, mne, {
    outum
    strs 1
})
"#;
    assert_eq!(output(text), "321");
}

#[test]
fn whiles_nest() {
    // A triangle of stars from a read number.
    let text = r#"%include "std/control"
%using std
inu
mov 0
strr
%while({ mov 0 }, mne, {
    ldm
    mov 1
    strr
    %while({ mov 1 }, mne, {
        outc '*'
        strs 1
    })
    outc '\n'
    mov 0
    strs 1
})
"#;
    assert_eq!(run(text, "3\n").out, "***\n**\n*\n");
}

#[test]
fn for_counts_from_from_up_to_to_excluded() {
    let text = r#"%include "std/control"
%using std
%for(7, 2, 6, {
    outur
    outc ','
})
mov 7
outc ' '
outum
outc ' '
%for(7, 5, 5, { outc 'x' })
%for(7, 9, 3, { outc 'y' })
outum
"#;
    assert_eq!(output(text), "2,3,4,5, 6 9");
}

#[test]
fn for_runs_its_body_on_the_cell() {
    // The body starts with h on the cell: doubling the count there skips rounds, and storing
    // `to` there ends the loop.
    let text = r#"%include "std/control"
%using std
%for(3, 1, 100, {
    outur
    outc ' '
    strt 2
    lmgt 40
    %if(ne, {
        mov 3
        str 100
    })
})
"#;
    assert_eq!(output(text), "1 3 7 15 31 ");
}

#[test]
fn fors_nest() {
    let text = r#"%include "std/control"
%using std
%for(0, 1, 4, {
    %for(1, 1, 4, {
        mov 0
        ldm
        mov 1
        ldtm
        outur
        outc ' '
    })
    outc '\n'
})
"#;
    assert_eq!(output(text), "1 2 3 \n2 4 6 \n3 6 9 \n");
}

#[test]
fn for_takes_defines_and_characters() {
    let text = r#"%include "std/control"
%using std
%define I 10
%define LAST 'e'
%for(%I, 'a', %LAST, {
    outcr
})
"#;
    assert_eq!(output(text), "abcd");
}

// ---------------------------------------------------------------------------------------------
// std/proc

#[test]
fn call_and_ret_keep_r_and_the_stack() {
    let text = r#"%include "std/proc"
%using std
%proc(twice, {
    ldt 2
})
%proc(nothing, {})
%push_imm(77)
ld 21
%call(twice)
outur
outc ' '
%call(nothing)
outur
outc ' '
%call(twice)
%call(twice)
outur
outc ' '
%depth()
outur
outc ' '
%pop()
outur
"#;
    assert_eq!(output(text), "42 42 168 1 77");
}

#[test]
fn a_procedure_is_skipped_where_it_is_defined() {
    let text = r#"%include "std/proc"
%using std
outc 'a'
%proc(shout, {
    outc '!'
})
outc 'b'
%call(shout)
outc 'c'
"#;
    assert_eq!(output(text), "ab!c");
}

#[test]
fn ret_returns_early() {
    let text = r#"%include "std/proc"
%using std
%proc(sign, {
    %if(eq, {
        ld '0'
        %ret()
    })
    %if(lt, {
        ld '-'
        %ret()
    })
    ld '+'
})
ld 0
%call(sign)
outcr
ld 65000
%call(sign)
outcr
ld 12
%call(sign)
outcr
%depth()
outur
"#;
    assert_eq!(output(text), "0-+0");
}

#[test]
fn recursion_through_the_stack() {
    // fib(n) = n for n < 2, else fib(n-1) + fib(n-2); n is kept on the stack around calls.
    let text = r#"%include "std/proc"
%using std
%proc(fib, {
    %push()
    lbl 2
    %if_else(ne, {
        %pop()
    }, {
        %top()
        ldms 1
        %call(fib)
        %top()
        swap
        lds 2
        %call(fib)
        %top()
        ldam
        %drop()
    })
})
%for(0, 0, 16, {
    %call(fib)
    outur
    outc ' '
})
%depth()
outur
"#;
    assert_eq!(output(text), "0 1 1 2 3 5 8 13 21 34 55 89 144 233 377 610 0");
}

#[test]
fn procedures_call_each_other() {
    // Mutual recursion: even(n) = n == 0 or odd(n - 1); odd(n) = n != 0 and even(n - 1).
    let text = r#"%include "std/proc"
%using std
%proc(even, {
    %if_else(eq, { ld 1 }, {
        lds 1
        %call(odd)
    })
})
%proc(odd, {
    %if(ne, {
        lds 1
        %call(even)
        %ret()
    })
})
%for(0, 0, 7, {
    %call(even)
    outur
})
"#;
    assert_eq!(output(text), "1010101");
}

// ---------------------------------------------------------------------------------------------
// std/math

const EDGES: [u16; 14] = [0, 1, 2, 3, 7, 10, 255, 256, 4097, 32767, 32768, 32769, 65534, 65535];

/// Pairs of edge values and a fixed pseudo-random sequence.
fn operand_pairs() -> Vec<(u16, u16)> {
    let mut pairs: Vec<(u16, u16)> = EDGES.iter().flat_map(|&a| EDGES.iter().map(move |&b| (a, b))).collect();
    let mut state: u32 = 12345;
    let mut next = || {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (state >> 8) as u16
    };
    for _ in 0..200 {
        let a = next();
        let b = next() >> (next() % 16);
        pairs.push((a, b));
    }
    pairs
}

#[test]
fn div_mod_and_mulhi_match_integer_arithmetic() {
    // Reads "a b" lines to the end of input and prints "a/b a%b (a*b)>>16" for each.
    let text = r#"%include "std/math"
%using std
%define A 0
%define B 1
%while({
    ipc
    lne 65535
}, ne, {
    inu
    mov %A
    strr
    inc
    inu
    mov %B
    strr
    inl
    mov %A
    ldm
    %div(%B)
    outur
    outc ' '
    mov %A
    ldm
    %mod(%B)
    outur
    outc ' '
    mov %A
    ldm
    %mulhi(%B)
    outur
    outc '\n'
})
"#;
    let pairs = operand_pairs();
    let input: String = pairs.iter().map(|(a, b)| format!("{a} {b}\n")).collect();
    let expected: String = pairs
        .iter()
        .map(|&(a, b)| {
            // Dividing by 0 gives 65535 and the dividend (docs/masfix-std.md).
            let q = a.checked_div(b).unwrap_or(65535);
            let r = a.checked_rem(b).unwrap_or(a);
            let high = (u32::from(a) * u32::from(b)) >> 16;
            format!("{q} {r} {high}\n")
        })
        .collect();
    assert_eq!(run(text, &input).out, expected);
}

#[test]
fn dividing_by_zero_gives_65535_and_the_dividend() {
    let text = r#"%include "std/math"
%using std
ld 1234
%div(5)
outur
outc ' '
ld 1234
%mod(5)
outur
"#;
    assert_eq!(output(text), "65535 1234");
}

#[test]
fn arithmetic_leaves_the_operand_cell_and_user_memory_alone() {
    let text = r#"%include "std/math"
%using std
mov 40
str 9
ld 100
%div(40)
mov 41
strr
ld 100
%mod(40)
mov 42
strr
ld 300
%mulhi(40)
mov 43
strr
"#;
    let ran = run(text, "");
    let memory = &ran.machine.memory;
    assert_eq!(&memory[40..44], &[9, 11, 1, 0]);
    let touched: Vec<usize> = (0..65536)
        .filter(|&i| memory[i] != 0 && !(40..44).contains(&i) && !SCRATCH.contains(&i))
        .collect();
    assert_eq!(touched, Vec::<usize>::new());
}

// ---------------------------------------------------------------------------------------------
// std/io

#[test]
fn print_int_prints_signed_and_keeps_r() {
    let mut text = String::from("%include \"std/io\"\n%using std\n");
    let mut expected = String::new();
    for value in [0u16, 1, 9, 10, 12345, 32767, 32768, 32769, 54321, 65535] {
        text.push_str(&format!("ld {value}\n%print_int()\noutc ' '\noutur\n%newline()\n"));
        expected.push_str(&format!("{} {value}\n", value as i16));
    }
    assert_eq!(output(&text), expected);
}

#[test]
fn print_cstr_prints_memory_up_to_a_zero_cell() {
    let text = r#"%include "std/io"
%using std
mov 10
str 'H'
mova 1
str 'i'
mova 1
str '!'
ld 5
mov 10
%print_cstr()
ldh
outc ' '
outur
mov 20
%print_cstr()
outc '|'
"#;
    assert_eq!(output(text), "Hi! 13|");
}

#[test]
fn print_cstr_prints_a_line_read_into_memory() {
    // Read a line into cells 100.. (the line break ends it), then print it back twice.
    let text = r#"%include "std/io"
%include "std/control"
%using std
mov 100
%while({
    ipc
    lne '\n'
}, ne, {
    incm
    mova 1
})
mov 100
%print_cstr()
%print1('/')
mov 100
%print_cstr()
"#;
    assert_eq!(run(text, "hello\nrest").out, "hello/hello");
}

#[test]
fn print_macros_print_their_characters() {
    let text = r#"%include "std/io"
%using std
%define BANG '!'
%print1('a')
%print2('b', 'c')
%print3('d', 'e', 'f')
%print4('g', 'h', 'i', 'j')
%newline()
%print5('1', '2', '3', '4', '5')
%print6(',', ' ', '\t', 'x', 'y', 'z')
%newline()
%print7(72, 101, 108, 108, 111, ',', ' ')
%print8('w', 'o', 'r', 'l', 'd', %BANG, '\'', '\n')
"#;
    assert_eq!(output(text), "abcdefghij\n12345, \txyz\nHello, world!'\n");
}

#[test]
fn print_macros_change_nothing() {
    let text = r#"%include "std/io"
%using std
mov 7
str 8
ld 9
%print8('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')
%newline()
%print_int()
"#;
    let ran = run(text, "");
    assert_eq!(ran.out, "abcdefgh\n9");
    assert_eq!((ran.machine.h, ran.machine.r, ran.machine.memory[7]), (7, 9, 8));
}

// ---------------------------------------------------------------------------------------------
// The whole library

#[test]
fn fizzbuzz_with_the_whole_library() {
    let text = r#"%include "std/all"
%using std
%define I 0
%define K 1
%define SAID 2
mov %K
str 3
mov 3
str 5
%for(%I, 1, 16, {
    mov %SAID
    str 0
    %mod(%K)
    %if(eq, {
        %print4('F', 'i', 'z', 'z')
        mov %SAID
        str 1
    })
    mov %I
    ldm
    %mod(3)
    %if(eq, {
        %print4('B', 'u', 'z', 'z')
        mov %SAID
        str 1
    })
    mov %SAID
    %if(meq, {
        mov %I
        ldm
        %print_int()
    })
    %newline()
})
"#;
    let expected: String = (1..16)
        .map(|i| match (i % 3, i % 5) {
            (0, 0) => "FizzBuzz\n".to_string(),
            (0, _) => "Fizz\n".to_string(),
            (_, 0) => "Buzz\n".to_string(),
            _ => format!("{i}\n"),
        })
        .collect();
    assert_eq!(output(text), expected);
}

#[test]
fn the_library_touches_only_its_own_cells() {
    // Every macro once; the program's own cells are 0 to 3.
    let text = r#"%include "std/all"
%using std
mov 0
str 7
mov 1
str 3
ld 5
%push()
%push_imm(6)
%top()
%drop()
%depth()
%pop()
%if(ne, { ld 1 })
%if_else(ne, { ld 2 }, { ld 3 })
%while({}, eq, {})
%for(2, 0, 3, {})
%proc(p, {})
%call(p)
ld 100
%div(0)
%mod(1)
%mulhi(0)
%print_int()
mov 3
%print_cstr()
%newline()
%print8(0, 0, 0, 0, 0, 0, 0, 0)
"#;
    let ran = run(text, "");
    let memory = &ran.machine.memory;
    assert_eq!(&memory[0..4], &[7, 3, 3, 0]);
    assert_eq!(memory[STACK_PTR], 0, "the stack is empty again");
    let touched: Vec<usize> = (4..65536)
        .filter(|&i| memory[i] != 0 && !SCRATCH.contains(&i) && !(STACK_FIRST - 1..=STACK_FIRST).contains(&i))
        .collect();
    assert_eq!(touched, Vec::<usize>::new());
}

#[test]
fn each_file_may_be_included_twice_and_all_includes_everything() {
    let text = r#"%include "std/all"
%include "std/math"
%include "std/all.mx"
%using std
ld 10
%call(f)
%proc(f, {
    %div(0)
})
"#;
    let (bytecode, _, diagnostics) = assemble_with(text, &AssembleOptions::default());
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert!(bytecode.is_some());
}

#[test]
fn a_file_in_an_include_folder_comes_before_the_library() {
    let dir = std::env::temp_dir().join(format!("polyasm-std-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("std")).expect("make a folder");
    std::fs::write(
        dir.join("std/io.mx"),
        "%namespace std {\n    %macro newline() {\n        outc '#'\n    }\n}\n",
    )
    .expect("write a file");
    let options = AssembleOptions {
        include_dirs: vec![dir.clone()],
        ..AssembleOptions::default()
    };
    let text = "%include \"std/io\"\n%include \"std/stack\"\n%using std\n%newline()\n%push_imm(1)\n%depth()\noutur\n";
    let out = run_with(text, "", &options).out;
    std::fs::remove_dir_all(&dir).expect("remove the folder");
    assert_eq!(out, "#1");
}

// ---------------------------------------------------------------------------------------------
// Mistakes

#[test]
fn an_unknown_condition_is_one_error_in_the_expansion_of_the_use() {
    let text = "%include \"std/control\"\n%using std\n%if(xx, { outc 'a' })\n";
    let (bytecode, _, diagnostics, sources) = assemble_full(text, &AssembleOptions::default());
    assert!(bytecode.is_none());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let error = &diagnostics[0];
    assert_eq!(error.code, "MX050");
    let label = error.labels.first().expect("the error points at the library's line");
    assert_eq!(sources.get(label.span.source).name(), "<builtin>/std/control.mx");
    assert!(error.message.contains("`_unless_xx`"), "{}", error.message);
    assert!(
        error
            .notes
            .iter()
            .any(|n| n.starts_with("in the expansion of `%if` at test.mx:3:1")),
        "{:?}",
        error.notes
    );
}

#[test]
fn a_wrong_number_of_arguments_is_an_error_at_the_use() {
    let diagnostics = errors("%include \"std/math\"\n%using std\n%div(1, 2)\n");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].code, "MX055");
}

#[test]
fn without_the_namespace_the_macros_are_unknown() {
    let diagnostics = errors("%include \"std/stack\"\n%push()\n");
    assert_eq!(diagnostics[0].code, "MX050");
    assert_eq!(
        output("%include \"std/stack\"\n%std:push_imm(4)\n%std:pop()\noutur\n"),
        "4"
    );
}
