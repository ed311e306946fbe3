# expect: PP008 PP008
stop, mov.v0 $6 $11
