    let colour = r[COLOR];
    let alpha = select(255u, channel(colour.w), frame.alpha_keep != 0u);
    pixels[id.y * frame.width + id.x] = channel(colour.x)
        | (channel(colour.y) << 8u)
        | (channel(colour.z) << 16u)
        | (alpha << 24u);
}
