/* Includes the shader as a program would before uploading it, four words per instruction,
   and checks the words against those polyasm printed by hand; exits 0 when they are right. */
#include <stdint.h>
#include <stdio.h>

static const uint32_t kShader[] = {
#include "passthrough.vshinc"
};

static const uint32_t kExpected[] = {
    0x00000000, 0x0020001b, 0x0836106c, 0x2070f800, /* mov oPos, v0 */
    0x00000000, 0x0020061b, 0x0836106c, 0x2070f818, /* mov oD0, v3 */
    0x00000000, 0x0020121b, 0x0836106c, 0x2070f849, /* mov oT0, v9; FINAL set */
};

int main(void) {
    size_t count = sizeof(kShader) / sizeof(kShader[0]);
    size_t i;
    if (count != sizeof(kExpected) / sizeof(kExpected[0])) {
        printf("%u words, expected 12\n", (unsigned)count);
        return 1;
    }
    for (i = 0; i < count; i++) {
        if (kShader[i] != kExpected[i]) {
            printf("word %u: 0x%08x, expected 0x%08x\n", (unsigned)i, (unsigned)kShader[i], (unsigned)kExpected[i]);
            return 1;
        }
    }
    printf("ok: %u instructions\n", (unsigned)(count / 4));
    return 0;
}
