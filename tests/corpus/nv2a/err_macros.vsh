// expect: NV2A025 NV2A025 NV2A025 NV2A025 NV2A025
#m matrix4 96
#v vector 4
%matmul4x4 oPos v0 #v
%matmul4x4 oPos.xy v0 #m
%norm3 r0 v2 oD0
%transpose r0 v0 r1
%norm3 r0 v2
