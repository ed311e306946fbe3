// expect: NV2A019 NV2A019
mul r0, r1, c0 + dp4 r1, r2, c0
rcp r1.x, v0.x + rsq r1.y, v0.x
