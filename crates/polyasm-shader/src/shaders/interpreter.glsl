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

layout(std140, binding = 1) uniform PolyasmFrame {
    // Instructions to run; never more than PolyasmProgram holds.
    uint polyasm_count;
    uint polyasm_width;
    uint polyasm_height;
    // `t`, in seconds.
    float polyasm_time;
    // 1: alpha is c.w; 0: alpha is 1.
    uint polyasm_alpha_keep;
};

layout(location = 0) out vec4 polyasm_color;

// Register numbers of the inputs and the output; the last register is v2's `z`, which no
// program writes, so it stays 0.
const uint PC = 16u;
const uint TIME = 17u;
const uint SIZE = 18u;
const uint COLOR = 19u;
const uint LAST_REGISTER = 20u;

// Every register is a vec4, scalars in .x.
vec4 r[21];

// v2's per-pixel memory (readMemory, writeMemory).
const uint MEMORY_CELLS = 64u;
float polyasm_memory[64];

// The component (len 4) or memory cell (len 64) that the index value v picks: floor(v) when
// it is in [0, len), else len (negative, too large, NaN: no comparison holds).
uint polyasm_pick(float v, uint len) {
    if (v >= 0.0 && v < float(len)) {
        return uint(v);
    }
    return len;
}

// v2's sign: 1 above 0, -1 below, +0 for both zeros and NaN, read from the bits.
float polyasm_sign(float v) {
    uint bits = floatBitsToUint(v);
    uint magnitude = bits & 0x7fffffffu;
    if (magnitude == 0u || magnitude > 0x7f800000u) {
        return 0.0;
    }
    return bits >= 0x80000000u ? -1.0 : 1.0;
}

// A channel clamped to [0, 1], with NaN (found from its bits) as 0.
float polyasm_channel(float v) {
    if ((floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u) {
        return 0.0;
    }
    return min(max(v, 0.0), 1.0);
}

// Runs instruction i.
void polyasm_step(uint i) {
    uint word = polyasm_program[2u * i];
    // Fields past the register file are clamped so that no index leaves it.
    uint a = min((word >> 8u) & 0xffu, LAST_REGISTER);
    uint b = min((word >> 16u) & 0xffu, LAST_REGISTER);
    uint c = min(word >> 24u, LAST_REGISTER);
    // The operands are read and the result written outside the switch, once each: the cases
    // only choose, so a driver that runs every case under a mask pays little for them.
    vec4 va = r[a];
    vec4 vb = r[b];
    vec4 vc = r[c];
    float value = va.x;
    uint destination = b;
    uint lane = 0u;
    // Every fragment runs the same instruction, so the branch is uniform.
    switch (word & 0xffu) {
        case 0u: value = va.x + vb.x; destination = c; break;
        case 1u: value = va.x * vb.x; destination = c; break;
        case 2u: value = -va.x; break;
        case 3u: value = 1.0 / va.x; break;
        case 4u: break;
        case 5u: break;
        case 6u: value = va.y; break;
        case 7u: value = va.z; break;
        case 8u: value = va.w; break;
        case 9u: value = vb.x; destination = a; break;
        case 10u: value = vb.x; destination = a; lane = 1u; break;
        case 11u: value = vb.x; destination = a; lane = 2u; break;
        case 12u: value = vb.x; destination = a; lane = 3u; break;
        case 13u: value = uintBitsToFloat(polyasm_program[2u * i + 1u]); destination = a; break;
        case 14u: {
            uint k = polyasm_pick(vc.x, 4u);
            value = k < 4u ? va[k] : 0.0;
            break;
        }
        case 15u: {
            uint k = polyasm_pick(vc.x, 4u);
            if (k >= 4u) {
                return;
            }
            value = vb.x;
            destination = a;
            lane = k;
            break;
        }
        case 16u: value = polyasm_sign(va.x); break;
        case 17u: {
            uint k = polyasm_pick(vb.x, MEMORY_CELLS);
            value = k < MEMORY_CELLS ? polyasm_memory[k] : 0.0;
            destination = a;
            break;
        }
        case 18u: {
            uint k = polyasm_pick(vb.x, MEMORY_CELLS);
            if (k < MEMORY_CELLS) {
                polyasm_memory[k] = va.x;
            }
            return;
        }
        // Unknown opcodes do nothing.
        default: return;
    }
    r[destination][lane] = value;
}

void main() {
    // All registers and memory cells start at 0 but the inputs.
    for (uint n = 0u; n < 21u; n++) {
        r[n] = vec4(0.0);
    }
    for (uint n = 0u; n < MEMORY_CELLS; n++) {
        polyasm_memory[n] = 0.0;
    }
    r[PC] = vec4(gl_FragCoord.xy, 0.0, 0.0);
    r[TIME] = vec4(polyasm_time, 0.0, 0.0, 0.0);
    r[SIZE] = vec4(float(polyasm_width), float(polyasm_height), 0.0, 0.0);

    // Never past the end of the buffer, whatever the count says.
    uint count = min(polyasm_count, uint(polyasm_program.length()) / 2u);
    // Four instructions an iteration keep the trip count low: some drivers (llvmpipe) leave
    // loops after 65535 iterations in all.
    uint i = 0u;
    for (; i + 4u <= count; i += 4u) {
        polyasm_step(i);
        polyasm_step(i + 1u);
        polyasm_step(i + 2u);
        polyasm_step(i + 3u);
    }
    for (; i < count; i++) {
        polyasm_step(i);
    }

    vec4 colour = r[COLOR];
    float alpha = polyasm_alpha_keep != 0u ? polyasm_channel(colour.w) : 1.0;
    polyasm_color = vec4(
        polyasm_channel(colour.x),
        polyasm_channel(colour.y),
        polyasm_channel(colour.z),
        alpha
    );
}
