#version 430 core
// The shader-asm interpreter as a GLSL 4.30 fragment shader for OpenGL engines: every fragment
// runs the whole program from the bytecode in the PolyasmProgram buffer and writes the clamped
// colour register `c` to polyasm_color.
//
// Draw a primitive covering the viewport (a full-screen triangle or quad) with the viewport's
// origin at (0, 0) of the target: `pc` is gl_FragCoord, whose origin is the bottom-left corner.
//
// Interface:
//   SSBO binding 0 (std430)  PolyasmProgram: two uint words per instruction
//                            (docs/formats/shader-bytecode.md, the words after the header)
//   UBO binding 1 (std140)   PolyasmFrame: instruction count, target size, time, alpha mode
//   output location 0        polyasm_color: r, g, b in [0, 1], NaN as 0; a is 1 or c.w

layout(std430, binding = 0) readonly buffer PolyasmProgram {
    uint polyasm_program[];
};

