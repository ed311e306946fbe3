# expect: PP021
sel.v1 $0 $1 $2
