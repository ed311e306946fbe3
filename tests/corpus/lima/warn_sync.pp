# expect: PP023 PP023
load.v ^discard 0.xy, texld 0, mov.v0 $0 ^texture
stop, dFdx.v1 $0 $1 $1
