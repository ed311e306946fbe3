// Copies the clip-space position, the colour and the first texture coordinates through.
mov oPos, iPos
mov oD0, iDiffuse
mov oT0, iTex0
