"""The benchmark of scripts/bench: the service against a bare libmicrohttpd server (the
ceiling), section by section (docs/performance.md says what each measures)."""
