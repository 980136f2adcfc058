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
BUILD_PACKAGES=(libmicrohttpd-dev libsqlite3-dev zlib1g-dev pkg-config)

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
    command -v python3 >/dev/null || ensure_packages python3
    if ! python3 -m venv --clear "$venv" >&2; then
        ensure_packages python3-venv
        python3 -m venv --clear "$venv" >&2
    fi
    echo "installing schemathesis $SCHEMATHESIS_VERSION into $venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
    echo "$exe"
}
