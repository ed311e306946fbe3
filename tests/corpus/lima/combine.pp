# The complex unit (.s2) in its three forms.
rcp.s2 $0.x $2.w
rsqrt.s2 $4.y abs($0.z)
sin_sat.s2 $4.z $0.w          # arguments in turns
exp2.s2 $1.x -$1.y
rcp_vec.s2 $0.y $1.x          # the vector destination form, one lane
sqrt.s2 $0.xy $1.x            # two lanes: the vector form
atan.s2 $3.xyz $0.y           # atan part 1 writes a vec3
atan2.s2 $3.xyz -$2.x $2.x
atan_scalar_int.s2 $3.w $0.y  # part 1 with a scalar destination
mul.s2 $1 $0.x $2.wzyx        # scalar times vec4
stop, atan_pt2.s2 $1.x $3
