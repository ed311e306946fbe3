# expect: PP013
stop, mov.v0 $0 ^const0, const0 65536.0 0 0 0
