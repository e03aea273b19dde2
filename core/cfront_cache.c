/* cfront_cache.c - translated C programs kept between runs (see
 * cfront_cache.h). */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cfront_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "wmx-cfront-cache 14\n"

/* ---- hashing: two FNV-1a streams, 128 bits --------------------------- */

typedef struct hash128 {
    uint64_t a, b;
} hash128;

static void hash_init(hash128 *h)
{
    h->a = 14695981039346656037ull;
    h->b = 0x84222325cbf29ce4ull;
}

static void hash_bytes(hash128 *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t a = h->a, b = h->b;
    for (size_t i = 0; i < n; i++) {
        a = (a ^ p[i]) * 1099511628211ull;
        b = (b ^ p[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    h->a = a;
    h->b = b;
}

/* a string and its end, so "ab","c" differs from "a","bc" */
static void hash_str(hash128 *h, const char *s)
{
    if (!s)
        s = "\x01(null)";
    hash_bytes(h, s, strlen(s) + 1);
}

static void hash_long(hash128 *h, long long v)
{
    hash_bytes(h, &v, sizeof v);
}

static void hash_stat(hash128 *h, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        hash_long(h, -1);
        return;
    }
    hash_long(h, (long long)st.st_size);
    hash_long(h, (long long)st.st_mtim.tv_sec);
    hash_long(h, (long long)st.st_mtim.tv_nsec);
    hash_long(h, (long long)st.st_ino);
}

/* Regular files only, of at most 256 MiB: an #include of /dev/zero (or a
 * FIFO) is a dependency that never ends, and was read until memory ran out;
 * such a translation is not kept. */
#define SLURP_MAX ((off_t)256 << 20)

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SLURP_MAX) {
        fclose(f);
        return NULL;
    }
    size_t cap = 1 << 14, n = 0;
    char *s = wmx_malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            s = wmx_realloc(s, cap);
        }
        size_t k = fread(s + n, 1, cap - n, f);
        n += k;
        if (k == 0 || n > (size_t)SLURP_MAX)    /* it grew while read */
            break;
    }
    int bad = ferror(f) || n > (size_t)SLURP_MAX;
    fclose(f);
    if (bad) {
        free(s);
        return NULL;
    }
    *len = n;
    return s;
}

/* the contents' hash of a file; false when it cannot be read */
static bool file_hash(const char *path, hash128 *out)
{
    size_t n = 0;
    char *s = slurp(path, &n);
    if (!s)
        return false;
    hash_init(out);
    hash_bytes(out, s, n);
    free(s);
    return true;
}

/* ---- where ------------------------------------------------------------ */

static bool cache_off(void)
{
    const char *v = getenv("WMX_CACHE");
    return v && (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "no") == 0);
}

/* mkdir -p for the last two components at most (…/.cache/wmx) */
static char *cache_dir(void)
{
    const char *d = getenv("WMX_CACHE_DIR");
    char buf[4096];
    if (d && *d) {
        snprintf(buf, sizeof buf, "%s", d);
    } else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
        snprintf(buf, sizeof buf, "%s/wmx", d);
    } else if ((d = getenv("HOME")) && *d) {
        snprintf(buf, sizeof buf, "%s/.cache/wmx", d);
    } else {
        return NULL;
    }
    struct stat st;
    if (stat(buf, &st) != 0) {
        char *slash = strrchr(buf, '/');
        if (slash && slash != buf) {
            *slash = '\0';
            if (stat(buf, &st) != 0 && mkdir(buf, 0700) != 0 && errno != EEXIST)
                return NULL;
            *slash = '/';
        }
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return NULL;
    }
    return wmx_strdup(buf);
}

/* the clang that will run, found on PATH as execvp would */
static void hash_clang(hash128 *h, const char *clang)
{
    hash_str(h, clang);
    if (strchr(clang, '/')) {
        hash_stat(h, clang);
        return;
    }
    const char *path = getenv("PATH");
    char dir[4096];
    while (path && *path) {
        size_t l = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/%s", (int)l, path, clang);
        if (access(dir, X_OK) == 0) {
            hash_str(h, dir);
            hash_stat(h, dir);
            return;
        }
        path += l + (path[l] == ':');
    }
}

