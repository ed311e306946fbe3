// expect: NV2A026 NV2A026 NV2A026 NV2A027
.word 1, 2, 3
.word 0x1ffffffff, 0, 0, 0
.byte 1, 2, 3, 4
.word 0x, 0, 0, 0
