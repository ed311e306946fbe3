// expect: NV2A003 NV2A006 NV2A008 NV2A001
mov r0, v0movv r1, v0 ; CR
mov r0, v0
mov r13, v0 // CRLF
mov r0.yx, v0mov r0 v0