char *cfront_cache_entry(const char *path, const cfront_opts *o, const char *clang)
{
    if (cache_off())
        return NULL;
    char *dir = cache_dir();
    if (!dir)
        return NULL;
    hash128 h;
    hash_init(&h);
    hash_str(&h, CACHE_MAGIC);
    hash_stat(&h, "/proc/self/exe");      /* a rebuilt wmx translates afresh */
    hash_clang(&h, clang ? clang : "");
    char cwd[4096];
    hash_str(&h, getcwd(cwd, sizeof cwd) ? cwd : "?");
    hash_str(&h, path);
    hash_long(&h, o ? o->nflags : 0);
    for (int i = 0; o && i < o->nflags; i++)
        hash_str(&h, o->flags[i]);
    hash_long(&h, o ? o->unroll : 0);
    hash_long(&h, o ? o->unroll_given : 0);
    hash_long(&h, o ? o->plp : 0);
    hash_long(&h, o ? o->no_plp : 0);
    hash_long(&h, o ? o->no_spin_assume : 0);
    hash_long(&h, o ? (long)o->nondet_lo : 0);
    hash_long(&h, o ? (long)o->nondet_hi : 0);
    hash_long(&h, o ? o->nondet_given : 0);
    size_t n = strlen(dir) + 64;
    char *entry = wmx_malloc(n);
    snprintf(entry, n, "%s/%016llx%016llx.wmxc", dir, (unsigned long long)h.a, (unsigned long long)h.b);
    free(dir);
    return entry;
}

/* ---- the program as bytes --------------------------------------------- */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
} wbuf;

