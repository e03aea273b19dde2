#!/bin/sh
# litmus2c.sh - translate an x86 litmus test (herd7's Intel-syntax `X86`
# dialect) into a C11 program for `wmx explore prog.c`.
#
#   sh tests/c/litmus2c.sh TEST.litmus > test.c
#
# One thread function P<n> per litmus column, the x86 registers as int
# locals, every location as an atomic_int global accessed with relaxed
# atomics (plain MOVs under the x86 mapping), MFENCE as
# atomic_thread_fence(memory_order_seq_cst), XCHG and the LOCK-prefixed
# read-modify-writes as atomic_exchange / atomic_fetch_add /
# atomic_compare_exchange_strong (locked: a full fence).  Each register named
# in the final condition is copied into the global P<n>_<REG> at the end of
# its thread, and main, after creating and joining all threads, checks
#   exists (C) / ~exists (C):  assert(!(C))   - fails iff C is reachable
#   forall (C):                assert(C)      - fails iff some state breaks C
#
# Translated: MOV reg,imm|reg|[x]; MOV [x],imm|reg; MFENCE; LFENCE/SFENCE/NOP
# (no-ops on x86-TSO); XCHG [x],reg / reg,[x] / reg,reg; LOCK XADD [x],reg;
# LOCK ADD|SUB [x],imm|reg; LOCK INC|DEC [x]; LOCK CMPXCHG [x],reg; register
# arithmetic ADD SUB AND OR XOR (reg,imm|reg), INC DEC NEG NOT (reg).
# Init: x=N, [x]=N, N:REG=N.  Conditions: atoms N:REG=V, x=V, [x]=V (also
# == and !=), /\ \/ ~ parentheses true false, under exists ~exists forall;
# `locations [...]` is ignored (it changes no verdict).
# Anything else (labels and jumps, flags, non-LOCK memory arithmetic,
# addressing other than [name], size prefixes, filter, =>, the X86_64
# dialect, ...) is refused: `unsupported: WHAT` on stderr and exit 3.
# Other errors (no file) exit 2.
#
# POSIX sh and awk only (CI has no python).

