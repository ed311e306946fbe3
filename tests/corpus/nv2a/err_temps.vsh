// expect: NV2A021 NV2A021
dp4 r0.x, v0, c0 + dp4 r2.y, v0, c0
mul r2, r1, c0 + mov r5, v4
