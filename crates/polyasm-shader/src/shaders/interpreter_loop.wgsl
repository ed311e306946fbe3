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

