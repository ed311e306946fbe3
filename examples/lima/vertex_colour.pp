# Pass the vertex colour through: the colour is varying 1, interpolated across the triangle.
#
#   polyasm run -t lima examples/lima/vertex_colour.pp --varying 1=0.25,0.5,0.75,1
#   polyasm run -t lima examples/lima/vertex_colour.pp --varying 1=1,0.5,0,1 --size 64x64 -o orange.png
#
# The vertex shader wrote the colour into varying slot 1; the rasteriser interpolates it
# and the varying unit fetches it. `load.v $0 1` reads slot 1 as a whole vec4 straight into
# $0, the output register, so no ALU is needed at all. (Varying 0 is left for texture
# coordinates, as the other examples use it.)

stop, load.v $0 1
