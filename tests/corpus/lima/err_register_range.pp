# expect: PP007 PP007 PP007
mov.v0 $0 $12
mov.v0 $16 $1
mov.v0 $0 ^nothing
