/* cfront_cache.h - translated C programs kept between runs.
 *
 * Reading a C file costs two starts of libLLVM (clang's and wmx's), about
 * 40 ms each, however small the file.  The translation is a function of the
 * file, the headers it includes, the options, clang and wmx itself, so wmx
 * keeps it: an entry per (wmx binary, clang, working directory, path,
 * options, unroll bound), holding the translated program and the contents'
 * hashes of every file clang read (its -MD list).  An entry is used only
 * when every one of those files still hashes the same; it is written
 * atomically (temp + rename), so concurrent runs never see half of one.
 * A hash over the entry's contents makes a damaged entry a miss, and the
 * decoder checks every index of the program (registers, threads, cells,
 * variables, expressions, conditions, jump targets, loops) before anyone
 * uses it.
 *
 * The directory is $WMX_CACHE_DIR, else $XDG_CACHE_HOME/wmx, else
 * $HOME/.cache/wmx; WMX_CACHE=off turns the cache off.  Any failure to read
 * or write it only means translating again.
 */
#ifndef WMX_CFRONT_CACHE_H
#define WMX_CFRONT_CACHE_H

#include "cfront.h"

#include <stddef.h>

/* The entry's file name for these inputs (malloc'd; clang: the command
 * that compiles), or NULL when the cache is off or has no directory. */
char *cfront_cache_entry(const char *path, const cfront_opts *o, const char *clang);
/* The program kept in the entry when every file it depends on is unchanged,
 * else NULL. */
wmx_program *cfront_cache_get(const char *entry);
/* Keeps p in the entry, with the files listed in clang's dependency file
 * (make syntax). */
void cfront_cache_put(const char *entry, const wmx_program *p, const char *depfile);

/* The program as bytes and back (for the cache and its tests): decode
 * returns NULL on malformed bytes or a program with an index out of
 * range. */
unsigned char *cfront_cache_encode(const wmx_program *p, size_t *len);
wmx_program *cfront_cache_decode(const unsigned char *buf, size_t len);
/* A whole entry (magic, sum, dependencies, program) around encoded program
 * bytes, as cfront_cache_put writes it, depending on the files deps (each
 * hashed now); NULL when one cannot be read.  For tests and fuzzing: a
 * generated entry goes through cfront_cache_get as a kept one does. */
unsigned char *cfront_cache_wrap(const unsigned char *prog, size_t plen, const char *const *deps, int ndeps,
                                 size_t *len);

#endif
