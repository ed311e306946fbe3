// a0-relative constants: c[A0+N], c[N+A0], any case for a0.
arl A0, v1.x
mul r3, v6.x, c[A0+60]
mul r3, v6.x, c[ 60 + A0 ]
add r0.xy, c[a0+121].zw, -c[a0+121].xy
mov oPos, c[A0]
