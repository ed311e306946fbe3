# CRLF line ends.
sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture
stop
