# reading-progress in a container: the service on 0.0.0.0:8080, its SQLite database in /data.
#
#   docker build -t reading-progress .
#   docker run --rm -p 8080:8080 -v reading-progress-data:/data reading-progress
#
# Options go after the image name (`… reading-progress serve --api-token s3cret`) or in
# READING_PROGRESS_* variables (`-e READING_PROGRESS_API_TOKEN=s3cret`). Add
# `-e READING_PROGRESS_FSYNC_COMMITS=true` for acknowledged events to survive a power cut of the
# host too, not only the process being killed.

# ---- build -------------------------------------------------------------------------------
# The toolchain the project is developed and tested with (Swift 6.3); any Swift 6 image on
# Debian bookworm works the same way.
ARG SWIFT_VERSION=6.3
FROM swift:${SWIFT_VERSION}-bookworm AS build

# The same packages scripts/lib.sh installs for every build.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd-dev libsqlite3-dev zlib1g-dev libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the build reads (the manifest names the test targets, so their folders come too);
# never a host .build folder.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests

# What scripts/serve builds, with the Swift runtime and Foundation linked in statically so the
# runtime image needs no Swift libraries.
RUN swift build -c release --product reading-progress --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/reading-progress" \
        /out/reading-progress

# ---- run ---------------------------------------------------------------------------------
FROM debian:bookworm-slim

# libmicrohttpd12, libsqlite3-0, zlib1g and libpq5 are the shared libraries the binary links; libstdc++6 is
# what a statically linked Swift runtime still takes from the system; curl is for HEALTHCHECK.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12 libsqlite3-0 zlib1g libpq5 libstdc++6 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 reading-progress \
    && useradd --system --uid 10001 --gid reading-progress --home-dir /data \
        --shell /usr/sbin/nologin reading-progress \
    && mkdir -p /data \
    && chown reading-progress:reading-progress /data

COPY --from=build /out/reading-progress /usr/local/bin/reading-progress

# Defaults through the environment rather than CMD flags, so `-e READING_PROGRESS_…` can
# still change them (a command-line flag would win over the variable).
ENV READING_PROGRESS_HOST=0.0.0.0 \
    READING_PROGRESS_PORT=8080 \
    READING_PROGRESS_STORE=sqlite:/data/reading-progress.sqlite3

USER reading-progress
WORKDIR /data
VOLUME /data
EXPOSE 8080

# /healthz is 503 while the store cannot commit.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS -o /dev/null "http://127.0.0.1:${READING_PROGRESS_PORT:-8080}/healthz" || exit 1

# SIGTERM: stop accepting, finish requests in flight, commit, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["reading-progress"]
CMD ["serve"]
