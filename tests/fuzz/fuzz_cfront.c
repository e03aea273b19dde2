/* fuzz_cfront.c - libFuzzer target for the C front end's translations as
 * they come back from the cache (issue 47 §8): not clang, but the path a
 * kept translation takes into wmx.  The input is a flags byte, then the
 * bytes of an encoded program (cfront_cache_encode's format; the corpus,
 * tests/fuzz/corpus/cfront, starts from the C twins' translations).  The
 * target generates a whole entry around them (cfront_cache_wrap: magic,
 * sum, a dependency) and reads it back with cfront_cache_get, as `wmx
 * explore prog.c` does on a second run; then:
 *   - the entry is used exactly when the program bytes decode, it is not
 *     damaged (flags bit 1: a byte of it flipped) and its dependency is
 *     unchanged (bit 2: the file changed after the entry was written);
 *   - what is kept is what was translated: the program read back, encoded
 *     and decoded again, encodes to the same bytes;
 *   - both copies explore to the same counts (rfsmc under SC, odpor under
 *     TSO, at most a few traces), so a kept translation never answers
 *     differently from a fresh one.
 * A broken rule aborts.  tests/unit/test_cache.c replays the corpus through
 * this same function under `make check-asan`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfront_cache.h"
#include "explore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t k = n ? fwrite(data, 1, n, f) : 0;
    return fclose(f) == 0 && k == n ? 0 : -1;
}

/* counts of a short exploration; false when a timeout made them partial */
static int explore_counts(const wmx_program *p, int k, long out[3])
{
    explore_opts o;
    explore_opts_init(&o);
    o.model = k ? MODEL_TSO : MODEL_SC;
    o.algo = k ? ALGO_ODPOR : ALGO_RFSMC;
    o.max_traces = 4;
    o.timeout_s = 0.2;
    o.max_memory = (size_t)512 << 20;
    explore_result res;
    wmx_error err;
    int rc = explore_run(p, &o, &res, &err);
    out[0] = rc;
    out[1] = rc == 0 ? res.traces : 0;
    out[2] = rc == 0 ? res.blocked : 0;
    int exact = rc != 0 || res.complete || (res.stop_reason && strcmp(res.stop_reason, "max-traces") == 0);
    explore_result_free(&res);
    return exact;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0];
    const unsigned char *prog = data + 1;
    size_t plen = size - 1;

    char dir[] = "/tmp/wmx-fuzz-cfront.XXXXXX";
    const char *tmpdir = getenv("TMPDIR");
    char dirbuf[4096];
    snprintf(dirbuf, sizeof dirbuf, "%s/wmx-fuzz-cfront.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *d = mkdtemp(strlen(dirbuf) < sizeof dirbuf - 1 ? dirbuf : dir);
    if (!d)
        abort();
    char dep[4200], entry[4200];
    snprintf(dep, sizeof dep, "%s/prog.c", d);
    snprintf(entry, sizeof entry, "%s/entry.wmxc", d);
    const char *src = "int main(void) { return 0; }\n";
    if (write_file(dep, src, strlen(src)) != 0)
        abort();

    const char *deps[1] = { dep };
    size_t elen = 0;
    unsigned char *e = cfront_cache_wrap(prog, plen, deps, 1, &elen);
    if (!e)
        abort();
    int damaged = 0;
    if ((flags & 2) && elen > 0) {
        /* any byte: the magic, the sum, the dependency list, the program */
        size_t at = (size_t)(flags >> 3) * 2654435761u % elen;
        e[at] ^= (unsigned char)(1u << (flags >> 5));
        damaged = 1;
    }
    if (write_file(entry, e, elen) != 0)
        abort();
    free(e);
    if (flags & 4) {
        const char *changed = "int main(void) { return 1; }\n";
        if (write_file(dep, changed, strlen(changed)) != 0)
            abort();
    }

    wmx_program *kept = cfront_cache_get(entry);
    wmx_program *direct = cfront_cache_decode(prog, plen);
    unlink(entry);
    unlink(dep);
    rmdir(d);

    /* the sum covers every byte after it (and the magic is compared): a
     * flipped byte anywhere is a miss, as is a changed dependency */
    if (kept && (!direct || damaged || (flags & 4)))
        abort();            /* a damaged, stale or invalid entry was used */
    if (!kept && direct && !damaged && !(flags & 4))
        abort();            /* a sound entry was not */

    if (kept) {
        size_t n1 = 0, n2 = 0;
        unsigned char *b1 = cfront_cache_encode(kept, &n1);
        wmx_program *again = cfront_cache_decode(b1, n1);
        if (!again)
            abort();        /* what the encoder wrote, the decoder refuses */
        unsigned char *b2 = cfront_cache_encode(again, &n2);
        if (n1 != n2 || memcmp(b1, b2, n1) != 0)
            abort();        /* a translation changes on its way through the cache */
        free(b1);
        free(b2);
        char buf[256];
        for (int c = 0; c < kept->ncells; c++)
            ir_cell_name(kept, c, buf, sizeof buf);
        if (kept->cond_root >= 0)
            ir_cond_format(kept, kept->cond_root, buf, sizeof buf);
        for (int k = 0; k < 2; k++) {
            long a[3], b[3];
            int ea = explore_counts(kept, k, a);
            int eb = explore_counts(again, k, b);
            if (ea && eb && (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]))
                abort();    /* the same program, two answers */
        }
        ir_program_free(again);
    }
    ir_program_free(kept);
    ir_program_free(direct);
    return 0;
}
