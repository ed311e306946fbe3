# The vector multiplier (.v0) and adder (.v1).
mul.v0 $0 $1 $2
mul_x2_sat.v0 $0.xyz -$1.x abs(^const0.wzyx), const0 0.5 1.0 2.0 -3.0
mul_d16_pos.v0 $1 $2 $3
not.v0 $0 $1
and.v0 $0 $1 $2
ne_int.v0 $0 $1 $2
min.v0 $0.w $1 $2.yzwx
mul.v0 ^v0 $1 $2, add.v1 $0 ^v0.xxyy $3       # the product feeds the adder
mov.s0 ^s0 $0.x, sel.v1 $2 $1 $3             # ^s0 is sel's condition
sum3.v1 $0.x $1
sum4.v1 $0.y $1
sync, dFdx.v1 $0 $1 $1
fract.v1 $0 $1, floor.s1 $1.x $2.x
stop, mov.v1 ^discard $1
