// expect: NV2A011 NV2A011 NV2A012 NV2A013 NV2A013 NV2A014 NV2A014 NV2A014
mov r0, #later
#later vector 4
#later vector 5
#m matrix4 189
#mat matrix4 96
#vec vector 0
#bad scalar 3
mov r0, #mat
mov r0, #mat[4]
mov r0, #vec[1]
mov r0, #mta[0]
