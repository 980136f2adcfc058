#ifndef READING_PROGRESS_CLIBPQ_SHIM_H
#define READING_PROGRESS_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
