# expect: PP027 PP027 PP027
# Field values no compiler writes: load sources 1 and 2, and a whole register stored to a
# one-float index (alignment 3). They encode, with a warning.
load.u1 5, store.t 2.y $1
stop, load.u2 3.zw
