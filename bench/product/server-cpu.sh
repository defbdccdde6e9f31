#!/usr/bin/env bash
# The server's CPU time per run, beside the shared harness's wall and span: starts this checkout's
# production server (PGlite in a fresh data folder, or a fresh database on the Postgres server),
# runs the harness's driver (../shared/bench-side-by-side, run-bench.mjs and parallaxr-run/drive.mjs)
# REPS times after a warm-up, and prints each run's wall, the fake server's span and the CPU the
# server's process used (user + system, every thread: Next, PGlite's thread, the GC's).
# CPU time is steadier than the wall on a shared machine: compare two builds by alternating them.
#
#   npm run build && bench/product/server-cpu.sh [REPS=4] [LATENCY=200] [CONC=64] [BACKEND=pglite|postgres]
#
# HARNESS (default ../shared/bench-side-by-side from the checkout) and PORT (3963) can be set.
# Exit codes: 0 measured; 1 a run failed (its log is named); 2 no build, no harness, or no server.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${REPS:-4}
LATENCY=${LATENCY:-200}
CONC=${CONC:-64}
BACKEND=${BACKEND:-pglite}
PORT=${PORT:-3963}
HARNESS=${HARNESS:-$root/../shared/bench-side-by-side}
[ -f "$HARNESS/run-bench.mjs" ] || { echo "no harness at $HARNESS (set HARNESS)" >&2; exit 2; }
[ -f "$root/.next/BUILD_ID" ] || { echo "no production build in $root/.next: run npm run build first" >&2; exit 2; }
work=$(mktemp -d)
node "$HARNESS/make-dataset.mjs" 250 > "$work/data.csv"
if [ "$BACKEND" = postgres ]; then
  db=parallaxr_cpu_$$
  psql -h 127.0.0.1 -U postgres -d postgres -qc "create database $db" >/dev/null
  export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db
fi
# its own session, so that the cleanup ends its group and nothing else
( cd "$root" && PORT=$PORT PARALLAXR_DATA_DIR="$work/data" setsid bash -c 'echo $$ > "$0/pid"; exec node node_modules/next/dist/bin/next start -p "$1"' "$work" "$PORT" > "$work/server.log" 2>&1 & )
for _ in $(seq 1 50); do [ -s "$work/pid" ] && break; sleep 0.1; done
cleanup() {
  kill -- -"$(cat "$work/pid")" 2>/dev/null || true
  sleep 1
  if [ "$BACKEND" = postgres ]; then psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $db" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/api/v1/health" > /dev/null && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/api/v1/health" > /dev/null || { echo "the server did not answer; its log: $work/server.log" >&2; exit 2; }
# next start runs the server in a process of its own (named next-server) in the group
pid=$(pgrep -g "$(cat "$work/pid")" -f next-server | head -1 || true)
[ -n "$pid" ] || pid=$(cat "$work/pid")
cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$pid/stat"; }
drive=(node "$HARNESS/parallaxr-run/drive.mjs" --server "http://127.0.0.1:$PORT" --csv "$work/data.csv")
results=$work/results.jsonl
node "$HARNESS/run-bench.mjs" --label warm --latency 0 --concurrency 16 --cells 1000 --results "$results" -- "${drive[@]}" --concurrency 16 > /dev/null
echo "| run | latency ms | conc | wall s | span s | server CPU ms | CPU ms per cell |"
echo "|---|---|---|---|---|---|---|"
for rep in $(seq 1 "$REPS"); do
  before=$(cpu_ms)
  line=$(node "$HARNESS/run-bench.mjs" --label "cpu-$rep" --latency "$LATENCY" --concurrency "$CONC" --cells 1000 --results "$results" -- "${drive[@]}" --concurrency "$CONC" | tail -1)
  sleep 0.5
  used=$(( $(cpu_ms) - before ))
  echo "$line" | awk -F'|' -v rep="$rep" -v l="$LATENCY" -v c="$CONC" -v cpu="$used" \
    '{ gsub(/ /, "", $6); gsub(/ /, "", $7); printf "| %s | %s | %s | %s | %s | %d | %.2f |\n", rep, l, c, $6, $7, cpu, cpu / 1000 }'
  if ! echo "$line" | grep -q "| 0 |$"; then echo "run $rep failed: $(dirname "$results")/logs/cpu-$rep.log" >&2; exit 1; fi
done
