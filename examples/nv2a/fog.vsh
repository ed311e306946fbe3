// Linear fog: transforms the position, takes the eye-space depth d and writes
// the fog factor
//
//   oFog.x = clamp((end - d) * scale, 0, 1),  scale = 1 / (end - start)
//
// so 1 (no fog) at d <= start and 0 (all fog) at d >= end. The vertex colour
// and first texture coordinates pass through.
//
// Inputs:    v0 (iPos)      object-space position (x, y, z, 1)
//            v3 (iDiffuse)  vertex colour (r, g, b, a)
//            v9 (iTex0)     texture coordinates, passed through
// Constants: c96-c99        #mvp, model-view-projection matrix rows
//            c100           #view_z, row 2 of the model-view matrix: iPos . row
//                           is the eye-space depth (positive in front of the eye)
//            c101           #fog = (end, scale, 0, 1)
// Outputs:   oPos, oFog.x, oD0, oT0
// Temps:     r0 depth, r1 fog factor

#mvp    matrix4 96
#view_z vector 100
#fog    vector 101

%matmul4x4 oPos iPos #mvp

// Eye-space depth.
dp4 r0.z, iPos, #view_z

// f = (end - d) * scale
sub r1.x, #fog.x, r0.z
mul r1.x, r1.x, #fog.y

// Clamp to [0, 1] with the constant's 0 and 1 lanes.
max r1.x, r1.x, #fog.z
min oFog.x, r1.x, #fog.w

mov oD0, iDiffuse
mov oT0, iTex0
