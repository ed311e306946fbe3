# run: --varying 0=0.25,0.5,0.75,1
# disasm:
# One fragment: the colour is varying 0 times two.
load.v $1 0
stop, add.v1 $0 $1 $1
