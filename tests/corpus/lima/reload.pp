# Mesa's tile-reload program: copy texture 0 to the framebuffer at varying 0's (u, v).
stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture
