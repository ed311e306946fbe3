// expect: NV2A005 NV2A005 NV2A005 NV2A006 NV2A006 NV2A006 NV2A006 NV2A006
mov r13, v0
mov r0, v16
mov r0, c192
mov r0, c[200]
mov r0, c[A0+192]
mov r0, iPosition
mov oPso, v0
mov r0, d[3]
