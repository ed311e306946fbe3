// Copies position and colour through unchanged.
mov oPos, v0
mov oD0, iDiffuse
mov oT0.xy, iTex0