static void put(wbuf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = 2 * (b->n + n) + 256;
        b->p = wmx_realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_i32(wbuf *b, int32_t v) { put(b, &v, sizeof v); }
static void put_i64(wbuf *b, int64_t v) { put(b, &v, sizeof v); }

static void put_str(wbuf *b, const char *s)
{
    if (!s) {
        put_i32(b, -1);
        return;
    }
    int32_t l = (int32_t)strlen(s);
    put_i32(b, l);
    put(b, s, (size_t)l);
}

static void put_addr(wbuf *b, const ir_addr *a)
{
    put_i32(b, a->var);
    put_i32(b, a->index);
    put_i32(b, a->ptr);
}

static void put_lhs(wbuf *b, const cond_lhs *l)
{
    put_i32(b, l->thread);
    put_i32(b, l->reg);
    put_i32(b, l->cell);
}

unsigned char *cfront_cache_encode(const wmx_program *p, size_t *len)
{
    wbuf b = { 0 };
    put_str(&b, p->name);
    put_str(&b, p->file);
    put_str(&b, p->arch);
    put_i32(&b, p->nsrcfiles);
    for (int i = 0; i < p->nsrcfiles; i++)
        put_str(&b, p->srcfiles[i]);
    put_i32(&b, p->nthreads);
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        put_str(&b, th->name);
        put_i32(&b, th->nregs);
        for (int r = 0; r < th->nregs; r++)
            put_str(&b, th->reg_names ? th->reg_names[r] : NULL);
        put_i32(&b, th->reg_init != NULL);
        for (int r = 0; th->reg_init && r < th->nregs; r++)
            put_i64(&b, th->reg_init[r]);
        put_i32(&b, th->ninstrs);
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            put_i32(&b, in->kind);
            put_addr(&b, &in->addr);
            put_addr(&b, &in->addr2);
            put_i32(&b, in->dst);
            put_i32(&b, in->dst2);
            put_i32(&b, in->e1);
            put_i32(&b, in->e2);
            put_i32(&b, in->cmp);
            put_i32(&b, in->target);
            put_i32(&b, in->loc.line);
            put_i32(&b, in->loc.col);
            put_i32(&b, in->loc.file);
            put_str(&b, in->text);
            put_i32(&b, in->bound_cut);
            put_i32(&b, in->blocking);
            put_i32(&b, in->spin);
            put_i32(&b, in->writes_back);
            put_i32(&b, in->ends);
        }
        put_i32(&b, th->nloops);
        for (int l = 0; l < th->nloops; l++) {
            put_i32(&b, th->loops[l].head);
            put_i32(&b, th->loops[l].end);
            put_i32(&b, th->loops[l].counter);
            put_i32(&b, th->loops[l].bound);
        }
    }
    put_i32(&b, p->nvars);
    for (int v = 0; v < p->nvars; v++) {
        put_str(&b, p->vars[v].name);
        put_i32(&b, p->vars[v].base);
        put_i32(&b, p->vars[v].length);
        put_i32(&b, p->vars[v].elem_size);
    }
    put_i32(&b, p->ncells);
    for (int c = 0; c < p->ncells; c++)
        put_i64(&b, p->cell_init[c]);
    put_i32(&b, p->nexprs);
    for (int e = 0; e < p->nexprs; e++) {
        const ir_expr *x = &p->exprs[e];
        put_i32(&b, x->op);
        put_i32(&b, x->a);
        put_i32(&b, x->b);
        put_i32(&b, x->reg);
        put_i64(&b, x->value);
    }
    put_i32(&b, p->nconds);
    for (int c = 0; c < p->nconds; c++) {
        const ir_cond *x = &p->conds[c];
        put_i32(&b, x->kind);
        put_i32(&b, x->a);
        put_i32(&b, x->b);
        put_lhs(&b, &x->lhs);
        put_i64(&b, x->value);
        put_i32(&b, x->value_is_addr);
    }
    put_i32(&b, p->quant);
    put_i32(&b, p->cond_root);
    put_str(&b, p->cond_text);
    put_i32(&b, p->nobserved);
    for (int i = 0; i < p->nobserved; i++)
        put_lhs(&b, &p->observed[i]);
    put_i32(&b, p->pgas_ranks);
    put_i32(&b, p->pgas_rank_reg);
    put_i32(&b, p->pgas_nranks_reg);
    put_i32(&b, p->pgas_queues);
    put_i32(&b, p->unroll);
    put_i32(&b, p->observed_shown_only);
    put_i32(&b, p->has_nondet);
    put_i64(&b, p->nondet_lo);
    put_i64(&b, p->nondet_hi);
    put_i32(&b, p->nondet_nextra);
    for (int i = 0; i < p->nondet_nextra; i++)
        put_i64(&b, p->nondet_extra[i]);
    put_i32(&b, p->plp);
    /* the cells that hold doubles, when some do (an optional tail, so the
     * bytes of a program without any are as before) */
    int nfloat = 0;
    for (int c = 0; p->cell_float && c < p->ncells; c++)
        nfloat += p->cell_float[c] != 0;
    if (nfloat) {
        put_i32(&b, nfloat);
        for (int c = 0; c < p->ncells; c++)
            if (p->cell_float[c])
                put_i32(&b, c);
    }
    *len = b.n;
    return b.p;
}

typedef struct rbuf {
    const unsigned char *p;
    size_t n, at;
    bool bad;
} rbuf;

static void get(rbuf *b, void *out, size_t n)
{
    if (b->bad || b->n - b->at < n) {
        b->bad = true;
        memset(out, 0, n);
        return;
    }
    memcpy(out, b->p + b->at, n);
    b->at += n;
}

static int32_t get_i32(rbuf *b)
{
    int32_t v;
    get(b, &v, sizeof v);
    return v;
}

static int64_t get_i64(rbuf *b)
{
    int64_t v;
    get(b, &v, sizeof v);
    return v;
}

/* a count that fits in what is left (each item takes at least `min` bytes) */
static int get_count(rbuf *b, size_t min)
{
    int32_t v = get_i32(b);
    if (v < 0 || (size_t)v > (b->n - b->at) / (min ? min : 1) + 1) {
        b->bad = true;
        return 0;
    }
    return v;
}

