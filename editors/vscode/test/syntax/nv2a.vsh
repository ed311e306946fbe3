// SYNTAX TEST "source.polyasm.nv2a" "nv2a vertex shader: every kind of token"
; a semicolon comment
// <- comment.line.semicolon.polyasm punctuation.definition.comment.polyasm
// <~~------------------- comment.line.semicolon.polyasm
/* a block comment, /* not nested
// <-- comment.block.polyasm punctuation.definition.comment.begin.polyasm
//                  ^^ comment.block.polyasm
   over two lines */ mov r0, v0
//                ^^ comment.block.polyasm punctuation.definition.comment.end.polyasm
//                   ^^^ keyword.operator.mnemonic.polyasm
#mvp matrix4 96          // a uniform of four rows
// <---- entity.name.variable.uniform.polyasm
//   ^^^^^^^ storage.type.uniform.polyasm
//           ^^ constant.numeric.integer.decimal.polyasm
//                       ^^ comment.line.double-slash.polyasm punctuation.definition.comment.polyasm
//                          ^^^^^^^^^^^^^^^^^^^^^^ comment.line.double-slash.polyasm
#light_dir VECTOR 0x64
// <---------- entity.name.variable.uniform.polyasm
//         ^^^^^^ storage.type.uniform.polyasm
//                ^^^^ constant.numeric.integer.hexadecimal.polyasm
%matmul4x4 oPos, iPos, #mvp
// <---------- support.function.macro.polyasm
//         ^^^^ variable.language.register.output.polyasm
//             ^ punctuation.separator.comma.polyasm
//               ^^^^ variable.language.register.input.polyasm
//                     ^^^^ variable.other.uniform.polyasm
%norm3 r0 iNormal r1
// <------ support.function.macro.polyasm
dp4 r2.x, v0, #mvp[ 0b10 ]
// <--- keyword.operator.mnemonic.polyasm
//  ^^ variable.language.register.polyasm
//    ^ punctuation.separator.swizzle.polyasm
//     ^ constant.other.swizzle.polyasm
//        ^^ variable.language.register.input.polyasm
//            ^^^^ variable.other.uniform.polyasm
//                ^ punctuation.section.brackets.begin.polyasm
//                  ^^^^ constant.numeric.integer.binary.polyasm
//                       ^ punctuation.section.brackets.end.polyasm
arl a0, v1.x
// <--- keyword.operator.mnemonic.polyasm
//  ^^ variable.language.register.address.polyasm
MUL R0.xyz, -V2.zxy, c[A0+0o4]
// <--- keyword.operator.mnemonic.polyasm
//  ^^ variable.language.register.polyasm
//     ^^^ constant.other.swizzle.polyasm
//          ^ keyword.operator.negate.polyasm
//           ^^ variable.language.register.input.polyasm
//              ^^^ constant.other.swizzle.polyasm
//                   ^ variable.language.register.constant.polyasm
//                    ^ punctuation.section.brackets.begin.polyasm
//                     ^^ variable.language.register.address.polyasm
//                       ^ keyword.operator.arithmetic.polyasm
//                        ^^^ constant.numeric.integer.octal.polyasm
//                           ^ punctuation.section.brackets.end.polyasm
mov oD0.rgb, c191.w + rcp r1.w, r12.x
// <--- keyword.operator.mnemonic.polyasm
//  ^^^ variable.language.register.output.polyasm
//      ^^^ constant.other.swizzle.polyasm
//           ^^^^ variable.language.register.constant.polyasm
//                  ^ keyword.operator.pairing.polyasm
//                    ^^^ keyword.operator.mnemonic.polyasm
//                              ^^^ variable.language.register.polyasm
mov oTex3, iTex3 +
//  ^^^^^ variable.language.register.output.polyasm
//         ^^^^^ variable.language.register.input.polyasm
//               ^ keyword.operator.pairing.polyasm
    lit r1, r2
//  ^^^ keyword.operator.mnemonic.polyasm
add r0, v15, c[ 60 + a0 ].zw
//      ^^^ variable.language.register.input.polyasm
//              ^^ constant.numeric.integer.decimal.polyasm
//                   ^^ variable.language.register.address.polyasm
//                        ^^ constant.other.swizzle.polyasm
.word 0x00000000, 0x0020121b, 0x0836106c, 0x2070f848
// <----- keyword.control.directive.polyasm
//                ^^^^^^^^^^ constant.numeric.integer.hexadecimal.polyasm
mov r13, v16, c192, oPso, dp5
//  ^^^ - variable.language.register
//       ^^^ - variable.language.register
//            ^^^^ - variable.language.register
//                  ^^^^ - variable.language.register
//                        ^^^ - keyword.operator.mnemonic.polyasm
