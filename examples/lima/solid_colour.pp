# A constant colour: every fragment is opaque black, (0, 0, 0, 1).
#
#   polyasm run -t lima examples/lima/solid_colour.pp
#   polyasm run -t lima examples/lima/solid_colour.pp --size 64x64 -o black.png
#
# This is the seed's second example with the destination written first. The colour lives
# in the instruction itself: `const0` holds four binary16 numbers, (1, 0, 0, 0), and the
# swizzle `.yyyx` picks lanes y, y, y, x of it, giving (0, 0, 0, 1). The vector multiplier's
# `mov` copies that into $0, the register that holds the fragment's colour when the program
# stops. One instruction does everything, so it also carries `stop`.

stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0
