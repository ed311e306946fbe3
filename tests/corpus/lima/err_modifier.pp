# expect: PP004 PP004 PP004
add_x2.v1 $0 $1 $2
mov_sat_pos.v0 $0 $1
rcp_sat.s2 $0.xy $1.x
