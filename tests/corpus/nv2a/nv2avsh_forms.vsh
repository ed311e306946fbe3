// expect: NV2A030 NV2A030 NV2A031 NV2A032 NV2A032
// Forms nv2avsh assembles: each gives its words, with a warning where it misleads.
#mvp matrix4 96
mov r6.xyA, r0                      // mixed letters: the mask .xyw
mov oT0.xy, v0.bw                   // the swizzle .zw
arl A0.w, r2.x                      // arl a0, r2.x: a0 has one lane
%matmul4x4 oPos iPos #mvp[0]        // row 0 names the whole matrix
mul r1, v0, c0 + rcp r1.x, v0.x     // both units write r1
mov r1.xy, r2 + rcp oFog.x, r2.x    // the MAC writes r1 next to an ILU operation
