/* The runtime of an executable polyasm writes from a Masfix program (`-f exe`): the machine's
 * memory, input and output buffered by the VM's rules (crates/polyasm-masfix/src/streams.rs),
 * the calls the compiled code makes when a buffer is full or empty, and the errors and exit
 * codes of `polyasm run`.
 *
 * The compiled code keeps a window on each buffer in registers and hands it over in the
 * context around each call, as in-process native code does with the VM's buffers. The
 * program's own file (written by polyasm next to this one) defines the tables the code reads
 * and the texts of its errors. */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 1 << 16 };

/* How the compiled code stopped. */
enum { ENDED = 0, SLOW = 1, OUT_OF_RANGE = 2, FAILED = 3 };

/* What a call returns when it failed. */
#define CALL_FAILED (UINT32_C(1) << 16)

/* The registers and counters shared with the compiled code (`State` in jit/mod.rs). */
struct state {
    int64_t left;
    uint16_t h, r;
    uint32_t pc, target;
};

/* What the calls reach (`Ctx` in jit/mod.rs): the windows first, at the same offsets. */
struct ctx {
    uintptr_t out_next, out_limit, in_next, in_end;
    unsigned char *out;
    size_t out_len;
    unsigned char *in;
    size_t pos, len;
    int eof;
    /* The error of a failed call: errno, and whether it was a read. */
    int error;
    int reading;
};

uint32_t polyasm_masfix_main(struct state *state, uint16_t *cells, struct ctx *ctx);

/* From the program's own file: the texts of its errors, without colour and with it, with
 * `\x01` where the reason or the target goes. */
extern const char *const polyasm_masfix_write_failed[2];
extern const char *const polyasm_masfix_read_failed[2];
extern const char *const polyasm_masfix_jump_failed[][2];

/* Whether errors are coloured, as polyasm decides for standard error: FORCE_COLOR or
 * CLICOLOR_FORCE, then NO_COLOR, then a terminal whose TERM is not `dumb`. */
static int colored(void) {
    const char *force = getenv("FORCE_COLOR");
    const char *clicolor = getenv("CLICOLOR_FORCE");
    if ((force && *force && strcmp(force, "0")) || (clicolor && *clicolor && strcmp(clicolor, "0"))) {
        return 1;
    }
    const char *no = getenv("NO_COLOR");
    if (no && *no) {
        return 0;
    }
    const char *term = getenv("TERM");
    return isatty(2) && !(term && strcmp(term, "dumb") == 0);
}

static struct ctx the_ctx;

static void take_windows(struct ctx *c) {
    if (c->out) {
        c->out_len = c->out_next - (uintptr_t)c->out;
    }
    if (c->in) {
        c->pos = c->in_next - (uintptr_t)c->in;
    }
}

static void give_windows(struct ctx *c) {
    if (c->out) {
        c->out_next = (uintptr_t)c->out + c->out_len;
        c->out_limit = (uintptr_t)c->out + CHUNK - 8;
    } else {
        c->out_next = 1;
        c->out_limit = 0;
    }
    c->in_next = (uintptr_t)c->in + c->pos;
    c->in_end = (uintptr_t)c->in + c->len;
}

