# Every fragment is half-transparent red: (1, 0, 0, 0.5), taken from the instruction's
# constant by the vector multiplier's `mov` into $0, the colour when the program stops.
stop, mov.v0 $0 ^const0, const0 1.0 0.0 0.0 0.5
