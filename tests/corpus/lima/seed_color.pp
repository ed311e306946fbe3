# gl_FragColor = vec4(0, 0, 0, 1), the seed's example with the destination first.
stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0
