# SYNTAX TEST "source.polyasm.lima" "Lima, Mesa's disassembly: every kind of token"
@     0: load.v ^discard 0, texld bias000 0, mov.v0 $0 ^texture , sync, stop
# <-------- constant.other.address.polyasm
#                                 ^^^^ support.function.polyasm
#                                     ^^^ constant.numeric.integer.hexadecimal.polyasm
#                         ^ punctuation.separator.comma.polyasm
#                                                                 ^^^^ keyword.operator.mnemonic.polyasm
#                                                                       ^^^^ keyword.operator.mnemonic.polyasm
@     6: load.v ^discard.xy 0.xy, texld.b bias000 2 $1.x, mov.v0 $1 ^texture , sync, stop
#                                      ^^ storage.modifier.opcode.polyasm
@    32: mul.sat.v0 $2.xyz -$1.xxxx<<1 abs(^const0.wzyx), const0 0.500000 1.000000 2.000000 -3.000000, stop
#        ^^^ keyword.operator.mnemonic.polyasm
#           ^^^^ storage.modifier.opcode.polyasm
#               ^^^ storage.modifier.unit.polyasm
#                                  ^^ keyword.operator.shift.polyasm
#                                    ^ constant.numeric.integer.decimal.polyasm
#                                                                                           ^^^^^^^^^ constant.numeric.float.polyasm
@    37: max.pos.s1 $1.z $0.x $0.y, load.perspective.w.v $2.xy 0.zw
#        ^^^ keyword.operator.mnemonic.polyasm
#           ^^^^ storage.modifier.opcode.polyasm
#               ^^^ storage.modifier.unit.polyasm
#                                       ^^^^^^^^^^^^^^ storage.modifier.opcode.polyasm
#                                                     ^^ storage.modifier.unit.polyasm
@    41: load..u1 5, store.t 2.y $1
#            ^^^^ storage.modifier.unit.polyasm
@    45: atan_pt2.s2 .sat$0.w $5.yyxw, branch.lt $0.x $1.y 4
#                    ^^^^ storage.modifier.opcode.polyasm
#                        ^^ variable.language.register.polyasm
#                                      ^^^^^^ keyword.operator.mnemonic.polyasm
#                                            ^^^ storage.modifier.opcode.polyasm
#                                                          ^ constant.numeric.integer.decimal.polyasm
@    50: mov.v0 $0 ^const0.xxxx , const0 nan -nan 0.000000 -1.677734
#                                        ^^^ constant.language.polyasm
#                                            ^^^^ constant.language.polyasm
