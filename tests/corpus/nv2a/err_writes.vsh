// expect: NV2A009 NV2A009 NV2A009 NV2A009 NV2A009 NV2A009 NV2A009
mov r12, v0
mov v1, r0
mov iNormal, r0
mov c[A0+4], r0
mov -r0, v0
mov a0, v0.x
arl r0, v0.x
