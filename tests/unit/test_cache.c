/* test_cache.c - the C front end's kept translations (core/cfront_cache.c)
 * against damage (issue 47 §0):
 *  - the decoder on bytes changed at every position (of the shipped .wmx
 *    examples and of the committed fuzz corpus, tests/fuzz/corpus/cache:
 *    encodings of C translations): each result is refused or a program whose
 *    every index is in range, which the explorers then run (under ASan in
 *    `make check-asan`, so a read out of bounds fails here);
 *  - every byte of a kept entry of examples/deadlock.c changed (three ways
 *    each): cfront_cache_get gives the fresh translation or nothing, never
 *    another program (needs C input; skipped without it). */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfront.h"
#include "cfront_cache.h"
#include "explore.h"
#include "lang.h"

/* the file at path, from the source root or (via __FILE__) from anywhere */
static unsigned char *read_src(const char *rel, size_t *len)
{
    char path[1024];
    wmx_error err;
    snprintf(path, sizeof path, "%s", rel);
    char *text = wmx_read_file(path, len, &err);
    if (!text) {
        const char *f = __FILE__;
        const char *cut = strstr(f, "tests/unit/");
        snprintf(path, sizeof path, "%.*s%s", cut ? (int)(cut - f) : 0, f, rel);
        text = wmx_read_file(path, len, &err);
    }
    return (unsigned char *)text;
}

/* touches every index a program holds: names, the condition, and short
 * runs of two explorers under two models */
static void use_program(const wmx_program *p)
{
    char buf[512];
    for (int c = 0; c < p->ncells; c++)
        ir_cell_name(p, c, buf, sizeof buf);
    if (p->cond_root >= 0)
        ir_cond_format(p, p->cond_root, buf, sizeof buf);
    for (int i = 0; i < p->nobserved; i++)
        ir_lhs_format(p, &p->observed[i], buf, sizeof buf);
    static const wmx_model models[] = { MODEL_SC, MODEL_TSO };
    static const explore_algo algos[] = { ALGO_RFSMC, ALGO_ODPOR };
    for (int k = 0; k < 2; k++) {
        explore_opts o;
        explore_opts_init(&o);
        o.model = models[k];
        o.algo = algos[k];
        o.max_traces = 3;
        o.timeout_s = 0.05;
        o.max_memory = (size_t)512 << 20;
        explore_result res;
        wmx_error err = { 0 };
        explore_run(p, &o, &res, &err);
        explore_result_free(&res);
    }
}

static long accepted, refused;

/* the encoding of p (or the bytes b) with each byte changed, decoded */
static void mutate_decode(unsigned char *b, size_t n)
{
    static const unsigned char flips[] = { 0x01, 0x80, 0xff };
    for (size_t k = 0; k < n; k++) {
        unsigned char save = b[k];
        for (int f = 0; f < 3; f++) {
            b[k] = save ^ flips[f];
            wmx_program *q = cfront_cache_decode(b, n);
            if (q) {
                accepted++;
                use_program(q);
                ir_program_free(q);
            } else {
                refused++;
            }
        }
        b[k] = save;
    }
}

static const char *const wmx_examples[] = { "sb.wmx", "mp-spin.wmx", "peterson.wmx", "ticketlock.wmx" };

START_TEST(decoder_mutants_wmx)
{
    size_t len;
    char rel[256];
    snprintf(rel, sizeof rel, "examples/%s", wmx_examples[_i]);
    char *text = (char *)read_src(rel, &len);
    ck_assert_ptr_nonnull(text);
    wmx_error err = { 0 };
    wmx_program *p = lang_parse(text, len, rel, &err);
    free(text);
    ck_assert_ptr_nonnull(p);
    size_t n;
    unsigned char *b = cfront_cache_encode(p, &n);
    wmx_program *q = cfront_cache_decode(b, n);
    ck_assert_msg(q != NULL, "the undamaged encoding of %s is refused", rel);
    ir_program_free(q);
    accepted = refused = 0;
    mutate_decode(b, n);
    ck_assert_int_gt(refused, 0);
    free(b);
    ir_program_free(p);
}
END_TEST

