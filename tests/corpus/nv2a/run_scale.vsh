// run: -i 0=1,2,3 -c 96=2,2,2,1
// disasm:
// The position scaled by constant 96, lane by lane; the colour passed through.
mul oPos, v0, c96
mov oD0, v3
