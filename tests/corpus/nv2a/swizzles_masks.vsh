// Short swizzles repeat their last lane; rgba is xyzw; masks go in xyzw order.
mov oT0.xy, v0.zw
mov oT0.rg, v0.ba
mad r11.xyw, -r1.yzxw, r7.zxyw, r10
mov oD0.xyz, v3.xwww
mov oD0.w, v3.z
mov oPos, r12.xyz