static char *get_str(rbuf *b)
{
    int32_t l = get_i32(b);
    if (l < 0 || b->bad)
        return NULL;
    if ((size_t)l > b->n - b->at) {
        b->bad = true;
        return NULL;
    }
    char *s = wmx_strndup((const char *)b->p + b->at, (size_t)l);
    b->at += (size_t)l;
    return s;
}

static void get_addr(rbuf *b, ir_addr *a)
{
    a->var = get_i32(b);
    a->index = get_i32(b);
    a->ptr = get_i32(b);
}

static void get_lhs(rbuf *b, cond_lhs *l)
{
    l->thread = get_i32(b);
    l->reg = get_i32(b);
    l->cell = get_i32(b);
}

/* ---- what a decoded program must satisfy ------------------------------
 * Every index in range before anyone uses the program (a damaged entry
 * crashed ir_eval, the machine and the explorers, issue 47): expressions
 * refer to earlier ones only (so none is its own operand), every register
 * an instruction's expressions read is one of its thread's, every cell,
 * variable, thread, condition and jump target exists. */

static bool in_range(int v, int lo, int hi) { return v >= lo && v < hi; }

/* -1 or an expression whose registers are all below nregs */
static bool expr_ok(const wmx_program *p, const int *maxreg, int e, int nregs)
{
    return e == -1 || (in_range(e, 0, p->nexprs) && maxreg[e] < nregs);
}

static bool addr_ok(const wmx_program *p, const int *maxreg, const ir_addr *a, int nregs)
{
    return in_range(a->var, -1, p->nvars) && expr_ok(p, maxreg, a->index, nregs) &&
           expr_ok(p, maxreg, a->ptr, nregs);
}

static bool lhs_ok(const wmx_program *p, const cond_lhs *l)
{
    if (l->thread >= 0)
        return l->thread < p->nthreads && in_range(l->reg, 0, p->threads[l->thread].nregs);
    return l->thread == -1 && in_range(l->cell, 0, p->ncells);
}

