// Per-vertex lighting with one directional light: a diffuse and a specular
// (Blinn-Phong) term, computed by LIT.
//
//   N        = normalise(normal)
//   lit      = LIT(N . L, N . H, power) = (1, max(N . L, 0), spec, 1),
//              spec = (N . H)^power when N . L > 0 and N . H > 0, else 0
//   oD0.rgb  = ambient + max(N . L, 0) * diffuse;  oD0.a = diffuse.a
//   oD1      = spec * specular
//
// Inputs:    v0 (iPos)      object-space position (x, y, z, 1)
//            v2 (iNormal)   normal (x, y, z), any nonzero length
//            v9 (iTex0)     texture coordinates, passed through
// Constants: c96-c99        #mvp, model-view-projection matrix rows
//            c100           #light_dir, unit direction towards the light (x, y, z)
//            c101           #half_vector, unit half vector between the light
//                           and eye directions (x, y, z)
//            c102           #shininess, the specular power in w
//            c103           #diffuse, material diffuse * light colour; a = alpha
//            c104           #specular, material specular * light colour
//            c105           #ambient, ambient colour (r, g, b)
// Outputs:   oPos, oD0 (diffuse), oD1 (specular), oT0
// Temps:     r0 normal, r1 scratch and LIT result, r2 LIT input, r3 diffuse term

#mvp         matrix4 96
#light_dir   vector 100
#half_vector vector 101
#shininess   vector 102
#diffuse     vector 103
#specular    vector 104
#ambient     vector 105

%matmul4x4 oPos iPos #mvp

// r0.xyz = N / |N|: dp3 r1.x, N, N; rsq r1.w, r1.x; mul r0.xyz, N, r1.w
%norm3 r0 iNormal r1

// LIT's input: x = N . L, y = N . H, w = power (z is not read).
dp3 r2.x, r0, #light_dir
dp3 r2.y, r0, #half_vector
mov r2.w, #shininess

// The texture coordinates go out on the MAC while the ILU runs LIT; a paired
// ILU always writes r1.
mov oT0, iTex0 + lit r1, r2

// Diffuse: ambient + max(N . L, 0) * diffuse, keeping the material's alpha.
// (One constant register per instruction, so the multiply and the add are apart.)
mul r3.xyz, r1.y, #diffuse
add oD0.xyz, r3, #ambient
mov oD0.w, #diffuse

// Specular: (N . H)^power * specular, or 0 when the light is behind the surface.
mul oD1, r1.z, #specular
