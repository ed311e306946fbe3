    vec4 colour = r[COLOR];
    float alpha = polyasm_alpha_keep != 0u ? polyasm_channel(colour.w) : 1.0;
    polyasm_color = vec4(
        polyasm_channel(colour.x),
        polyasm_channel(colour.y),
        polyasm_channel(colour.z),
        alpha
    );
}
