// A mov runs on whichever unit is free.
mov r5.xyz, r4 + mov oT0.xy, v1
mov oT0.xy, v1 + mov r5.xyz, r4
mov oT1, v3 + rcc r1.x, r12.w
arl a0, r2.x + mov oD0.w, v4.z
dp3 r7.w, r6, r6 + mov oT3.xyz, r5
mov r2, v0 + mov r1, v0
mov r1, v0 + mov oD0, v0.x
mov oD0, v0.x + mov r1, v0
mov r1.yw, -c5.zw + mov c7.xz, v2.wzyx
mov oD0, v0 + mov r1, v0 + mov r5.xyz, v0
