// expect: NV2A020 NV2A020
// add/sub/mad read their last source through slot C, which the ILU shares.
mad oT0, r1, c7, r2 + rcp r1.w, r2.x
add r3, r1, v0 + rcp r1.x, -v0.x
