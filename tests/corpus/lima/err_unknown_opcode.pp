# expect: PP002 PP002
movv.v0 $0 $1
frobnicate.s2 $0.x $1.x