static int write_all(int fd, const unsigned char *bytes, size_t n) {
    while (n > 0) {
        ssize_t done = write(fd, bytes, n);
        if (done < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        bytes += done;
        n -= (size_t)done;
    }
    return 0;
}

/* Writes what waits in the output buffer; 0 or errno. */
static int flush(struct ctx *c) {
    if (c->out_len > 0) {
        int error = write_all(1, c->out, c->out_len);
        if (error) {
            return error;
        }
        c->out_len = 0;
    }
    return 0;
}

static uint32_t failed(struct ctx *c, int error, int reading) {
    c->error = error;
    c->reading = reading;
    return CALL_FAILED;
}

/* Room for 8 more bytes of output: the buffer, or a full one written out. */
uint32_t polyasm_masfix_room(struct ctx *c) {
    take_windows(c);
    if (!c->out) {
        c->out = malloc(CHUNK);
        if (!c->out) {
            abort();
        }
    }
    int error = flush(c);
    give_windows(c);
    return error ? failed(c, error, 0) : 0;
}

/* At least one byte waits unless the input has ended; the output is written first. */
static int refill(struct ctx *c) {
    if (c->eof) {
        return 0;
    }
    int error = flush(c);
    if (error) {
        return -error;
    }
    if (!c->in) {
        c->in = malloc(CHUNK);
        if (!c->in) {
            abort();
        }
    }
    for (;;) {
        ssize_t n = read(0, c->in, CHUNK);
        if (n == 0) {
            c->eof = 1;
            c->pos = c->len = 0;
            return 0;
        }
        if (n > 0) {
            c->pos = 0;
            c->len = (size_t)n;
            return 0;
        }
        if (errno != EINTR) {
            return errno;
        }
    }
}

/* A refill's error: a negative one is the write before the read. */
static uint32_t refill_failed(struct ctx *c, int error) {
    give_windows(c);
    return error < 0 ? failed(c, -error, 0) : failed(c, error, 1);
}

/* The next byte, or -1 at the end of input; -2 when reading failed. */
static int peek(struct ctx *c, int *error) {
    if (c->pos == c->len) {
        *error = refill(c);
        if (*error) {
            return -2;
        }
        if (c->pos == c->len) {
            return -1;
        }
    }
    return c->in[c->pos];
}

static uint32_t byte_in(struct ctx *c, int take) {
    take_windows(c);
    int error = 0;
    int b = peek(c, &error);
    if (b == -2) {
        return refill_failed(c, error);
    }
    if (b >= 0 && take) {
        c->pos++;
    }
    give_windows(c);
    return b < 0 ? 0xffff : (uint32_t)b;
}

uint32_t polyasm_masfix_inc(struct ctx *c) {
    return byte_in(c, 1);
}

uint32_t polyasm_masfix_ipc(struct ctx *c) {
    return byte_in(c, 0);
}

/* Consecutive digits, clamped at 65535; 0 when the next byte is no digit. */
uint32_t polyasm_masfix_inu(struct ctx *c) {
    take_windows(c);
    uint32_t value = 0;
    int clamped = 0;
    for (;;) {
        while (c->pos < c->len) {
            unsigned digit = (unsigned)c->in[c->pos] - '0';
            if (digit > 9) {
                give_windows(c);
                return clamped ? 0xffff : value;
            }
            if (!clamped) {
                value = value * 10 + digit;
                clamped = value > 0xffff;
            }
            c->pos++;
        }
        int error = refill(c);
        if (error) {
            return refill_failed(c, error);
        }
        if (c->pos == c->len) {
            give_windows(c);
            return clamped ? 0xffff : value;
        }
    }
}

/* Reads up to and including the next line break, or to the end of input. */
uint32_t polyasm_masfix_inl(struct ctx *c) {
    take_windows(c);
    for (;;) {
        unsigned char *at = c->in ? memchr(c->in + c->pos, '\n', c->len - c->pos) : NULL;
        if (at) {
            c->pos = (size_t)(at - c->in) + 1;
            give_windows(c);
            return 0;
        }
        c->pos = c->len;
        int error = refill(c);
        if (error) {
            return refill_failed(c, error);
        }
        if (c->pos == c->len) {
            give_windows(c);
            return 0;
        }
    }
}

/* Writes `text` to standard error with `reason` or the decimal `target` where `\x01` is. */
static void report(const char *text, const char *reason, uint32_t target) {
    char number[16];
    if (!reason) {
        size_t n = 0;
        char digits[16];
        do {
            digits[n++] = (char)('0' + target % 10);
            target /= 10;
        } while (target);
        for (size_t i = 0; i < n; i++) {
            number[i] = digits[n - 1 - i];
        }
        number[n] = 0;
        reason = number;
    }
    const char *hole = strchr(text, '\x01');
    size_t before = hole ? (size_t)(hole - text) : strlen(text);
    write_all(2, (const unsigned char *)text, before);
    if (hole) {
        write_all(2, (const unsigned char *)reason, strlen(reason));
        write_all(2, (const unsigned char *)hole + 1, strlen(hole + 1));
    }
}

int main(void) {
    /* A reader that closes the pipe is an error to see, not a signal to die of. */
    signal(SIGPIPE, SIG_IGN);
    static uint16_t cells[1 << 16];
    struct state state = {INT64_MAX, 0, 0, 0, 0};
    struct ctx *c = &the_ctx;
    give_windows(c);
    uint32_t status = polyasm_masfix_main(&state, cells, c);
    take_windows(c);
    int error = flush(c);
    switch (status) {
    case ENDED:
        break;
    case OUT_OF_RANGE:
        report(polyasm_masfix_jump_failed[state.pc][colored()], NULL, state.target);
        return 1;
    case FAILED:
        error = c->error;
        if (c->reading) {
            report(polyasm_masfix_read_failed[colored()], strerror(error), 0);
            return 1;
        }
        break;
    default:
        /* No limit: the steps left never run out. */
        abort();
    }
    if (error == EPIPE) {
        /* A reader that stopped early (`| head`) ends the run quietly. */
        return 0;
    }
    if (error) {
        report(polyasm_masfix_write_failed[colored()], strerror(error), 0);
        return 1;
    }
    return 0;
}