static bool program_valid(const wmx_program *p)
{
    if (!p->name || !p->file || !p->arch || !in_range(p->nthreads, 1, WMX_MAX_THREADS + 1))
        return false;
    for (int i = 0; i < p->nsrcfiles; i++)
        if (!p->srcfiles[i])
            return false;
    for (int v = 0; v < p->nvars; v++) {
        const ir_var *x = &p->vars[v];
        if (!x->name || x->base < 0 || x->length < 1 || x->base > p->ncells - x->length ||
            x->elem_size < 1 || (int64_t)x->length * x->elem_size > 0x10000)
            return false;
    }
    /* expressions, bottom up: the highest register each one reads */
    static const int max_op = OP_F32;
    int *maxreg = wmx_malloc((size_t)(p->nexprs ? p->nexprs : 1) * sizeof *maxreg);
    bool ok = true;
    for (int e = 0; e < p->nexprs && ok; e++) {
        const ir_expr *x = &p->exprs[e];
        int unary = x->op <= max_op && ir_op_is_unary(x->op);
        int leaf = x->op == OP_CONST || x->op == OP_REG || x->op == OP_ADDR;
        ok = in_range((int)x->op, 0, max_op + 1) &&
             (leaf ? x->a == -1 : in_range(x->a, 0, e)) &&
             (leaf || unary ? x->b == -1 : in_range(x->b, 0, e)) &&
             (x->op != OP_REG || x->reg >= 0) &&
             (x->op != OP_ADDR || (x->value >= 0 && x->value < p->ncells));
        if (!ok)
            break;
        int m = x->op == OP_REG ? x->reg : -1;
        if (x->a >= 0 && maxreg[x->a] > m)
            m = maxreg[x->a];
        if (x->b >= 0 && maxreg[x->b] > m)
            m = maxreg[x->b];
        maxreg[e] = m;
    }
    for (int t = 0; t < p->nthreads && ok; t++) {
        const ir_thread *th = &p->threads[t];
        int nr = th->nregs;
        if (!th->name)
            ok = false;
        for (int r = 0; r < nr && ok; r++)
            ok = th->reg_names[r] != NULL;
        for (int i = 0; i < th->ninstrs && ok; i++) {
            const ir_instr *in = &th->instrs[i];
            bool mem = in->kind == I_LOAD || in->kind == I_STORE || in->kind == I_XCHG ||
                       in->kind == I_FAA || in->kind == I_CAS || in->kind == I_AWAIT ||
                       in->kind == I_PREAD || in->kind == I_PWRITE;
            ok = in_range((int)in->kind, 0, (int)I_QUIET + 1) &&
                 addr_ok(p, maxreg, &in->addr, nr) && addr_ok(p, maxreg, &in->addr2, nr) &&
                 (!mem || in->addr.var >= 0 || in->addr.ptr >= 0) &&
                 in_range(in->dst, -1, nr) && in_range(in->dst2, -1, nr) &&
                 expr_ok(p, maxreg, in->e1, nr) && expr_ok(p, maxreg, in->e2, nr) &&
                 in_range((int)in->cmp, (int)OP_EQ, (int)OP_GE + 1) &&
                 (in->kind == I_JUMP ? in_range(in->target, 0, th->ninstrs + 1)
                                     : in_range(in->target, -1, th->ninstrs + 1)) &&
                 in->loc.line >= 0 && in->loc.col >= 0 &&
                 in_range(in->loc.file, 0, p->nsrcfiles + 1);
        }
        for (int l = 0; l < th->nloops && ok; l++) {
            const ir_loop *L = &th->loops[l];
            ok = L->head >= 0 && L->head <= L->end && L->end <= th->ninstrs &&
                 in_range(L->counter, 0, nr) && L->bound >= 0;
        }
    }
    free(maxreg);
    if (!ok)
        return false;
    for (int c = 0; c < p->nconds; c++) {
        const ir_cond *x = &p->conds[c];
        bool two = x->kind == C_AND || x->kind == C_OR || x->kind == C_IMPLIES;
        bool one = two || x->kind == C_NOT;
        if (!in_range((int)x->kind, 0, (int)C_IMPLIES + 1) ||
            !(one ? in_range(x->a, 0, c) : x->a == -1) ||
            !(two ? in_range(x->b, 0, c) : x->b == -1) ||
            (x->kind == C_EQ && !lhs_ok(p, &x->lhs)) ||
            (x->kind == C_EQ && x->value_is_addr && (x->value < 0 || x->value >= p->ncells)))
            return false;
    }
    if (!in_range((int)p->quant, 0, (int)Q_FORALL + 1) || !in_range(p->cond_root, -1, p->nconds) ||
        (p->quant != Q_NONE && p->cond_root < 0))
        return false;
    for (int i = 0; i < p->nobserved; i++)
        if (!lhs_ok(p, &p->observed[i]))
            return false;
    if (p->pgas_ranks != 0) {
        int nr = p->threads[0].nregs;
        if (!in_range(p->pgas_ranks, 1, WMX_PGAS_MAX_RANKS + 1) || p->nthreads != 1 ||
            !in_range(p->pgas_rank_reg, -1, nr) || !in_range(p->pgas_nranks_reg, -1, nr) ||
            !in_range(p->pgas_queues, 0, WMX_PGAS_MAX_QUEUES + 1))
            return false;
    }
    return p->unroll >= 0;
}

