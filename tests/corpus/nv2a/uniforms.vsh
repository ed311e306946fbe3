// Uniforms name constant registers: a vector is one, a matrix4 four.
#scale vector 12
#model matrix4 96
mul r0, v0, #scale
dp4 oPos.x, r0, #model[0]
dp4 oPos.y, r0, #model[1]
dp4 oPos.z, r0, #model[ 2 ]
dp4 oPos.w, r0, #model[3]
mov oD0, #scale[0]
