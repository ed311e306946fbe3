# SYNTAX TEST "source.polyasm.lima" "Lima, the proposed syntax: every kind of token"
# a comment to the end of the line
# <- comment.line.number-sign.polyasm punctuation.definition.comment.polyasm
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ comment.line.number-sign.polyasm
top:   # a label
# <--- entity.name.label.polyasm
#  ^ punctuation.definition.label.polyasm
#        ^^^^^^^ comment.line.number-sign.polyasm
stop, sync, load.v ^discard 0.xy, texld 0, mov.v0 $0 ^texture
# <---- keyword.operator.mnemonic.polyasm
#   ^ punctuation.separator.comma.polyasm
#     ^^^^ keyword.operator.mnemonic.polyasm
#           ^^^^ keyword.operator.mnemonic.polyasm
#               ^^ storage.modifier.unit.polyasm
#                  ^^^^^^^^ variable.language.register.pipeline.polyasm
#                           ^ constant.numeric.integer.decimal.polyasm
#                            ^ punctuation.separator.swizzle.polyasm
#                             ^^ constant.other.swizzle.polyasm
#                                 ^^^^^ keyword.operator.mnemonic.polyasm
#                                          ^^^ keyword.operator.mnemonic.polyasm
#                                             ^^^ storage.modifier.unit.polyasm
#                                                 ^^ variable.language.register.polyasm
#                                                    ^^^^^^^^ variable.language.register.pipeline.polyasm
load.v $2.x 7.w+$1.z, load.u 2.y, mul_x2_sat.v0 $2.xyz -$1.xxxx abs(^uniform.wzyx)
#      ^^ variable.language.register.polyasm
#         ^ constant.other.swizzle.polyasm
#           ^ constant.numeric.integer.decimal.polyasm
#             ^ constant.other.swizzle.polyasm
#              ^ keyword.operator.arithmetic.polyasm
#                         ^^ storage.modifier.unit.polyasm
#                                 ^^^ keyword.operator.mnemonic.polyasm
#                                    ^^^^^^^ storage.modifier.opcode.polyasm
#                                                      ^ keyword.operator.negate.polyasm
#                                                               ^^^ support.function.polyasm
#                                                                   ^^^^^^^^ variable.language.register.pipeline.polyasm
load_perspective_w.v $3 -abs($2.zyxw), mov.s0 ^s0 $0.x, sel.v1 $2 ^const0 ^const1, const0 1.0 -0.5 .25 6.103515625e-5, const1 inf -inf 0x7e00 65504
#   ^^^^^^^^^^^^^^ storage.modifier.opcode.polyasm
#                       ^ keyword.operator.negate.polyasm
#                                         ^^^ storage.modifier.unit.polyasm
#                                             ^^^ variable.language.register.pipeline.polyasm
#                                                       ^^^ keyword.operator.mnemonic.polyasm
#                                                          ^^^ storage.modifier.unit.polyasm
#                                                                 ^^^^^^^ variable.language.register.pipeline.polyasm
#                                                                                  ^^^^^^ keyword.operator.mnemonic.polyasm
#                                                                                         ^^^ constant.numeric.float.polyasm
#                                                                                             ^^^^ constant.numeric.float.polyasm
#                                                                                                  ^^^ constant.numeric.float.polyasm
#                                                                                                      ^^^^^^^^^^^^^^ constant.numeric.float.polyasm
#                                                                                                                      ^^^^^^ keyword.operator.mnemonic.polyasm
#                                                                                                                             ^^^ constant.language.polyasm
#                                                                                                                                 ^^^^ constant.language.polyasm
#                                                                                                                                      ^^^^^^ constant.numeric.integer.hexadecimal.polyasm
#                                                                                                                                             ^^^^^ constant.numeric.integer.decimal.polyasm
load.v $1 gl_FragCoord, mul.v0 ^v0 $1 $1, sum3.v1 $5.x ^v0, rcp_vec.s2 $0.none $5.x
#         ^^^^^^^^^^^^ variable.language.register.input.polyasm
#                              ^^^ variable.language.register.pipeline.polyasm
#                                         ^^^^ keyword.operator.mnemonic.polyasm
#                                                           ^^^ keyword.operator.mnemonic.polyasm
#                                                              ^^^^ storage.modifier.opcode.polyasm
#                                                                  ^^^ storage.modifier.unit.polyasm
#                                                                         ^^^^ constant.other.swizzle.polyasm
load.v $4.xyz cube(5), texld_lod 1+$1.x $1.z bias(-1.5)
#             ^^^^ support.function.polyasm
#                      ^^^^^ keyword.operator.mnemonic.polyasm
#                           ^^^^ storage.modifier.opcode.polyasm
#                                            ^^^^ support.function.polyasm
#                                                 ^^^^ constant.numeric.float.polyasm
load.v $5.xyz normalize($4.xyz), atan_pt2.s2 $1.x $3
#             ^^^^^^^^^ support.function.polyasm
#                                ^^^^^^^^ keyword.operator.mnemonic.polyasm
branch_ge $0.x $1.y keep
# <------ keyword.operator.mnemonic.polyasm
#     ^^^ storage.modifier.opcode.polyasm
#                   ^^^^ variable.other.label.polyasm
branch +4
#      ^^ constant.numeric.integer.decimal.polyasm
store.t 7.z $2.w, fb_color $3
# <----- keyword.operator.mnemonic.polyasm
#    ^^ storage.modifier.unit.polyasm
#                 ^^^^^^^^ keyword.operator.mnemonic.polyasm
keep:
# <---- entity.name.label.polyasm
stop, discard
#     ^^^^^^^ keyword.operator.mnemonic.polyasm
nop
# <--- keyword.operator.mnemonic.polyasm
movv.v0 $16 ^nothing, mov.q $0
# <---- - keyword.operator.mnemonic.polyasm
#       ^^^ - variable.language.register
#           ^^^^^^^^ - variable.language.register
#                        ^^ - storage.modifier
