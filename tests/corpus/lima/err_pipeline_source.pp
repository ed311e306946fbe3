# expect: PP019 PP019
mul.v0 ^v0 $1 $2, add.v1 $0 $1 ^v0
mov.s0 ^s0 $0.x, mov.v1 $1 ^s0