wmx_program *cfront_cache_decode(const unsigned char *buf, size_t len)
{
    rbuf b = { buf, len, 0, false };
    wmx_program *p = wmx_calloc(1, sizeof *p);
    p->name = get_str(&b);
    p->file = get_str(&b);
    p->arch = get_str(&b);
    int nf = get_count(&b, 4);
    p->srcfiles = wmx_calloc((size_t)(nf ? nf : 1), sizeof *p->srcfiles);
    for (int i = 0; i < nf && !b.bad; i++) {
        p->srcfiles[i] = get_str(&b);
        p->nsrcfiles = i + 1;
    }
    int nt = get_count(&b, 4);
    p->threads = wmx_calloc((size_t)(nt ? nt : 1), sizeof *p->threads);
    for (int t = 0; t < nt && !b.bad; t++) {
        ir_thread *th = &p->threads[t];
        p->nthreads = t + 1;
        th->name = get_str(&b);
        int nr = get_count(&b, 4);
        th->reg_names = wmx_calloc((size_t)(nr ? nr : 1), sizeof *th->reg_names);
        for (int r = 0; r < nr && !b.bad; r++) {
            th->reg_names[r] = get_str(&b);
            th->nregs = r + 1;
        }
        if (get_i32(&b)) {
            th->reg_init = wmx_calloc((size_t)(nr ? nr : 1), sizeof *th->reg_init);
            for (int r = 0; r < nr; r++)
                th->reg_init[r] = get_i64(&b);
        }
        int ni = get_count(&b, 60);
        th->instrs = wmx_calloc((size_t)(ni ? ni : 1), sizeof *th->instrs);
        for (int i = 0; i < ni && !b.bad; i++) {
            ir_instr *in = &th->instrs[i];
            th->ninstrs = i + 1;
            in->kind = (ir_kind)get_i32(&b);
            get_addr(&b, &in->addr);
            get_addr(&b, &in->addr2);
            in->dst = get_i32(&b);
            in->dst2 = get_i32(&b);
            in->e1 = get_i32(&b);
            in->e2 = get_i32(&b);
            in->cmp = (ir_op)get_i32(&b);
            in->target = get_i32(&b);
            in->loc.line = get_i32(&b);
            in->loc.col = get_i32(&b);
            in->loc.file = get_i32(&b);
            in->text = get_str(&b);
            in->bound_cut = get_i32(&b) != 0;
            in->blocking = get_i32(&b) != 0;
            in->spin = get_i32(&b) != 0;
            in->writes_back = get_i32(&b) != 0;
            in->ends = (unsigned char)get_i32(&b);
        }
        int nl = get_count(&b, 16);
        th->loops = wmx_calloc((size_t)(nl ? nl : 1), sizeof *th->loops);
        for (int l = 0; l < nl && !b.bad; l++) {
            th->nloops = l + 1;
            th->loops[l].head = get_i32(&b);
            th->loops[l].end = get_i32(&b);
            th->loops[l].counter = get_i32(&b);
            th->loops[l].bound = get_i32(&b);
        }
    }
    int nv = get_count(&b, 16);
    p->vars = wmx_calloc((size_t)(nv ? nv : 1), sizeof *p->vars);
    for (int v = 0; v < nv && !b.bad; v++) {
        p->nvars = v + 1;
        p->vars[v].name = get_str(&b);
        p->vars[v].base = get_i32(&b);
        p->vars[v].length = get_i32(&b);
        p->vars[v].elem_size = get_i32(&b);
    }
    int nc = get_count(&b, 8);
    p->cell_init = wmx_calloc((size_t)(nc ? nc : 1), sizeof *p->cell_init);
    p->ncells = nc;
    for (int c = 0; c < nc; c++)
        p->cell_init[c] = get_i64(&b);
    int ne = get_count(&b, 24);
    p->exprs = wmx_calloc((size_t)(ne ? ne : 1), sizeof *p->exprs);
    p->nexprs = p->cap_exprs = ne;
    for (int e = 0; e < ne; e++) {
        ir_expr *x = &p->exprs[e];
        x->op = (ir_op)get_i32(&b);
        x->a = get_i32(&b);
        x->b = get_i32(&b);
        x->reg = get_i32(&b);
        x->value = get_i64(&b);
    }
    int nk = get_count(&b, 36);
    p->conds = wmx_calloc((size_t)(nk ? nk : 1), sizeof *p->conds);
    p->nconds = p->cap_conds = nk;
    for (int c = 0; c < nk; c++) {
        ir_cond *x = &p->conds[c];
        x->kind = (cond_kind)get_i32(&b);
        x->a = get_i32(&b);
        x->b = get_i32(&b);
        get_lhs(&b, &x->lhs);
        x->value = get_i64(&b);
        x->value_is_addr = get_i32(&b) != 0;
    }
    p->quant = (quantifier)get_i32(&b);
    p->cond_root = get_i32(&b);
    p->cond_text = get_str(&b);
    int no = get_count(&b, 12);
    p->observed = wmx_calloc((size_t)(no ? no : 1), sizeof *p->observed);
    p->nobserved = no;
    for (int i = 0; i < no; i++)
        get_lhs(&b, &p->observed[i]);
    p->pgas_ranks = get_i32(&b);
    p->pgas_rank_reg = get_i32(&b);
    p->pgas_nranks_reg = get_i32(&b);
    p->pgas_queues = get_i32(&b);
    p->unroll = get_i32(&b);
    p->observed_shown_only = get_i32(&b) != 0;
    p->has_nondet = get_i32(&b) != 0;
    p->nondet_lo = get_i64(&b);
    p->nondet_hi = get_i64(&b);
    int nx = get_count(&b, 8);
    p->nondet_extra = nx ? wmx_calloc((size_t)nx, sizeof *p->nondet_extra) : NULL;
    for (int i = 0; i < nx && !b.bad; i++) {
        p->nondet_extra[i] = get_i64(&b);
        p->nondet_nextra = i + 1;
    }
    p->plp = get_i32(&b) != 0;
    if (!b.bad && b.at < b.n) {
        int nfloat = get_count(&b, 4);
        if (nfloat < 1 || nfloat > p->ncells)
            b.bad = true;
        else
            p->cell_float = wmx_calloc((size_t)p->ncells, 1);
        for (int i = 0; i < nfloat && !b.bad; i++) {
            int c = get_i32(&b);
            if (c < 0 || c >= p->ncells || p->cell_float[c])
                b.bad = true;
            else
                p->cell_float[c] = 1;
        }
    }
    if (b.bad || b.at != b.n || !program_valid(p)) {
        ir_program_free(p);
        return NULL;
    }
    return p;
}

