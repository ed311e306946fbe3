# Mesa's clear program: the colour comes from the first constant.
stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734375
