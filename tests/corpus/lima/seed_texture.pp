# gl_FragColor = texture2D(tex, varying_1.xy), the seed's example with the destination first.
stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture
