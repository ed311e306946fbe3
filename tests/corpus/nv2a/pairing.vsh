// One MAC and one ILU operation per instruction, joined by `+` on either line.
mul r2, r1, c0 + mov oD1, v4
mov oD0, v3
+ rcp r1.w, r1.w
dp4 r3.x, r0, c1 +
    rsq r1.x, r0.w
add r4, r0, v2.x // a comment before the `+` line
// and a comment line in between
+ rcp r1.y, v2.x
mad oT0, r1, c7, r2.x + rcp r1.w, r2.x
