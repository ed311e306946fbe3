//! Native shaders: a program written out as WGSL or GLSL, one statement per instruction, with
//! its register numbers and constants in the text, instead of bytecode that an interpreter
//! reads. A GPU runs it without the interpreter's loop and switch, at the price of compiling a
//! shader per program.
//!
//! The shader is the interpreter's ([`crate::runtime`]) but for its head and body: the same
//! frame, registers, memory, helpers, inputs and pixel output, read from the same files, so a
//! native shader means what the interpreter makes of the program, including for register
//! fields past the register file (clamped to the last register), NaN, and indexes that pick no
//! component or memory cell. Its interface is the interpreter's without the bytecode buffer.
//!
//! ```
//! use polyasm_shader::{assemble_text, native};
//!
//! let program = assemble_text("load(s0, 1)\nsetComponent0(c, s0)\n").expect("valid program");
//! let wgsl = native::wgsl(&program);
//! assert!(wgsl.contains("    // load(s0, 1)\n    r[0].x = kept(bitcast<f32>(0x3f800000u));\n"));
//! assert!(native::glsl(&program).contains("r[19].x = r[0].x;"));
//! ```

use crate::ops::{Instr, Op, REGISTERS};
use crate::print::print_instruction;
use crate::runtime::{self, Parts};

/// How one language writes what the statements need.
struct Language {
    parts: Parts,
    /// The function that reads a `u32`'s bits as an `f32`.
    from_bits: &'static str,
    /// The prelude's helper that hides a computed value from the compiler's rewriting.
    kept: &'static str,
    /// How a function without a result is declared, and the name of those that hold a long
    /// program's instructions (followed by `_` and their number).
    void_function: &'static str,
    function: &'static str,
    /// The prelude's helpers for `sign`, `getComponent`, `setComponent`, `readMemory` and
    /// `writeMemory`.
    sign: &'static str,
    component: &'static str,
    set_component: &'static str,
    read_memory: &'static str,
    write_memory: &'static str,
}

const WGSL: Language = Language {
    parts: runtime::WGSL_PARTS,
    from_bits: "bitcast<f32>",
    kept: "kept",
    void_function: "fn",
    function: "instructions",
    sign: "sign_of",
    component: "component",
    set_component: "set_component",
    read_memory: "read_memory",
    write_memory: "write_memory",
};

const GLSL: Language = Language {
    parts: runtime::GLSL_PARTS,
    from_bits: "uintBitsToFloat",
    kept: "polyasm_kept",
    void_function: "void",
    function: "polyasm_instructions",
    sign: "polyasm_sign",
    component: "polyasm_component",
    set_component: "polyasm_set_component",
    read_memory: "polyasm_read_memory",
    write_memory: "polyasm_write_memory",
};

/// `program` as a WGSL compute shader with the interpreter's bindings but its `program`
/// buffer: group 0, binding 0 the `Frame` uniform, binding 2 the pixels; entry point
/// [`runtime::WGSL_ENTRY_POINT`], workgroups of [`runtime::WORKGROUP_SIDE`] squared pixels.
pub fn wgsl(program: &[Instr]) -> String {
    write(program, &WGSL)
}

/// `program` as a GLSL 4.30 fragment shader with the GLSL interpreter's interface but its
/// `PolyasmProgram` buffer: the `PolyasmFrame` uniform block at binding 1, `polyasm_color` at
/// location 0.
pub fn glsl(program: &[Instr]) -> String {
    write(program, &GLSL)
}

/// A program longer than this is written in functions of this many instructions, called in
/// order from `main`: naga, which reads WGSL for wgpu, takes time quadratic in the length of a
/// function, and a few thousand statements in one function would take it minutes.
pub const INSTRUCTIONS_PER_FUNCTION: usize = 8;

/// Bytes a statement and its comment line take, about: enough that the text is allocated once
/// for most programs.
const BYTES_PER_INSTRUCTION: usize = 80;

