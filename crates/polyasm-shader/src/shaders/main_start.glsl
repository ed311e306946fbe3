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

