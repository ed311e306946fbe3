// Transforms the vertex position by the matrix in c96 to c99 and passes the colour on.
#mvp matrix4 96
%matmul4x4 oPos, iPos, #mvp
mov oD0, iDiffuse
