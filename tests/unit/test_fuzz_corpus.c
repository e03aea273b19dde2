/* test_fuzz_corpus.c - replays the committed corpora of the fuzz targets
 * that have no way in through the CLI (issue 47 §8) through the targets'
 * own checks, so `make check-asan` runs them under ASan and UBSan as
 * tests/fuzz_replay.sh does the others:
 *  - tests/fuzz/corpus/cfront: generated kept-translation entries read back
 *    with cfront_cache_get (tests/fuzz/fuzz_cfront.c: used exactly when
 *    sound, unchanged by a trip through the cache, same counts);
 *  - tests/fuzz/corpus/cond: conditions (tests/fuzz/fuzz_cond.c), which
 *    tests/fuzz_replay.sh also gives `wmx check --outcome`.
 * A target's broken rule aborts, which fails the test. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* both targets define LLVMFuzzerTestOneInput: a name each here */
#define LLVMFuzzerTestOneInput fuzz_cfront_one
#include "../fuzz/fuzz_cfront.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cond_one
#include "../fuzz/fuzz_cond.c"
#undef LLVMFuzzerTestOneInput

/* runs one(file) on every file of tests/fuzz/corpus/NAME; the count */
static int replay(const char *name, int (*one)(const uint8_t *, size_t))
{
    char dir[1024];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    DIR *d = opendir(dir);
    if (!d) {
        /* from anywhere: the source root is where __FILE__ says */
        const char *f = __FILE__;
        const char *cut = strstr(f, "tests/unit/");
        snprintf(dir, sizeof dir, "%.*stests/fuzz/corpus/%s", cut ? (int)(cut - f) : 0, f, name);
        d = opendir(dir);
    }
    ck_assert_msg(d != NULL, "no %s", dir);
    int files = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t n;
        wmx_error err;
        char *b = wmx_read_file(path, &n, &err);
        ck_assert_msg(b != NULL, "cannot read %s", path);
        one((const uint8_t *)b, n);
        free(b);
        files++;
    }
    closedir(d);
    return files;
}

START_TEST(cfront_corpus)
{
    ck_assert_int_ge(replay("cfront", fuzz_cfront_one), 10);
}
END_TEST

START_TEST(cond_corpus)
{
    ck_assert_int_ge(replay("cond", fuzz_cond_one), 10);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fuzz_corpus");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, cfront_corpus);
    tcase_add_test(tc, cond_corpus);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
