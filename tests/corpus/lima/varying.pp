# Every source of the varying unit.
load.v $0 3                       # a vec4 (or vec3) varying
load.v $1.xy 2.zw                 # a vec2: the second half of slot 2
load.v $2.x 7.w+$1.z              # one float, the index offset by a register
load_perspective_z.v $3 1         # divided by z
load_perspective_w.v $3 -abs($2.zyxw)  # a register source, divided by w
load.v $4.xyz cube(5)             # cube-map transform of a varying
load.v $4 cube(-$3)               # ... and of a register
load.v $5.xyz normalize($4.xyz)   # vec3 normalize
load.v $0 gl_FragCoord
load.v $1.xy gl_PointCoord
load.v $2.x gl_FrontFacing
stop, load.v ^discard.xy 0.xy     # feeds only the texture unit
load.v $0.none 0                  # keeps the register, writes no lane
