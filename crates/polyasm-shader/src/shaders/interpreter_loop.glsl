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

