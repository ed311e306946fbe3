// The shader-asm interpreter as a WGSL compute shader: one invocation per pixel runs the whole
// program from the bytecode in `program` and writes the pixel's RGBA8 colour to `pixels`.
//
// Bindings (group 0):
//   0  uniform             Frame: the instruction count, the image size, the time, the alpha mode
//   1  storage, read       program: two u32 words per instruction (docs/formats/shader-bytecode.md)
//   2  storage, read_write pixels: one u32 per pixel, R in the low byte, rows from the top
//
// Dispatch ceil(width / 8) x ceil(height / 8) workgroups.

// The bytecode; the rest of the interface is shared with native shaders.
@group(0) @binding(1) var<storage, read> program: array<u32>;

