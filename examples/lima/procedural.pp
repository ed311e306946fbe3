# A procedural pattern: a checkerboard of cream and slate squares, eight to a side, shaded
# by concentric rings around the centre of the screen.
#
#   polyasm run -t lima examples/lima/procedural.pp --size 512x512 -o procedural.png
#
# When rendering, varying 0 is the pixel's (u, v), from 0 at the bottom left to 1 at the
# top right. With a square 1/8 wide:
#
#   checker:  the square is cream where exactly one of floor(8u) and floor(8v) is odd.
#             floor(8u) is odd exactly where fract(4u) >= 1/2, so no floor is needed.
#   rings:    d = |(u, v) - (1/2, 1/2)|, the distance from the centre, and the brightness
#             b = 3/4 + cos(6 d turns) / 4 goes from 1/2 to 1 and back six times per unit
#             of distance.
#   colour:   (square colour * b, 1).

# fract(4u), fract(4v): the varying unit fetches (u, v) into $1.xy, the multiplier scales it
# by const0.x = 4 into ^v0, and the adder keeps the fractional part in $2.xy.
load.v $1.xy 0.xy, mul.v0 ^v0 $1 ^const0.xxxx, fract.v1 $2.xy ^v0, const0 4.0 0.5 0.0 0.0

# Odd columns and rows: $3.xy = (fract >= 1/2), 1.0 or 0.0 per lane. Beside it, in the
# adder stage, the offset from the centre: $4.xy = (u - 1/2, v - 1/2); $4.zw stay 0.
ge.v0 $3.xy $2 ^const0.yyyy, add.v1 $4.xy $1 -^const0.yyyy, const0 4.0 0.5 0.0 0.0

# The distance: square the offset lane by lane, sum3 adds the squares into $5.x (lane z
# is 0), and the complex unit, last in the instruction, takes the square root into $5.y.
mul.v0 ^v0 $4 $4, sum3.v1 $5.x ^v0, sqrt.s2 $5.y $5.x

# The ring phase 6 d on the scalar multiplier into $5.z, then its cosine on the complex
# unit, which takes its argument in turns (whole turns, not radians): $5.w = cos(6 d turns).
mul.s0 $5.z $5.y ^const0.x, cos.s2 $5.w $5.z, const0 6.0 0.0 0.0 0.0

# The brightness b = cos / 4 + 3/4: the scalar multiplier's product feeds the scalar adder
# directly through ^s0, and the sum replaces the cosine in $5.w.
mul.s0 ^s0 $5.w ^const0.x, add.s1 $5.w ^s0 ^const0.y, const0 0.25 0.75 0.0 0.0

# The square's colour: xor of the odd flags is 1.0 on cream squares. It goes only to ^s0,
# which is the condition of `sel`: $0 = cream (const0) where it is not 0, else slate
# (const1). Both colours have alpha 1.
xor.s0 ^s0 $3.x $3.y, sel.v1 $0 ^const0 ^const1, const0 1.0 0.875 0.625 1.0, const1 0.125 0.25 0.375 1.0

# Shade the colour by the rings, leaving the alpha in $0.w alone, and stop.
stop, mul.v0 $0.xyz $0 $5.wwww
