// .word places one instruction as its four words, untouched.
mov oPos, v0
.word 0x00000000, 0x0020061b, 0x0836106c, 0x2070f819
.word 0, 0, 0, 1
