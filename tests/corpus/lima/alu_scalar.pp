# The scalar multiplier (.s0) and adder (.s1).
mul.s0 $0.x $1.y $2.z
mul_x4.s0 $0.y -$1.y abs($2.z)
max_pos.s0 $0.z $1.w ^const1.x, const1 1.0 2.0 3.0 4.0
mul.s0 ^s0 $2.x $2.y, add.s1 $2.w ^s0 $2.z
mov.s0 ^s0 $0.x, sel.s1 $1.x $2.x $3.x
gt.s1 $2.z -$2.x $3.y
sync, dFdy_sat.s1 $0.x $1.x $1.x
stop, ceil.s1 $0.w $0.w
