# expect: PP010 PP010 PP010
mov.v0 $0 $1.xyzwx
mov.v0 $0.yx $1
mov.s0 $0 $1.x
