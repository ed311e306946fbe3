# An instruction goes on over the next lines after a trailing comma.
sync,
    load.v $1 0.xy,
    # comments and blank lines between are fine

    texld 0,
    mov.v0 $0 ^texture
stop
