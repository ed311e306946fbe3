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

