// r12 reads the oPos written so far.
mov oPos, v0
mul oPos.xyz, r12.xyz, c58.xyz
rcp r1.x, r12.w
mul oPos.xyz, r12, r1.x
