# expect: PP005 PP005
add.v1 $0 $1
const0 1.0 2.0 3.0 4.0 5.0
