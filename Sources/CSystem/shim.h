#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

/* Platform calls that Swift's Glibc module leaves out (they are declared only with
   _GNU_SOURCE, or in headers it does not include), wrapped so that Swift calls them through
   their declared C signature rather than a guessed one. */

#include <fcntl.h>

#if defined(__linux__)
#include <malloc.h>
extern int mkostemp(char *template_name, int flags);

/* mallopt(3): blocks from this size up are mapped on their own (and unmapped when freed). */
static inline int csystem_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
/* mallopt(3): at most this many malloc arenas. */
static inline int csystem_set_arena_max(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
#else
#include <stdlib.h>
#include <unistd.h>
/* No such tuning elsewhere: nothing done (0, as mallopt answers a failure). */
static inline int csystem_set_mmap_threshold(int bytes) { (void)bytes; return 0; }
static inline int csystem_set_arena_max(int arenas) { (void)arenas; return 0; }
#endif

/* mkostemp(3) with O_CLOEXEC: a unique file from `template_name` (ending in XXXXXX), opened
   close-on-exec from the start, so that no child process forked meanwhile inherits it. */
static inline int csystem_mkstemp_cloexec(char *template_name) { return mkostemp(template_name, O_CLOEXEC); }

#endif
