#!/usr/bin/env bash
# Benchmark (not a test): do the comparison's intervals hold on this machine?
#
#   bench/stability/run.sh [runs (default 10)] [extra accelbridge run options]
#
# Runs the same small matrix (the three suites on native cpu and Chromium's wasm) N times into one temporary store,
# then asks `accelbridge compare` about every consecutive pair of those identical runs: each case's p50 ratio with
# its bootstrap 95 % interval, "significant" only when the interval excludes no change and the ratio differs by more
# than 10 %. Prints
#   identical   how many compared cells were called significantly different (goal <= 2 %)
#   slowed      two runs of the same matrix with one thing made slower, each compared with every identical run:
#                 busy    two CPU-bound processes beside the run (a 2-core machine at twice its load)
#                 threads --threads 1 (the identical runs use every core)
#               and how many of their cells the comparison catches as significantly slower (goal >= 95 % for busy)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
N="${1:-10}"
shift || true
ARGS=(--backends cpu,wasm --browser chromium --suites text,vision,audio --no-bisect --no-report --json
      --db "$TMP/s.duckdb" --out "$TMP/out")
run_id() { node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(r[0].runId)' "$1"; }
ids=()
for i in $(seq 1 "$N"); do
  ./accelbridge run "${ARGS[@]}" "$@" > "$TMP/r$i.json" 2> "$TMP/e$i.txt"
  ids+=("$(run_id "$TMP/r$i.json")")
done
# a slowed run: two busy loops on the CPUs while it runs
node -e 'while (true) {}' & H1=$!
node -e 'while (true) {}' & H2=$!
./accelbridge run "${ARGS[@]}" "$@" > "$TMP/busy.json" 2> "$TMP/busy.txt" || true
kill "$H1" "$H2"
busy=$(run_id "$TMP/busy.json")
./accelbridge run "${ARGS[@]}" --threads 1 "$@" > "$TMP/t1.json" 2> "$TMP/t1.txt"
t1=$(run_id "$TMP/t1.json")

count() { # A B -> "cells significant slower | with history: cells significant slower"
  ./accelbridge compare --db "$TMP/s.duckdb" --json "$1" "$2" | node -e '
    const c = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const rows = c.rows.filter((r) => typeof r.ratio === "number");
    const h = rows.filter((r) => r.noiseRuns >= 3);
    const f = (rs) => [rs.length, rs.filter((r) => r.significant).length, rs.filter((r) => r.significant && r.ratio > 1).length];
    console.log([...f(rows), ...f(h)].join(" "));'
}
pct() { node -e "console.log((100*$1/Math.max(1,$2)).toFixed(1))"; }
tot=0; sig=0; htot=0; hsig=0
for i in $(seq 1 $((N - 1))); do
  read -r n s _ hn hs _ < <(count "${ids[$((i - 1))]}" "${ids[$i]}")
  tot=$((tot + n)); sig=$((sig + s)); htot=$((htot + hn)); hsig=$((hsig + hs))
done
echo "identical runs: $N; consecutive pairs compared: $((N - 1))"
echo "  all cells:                        $tot compared, $sig called significantly different ($(pct $sig $tot) %, goal <= 2 %)"
echo "  cells with >= 3 earlier runs:     $htot compared, $hsig called significantly different ($(pct $hsig $htot) %)"
echo "  cells without (within-run only):  $((tot - htot)) compared, $((sig - hsig)) called significantly different ($(pct $((sig - hsig)) $((tot - htot))) %)"
for slowed in busy t1; do
  id=$([ "$slowed" = busy ] && echo "$busy" || echo "$t1")
  tot=0; slow=0
  for a in "${ids[@]}"; do
    read -r n _ sl _ _ _ < <(count "$a" "$id")
    tot=$((tot + n)); slow=$((slow + sl))
  done
  echo "slowed run ($slowed): $tot cells compared with the identical runs, caught as significantly slower: $slow ($(pct $slow $tot) %)"
done
echo "ratios of the slowed runs against the last identical run (B/A, interval):"
./accelbridge compare --db "$TMP/s.duckdb" "${ids[$((N - 1))]}" "$busy" | sed 's/^/  busy /'
./accelbridge compare --db "$TMP/s.duckdb" "${ids[$((N - 1))]}" "$t1" | sed 's/^/  t1   /'
