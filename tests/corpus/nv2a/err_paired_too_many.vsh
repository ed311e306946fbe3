// expect: NV2A023 NV2A023
mul r0, v0, c0 + rcp r1.x, v0.x + mov oPos, v0
mov r0, v0 + mov r1, v0 + mov r2, v0 + mov r3, v0