fn write(program: &[Instr], language: &Language) -> String {
    let parts = &language.parts;
    let mut out = String::with_capacity(
        parts.head.len()
            + parts.prelude.len()
            + parts.main_start.len()
            + parts.main_end.len()
            + BYTES_PER_INSTRUCTION * program.len(),
    );
    out.push_str(parts.head);
    out.push_str(parts.prelude);
    let in_functions = program.len() > INSTRUCTIONS_PER_FUNCTION;
    if in_functions {
        for (n, part) in program.chunks(INSTRUCTIONS_PER_FUNCTION).enumerate() {
            let first = n * INSTRUCTIONS_PER_FUNCTION;
            out.push_str(&format!(
                "// Instructions {first} to {}.\n{} {}_{n}() {{\n",
                first + part.len() - 1,
                language.void_function,
                language.function
            ));
            push_statements(&mut out, part, language);
            out.push_str("}\n\n");
        }
    }
    out.push_str(parts.main_start);
    if in_functions {
        out.push_str(&format!(
            "    // The program, {INSTRUCTIONS_PER_FUNCTION} instructions a function.\n"
        ));
        for n in 0..program.len().div_ceil(INSTRUCTIONS_PER_FUNCTION) {
            out.push_str(&format!("    {}_{n}();\n", language.function));
        }
    } else if !program.is_empty() {
        out.push_str("    // The program.\n");
        push_statements(&mut out, program, language);
    }
    out.push('\n');
    out.push_str(parts.main_end);
    out
}

/// Each instruction's comment and statement, indented for a function's body.
fn push_statements(out: &mut String, program: &[Instr], language: &Language) {
    for instr in program {
        out.push_str("    // ");
        push_comment(out, &print_instruction(instr));
        out.push_str("\n    ");
        out.push_str(&statement(instr, language));
        out.push('\n');
    }
}

