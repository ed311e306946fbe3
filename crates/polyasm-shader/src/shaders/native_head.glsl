#version 430 core
// A shader-asm program compiled to a GLSL 4.30 fragment shader by polyasm: every fragment runs
// the program, one statement per instruction, and writes the clamped colour register `c` to
// polyasm_color. It means what the interpreter (`polyasm run --emit-runtime glsl`) makes of the
// same program.
//
// Draw a primitive covering the viewport (a full-screen triangle or quad) with the viewport's
// origin at (0, 0) of the target: `pc` is gl_FragCoord, whose origin is the bottom-left corner.
//
// Interface, that of the interpreter but its PolyasmProgram buffer:
//   UBO binding 1 (std140)   PolyasmFrame: target size, time, alpha mode (the count is not read)
//   output location 0        polyasm_color: r, g, b in [0, 1], NaN as 0; a is 1 or c.w

