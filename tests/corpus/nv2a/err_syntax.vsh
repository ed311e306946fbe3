// expect: NV2A001 NV2A001 NV2A001 NV2A001
mov r0 v0
mov r0, c[A0-1]
mov r0, v0, , v1
mov r0, v0 +
