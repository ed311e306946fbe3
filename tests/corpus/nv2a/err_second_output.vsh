// expect: NV2A018 NV2A018
// One o/c output port per instruction; nv2avsh silently drops the oFog write.
dp4 oPos.x, v0, c0 + rcp oFog.x, v0.x
mov oPos, v0 + mov oD0, v0
