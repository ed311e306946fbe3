# The texture unit: sampler number, offset register, LOD register, explicit LOD, constant bias.
sync, load.v ^discard 0.xy, texld 0, mov.v0 $0 ^texture
sync, load.v ^discard 0.xy, texld 2+$1.x, mov.v0 $0 ^texture
sync, load.v ^discard 0.xy, texld 1 $1.y, mov.v0 $0 ^texture
sync, load.v ^discard 0.xy, texld_lod 1 $1.z, mov.v0 $0 ^texture
stop, sync, load.v ^discard 0.xy, texld 4095 bias(-1.5), mov.v0 $0 ^texture
