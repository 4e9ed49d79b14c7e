#!/usr/bin/env bash
# Runs the whole build (`mvn -B verify`) with two busy loops beside it, as on a saturated CI agent,
# several times in a row, and stops at the first failure. Every test and IT must be green however
# busy the machine is: an outcome that depends on timing is a bug of the suite.
# Usage: bench/stress-verify.sh [times] [extra mvn arguments...]   (default 3 times)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
times=${1:-3}
shift || true
work=$root/target/stress
mkdir -p "$work"
cc -O2 -o "$work/busy" "$root/bench/busy.c"

loops=()
stop_loops() {
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
  loops=()
}
trap stop_loops EXIT

for ((run = 1; run <= times; run++)); do
  "$work/busy" 7200 & loops+=($!)
  "$work/busy" 7200 & loops+=($!)
  log=$work/verify-$run.log
  start=$(date +%s)
  if (cd "$root" && mvn -B verify "$@") >"$log" 2>&1; then
    echo "run $run/$times: BUILD SUCCESS under two busy loops in $(($(date +%s) - start)) s ($log)"
  else
    echo "run $run/$times: FAILED after $(($(date +%s) - start)) s; see $log"
    grep -E 'FAIL|ERROR|Tests run:.*Failures: [1-9]' "$log" | head -30 || true
    exit 1
  fi
  stop_loops
done
echo "stress verify: $times of $times builds green with both cores busy"
