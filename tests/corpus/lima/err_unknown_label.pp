# expect: PP014 PP014
branch endd
branch_eq $0.x $1.x somewhere
end:
