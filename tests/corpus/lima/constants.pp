# fp16 constants: decimals binary16 holds exactly, infinities, raw bits for a NaN.
mov.v0 $0 ^const0, const0 1 -0.0 65504 0.000060975551605224609375
mov.v0 $1 ^const1, const1 inf -inf 0x7e00 6.103515625e-5
stop, add.v1 $0 ^const0 ^const1, const0 0.1875 -2.5e2 .5 1e3, const1 0.0999755859375 0 0 0
