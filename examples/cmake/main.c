/* Checks the words polyasm assembled during the build against the words polyasm printed for
   the same sources by hand; prints what differs and exits 1, or prints "ok" and exits 0. */
#include <stdint.h>
#include <stdio.h>

/* nv2avsh's C include: four words per instruction, meant to fill an array. */
static const uint32_t transform[] = {
#include "transform.vshinc"
};

/* The C arrays of polyasm's `c` format: tint (Lima) and countdown (Masfix bytecode). */
#include "tint.h"
#include "countdown.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static int failures = 0;

static void expect(const char *what, unsigned long got, unsigned long want) {
    if (got != want) {
        printf("%s: 0x%08lx, expected 0x%08lx\n", what, got, want);
        failures++;
    }
}

int main(void) {
    /* Four dp4 of %matmul4x4 and a mov; FINAL is set on the last instruction. */
    expect("transform: words", COUNT(transform), 20);
    expect("transform[1]", transform[1], 0x00ec001b);
    expect("transform[7]", transform[7], 0x20704800);
    expect("transform[17]", transform[17], 0x0020061b);
    expect("transform[19]", transform[19], 0x2070f819);

    /* One instruction of five words. */
    expect("tint: words", COUNT(tint), 5);
    expect("tint[0]", tint[0], 0x00020425);
    expect("tint[2]", tint[2], 0x01e007cf);
    expect("tint[4]", tint[4], 0x000001c0);

    /* The header (magic "MXBC", version 1, no debug section, 6 instructions), then each
       instruction's two words: outu 3, outc '\n', ... */
    expect("countdown: words", COUNT(countdown), 18);
    expect("countdown[0]", countdown[0], 0x584d);
    expect("countdown[4]", countdown[4], 6);
    expect("countdown[7]", countdown[7], 3);
    expect("countdown[9]", countdown[9], '\n');
    expect("countdown[15]", countdown[15], 1);

    if (failures == 0) {
        printf("ok\n");
    }
    return failures == 0 ? 0 : 1;
}
