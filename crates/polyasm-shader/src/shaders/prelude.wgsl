struct Frame {
    // Instructions to run; never more than `program` holds. Native shaders do not read it.
    count: u32,
    width: u32,
    height: u32,
    // `t`, in seconds.
    time: f32,
    // 1: alpha is `c.w`; 0: alpha is 255.
    alpha_keep: u32,
    // 0. Native shaders read it (`kept`); the interpreter does not.
    zero: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(2) var<storage, read_write> pixels: array<u32>;

// Register numbers of the inputs and the output (ops.rs); the last register is v2's `z`,
// which no program writes, so it stays 0.
const PC: u32 = 16u;
const TIME: u32 = 17u;
const SIZE: u32 = 18u;
const COLOR: u32 = 19u;
const LAST_REGISTER: u32 = 20u;

// Every register is a vec4, scalars in `.x`; a `var<private>` starts at zero in every
// invocation.
var<private> r: array<vec4<f32>, 21>;

// v2's per-pixel memory (`readMemory`, `writeMemory`), zero at the start like the registers.
const MEMORY_CELLS: u32 = 64u;
var<private> memory: array<f32, 64>;

// The component (`len` 4) or memory cell (`len` 64) that the index value `v` picks: floor(v)
// when it is in [0, len), else `len` (negative, too large, infinite, NaN). Read from the bits,
// as a compiler may assume no NaN in comparisons and NaN's conversion to u32 is not defined:
// for a value without its sign bit the bits order as the values do, NaN above every number,
// and a negative one (sign bit set) is above them all; -0 picks 0, as 0 does.
fn pick(v: f32, len: u32) -> u32 {
    var bits = bitcast<u32>(v);
    if bits == 0x80000000u {
        bits = 0u;
    }
    if bits < bitcast<u32>(f32(len)) {
        return u32(bitcast<f32>(bits));
    }
    return len;
}

// v2's `sign`: 1 above 0, -1 below, +0 for both zeros and NaN; read from the bits, so no
// compiler's assumption about NaN changes it.
fn sign_of(v: f32) -> f32 {
    let bits = bitcast<u32>(v);
    let magnitude = bits & 0x7fffffffu;
    if magnitude == 0u || magnitude > 0x7f800000u {
        return 0.0;
    }
    return select(1.0, -1.0, bits >= 0x80000000u);
}

// A channel in 8 bits: NaN gives 0, otherwise clamped to [0, 1] and `x * 255` rounded half away
// from zero, exactly as on the CPU. NaN is found from its bits, which no compiler folds away.
fn channel(v: f32) -> u32 {
    if (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u {
        return 0u;
    }
    let y = min(max(v, 0.0), 1.0) * 255.0;
    let whole = floor(y);
    return u32(whole) + select(0u, 1u, y - whole >= 0.5);
}


// v2's `getComponent`: component `index` of `v`; 0 when `index` picks none.
fn component(v: vec4<f32>, index: f32) -> f32 {
    let k = pick(index, 4u);
    return select(0.0, v[min(k, 3u)], k < 4u);
}

// v2's `setComponent`: component `index` of register `reg` becomes `value`; nothing changes
// when `index` picks none.
fn set_component(reg: u32, index: f32, value: f32) {
    let k = pick(index, 4u);
    if k < 4u {
        r[reg][k] = value;
    }
}

// v2's `readMemory`: memory cell `index`; 0 when `index` picks none.
fn read_memory(index: f32) -> f32 {
    let k = pick(index, MEMORY_CELLS);
    return select(0.0, memory[min(k, MEMORY_CELLS - 1u)], k < MEMORY_CELLS);
}

// v2's `writeMemory`: memory cell `index` becomes `value`; nothing changes when `index` picks
// none.
fn write_memory(index: f32, value: f32) {
    let k = pick(index, MEMORY_CELLS);
    if k < MEMORY_CELLS {
        memory[k] = value;
    }
}

// `v` as it is, but through `frame.zero`, which the compiler cannot know to be 0: native
// shaders pass every value they compute through it, so that each instruction is computed as
// written. Without it, a compiler that sees the whole program may rewrite its arithmetic:
// `(a + M) - M` folded to `a`, a multiply and an add fused, `x * 0` taken for 0.
fn kept(v: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(v) | frame.zero);
}

