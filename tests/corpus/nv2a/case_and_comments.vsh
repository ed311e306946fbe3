; Mnemonics in any case; three comment styles.
MOV R0, V0          // upper case
mov r1, v0          ; lower case
Mov r2, iPOS        /* mixed case */
/* a block comment
   over several lines */
DP4 oPos.x, R0, C96
