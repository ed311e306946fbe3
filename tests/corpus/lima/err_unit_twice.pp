# expect: PP018 PP018
mul.v0 $0 $1 $2, mov.v0 $3 $4
load.u 0, load.t 1
