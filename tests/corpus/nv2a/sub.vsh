// sub is add with the second source (slot C) negated.
sub r0, v0, c4
sub r1, r0, -c4.x
sub oPos, r0, r1 + rcp r1.x, -r1