/* ---- entries ------------------------------------------------------------
 * CACHE_MAGIC, then 16 bytes of hash of everything after them, then the
 * dependencies (count, then each: path, 16 bytes of contents' hash), then
 * the encoded program.  The hash makes any damage (a changed byte changes
 * both FNV-1a streams) a miss rather than a different program. */

enum { SUM_LEN = 16 };

wmx_program *cfront_cache_get(const char *entry)
{
    size_t n = 0;
    char *s = slurp(entry, &n);
    if (!s)
        return NULL;
    size_t ml = strlen(CACHE_MAGIC);
    wmx_program *p = NULL;
    if (n < ml + SUM_LEN || memcmp(s, CACHE_MAGIC, ml) != 0)
        goto out;
    hash128 sum;
    hash_init(&sum);
    hash_bytes(&sum, s + ml + SUM_LEN, n - ml - SUM_LEN);
    rbuf b = { (const unsigned char *)s, n, ml, false };
    if ((uint64_t)get_i64(&b) != sum.a || (uint64_t)get_i64(&b) != sum.b)
        goto out;
    int nd = get_count(&b, 20);
    for (int i = 0; i < nd && !b.bad; i++) {
        char *dep = get_str(&b);
        hash128 want, have;
        want.a = (uint64_t)get_i64(&b);
        want.b = (uint64_t)get_i64(&b);
        bool same = dep && !b.bad && file_hash(dep, &have) && have.a == want.a && have.b == want.b;
        free(dep);
        if (!same)
            goto out;
    }
    if (!b.bad)
        p = cfront_cache_decode(b.p + b.at, b.n - b.at);
out:
    free(s);
    return p;
}

/* the dependency file's paths ("target: a b \\\n c", spaces escaped as
 * "\ "), each made absolute and listed in out with its contents' hash */
