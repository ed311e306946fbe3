// Model-view-projection transform: oPos = MVP * position, with the vertex
// colour and first texture coordinates passed through.
//
// Inputs:    v0 (iPos)      object-space position (x, y, z, 1)
//            v3 (iDiffuse)  vertex colour (r, g, b, a)
//            v9 (iTex0)     texture coordinates, all four lanes
// Constants: c96-c99        #mvp, the model-view-projection matrix, one row per
//                           register: row N dotted with the position gives
//                           lane N of oPos
// Outputs:   oPos, oD0, oT0

#mvp matrix4 96

// Four dp4s: oPos.x = iPos . row 0, oPos.y = iPos . row 1, and so on.
%matmul4x4 oPos iPos #mvp

mov oD0, iDiffuse
mov oT0, iTex0
