#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro (it passes the library's version and the stream's size), which Swift
/// cannot call. A window of 15 bits plus 16 asks for the gzip wrapper (RFC 1952).
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}
#endif