static int each_dep(char *text, wbuf *out, int *count)
{
    char *p = strchr(text, ':');
    if (!p)
        return -1;
    p++;
    char path[4096];
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
            p += *p == '\\' ? 2 : 1;
        if (!*p)
            break;
        size_t l = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\\' && p[1] == ' ')
                p++;
            else if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
                break;
            if (l + 1 < sizeof path)
                path[l++] = *p;
            p++;
        }
        path[l] = '\0';
        if (l == 0)
            continue;
        char *abs = realpath(path, NULL);
        hash128 h;
        if (!abs || !file_hash(abs, &h)) {
            free(abs);
            return -1;
        }
        put_str(out, abs);
        put_i64(out, (int64_t)h.a);
        put_i64(out, (int64_t)h.b);
        (*count)++;
        free(abs);
    }
    return 0;
}

/* temp + rename, without fsync: after a crash an entry may be empty or
 * cut, which cfront_cache_get refuses; a sync would cost every miss */
static void write_entry(const char *entry, const unsigned char *data, size_t n)
{
    size_t l = strlen(entry) + 16;
    char *tmp = wmx_malloc(l);
    snprintf(tmp, l, "%s.XXXXXX", entry);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return;
    }
    wmx_temp_add(tmp);
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(fd, data + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    if (close(fd) != 0 || done != n || rename(tmp, entry) != 0)
        wmx_temp_unlink(tmp);
    else
        wmx_temp_drop(tmp);
    free(tmp);
}

/* An entry's bytes: the magic, the sum, the dependency list (count
 * entries, as each_dep writes them), the encoded program. */
static unsigned char *entry_bytes(const wbuf *list, int count, const unsigned char *prog, size_t plen,
                                  size_t *len)
{
    wbuf all = { 0 };
    size_t ml = strlen(CACHE_MAGIC);
    put(&all, CACHE_MAGIC, ml);
    put_i64(&all, 0);                   /* the sum, set below */
    put_i64(&all, 0);
    put_i32(&all, count);
    if (list->n)
        put(&all, list->p, list->n);
    if (plen)
        put(&all, prog, plen);
    hash128 sum;
    hash_init(&sum);
    hash_bytes(&sum, all.p + ml + SUM_LEN, all.n - ml - SUM_LEN);
    int64_t sa = (int64_t)sum.a, sb = (int64_t)sum.b;
    memcpy(all.p + ml, &sa, sizeof sa);
    memcpy(all.p + ml + sizeof sa, &sb, sizeof sb);
    *len = all.n;
    return all.p;
}

void cfront_cache_put(const char *entry, const wmx_program *p, const char *depfile)
{
    size_t n = 0;
    char *deps = slurp(depfile, &n);
    if (!deps)
        return;
    deps = wmx_realloc(deps, n + 1);
    deps[n] = '\0';
    wbuf list = { 0 };
    int count = 0;
    int rc = each_dep(deps, &list, &count);
    free(deps);
    if (rc != 0 || count == 0) {
        free(list.p);
        return;
    }
    size_t plen = 0, alen = 0;
    unsigned char *prog = cfront_cache_encode(p, &plen);
    unsigned char *all = entry_bytes(&list, count, prog, plen, &alen);
    write_entry(entry, all, alen);
    free(list.p);
    free(prog);
    free(all);
}

unsigned char *cfront_cache_wrap(const unsigned char *prog, size_t plen, const char *const *deps, int ndeps,
                                 size_t *len)
{
    wbuf list = { 0 };
    for (int i = 0; i < ndeps; i++) {
        hash128 h;
        if (!file_hash(deps[i], &h)) {
            free(list.p);
            return NULL;
        }
        put_str(&list, deps[i]);
        put_i64(&list, (int64_t)h.a);
        put_i64(&list, (int64_t)h.b);
    }
    unsigned char *all = entry_bytes(&list, ndeps, prog, plen, len);
    free(list.p);
    return all;
}
