# The PostgreSQL section of scripts/bench (sourced by it, with its functions and $bin): two
# nodes on one throwaway PostgreSQL. BENCH_POSTGRES=0 skips it.
#   bulk and single events through both nodes at once; PostgreSQL taking the same bytes with a
#   bare batched INSERT (pgbench); stats at 1k and $BIG_READERS readers on each node; a node's
#   restart; a node's memory with BENCH_PG_READER_DAYS reader-days of history (made in SQL);
#   a stats query over old days against one over today.
PG_READER_DAYS=${BENCH_PG_READER_DAYS:-50000000}
echo "== PostgreSQL: two nodes on one database" >&2
pg_folder="$(mktemp -d /tmp/reading-progress-bench-postgres.XXXXXX)"
start_postgres "$pg_folder"
psql "$POSTGRES_URI" -qc "CREATE DATABASE rpbench" >&2
psql "$POSTGRES_URI" -qc "CREATE DATABASE rpbare" >&2
pg_uri="${POSTGRES_URI%/postgres}/rpbench"
bare_uri="${POSTGRES_URI%/postgres}/rpbare"
sql() { psql "$pg_uri" -qAt -c "$1"; }
start node-a "$bin/reading-progress" serve --port 0 --store "$pg_uri"
node_a_port=$PORT
node_a_pid=$PID
start node-b "$bin/reading-progress" serve --port 0 --store "$pg_uri"
node_b_port=$PORT
node_b_pid=$PID

# both SCRIPT CONNECTIONS [ARGS…] — one wrk on each node at once; the two rates summed.
both() {
    local script=$1 connections=$2
    shift 2
    wrk -t1 -c"$connections" -d"${SECONDS_EACH}s" -s "scripts/bench.d/$script" "http://127.0.0.1:$node_a_port" \
        -- "$@" >"$work/wrk-a" &
    local other=$!
    wrk -t1 -c"$connections" -d"${SECONDS_EACH}s" -s "scripts/bench.d/$script" "http://127.0.0.1:$node_b_port" \
        -- "$@" >"$work/wrk-b"
    wait "$other"
    awk '/Requests\/sec/ { sum += $2 } END { printf "%.0f", sum }' "$work/wrk-a" "$work/wrk-b"
}
# wait_folded — until the log holds nothing to fold (at most 10 minutes).
wait_folded() {
    for _ in $(seq 1 6000); do
        [ "$(sql 'SELECT count(*) FROM rp_log')" = "0" ] && return 0
        sleep 0.1
    done
}

pg_bulk_runs=()
pg_single_runs=()
for round in $(seq 1 "$ROUNDS"); do
    pg_bulk_runs+=("$(both bulk.lua 2 json)")
    payload_bytes=$(sql "SELECT coalesce(avg(length(payload))::int, 0) FROM rp_log WHERE payload IS NOT NULL")
    [ "$payload_bytes" -gt 0 ] && pg_payload=$payload_bytes
    pg_single_runs+=("$(both single.lua 32)")
    echo "  round $round: bulk ${pg_bulk_runs[-1]} req/s of 1000 events, single ${pg_single_runs[-1]} req/s" >&2
done
fold_started=$(date +%s.%N)
fold_backlog=$(sql "SELECT count(*) FROM rp_log")
wait_folded
fold_seconds=$(python3 -c "import time; print('%.1f' % (time.time() - $fold_started))")

