#ifndef CPREFETCH_SHIM_H
#define CPREFETCH_SHIM_H
#include <stddef.h>

/* Asks the processor to start bringing the cache line `offset` bytes past `base` in, for a
   write soon, and goes on without waiting for it. Swift has no way to say this itself. A hint
   only: any address may be given, and nothing is read. (Base and offset apart, so that Swift can
   pass an array's elements as `base` without a closure, which would retain the array.) */
static inline void cprefetch_for_write(const void *base, size_t offset)
{
    __builtin_prefetch((const char *)base + offset, 1, 3);
}

#endif
