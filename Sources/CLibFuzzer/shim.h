#ifndef CLIBFUZZER_SHIM_H
#define CLIBFUZZER_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program that keeps its own main. `-sanitize=fuzzer` links it; no
/// library is named here because the normal build never calls it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
