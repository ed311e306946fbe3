// The same operation on the same inputs writes a temporary and an output at once.
dp4 oPos.z, r6, c98 + dp4 r0.x, r6, c98
mad oPos.xyz, r12.xyz, r1.x, c1.xyz + mad r11.xy, r12.xyz, r1.x, c1.xyz
rcp oPos.x, r12.x + rcp r1.x, r12.x + mov r0.x, r12.x
mov r1.x, r0 + mov oPos, r0
