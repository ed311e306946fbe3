// expect: NV2A022
// A paired ILU operation always writes r1; nv2avsh warns and encodes r1.
dp4 oPos.x, r6, c96 + rsq r10.x, r2.x
