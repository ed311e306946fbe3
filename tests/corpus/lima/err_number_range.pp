# expect: PP011 PP011 PP011
load.v $0 64
load.u 65536
sync, load.v ^discard 0, texld 0 bias(0.03), mov.v0 $0 ^texture
