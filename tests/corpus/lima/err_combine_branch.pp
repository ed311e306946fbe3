# expect: PP020
rcp.s2 $0.x $1.x, discard
