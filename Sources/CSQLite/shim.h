#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
/// Returns sqlite3_bind_text's result code.
static inline int csqlite_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}

/// Blobs too are bound with SQLITE_TRANSIENT (SQLite copies them).
static inline int csqlite_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(stmt, index, bytes, count, SQLITE_TRANSIENT);
}

static inline int csqlite_config_multithread(void) {
    return sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}
#endif
