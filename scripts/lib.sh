# Shared by the scripts: install what is missing, once, with apt-get.
# shellcheck shell=bash

# ensure_packages PKG… — installs the Debian packages that are not installed yet.
ensure_packages() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The packages every build needs.
BUILD_PACKAGES=(libmicrohttpd-dev libsqlite3-dev zlib1g-dev libpq-dev pkg-config)

# The JDK and JUnit 5 (its console launcher), for the Android client (scripts/check-android-client).
JAVA_PACKAGES=(openjdk-17-jdk-headless junit5)

# The schemathesis release that scripts/test runs. Its CLI and config changed between 3.x and 4.x;
# scripts/conformance/ is written for 4.x.
SCHEMATHESIS_VERSION=4.32.5

# ensure_schemathesis — installs the pinned schemathesis into a virtualenv under .build/ unless it
# is there already, and prints the path of its executable.
ensure_schemathesis() {
    local venv=.build/schemathesis
    local exe="$venv/bin/schemathesis"
    if [ -x "$exe" ] && "$exe" --version 2>/dev/null | grep -qF "version $SCHEMATHESIS_VERSION"; then
        echo "$exe"
        return 0
    fi
    venv_with "$venv" "schemathesis==$SCHEMATHESIS_VERSION"
    echo "$exe"
}

# venv_with DIR REQUIREMENT — a fresh Python virtualenv in DIR with REQUIREMENT installed from
# PyPI, installing python3 and venv first when they are missing.
venv_with() {
    command -v python3 >/dev/null || ensure_packages python3
    if ! python3 -m venv --clear "$1" >&2; then
        ensure_packages python3-venv
        python3 -m venv --clear "$1" >&2
    fi
    echo "installing $2 into $1" >&2
    "$1/bin/pip" install --quiet --disable-pip-version-check "$2" >&2
}

# What the browser tests (Tests/Browser) drive: Debian's Chromium and its driver, and the
# selenium release pinned here; terser, which built the web tracker (scripts/build-tracker).
BROWSER_PACKAGES=(chromium chromium-driver terser)
SELENIUM_VERSION=4.51.0

# ensure_browser_tests — installs Chromium, its driver and the pinned selenium (into a virtualenv
# under .build/) unless they are there already, and prints the path of the virtualenv's python.
ensure_browser_tests() {
    ensure_packages "${BROWSER_PACKAGES[@]}" >&2
    local venv=.build/browser-tests
    local python="$venv/bin/python"
    if [ -x "$python" ] && [ "$("$python" -c 'import selenium; print(selenium.__version__)' 2>/dev/null)" = "$SELENIUM_VERSION" ]; then
        echo "$python"
        return 0
    fi
    venv_with "$venv" "selenium==$SELENIUM_VERSION"
    echo "$python"
}

# What the deploy stage (Tests/Deploy) runs: Debian's nginx, Prometheus (with promtool), systemd
# (systemd-analyze), strace, and envsubst, which renders deploy/nginx.conf; python3 runs the tests.
DEPLOY_PACKAGES=(nginx prometheus systemd strace gettext-base python3)

# start_postgres FOLDER — starts a throwaway PostgreSQL (Debian's postgresql, run as the
# postgres user, which PostgreSQL requires of a root caller) with its data in FOLDER on a free
# port of 127.0.0.1, and sets POSTGRES_URI to its postgres database; stop_postgres FOLDER stops it.
start_postgres() {
    local folder=$1
    ensure_packages postgresql libpq-dev
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    local port
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    mkdir -p "$folder"
    folder="$(cd "$folder" && pwd)"
    local run=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$folder"
        run=(runuser -u postgres --)
    fi
    # Run from the folder: the postgres user may not be able to enter the caller's working
    # directory (a checkout in /root), and PostgreSQL's programs complain of it.
    (cd "$folder" && "${run[@]}" "$bin/initdb" -D "$folder/data" -A trust -U postgres --no-sync) \
        >"$folder/initdb.log" 2>&1
    (cd "$folder" && "${run[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
        -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c max_connections=200" start) >/dev/null
    POSTGRES_URI="postgresql://postgres@127.0.0.1:$port/postgres"
    POSTGRES_BIN=$bin
    export POSTGRES_URI POSTGRES_BIN
}

stop_postgres() {
    local folder=$1
    [ -d "$folder/data" ] || return 0
    local run=()
    [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
    (cd "$folder" && "${run[@]}" "$POSTGRES_BIN/pg_ctl" -D "$folder/data" -m fast -w stop) >/dev/null 2>&1 || true
}
