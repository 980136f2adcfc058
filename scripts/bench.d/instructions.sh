#!/usr/bin/env bash
# scripts/bench.d/instructions.sh [BINARY] — instructions the service executes a request, under
# callgrind: a single event, the same with attention, a JSON array of 1000 events, and the same with a new id each. On a
# shared machine rates and CPU times move by a quarter from run to run; instruction counts move
# by well under 1%, so two builds can be compared one after the other (docs/performance.md).
# BINARY defaults to this checkout's release build. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-}
if [ -z "$binary" ]; then
    swift build -c release --product reading-progress >&2
    binary="$(swift build -c release --show-bin-path)/reading-progress"
fi
command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }

# measure KIND COUNT — instructions a request over COUNT requests after a warm-up of a quarter as
# many, counted from callgrind's zeroed counters to its dump (every thread of the service).
measure() {
    local kind=$1 count=$2 folder pid port dump instructions
    folder=$(mktemp -d /tmp/reading-progress-instructions.XXXXXX)
    valgrind --tool=callgrind --callgrind-out-file="$folder/callgrind.out" \
        "$binary" serve --port 0 --store "sqlite:$folder/db.sqlite3" >"$folder/out" 2>"$folder/err" &
    pid=$!
    until grep -q "listening on" "$folder/out" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { cat "$folder/err" >&2; exit 1; }
        sleep 0.2
    done
    port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$folder/out" | head -1)
    python3 scripts/bench.d/instructions_load.py "$port" $((count / 4 + 1)) "$kind" 1
    callgrind_control --zero "$pid" >/dev/null 2>&1
    python3 scripts/bench.d/instructions_load.py "$port" "$count" "$kind" 2
    callgrind_control --dump "$pid" >/dev/null 2>&1
    until dump=$(ls "$folder"/callgrind.out.* 2>/dev/null | head -1) && [ -n "$dump" ] \
        && grep -q "^totals:\|^summary:" "$dump"; do sleep 0.1; done
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    instructions=$(grep -h "^totals:\|^summary:" "$dump" | head -1 | awk '{ print $2 }')
    rm -rf "$folder"
    python3 -c "print('%.0f' % ($instructions / $count))"
}
echo "instructions a request ($binary, callgrind)"
echo "  single event                    $(measure single 3000)"
echo "  the same with attention         $(measure attention 3000)"
echo "  JSON array of 1000 events       $(measure bulk 40)"
echo "  the same, each with a new id    $(measure ids 40)"
