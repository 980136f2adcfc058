#!/usr/bin/env bash
# scripts/bench.d/postgres-cpu.sh — where the CPU goes under single events through two nodes on one
# throwaway PostgreSQL: 10 s of `wrk -t1 -c32` on each node, CPU of PostgreSQL, the nodes and the
# rest from /proc (docs/performance.md, "What limits single events on PostgreSQL").
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
f=$(mktemp -d /tmp/reading-progress-postgres-cpu.XXXXXX); chmod 755 $f
start_postgres "$f/pg"
swift build -c release --product reading-progress >&2
bin="$(swift build -c release --show-bin-path)/reading-progress"
ports=(); pids=()
for n in a b; do
  $bin serve --port 0 --store "$POSTGRES_URI" >$f/$n.out 2>$f/$n.err & pids+=($!)
  until grep -q "listening on" $f/$n.out 2>/dev/null; do sleep 0.05; done
  ports+=($(sed -n 's/.*:\([0-9]*\)$/\1/p' $f/$n.out | head -1))
done
pgcpu() { for p in $(pgrep -u postgres); do awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || true; done | awk '{s+=$1} END {print s+0}'; }
ncpu() { awk '{print $14+$15}' /proc/$1/stat; }
busy() { head -1 /proc/stat | awk '{print $2+$3+$4+$7+$8, $5+$6}'; }
wrk -t1 -c32 -d3s -s scripts/bench.d/single.lua http://127.0.0.1:${ports[0]} >/dev/null
pg0=$(pgcpu); a0=$(ncpu ${pids[0]}); b0=$(ncpu ${pids[1]}); read u0 i0 < <(busy)
wrk -t1 -c32 -d10s -s scripts/bench.d/single.lua http://127.0.0.1:${ports[0]} > $f/wa & wp=$!
wrk -t1 -c32 -d10s -s scripts/bench.d/single.lua http://127.0.0.1:${ports[1]} > $f/wb
wait $wp
pg1=$(pgcpu); a1=$(ncpu ${pids[0]}); b1=$(ncpu ${pids[1]}); read u1 i1 < <(busy)
ra=$(awk '/Requests\/sec/ {print $2}' $f/wa); rb=$(awk '/Requests\/sec/ {print $2}' $f/wb)
python3 - "$ra" "$rb" "$pg0" "$pg1" "$a0" "$a1" "$b0" "$b1" "$u0" "$u1" "$i0" "$i1" "$(getconf CLK_TCK)" <<'PY'
import sys
ra, rb, pg0, pg1, a0, a1, b0, b1, u0, u1, i0, i1, hz = map(float, sys.argv[1:])
req = (ra + rb) * 10
pg, nodes, busy, idle = (pg1-pg0)/hz, (a1-a0+b1-b0)/hz, (u1-u0)/hz, (i1-i0)/hz
print(f"{ra+rb:.0f} req/s; of {busy+idle:.1f} CPU-seconds: busy {busy:.1f} (PostgreSQL {pg:.1f}, the nodes {nodes:.1f}, wrk and the rest {busy-pg-nodes:.1f}), idle or waiting on I/O {idle:.1f}")
print(f"a request: PostgreSQL {pg/req*1e6:.1f} us, the nodes {nodes/req*1e6:.1f} us of CPU")
PY
kill ${pids[@]}; wait ${pids[@]} 2>/dev/null || true
stop_postgres "$f/pg"; rm -rf $f