[ $# = 1 ] || { echo "usage: litmus2c.sh TEST.litmus" >&2; exit 2; }
[ -r "$1" ] || { echo "litmus2c.sh: cannot read $1" >&2; exit 2; }

awk '
function unsupported(what) {
    if (!failed) print "unsupported: " what | "cat 1>&2"
    failed = 1
    exit 3
}
function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
function isreg(s) { return s ~ /^E(AX|BX|CX|DX|SI|DI|BP|SP)$/ }
function isimm(s) { return s ~ /^\$-?([0-9]+|0[xX][0-9a-fA-F]+)$/ }
function isint(s) { return s ~ /^-?([0-9]+|0[xX][0-9a-fA-F]+)$/ }
function ismem(s) { return s ~ /^\[[A-Za-z_][A-Za-z0-9_]*\]$/ && !isreg(toupper(memname(s))) }
function memname(s) { return substr(s, 2, length(s) - 2) }
# a C name for a litmus location: refuse what would clash with C or with
# the names this script generates
function loc(name) {
    if (name ~ /^(auto|break|case|char|const|continue|default|do|double|else|enum|extern|float|for|goto|if|inline|int|long|register|restrict|return|short|signed|sizeof|static|struct|switch|typedef|union|unsigned|void|volatile|while|main|arg|assert|NULL|true|false|bool|tmp|expected)$/ ||
        name ~ /^(P[0-9]+|P[0-9]+_.*|t[0-9]+|_.*|atomic_.*|memory_order_.*|pthread_.*|E(AX|BX|CX|DX|SI|DI|BP|SP))$/)
        unsupported("location name " name)
    if (!(name in isloc)) { isloc[name] = 1; locs[++nlocs] = name }
    return name
}
function reg(t, r) { if (!((t, r) in hasreg)) { hasreg[t, r] = 1; regs[t, ++nregs[t]] = r } return r }
function ld(x) { return "atomic_load_explicit(&" loc(x) ", memory_order_relaxed)" }
function val(t, s) {        # an immediate or a register as a C expression
    if (isimm(s)) return substr(s, 2)
    if (isreg(s)) return reg(t, s)
    unsupported("operand " s)
}
function emit(t, line) { code[t] = code[t] "    " line "\n" }

# one instruction of thread t
function instr(t, ins,    u, mn, ops, n, a, b, lock, x, v) {
    if (ins ~ /^[A-Za-z_][A-Za-z0-9_]*:/) unsupported("label in " ins)
    u = ins
    lock = 0
    if (toupper(u) ~ /^LOCK[ \t]/) { lock = 1; u = trim(substr(u, 5)) }
    mn = u; sub(/[ \t].*/, "", mn); mn = toupper(mn)
    ops = trim(substr(u, length(mn) + 1))
    if (ops ~ /(PTR|BYTE|WORD|DWORD|QWORD)/) unsupported("size prefix in " ins)
    n = split(ops, o, ",")
    a = trim(o[1]); b = trim(o[2])
    if (isreg(toupper(a))) a = toupper(a)
    if (isreg(toupper(b))) b = toupper(b)
    if (ops == "") n = 0
    if (lock && mn !~ /^(XADD|ADD|SUB|INC|DEC|CMPXCHG|XCHG)$/) unsupported("LOCK " mn)
    if (lock && n >= 1 && !ismem(a)) unsupported("LOCK " mn " without a memory destination")
    if (mn == "MFENCE" && n == 0 && !lock) {
        emit(t, "atomic_thread_fence(memory_order_seq_cst);")
    } else if ((mn == "LFENCE" || mn == "SFENCE" || mn == "NOP") && n == 0 && !lock) {
        emit(t, ";    // " mn ": no effect on x86-TSO")
    } else if (mn == "MOV" && n == 2) {
        if (isreg(a) && ismem(b)) emit(t, reg(t, a) " = " ld(memname(b)) ";")
        else if (isreg(a) && (isreg(b) || isimm(b))) emit(t, reg(t, a) " = " val(t, b) ";")
        else if (ismem(a) && (isreg(b) || isimm(b)))
            emit(t, "atomic_store_explicit(&" loc(memname(a)) ", " val(t, b) ", memory_order_relaxed);")
        else unsupported("MOV " ops)
    } else if (mn == "XCHG" && n == 2) {
        if (ismem(a) && isreg(b)) { x = memname(a); v = b }
        else if (isreg(a) && ismem(b)) { x = memname(b); v = a }
        else if (isreg(a) && isreg(b) && !lock) {
            emit(t, "{ int tmp = " reg(t, a) "; " a " = " reg(t, b) "; " b " = tmp; }")
            return
        } else unsupported("XCHG " ops)
        emit(t, reg(t, v) " = atomic_exchange(&" loc(x) ", " v ");")
    } else if (lock && mn == "XADD" && n == 2 && isreg(b)) {
        emit(t, reg(t, b) " = atomic_fetch_add(&" loc(memname(a)) ", " b ");")
    } else if (lock && (mn == "ADD" || mn == "SUB") && n == 2 && (isreg(b) || isimm(b))) {
        v = val(t, b)
        if (mn == "SUB") v = "-(" v ")"
        emit(t, "atomic_fetch_add(&" loc(memname(a)) ", " v ");")
    } else if (lock && (mn == "INC" || mn == "DEC") && n == 1) {
        emit(t, "atomic_fetch_add(&" loc(memname(a)) ", " (mn == "INC" ? "1" : "-1") ");")
    } else if (lock && mn == "CMPXCHG" && n == 2 && isreg(b)) {
        # compare EAX with [x]: equal -> [x] = b; either way EAX ends as the old [x]
        reg(t, "EAX")
        emit(t, "{ int expected = EAX; atomic_compare_exchange_strong(&" loc(memname(a)) ", &expected, " reg(t, b) "); EAX = expected; }")
    } else if (!lock && mn ~ /^(ADD|SUB|AND|OR|XOR)$/ && n == 2 && isreg(a) && (isreg(b) || isimm(b))) {
        v = val(t, b)
        emit(t, reg(t, a) " " (mn == "ADD" ? "+" : mn == "SUB" ? "-" : mn == "AND" ? "&" : mn == "OR" ? "|" : "^") "= " v ";")
    } else if (!lock && mn ~ /^(INC|DEC|NEG|NOT)$/ && n == 1 && isreg(a)) {
        reg(t, a)
        if (mn == "INC") emit(t, a " = " a " + 1;")
        else if (mn == "DEC") emit(t, a " = " a " - 1;")
        else if (mn == "NEG") emit(t, a " = -" a ";")
        else emit(t, a " = ~" a ";")
    } else {
        unsupported("instruction " ins)
    }
}

# the final condition as a C expression
function condition(s,    out, tok, lhs, op, t, r) {
    out = ""
    while (1) {
        s = trim(s)
        if (s == "") break
        if (s ~ /^\(\*/) unsupported("comment in the condition")
        if (substr(s, 1, 1) == "(" || substr(s, 1, 1) == ")") { out = out substr(s, 1, 1); s = substr(s, 2); continue }
        if (substr(s, 1, 2) == "/\\") { out = out " && "; s = substr(s, 3); continue }
        if (substr(s, 1, 2) == "\\/") { out = out " || "; s = substr(s, 3); continue }
        if (substr(s, 1, 2) == "=>") unsupported("=> in the condition")
        if (substr(s, 1, 1) == "~" || (substr(s, 1, 1) == "!" && substr(s, 2, 1) != "=")) { out = out "!"; s = substr(s, 2); continue }
        if (match(s, /^(true|false)([^A-Za-z0-9_]|$)/)) {
            out = out (substr(s, 1, 4) == "true" ? "1" : "0"); s = substr(s, (substr(s, 1, 4) == "true") ? 5 : 6); continue
        }
        # an atom: lhs (= | == | !=) int
        if (match(s, /^[0-9]+:[A-Za-z][A-Za-z0-9]*/)) {
            lhs = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
            t = lhs; sub(/:.*/, "", t); r = toupper(substr(lhs, length(t) + 2))
            if (!isreg(r)) unsupported("register " lhs " in the condition")
            if (t + 0 >= nthreads) unsupported("thread " t " in the condition")
            reg(t + 0, r)
            if (!((t + 0, r) in observed)) { observed[t + 0, r] = 1; obs[++nobs] = t + 0 SUBSEP r }
            lhs = "P" (t + 0) "_" r
        } else if (match(s, /^\[[A-Za-z_][A-Za-z0-9_]*\]/) || match(s, /^[A-Za-z_][A-Za-z0-9_]*/)) {
            lhs = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
            if (substr(lhs, 1, 1) == "[") lhs = memname(lhs)
            lhs = ld(lhs)
        } else unsupported("condition syntax at: " s)
        s = trim(s)
        if (substr(s, 1, 2) == "==" || substr(s, 1, 2) == "!=") { op = substr(s, 1, 2); s = substr(s, 3) }
        else if (substr(s, 1, 1) == "=") { op = "=="; s = substr(s, 2) }
        else unsupported("condition syntax at: " s)
        s = trim(s)
        if (!match(s, /^-?(0[xX][0-9a-fA-F]+|[0-9]+)/)) unsupported("condition value at: " s)
        out = out "(" lhs " " op " " substr(s, 1, RLENGTH) ")"
        s = substr(s, RLENGTH + 1)
    }
    if (out == "") unsupported("empty condition")
    return out
}

function init_item(s,    k, v, t, r) {
    s = trim(s)
    if (s == "") return
    if (!match(s, /=/)) unsupported("init item " s)
    k = trim(substr(s, 1, RSTART - 1)); v = trim(substr(s, RSTART + 1))
    if (!isint(v)) unsupported("init value " s)
    if (k ~ /^[0-9]+:[A-Za-z][A-Za-z0-9]*$/) {
        t = k; sub(/:.*/, "", t); r = toupper(substr(k, length(t) + 2))
        if (!isreg(r)) unsupported("init register " k)
        reginit[t + 0, r] = v      # checked against the threads at the end
        reginits[++nreginits] = (t + 0) SUBSEP r
    } else if (k ~ /^\[[A-Za-z_][A-Za-z0-9_]*\]$/ || k ~ /^[A-Za-z_][A-Za-z0-9_]*$/) {
        if (substr(k, 1, 1) == "[") k = memname(k)
        locinit[loc(k)] = v
    } else unsupported("init item " s)
}

{ sub(/\r$/, "") }
NR == 1 {
    if ($1 != "X86") unsupported("dialect " $1 " (only X86)")
    name = $2
    next
}
phase == 0 {                    # header lines up to the init section
    if (index($0, "{") == 0) next
    phase = 1
    $0 = substr($0, index($0, "{") + 1)
}
phase == 1 {                    # the init section
    line = $0
    done = index(line, "}")
    if (done) line = substr(line, 1, done - 1)
    n = split(line, items, ";")
    for (i = 1; i <= n; i++) init_item(items[i])
    if (done) { phase = 2; rest = trim(substr($0, done + 1)); if (rest != "") unsupported("text after the init section") }
    next
}
phase == 2 {                    # the thread header P0 | P1 ... ;
    if (trim($0) == "") next
    line = trim($0); sub(/;.*/, "", line)
    nthreads = split(line, cols, "|")
    for (i = 1; i <= nthreads; i++)
        if (trim(cols[i]) != "P" (i - 1)) unsupported("thread header " $0)
    phase = 3
    next
}
phase == 3 {                    # code rows, then the condition
    line = trim($0)
    if (line == "") next
    if (line ~ /^(~[ \t]*exists|exists|forall|locations|filter|~)/ || line ~ /^\(/) phase = 4
    else {
        if (index(line, ";") == 0) unsupported("code row without ; " line)
        line = substr(line, 1, index(line, ";") - 1)
        n = split(line, cols, "|")
        if (n > nthreads) unsupported("row with more columns than threads: " line)
        for (i = 1; i <= n; i++) {
            c = trim(cols[i])
            if (c != "") instr(i - 1, c)
        }
        next
    }
}
phase == 4 { cond = cond " " $0 }

END {
    if (failed) exit 3
    if (phase < 4) unsupported("no final condition")
    cond = trim(cond)
    # locations [...] (any number, anywhere before the quantifier) is ignored
    while (match(cond, /^locations[ \t]*\[[^]]*\][ \t]*;?/)) cond = trim(substr(cond, RLENGTH + 1))
    if (cond ~ /^filter/) unsupported("filter")
    if (match(cond, /^~[ \t]*exists/)) { kind = "~exists"; cond = substr(cond, RLENGTH + 1) }
    else if (match(cond, /^exists/)) { kind = "exists"; cond = substr(cond, RLENGTH + 1) }
    else if (match(cond, /^forall/)) { kind = "forall"; cond = substr(cond, RLENGTH + 1) }
    else unsupported("final condition " cond)
    cond = trim(cond); sub(/;$/, "", cond)
    if (index(cond, "locations") || index(cond, "filter")) unsupported("locations or filter after the condition")
    text = cond
    c = condition(cond)
    if (failed) exit 3
    for (i = 1; i <= nreginits; i++) {
        split(reginits[i], p, SUBSEP)
        if (p[1] + 0 >= nthreads) unsupported("init of a register of thread " p[1])
        reg(p[1] + 0, p[2])
    }
    if (failed) exit 3

    print "// generated by tests/c/litmus2c.sh from the X86 litmus test " name
    print "// " kind " " text
    print "#include <assert.h>"
    print "#include <pthread.h>"
    print "#include <stdatomic.h>"
    print ""
    for (i = 1; i <= nlocs; i++)
        print "atomic_int " locs[i] " = " ((locs[i] in locinit) ? locinit[locs[i]] : "0") ";"
    for (i = 1; i <= nobs; i++) {
        split(obs[i], p, SUBSEP)
        print "int P" p[1] "_" p[2] ";"
    }
    for (t = 0; t < nthreads; t++) {
        print ""
        print "void *P" t "(void *arg)"
        print "{"
        for (i = 1; i <= nregs[t]; i++)
            print "    int " regs[t, i] " = " (((t, regs[t, i]) in reginit) ? reginit[t, regs[t, i]] : "0") ";"
        printf "%s", code[t]
        for (i = 1; i <= nobs; i++) {
            split(obs[i], p, SUBSEP)
            if (p[1] + 0 == t) print "    P" t "_" p[2] " = " p[2] ";"
        }
        for (i = 1; i <= nregs[t]; i++)
            if (!((t, regs[t, i]) in observed)) print "    (void)" regs[t, i] ";"
        print "    return NULL;"
        print "}"
    }
    print ""
    print "int main(void)"
    print "{"
    s = "    pthread_t"
    for (t = 0; t < nthreads; t++) s = s (t ? ", " : " ") "t" t
    print s ";"
    for (t = 0; t < nthreads; t++) print "    pthread_create(&t" t ", NULL, P" t ", NULL);"
    for (t = 0; t < nthreads; t++) print "    pthread_join(t" t ", NULL);"
    if (kind == "forall") print "    assert(" c ");"
    else print "    assert(!(" c "));    // fails iff the condition is reachable"
    print "    return 0;"
    print "}"
}
' "$1"
