// expect: NV2A002
mov oPos, v0
mov r0, v0 /* a comment that never ends
mov oD0, v3
