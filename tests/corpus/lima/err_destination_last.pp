# expect: PP009 PP009 PP009 PP024
# The seed's examples as written, with the destination last.
stop, sync, load.v 0 ^tex_coord, texld_2d 0, mov.v0 ^tex_sampler $0
stop, mov.v0 ^const0.yyyx $0, const0 1.0 0.0 0.0 0.0
