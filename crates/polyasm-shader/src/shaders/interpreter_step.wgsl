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
        case 14u: { value = component(va, vc.x); }
        // `set_component`, with the write left to the one after the switch.
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
        case 17u: { value = read_memory(vb.x); destination = a; }
        case 18u: {
            write_memory(vb.x, va.x);
            return;
        }
        // Unknown opcodes do nothing.
        default: { return; }
    }
    r[destination][lane] = value;
}

