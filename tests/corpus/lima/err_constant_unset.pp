# expect: PP022
mov.v0 $0 ^const0
stop, mov.v0 $1 ^const1.x, const1 1 2 3 4
