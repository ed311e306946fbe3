# expect: PP026 PP026
add.v1 $0 ^v0 $1
stop, add.s1 $0.x ^s0 $1.x
