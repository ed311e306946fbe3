# expect: PP001 PP001 PP001
mov.v0 $0 abs($1
L1: stop
mov.v0 $0 $1 ;
