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
        case 14u: value = polyasm_component(va, vc.x); break;
        // polyasm_set_component, with the write left to the one after the switch.
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
        case 17u: value = polyasm_read_memory(vb.x); destination = a; break;
        case 18u: polyasm_write_memory(vb.x, va.x); return;
        // Unknown opcodes do nothing.
        default: return;
    }
    r[destination][lane] = value;
}

