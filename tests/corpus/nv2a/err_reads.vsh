// expect: NV2A010 NV2A010 NV2A010
mov r0, oPos
mov r0, oD0
add r0, a0, v0
