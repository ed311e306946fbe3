# expect: PP024 PP024 PP024
sync, load.v ^tex_coord 0.xy, texld_2d 0, mov.v0 $0 ^tex_sampler
stop
