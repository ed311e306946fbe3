// expect: NV2A015 NV2A015
// One v index per instruction: nv2avsh reads v1 twice here, silently.
add r0, v0, v1
mov oT0, v0 + rcp r1.x, v1.x
