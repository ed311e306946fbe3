# Labels, conditional and unconditional branches, discard.
top:
load.v $0.x 0.x
branch_ge $0.x $1.y keep
branch_lt $0.x ^const0.x top, const0 0.5 0 0 0
stop, discard
keep:
branch +4                     # a relative word offset
branch_nv $0.x $0.x end       # never taken
stop, mov.v0 $0 $1
end:
