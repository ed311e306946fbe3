# Discard by a branch: the left half of the screen (u < 0.5) is cut away, the rest is orange.
#
#   polyasm run -t lima examples/lima/discard.pp --varying 0=0.25,0.5      # discarded
#   polyasm run -t lima examples/lima/discard.pp --varying 0=0.75,0.5      # orange
#   polyasm run -t lima examples/lima/discard.pp --size 64x64 -o half.png
#
# A discarded fragment writes no colour at all (a rendered picture shows it transparent),
# which is how alpha testing and clip planes are done on this processor: there is no
# "kill" ALU op, only the branch unit's `discard`.

# The varying unit fetches u, the x of varying 0, as one float into $1.x. The branch unit
# runs last in the instruction, so it already compares the fetched value: when u < 0.5
# (the threshold is const0.x) it jumps to `drop`.
load.v $1.x 0.x, branch_lt $1.x ^const0.x drop, const0 0.5 0.0 0.0 0.0

# Not taken: u >= 0.5. Copy the constant colour, an opaque orange, into $0 and stop.
stop, mov.v0 $0 ^const0, const0 1.0 0.5 0.125 1.0

# Taken: discard the fragment. `stop` is set as well, since the last instruction of a
# program must end it.
drop:
stop, discard
