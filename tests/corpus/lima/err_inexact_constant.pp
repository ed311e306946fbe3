# expect: PP012 PP012
# Mesa's clear program as its comment prints it: -1.677734 is not a binary16 value.
stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734
mov.v0 $0 ^const1, const1 0.1 0 0 0
