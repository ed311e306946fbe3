# options: --syntax mesa
# disasm: --syntax mesa
# Mesa's clear program in Mesa's own text: it prints back byte for byte.
@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop
