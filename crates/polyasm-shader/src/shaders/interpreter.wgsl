// The shader-asm interpreter as a WGSL compute shader: one invocation per pixel runs the whole
// program from the bytecode in `program` and writes the pixel's RGBA8 colour to `pixels`.
//
// Bindings (group 0):
//   0  uniform             Frame: the instruction count, the image size, the time, the alpha mode
//   1  storage, read       program: two u32 words per instruction (docs/formats/shader-bytecode.md)
//   2  storage, read_write pixels: one u32 per pixel, R in the low byte, rows from the top
//
// Dispatch ceil(width / 8) x ceil(height / 8) workgroups.

struct Frame {
    // Instructions to run; never more than `program` holds.
    count: u32,
    width: u32,
    height: u32,
    // `t`, in seconds.
    time: f32,
    // 1: alpha is `c.w`; 0: alpha is 255.
    alpha_keep: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> program: array<u32>;
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
// when it is in [0, len), else `len` (negative, too large, NaN: no comparison holds).
fn pick(v: f32, len: u32) -> u32 {
    if v >= 0.0 && v < f32(len) {
        return u32(v);
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

// Runs instruction `i`.
fn step(i: u32) {
    let word = program[2u * i];
    // Fields past the register file are clamped so that no index leaves it; the host only
    // uploads programs whose fields are in range.
    let a = min((word >> 8u) & 0xffu, LAST_REGISTER);
    let b = min((word >> 16u) & 0xffu, LAST_REGISTER);
    let c = min(word >> 24u, LAST_REGISTER);
    // The operands are read and the result written outside the switch, once each: the cases
    // only choose, so a driver that runs every case under a mask pays little for them.
    let va = r[a];
    let vb = r[b];
    let vc = r[c];
    var value = va.x;
    var destination = b;
    var lane = 0u;
    // Every pixel runs the same instruction, so the branch is uniform.
    switch word & 0xffu {
        case 0u: { value = va.x + vb.x; destination = c; }
        case 1u: { value = va.x * vb.x; destination = c; }
        case 2u: { value = -va.x; }
        case 3u: { value = 1.0 / va.x; }
        case 4u: {}
        case 5u: {}
        case 6u: { value = va.y; }
        case 7u: { value = va.z; }
        case 8u: { value = va.w; }
        case 9u: { value = vb.x; destination = a; }
        case 10u: { value = vb.x; destination = a; lane = 1u; }
        case 11u: { value = vb.x; destination = a; lane = 2u; }
        case 12u: { value = vb.x; destination = a; lane = 3u; }
        case 13u: { value = bitcast<f32>(program[2u * i + 1u]); destination = a; }
        case 14u: {
            let k = pick(vc.x, 4u);
            value = select(0.0, va[min(k, 3u)], k < 4u);
        }
        case 15u: {
            let k = pick(vc.x, 4u);
            if k >= 4u {
                return;
            }
            value = vb.x;
            destination = a;
            lane = k;
        }
        case 16u: { value = sign_of(va.x); }
        case 17u: {
            let k = pick(vb.x, MEMORY_CELLS);
            value = select(0.0, memory[min(k, MEMORY_CELLS - 1u)], k < MEMORY_CELLS);
            destination = a;
        }
        case 18u: {
            let k = pick(vb.x, MEMORY_CELLS);
            if k < MEMORY_CELLS {
                memory[k] = va.x;
            }
            return;
        }
        // Unknown opcodes do nothing.
        default: { return; }
    }
    r[destination][lane] = value;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= frame.width || id.y >= frame.height {
        return;
    }
    // `id.y` counts rows from the top, `pc` from the bottom.
    let y = frame.height - 1u - id.y;
    r[PC] = vec4<f32>(f32(id.x) + 0.5, f32(y) + 0.5, 0.0, 0.0);
    r[TIME] = vec4<f32>(frame.time, 0.0, 0.0, 0.0);
    r[SIZE] = vec4<f32>(f32(frame.width), f32(frame.height), 0.0, 0.0);

    // Never past the end of the buffer, whatever the count says.
    let count = min(frame.count, arrayLength(&program) / 2u);
    // Four instructions an iteration keep the trip count low: some drivers (llvmpipe) leave
    // loops after 65535 iterations in all.
    var i = 0u;
    for (; i + 4u <= count; i += 4u) {
        step(i);
        step(i + 1u);
        step(i + 2u);
        step(i + 3u);
    }
    for (; i < count; i++) {
        step(i);
    }

    let colour = r[COLOR];
    let alpha = select(255u, channel(colour.w), frame.alpha_keep != 0u);
    pixels[id.y * frame.width + id.x] = channel(colour.x)
        | (channel(colour.y) << 8u)
        | (channel(colour.z) << 16u)
        | (alpha << 24u);
}
