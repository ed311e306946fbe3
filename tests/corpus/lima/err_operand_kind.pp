# expect: PP006 PP006
mov.v0 $0 1.5
branch 4