/// `text` in a line comment: printable ASCII but `\` as it is, anything else as `\u{..}`, so
/// that no line break ends the comment early and no `\` at its end continues it (GLSL) onto
/// the statement.
fn push_comment(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == ' ' || (c.is_ascii_graphic() && c != '\\') {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
}

/// The statement that runs `instr`: what the interpreter's case for its opcode does, with the
/// register fields clamped to the register file as the interpreter clamps them. Every value an
/// instruction computes, a constant included, goes through the prelude's `kept`, so that the
/// compiler computes each instruction as written; copies need not.
fn statement(instr: &Instr, language: &Language) -> String {
    let [a, b, c] = instr.regs.map(|reg| reg.0.min(REGISTERS - 1));
    let lanes = ["x", "y", "z", "w"];
    let Language {
        from_bits,
        kept,
        sign,
        component,
        set_component,
        read_memory,
        write_memory,
        ..
    } = language;
    match instr.op {
        Op::Add => format!("r[{c}].x = {kept}(r[{a}].x + r[{b}].x);"),
        Op::Multiply => format!("r[{c}].x = {kept}(r[{a}].x * r[{b}].x);"),
        Op::Negate => format!("r[{b}].x = {kept}(-r[{a}].x);"),
        Op::Reciprocal => format!("r[{b}].x = {kept}(1.0 / r[{a}].x);"),
        Op::Move | Op::GetComponent0 => format!("r[{b}].x = r[{a}].x;"),
        Op::GetComponent1 | Op::GetComponent2 | Op::GetComponent3 => {
            let lane = lanes[instr.op.component().expect("a component op")];
            format!("r[{b}].x = r[{a}].{lane};")
        }
        Op::SetComponent0 | Op::SetComponent1 | Op::SetComponent2 | Op::SetComponent3 => {
            let lane = lanes[instr.op.component().expect("a component op")];
            format!("r[{a}].{lane} = r[{b}].x;")
        }
        Op::Load => format!("r[{a}].x = {kept}({from_bits}(0x{:08x}u));", instr.constant.to_bits()),
        Op::GetComponent => format!("r[{b}].x = {kept}({component}(r[{a}], r[{c}].x));"),
        Op::SetComponent => format!("{set_component}({a}u, r[{c}].x, r[{b}].x);"),
        Op::Sign => format!("r[{b}].x = {kept}({sign}(r[{a}].x));"),
        Op::ReadMemory => format!("r[{a}].x = {kept}({read_memory}(r[{b}].x));"),
        Op::WriteMemory => format!("{write_memory}(r[{b}].x, r[{a}].x);"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Reg;

    fn instr(op: Op, regs: [u8; 3], constant: f32) -> Instr {
        Instr {
            op,
            regs: regs.map(Reg),
            constant,
        }
    }

    /// The statements of `text`'s main, after its inputs, of a program short enough to be
    /// written there.
    fn body(text: &str) -> Vec<&str> {
        let start = text.find("    // The program.\n").expect("a program") + "    // The program.\n".len();
        let end = text[start..].find("\n\n").expect("the end of the program") + start;
        text[start..end].lines().collect()
    }

    /// The lines that each instruction of `program` is, written alone by `write`.
    fn lines(program: &[Instr], write: fn(&[Instr]) -> String) -> Vec<String> {
        let each = program.iter().map(|instr| write(std::slice::from_ref(instr)));
        each.flat_map(|text| body(&text).into_iter().map(str::to_string).collect::<Vec<_>>())
            .collect()
    }

    #[test]
    fn each_instruction_is_its_comment_and_one_statement() {
        let program = [
            instr(Op::Add, [0, 1, 2], 0.0),
            instr(Op::Multiply, [0, 1, 2], 0.0),
            instr(Op::Negate, [3, 4, 0], 0.0),
            instr(Op::Reciprocal, [3, 4, 0], 0.0),
            instr(Op::Move, [3, 4, 0], 0.0),
            instr(Op::GetComponent0, [16, 5, 0], 0.0),
            instr(Op::GetComponent3, [18, 5, 0], 0.0),
            instr(Op::SetComponent2, [19, 1, 0], 0.0),
            instr(Op::Load, [1, 0, 0], -2.5),
            instr(Op::GetComponent, [8, 2, 20], 0.0),
            instr(Op::SetComponent, [19, 2, 3], 0.0),
            instr(Op::Sign, [1, 2, 0], 0.0),
            instr(Op::ReadMemory, [1, 2, 0], 0.0),
            instr(Op::WriteMemory, [1, 2, 0], 0.0),
        ];
        let wgsl_body = lines(&program, wgsl);
        assert_eq!(
            wgsl_body,
            [
                "    // add(s0, s1, s2)",
                "    r[2].x = kept(r[0].x + r[1].x);",
                "    // multiply(s0, s1, s2)",
                "    r[2].x = kept(r[0].x * r[1].x);",
                "    // negate(s3, s4)",
                "    r[4].x = kept(-r[3].x);",
                "    // reciprocal(s3, s4)",
                "    r[4].x = kept(1.0 / r[3].x);",
                "    // move(s3, s4)",
                "    r[4].x = r[3].x;",
                "    // getComponent0(pc, s5)",
                "    r[5].x = r[16].x;",
                "    // getComponent3(s, s5)",
                "    r[5].x = r[18].w;",
                "    // setComponent2(c, s1)",
                "    r[19].z = r[1].x;",
                "    // load(s1, -2.5)",
                "    r[1].x = kept(bitcast<f32>(0xc0200000u));",
                "    // getComponent(v0, s2, z)",
                "    r[2].x = kept(component(r[8], r[20].x));",
                "    // setComponent(c, s2, s3)",
                "    set_component(19u, r[3].x, r[2].x);",
                "    // sign(s1, s2)",
                "    r[2].x = kept(sign_of(r[1].x));",
                "    // readMemory(s1, s2)",
                "    r[1].x = kept(read_memory(r[2].x));",
                "    // writeMemory(s1, s2)",
                "    write_memory(r[2].x, r[1].x);",
            ]
        );
        let glsl_body = lines(&program, glsl);
        assert_eq!(
            glsl_body[17],
            "    r[1].x = polyasm_kept(uintBitsToFloat(0xc0200000u));"
        );
        assert_eq!(
            glsl_body[19],
            "    r[2].x = polyasm_kept(polyasm_component(r[8], r[20].x));"
        );
        assert_eq!(glsl_body[21], "    polyasm_set_component(19u, r[3].x, r[2].x);");
        assert_eq!(glsl_body[23], "    r[2].x = polyasm_kept(polyasm_sign(r[1].x));");
        assert_eq!(glsl_body[27], "    polyasm_write_memory(r[2].x, r[1].x);");
        // The copies are the same text in both languages; the rest differ in their helpers'
        // names alone.
        for (w, g) in wgsl_body.iter().zip(&glsl_body) {
            let g = g
                .replace("polyasm_kept", "kept")
                .replace("uintBitsToFloat", "bitcast<f32>");
            let g = g.replace("polyasm_sign", "sign_of").replace("polyasm_", "");
            assert_eq!(*w, g);
        }
    }

    #[test]
    fn the_shaders_are_the_interpreters_around_the_program() {
        let program = [instr(Op::Load, [0, 0, 0], 1.0)];
        for (text, interpreter, parts) in [
            (wgsl(&program), runtime::WGSL, runtime::WGSL_PARTS),
            (glsl(&program), runtime::GLSL, runtime::GLSL_PARTS),
        ] {
            assert!(text.starts_with(parts.head));
            assert!(text.ends_with(parts.main_end));
            for part in [parts.prelude, parts.main_start, parts.main_end] {
                assert!(interpreter.contains(part));
                assert!(text.contains(part));
            }
        }
        // The bytecode is the interpreter's alone.
        assert!(runtime::WGSL.contains("var<storage, read> program"));
        assert!(!wgsl(&program).contains("var<storage, read> program"));
        assert!(runtime::GLSL.contains("PolyasmProgram"));
        assert!(!glsl(&program).contains("buffer PolyasmProgram"));
        assert!(glsl(&program).starts_with("#version 430 core\n"));
    }

    #[test]
    fn register_fields_past_the_file_are_clamped_as_the_interpreter_clamps_them() {
        let text = wgsl(&[instr(Op::Add, [21, 200, 255], 0.0)]);
        assert_eq!(body(&text)[1], "    r[20].x = kept(r[20].x + r[20].x);");
        assert_eq!(body(&text)[0], "    // add(?21, ?200, ?255)");
    }

    #[test]
    fn constants_are_written_from_their_bits() {
        for (value, bits) in [
            (f32::NAN, "0x7fc00000u"),
            (-f32::NAN, "0xffc00000u"),
            (f32::from_bits(0x7f80_0001), "0x7f800001u"),
            (f32::INFINITY, "0x7f800000u"),
            (f32::NEG_INFINITY, "0xff800000u"),
            (-0.0, "0x80000000u"),
            (1e-45, "0x00000001u"),
            (f32::MAX, "0x7f7fffffu"),
        ] {
            let text = glsl(&[instr(Op::Load, [3, 0, 0], value)]);
            assert_eq!(
                body(&text)[1],
                format!("    r[3].x = polyasm_kept(uintBitsToFloat({bits}));"),
                "{value}"
            );
        }
    }

    #[test]
    fn comments_keep_to_their_line() {
        let mut out = String::new();
        push_comment(&mut out, "a(b)\n*/ \\ \u{2028}\r\u{0}é");
        assert_eq!(out, "a(b)\\u{a}*/ \\u{5c} \\u{2028}\\u{d}\\u{0}\\u{e9}");
        assert!(!out.ends_with('\\'));
    }

    #[test]
    fn a_long_program_is_in_functions_called_in_order() {
        assert_eq!(INSTRUCTIONS_PER_FUNCTION, 8, "the text below");
        let one = instr(Op::Load, [0, 0, 0], 1.0);
        let short = wgsl(&[one; INSTRUCTIONS_PER_FUNCTION]);
        assert!(!short.contains("fn instructions_"));
        assert_eq!(body(&short).len(), 2 * INSTRUCTIONS_PER_FUNCTION);
        let mut program = vec![one; 2 * INSTRUCTIONS_PER_FUNCTION];
        program.push(instr(Op::Move, [0, 1, 0], 0.0));
        let text = glsl(&program);
        let statement = "    // load(s0, 1)\n    r[0].x = polyasm_kept(uintBitsToFloat(0x3f800000u));\n";
        let first = format!(
            "// Instructions 0 to 7.\nvoid polyasm_instructions_0() {{\n{}}}\n",
            statement.repeat(8)
        );
        let second = format!(
            "// Instructions 8 to 15.\nvoid polyasm_instructions_1() {{\n{}}}\n",
            statement.repeat(8)
        );
        let third = "// Instructions 16 to 16.\nvoid polyasm_instructions_2() {\n    // move(s0, s1)\n    r[1].x = r[0].x;\n}\n";
        let calls = "    // The program, 8 instructions a function.\n    polyasm_instructions_0();\n    polyasm_instructions_1();\n    polyasm_instructions_2();\n\n";
        let parts = runtime::GLSL_PARTS;
        assert_eq!(
            text,
            format!(
                "{}{}{first}\n{second}\n{third}\n{}{calls}{}",
                parts.head, parts.prelude, parts.main_start, parts.main_end
            )
        );
    }

    #[test]
    fn an_empty_program_is_the_prelude_and_the_output() {
        let parts = runtime::WGSL_PARTS;
        assert_eq!(
            wgsl(&[]),
            format!(
                "{}{}{}\n{}",
                parts.head, parts.prelude, parts.main_start, parts.main_end
            )
        );
    }
}
