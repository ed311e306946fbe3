// expect: NV2A016 NV2A016
mul r0, c1, c2
#a vector 3
#b vector 4
mad r0, #a, r1, #b
