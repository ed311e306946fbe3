// expect: NV2A003 NV2A003 NV2A004 NV2A004 NV2A004
dp5 r0, v0, c0
nop
mad r0, v0, c0
mov r0, v0, v1
rcp r1
