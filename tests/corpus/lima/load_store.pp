# Uniform and temporary loads, temporary stores, framebuffer reads.
load.u 0, mov.v0 $0 ^uniform
load.u 2.y, mov.s0 $1.x ^u.y
load.t 3.zw+$1.x, mov.v0 $2 ^uniform.zwzw
store.t 5 $2
store.t 6.xy+$0.w $2
store.t 7.z $2.w
fb_color $3
stop, fb_depth $4
