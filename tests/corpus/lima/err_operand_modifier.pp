# expect: PP025 PP025
mul.s2 $0 $1.x -$2
store.t 0.x abs($1.x)
