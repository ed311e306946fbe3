# A lit surface: diffuse colour * max(N . L, 0) + ambient, with an opaque alpha.
#
#   polyasm run -t lima examples/lima/lit_surface.pp --varying 1=0,0,2 \
#       --uniform 0=0.6,0,0.8 --uniform 1=0.8,0.6,0.4 --uniform 2=0.1,0.1,0.1
#
# Inputs:
#   varying 1   the surface normal N, interpolated from the vertices, so no longer of unit
#               length: the program normalises it
#   uniform 0   L, the direction towards the light, of unit length
#   uniform 1   the diffuse colour
#   uniform 2   the ambient colour
#
# Lighting follows Lambert's law: the light a surface receives is proportional to the
# cosine of the angle between its normal and the light, N . L / |N| for a unit L, and a
# surface facing away (a negative cosine) receives none. The ambient term lights every side.

# N . N as a dot product: the varying unit fetches N into $1.xyz, the vector multiplier
# squares it lane by lane into ^v0 (no register is written), and the adder's sum3 adds
# lanes x, y and z into $2.x. The complex unit runs last in the instruction, so it already
# sees $2.x and turns it into 1 / |N| in $2.y.
load.v $1.xyz 1, mul.v0 ^v0 $1 $1, sum3.v1 $2.x ^v0, rsqrt.s2 $2.y $2.x

# N . L the same way: the load unit puts uniform 0 (L) on ^uniform, the multiplier
# multiplies it with N, sum3 adds the products into $2.z.
load.u 0, mul.v0 ^v0 $1 ^uniform, sum3.v1 $2.z ^v0

# The cosine, (N . L) * (1 / |N|), on the scalar multiplier, with the `_pos` output
# modifier doing max(..., 0) for free: $2.w = max(N . L / |N|, 0). Beside it, the vector
# multiplier keeps the ambient colour (uniform 2) in $3, since one instruction loads one
# uniform and the next one needs the diffuse colour.
load.u 2, mov.v0 $3 ^uniform, mul_pos.s0 $2.w $2.z $2.y

# The colour: the multiplier scales the diffuse colour (uniform 1) by the cosine in every
# lane, the vector adder adds the ambient term into $0.xyz, and in the same stage the
# scalar adder sets the alpha $0.w to 1 from the instruction's constant.
stop, load.u 1, mul.v0 ^v0 ^uniform $2.wwww, add.v1 $0.xyz ^v0 $3, mov.s1 $0.w ^const0.x, const0 1.0 0.0 0.0 0.0
