# Mesa's clear program, exactly as Mesa's lima disassembler prints it: every fragment is
# white, (1, 1, 1, 1).
#
#   polyasm run -t lima examples/lima/clear.mesa.pp
#   polyasm -t lima examples/lima/clear.mesa.pp -o clear.bin
#
# The `@     0: ` prefix on the first instruction line tells polyasm that this is Mesa's text
# (without the prefix, `--syntax mesa` says so). Mesa's text writes the destination first
# too and the units in the same order, but puts the flags last (the trailing `, stop`) and
# keeps a space where `mov` has no second source. The colour comes from the instruction's
# first constant: `^const0.xxxx` spreads its x lane, 1.0, over all four lanes of $0. (The
# last constant, printed as -1.677734 with six decimals, is read as the nearest binary16
# number, -1.677734375, which is what the program's words hold.)
@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop
