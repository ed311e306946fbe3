// %matmul4x4 expands to four dp4s, %norm3 to dp3, rsq, mul.
#mvp matrix4 96
%matmul4x4 oPos iPos #mvp
%norm3 r0 iNormal r1
mov oD0.xyz, r0
