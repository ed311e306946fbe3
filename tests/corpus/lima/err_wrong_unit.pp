# expect: PP003 PP003 PP003
rcp.v0 $0 $1
sum3.s1 $0.x $1.x
mov.q $0 $1
