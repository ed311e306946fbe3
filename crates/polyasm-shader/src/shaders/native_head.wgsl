// A shader-asm program compiled to a WGSL compute shader by polyasm: one invocation per pixel
// runs the program, one statement per instruction, and writes the pixel's RGBA8 colour to
// `pixels`. It means what the interpreter (`polyasm run --emit-runtime wgsl`) makes of the
// same program.
//
// Bindings (group 0), those of the interpreter but its `program`:
//   0  uniform             Frame: the image size, the time, the alpha mode (`count` is not read)
//   2  storage, read_write pixels: one u32 per pixel, R in the low byte, rows from the top
//
// Dispatch ceil(width / 8) x ceil(height / 8) workgroups.

