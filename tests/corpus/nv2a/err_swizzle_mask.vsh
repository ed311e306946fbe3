// expect: NV2A007 NV2A007 NV2A008 NV2A008 NV2A008
mov r0, v0.xyzwx
mov r0, v0.xq
mov r0.yx, v0
mov r0.xx, v0
arl a0.yx, v0.x
