// Vertex state programs write constants: cN, c[N], uniforms.
#light vector 20
#bones matrix4 100
mov c5, v0
dph c[15].xy, v4, c10
mov #light, v1
mov #bones[2], v2