# The same bytes, a row a request, by pgbench: what PostgreSQL itself takes of the bodies the
# clients sent (bulk.lua's events, whose size varies only with their digits).
psql "$bare_uri" -qc "CREATE TABLE bare (seq bigserial PRIMARY KEY, committed_ms bigint NOT NULL, payload bytea NOT NULL)" >&2
body_bytes=$(python3 -c "
import random, sys
random.seed(7)
event = ('{\"article\":\"/blog/article-%d\",\"reader\":\"reader-%d\",\"contentOffset\":{\"x\":0,\"y\":%d},'
         '\"contentSize\":{\"width\":390,\"height\":%d},\"containerSize\":{\"width\":390,\"height\":844},\"engagedMs\":%d}')
events = [event % (random.randint(0, 99), random.randint(0, 199999), random.randint(0, 4000),
                   random.randint(3000, 9000), random.randint(0, 30000)) for _ in range(1000)]
body = ('[' + ','.join(events) + ']').encode()
with open(sys.argv[1], 'w') as sql:
    sql.write(\"INSERT INTO bare (committed_ms, payload) VALUES (1, '\\\\x\" + body.hex() + \"');\\n\")
print(len(body))
" "$work/bare.sql")
bare_tps=$("$POSTGRES_BIN/pgbench" -n -f "$work/bare.sql" -c 4 -j 2 -T "$SECONDS_EACH" "$bare_uri" 2>/dev/null \
    | awk '/^tps/ { printf "%.0f", $3 }')
echo "  bare INSERT of $body_bytes-byte rows: $bare_tps rows/s (the nodes store ${pg_payload:-?} bytes a request)" >&2

python3 scripts/bench.d/load.py "$node_a_port" /bench/small 1000 >/dev/null
pg_load_rate=$(python3 scripts/bench.d/load.py "$node_a_port" /bench/big "$BIG_READERS")
wait_folded
pg_small=()
pg_big=()
for port in "$node_a_port" "$node_b_port"; do
    pg_small+=("$(rate stats.lua "$port" %2Fbench%2Fsmall)")
    pg_big+=("$(rate stats.lua "$port" %2Fbench%2Fbig)")
done
echo "  stats: node A ${pg_small[0]} / ${pg_big[0]} req/s, node B ${pg_small[1]} / ${pg_big[1]} req/s (1k / big)" >&2

# History made in SQL, as years of traffic would leave it: PG_READER_DAYS (article, reader, day)
# rows over 1000 articles and the 60 days before today.
today_day=$(( $(date -u +%s) / 86400 ))
echo "  making $PG_READER_DAYS reader-days of history in SQL" >&2
chunk=5000000
for ((first = 0; first < PG_READER_DAYS; first += chunk)); do
    last=$((first + chunk < PG_READER_DAYS ? first + chunk - 1 : PG_READER_DAYS - 1))
    sql "INSERT INTO rp_reader_days
         SELECT '/bench/history-' || (i % 1000), 'h-' || (i / 1000), $today_day - ((i / 1000) % 60),
                0.5, 0.6, true, 1, 1000, ($today_day - ((i / 1000) % 60))::int8 * 86400000,
                ($today_day - ((i / 1000) % 60))::int8 * 86400000
         FROM generate_series($first, $last) AS i"
done
sql "INSERT INTO rp_articles
     SELECT article, count(DISTINCT reader), 0, sum(events), sum(engaged_ms), min(first_ms), max(last_ms), 0, 0,
            decode(repeat('00', 4004), 'hex'), decode(repeat('00', 4004), 'hex')
     FROM rp_reader_days WHERE article LIKE '/bench/history-%' GROUP BY article"
sql "ANALYZE"
history_rows=$(sql "SELECT count(*) FROM rp_reader_days")
# A node started now: how long until it answers, and what it holds after queries of old days.
{ kill -KILL "$node_a_pid" && wait "$node_a_pid"; } 2>/dev/null || true
restart_started=$(date +%s.%N)
start node-a2 "$bin/reading-progress" serve --port 0 --store "$pg_uri"
node_a_port=$PORT
node_a_pid=$PID
until curl -fsS "http://127.0.0.1:$node_a_port/healthz" >/dev/null 2>&1; do sleep 0.01; done
pg_restart=$(python3 -c "import time; print('%.2f' % (time.time() - $restart_started))")
old_from=$(date -u -d "@$(( (today_day - 50) * 86400 ))" +%F)
old_to=$(date -u -d "@$(( (today_day - 44) * 86400 ))" +%F)
recent_from=$(date -u -d "@$(( (today_day - 6) * 86400 ))" +%F)
old_rps=$(rate stats.lua "$node_a_port" %2Fbench%2Fhistory-7 "from=$old_from&to=$old_to")
recent_rps=$(rate stats.lua "$node_a_port" %2Fbench%2Fhistory-7 "from=$recent_from")
pg_rss_kb=$(rss_kb "$node_a_pid")
pg_db_bytes=$(sql "SELECT pg_database_size(current_database())")
for pid in "$node_a_pid" "$node_b_pid"; do kill -TERM "$pid" 2>/dev/null || true; done
stop_postgres "$pg_folder"
rm -rf "$pg_folder"

pg_bulk=$(mean "${pg_bulk_runs[@]}")
pg_single=$(mean "${pg_single_runs[@]}")
cat <<REPORT

PostgreSQL, two nodes on one database (PostgreSQL $("$POSTGRES_BIN/postgres" --version | awk '{print $3}'), synchronous_commit on)
bulk JSON arrays           $((pg_bulk * 1000)) events/s through both nodes (target ≥ 250,000; rounds: $(printf '%s ' "${pg_bulk_runs[@]}")req/s); the same bytes by a bare batched INSERT (pgbench, 4 connections, a $body_bytes-byte body a row): $((bare_tps * 1000)) events/s, ratio $(ratio "$pg_bulk" "$bare_tps"); the nodes store ${pg_payload:-?} bytes a request
single events              $pg_single req/s through both nodes, each acknowledged once committed (target ≥ 15,000; rounds: $(printf '%s ' "${pg_single_runs[@]}"))
folding                    $fold_backlog commits left to fold after the rounds, folded in ${fold_seconds}s
stats, $BIG_READERS readers   node A cost ratio $(ratio "${pg_small[0]}" "${pg_big[0]}"), node B $(ratio "${pg_small[1]}" "${pg_big[1]}") against 1k readers (target ≤ 1.2); ${pg_small[0]} and ${pg_big[0]} req/s on A (load through A: $pg_load_rate events/s)
restart                    ${pg_restart}s until /healthz answered after kill -9, with $history_rows reader-days in PostgreSQL ($pg_db_bytes bytes)
memory                     a node's RSS $((pg_rss_kb / 1024)) MiB with $history_rows reader-days in PostgreSQL, after queries of old days
old days                   stats of one article over 7 days 44–50 days ago: $old_rps req/s; over the last 7 days: $recent_rps req/s; cost ratio $(ratio "$recent_rps" "$old_rps")
REPORT
