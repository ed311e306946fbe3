// Pass-through: copies the vertex's position, diffuse colour and first texture
// coordinates to the outputs unchanged. The position must already be in clip
// space (x, y, z, w); nothing is transformed.
//
// Inputs:    v0 (iPos)      clip-space position
//            v3 (iDiffuse)  vertex colour (r, g, b, a)
//            v9 (iTex0)     texture coordinates, all four lanes
// Constants: none
// Outputs:   oPos, oD0, oT0

mov oPos, iPos
mov oD0, iDiffuse
mov oT0, iTex0
