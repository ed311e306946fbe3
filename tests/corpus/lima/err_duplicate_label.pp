# expect: PP015
again:
mov.v0 $0 $1
again:
stop, branch again
