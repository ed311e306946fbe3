# expect: PP002 PP005 PP014 PP010 PP008
# Every error of a file is reported, in order.
qqqq.v0 $0 $1
mov.v0 $0 $1 $2
branch nowhere
mov.v0 $7.xx $1
