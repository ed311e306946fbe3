layout(std140, binding = 1) uniform PolyasmFrame {
    // Instructions to run; never more than PolyasmProgram holds. Native shaders do not read
    // it.
    uint polyasm_count;
    uint polyasm_width;
    uint polyasm_height;
    // `t`, in seconds.
    float polyasm_time;
    // 1: alpha is c.w; 0: alpha is 1.
    uint polyasm_alpha_keep;
    // 0. Native shaders read it (polyasm_kept); the interpreter does not.
    uint polyasm_zero;
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
// it is in [0, len), else len (negative, too large, infinite, NaN). Read from the bits, as
// comparisons with NaN and the conversion of NaN to uint are not defined everywhere: for a
// value without its sign bit the bits order as the values do, NaN above every number, and a
// negative one (sign bit set) is above them all; -0 picks 0, as 0 does.
uint polyasm_pick(float v, uint len) {
    uint bits = floatBitsToUint(v);
    if (bits == 0x80000000u) {
        bits = 0u;
    }
    if (bits < floatBitsToUint(float(len))) {
        return uint(uintBitsToFloat(bits));
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


// v2's getComponent: component index of v; 0 when index picks none.
float polyasm_component(vec4 v, float index) {
    uint k = polyasm_pick(index, 4u);
    return k < 4u ? v[k] : 0.0;
}

// v2's setComponent: component index of register reg becomes value; nothing changes when
// index picks none.
void polyasm_set_component(uint reg, float index, float value) {
    uint k = polyasm_pick(index, 4u);
    if (k < 4u) {
        r[reg][k] = value;
    }
}

// v2's readMemory: memory cell index; 0 when index picks none.
float polyasm_read_memory(float index) {
    uint k = polyasm_pick(index, MEMORY_CELLS);
    return k < MEMORY_CELLS ? polyasm_memory[k] : 0.0;
}

// v2's writeMemory: memory cell index becomes value; nothing changes when index picks none.
void polyasm_write_memory(float index, float value) {
    uint k = polyasm_pick(index, MEMORY_CELLS);
    if (k < MEMORY_CELLS) {
        polyasm_memory[k] = value;
    }
}

// v as it is, but through polyasm_zero, which the compiler cannot know to be 0: native shaders
// pass every value they compute through it, so that each instruction is computed as written.
// Without it, a compiler that sees the whole program may rewrite its arithmetic: (a + M) - M
// folded to a, a multiply and an add fused, x * 0 taken for 0.
float polyasm_kept(float v) {
    return uintBitsToFloat(floatBitsToUint(v) | polyasm_zero);
}

