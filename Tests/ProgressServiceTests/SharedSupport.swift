// The package's shared test support (`eventually`, `ServerProcess`, the raw HTTP client), seen
// by every file of this target without an import of its own.
@_exported import TestSupport