START_TEST(decoder_mutants_corpus)
{
    const char *dir = "tests/fuzz/corpus/cache";
    char path[1024];
    DIR *d = opendir(dir);
    if (!d) {
        const char *f = __FILE__;
        const char *cut = strstr(f, "tests/unit/");
        snprintf(path, sizeof path, "%.*s%s", cut ? (int)(cut - f) : 0, f, dir);
        d = opendir(path);
        dir = path;
    }
    ck_assert_msg(d != NULL, "no %s", dir);
    char base[1024];
    snprintf(base, sizeof base, "%s", dir);
    int files = 0, whole = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char f[2048];
        snprintf(f, sizeof f, "%s/%s", base, de->d_name);
        size_t n;
        wmx_error err;
        unsigned char *b = (unsigned char *)wmx_read_file(f, &n, &err);
        ck_assert_ptr_nonnull(b);
        files++;
        wmx_program *q = cfront_cache_decode(b, n);
        if (q) {                       /* the corpus is of whole translations */
            whole++;
            use_program(q);
            ir_program_free(q);
        }
        mutate_decode(b, n);
        free(b);
    }
    closedir(d);
    ck_assert_int_ge(files, 5);
    ck_assert_int_eq(whole, files);
}
END_TEST

START_TEST(damaged_entries)
{
    if (!cfront_available())
        return;                        /* built without C input */
    char dir[] = "/tmp/wmx-test-cache-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("WMX_CACHE_DIR", dir, 1);
    unsetenv("WMX_CACHE");
    const char *rel = "examples/deadlock.c";
    char path[1024];
    if (access(rel, R_OK) != 0) {
        const char *f = __FILE__;
        const char *cut = strstr(f, "tests/unit/");
        snprintf(path, sizeof path, "%.*s%s", cut ? (int)(cut - f) : 0, f, rel);
        rel = path;
    }
    wmx_error err = { 0 };
    wmx_program *fresh = cfront_load(rel, NULL, &err);
    ck_assert_msg(fresh != NULL, "%s", err.msg);
    size_t fn;
    unsigned char *want = cfront_cache_encode(fresh, &fn);
    /* the entry it kept */
    char entry[2048] = "";
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".wmxc"))
            snprintf(entry, sizeof entry, "%s/%s", dir, de->d_name);
    closedir(d);
    ck_assert_msg(entry[0], "no entry kept in %s", dir);
    size_t n;
    unsigned char *b = (unsigned char *)wmx_read_file(entry, &n, &err);
    ck_assert_ptr_nonnull(b);
    wmx_program *kept = cfront_cache_get(entry);
    ck_assert_ptr_nonnull(kept);
    ir_program_free(kept);
    static const unsigned char flips[] = { 0x01, 0x80, 0xff };
    long used = 0, ignored = 0;
    /* the byte is changed in place (rewriting the whole file 12 000 times
     * made some file systems write it out each time) */
    int fd = open(entry, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    for (size_t k = 0; k < n; k++) {
        unsigned char save = b[k];
        for (int f = 0; f <= 3; f++) {
            b[k] = f < 3 ? save ^ flips[f] : save;
            ck_assert_int_eq(pwrite(fd, &b[k], 1, (off_t)k), 1);
            if (f == 3)
                break;
            wmx_program *q = cfront_cache_get(entry);
            if (!q) {
                ignored++;
                continue;
            }
            used++;
            size_t qn;
            unsigned char *got = cfront_cache_encode(q, &qn);
            ck_assert_msg(qn == fn && memcmp(got, want, fn) == 0,
                          "byte %zu ^ 0x%02x: the damaged entry gives another program", k, flips[f]);
            free(got);
            ir_program_free(q);
        }
    }
    close(fd);
    ck_assert_int_eq(used, 0);          /* the sum catches every change */
    ck_assert_int_eq(ignored, 3 * (long)n);
    unlink(entry);
    rmdir(dir);
    free(b);
    free(want);
    ir_program_free(fresh);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("decoder");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, decoder_mutants_wmx, 0, (int)(sizeof wmx_examples / sizeof *wmx_examples));
    tcase_add_test(tc, decoder_mutants_corpus);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("entries");
    tcase_set_timeout(te, 120);
    tcase_add_test(te, damaged_entries);
    suite_add_tcase(s, te);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
