# expect: PP017 PP017
mov.v0 $0 ^texture, texld 0, load.v ^discard 0.xy, sync
const0 1 2 3 4, mov.v0 $0 ^const0, stop
