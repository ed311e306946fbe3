# Copy a texture to the screen: the colour is texture 0 read at varying 0.
#
#   polyasm run -t lima examples/lima/texture_copy.pp --size 256x256 --texture 0=picture.png -o copy.png
#   polyasm -t lima examples/lima/texture_copy.pp -o texture_copy.bin
#   polyasm disasm -t lima --syntax mesa texture_copy.bin
#
# This is the seed's texture example with the destination first, written the way Mesa's
# driver writes its tile-reload program, so it assembles to exactly the same six words:
#
#   000005e6 f1003c20 00000000 39001000 00000e4e 000007cf
#
# All of it is one instruction, whose units run in order:
#
# - `load.v $1 0.xy` is the varying unit: it fetches varying 0 as a vec2, the (u, v)
#   texture coordinate, into $1. Its result is also the texture unit's coordinate in this
#   same instruction. (The seed writes the fetch into `^discard`, which feeds the texture
#   unit without writing a register; Mesa keeps the copy in $1, and so does this program.)
# - `texld 0` samples texture 0 at that coordinate; the colour appears on `^texture`.
# - `mov.v0 $0 ^texture` copies the texel into $0, the output colour.
# - `sync` is set because the instruction fetches a texture, and `stop` ends the program.

stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture
