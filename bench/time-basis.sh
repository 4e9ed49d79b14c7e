#!/usr/bin/env bash
# The figures of issue 31, without installing anything:
#   1. time buckets under load: an ASan+UBSan build's digest (BASIS_CASES, default 60, cases of 5-100 ms of CPU
#      through a bash wrapper, the default buckets and slack) recorded on the machine as it is, then graded
#      BASIS_GRADES times (default 3) while BASIS_LOOPS (default 4) busy loops run: the time_bucket failures of
#      each grade and the spread of graded over recorded time, with timeBasis cpu and with timeBasis wall;
#   2. what the instruction count costs: record-envelope (3 runs, instructionCounter auto) of the bundled
#      example's score_lookup scan and of two workloads of a few seconds: a register loop (the burn_cpu fixture,
#      COUNT_MILLIONS, default 3000) and heap traffic (heap_work without sanitizers, COUNT_ROUNDS, default 30000),
#      about 3 s each here, with the line it prints: the counted run's wall time beside the native runs'.
# Each busy loop runs in a session of its own, as another build does: with autogroup scheduling, loops in
# one session would weigh as one group beside each run's. On a shared machine run it as root with
# `nice -n -20 bench/time-basis.sh`: the recording then has the cores as on a quiet machine, and the loops
# (started from it, at the same priority) load the grade as other builds would.
# Usage: bench/time-basis.sh [--only basis|count-cost]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
only=${2:-all}
[[ ${1:-} == --only ]] || only=all
work=$root/target/bench
mkdir -p "$work"
(cd "$root/patchgrade-core" && mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" -Dmdep.includeScope=test)
cp="$root/patchgrade-core/target/classes:$root/patchgrade-core/target/test-classes:$(cat "$work/classpath.txt")"
bench() { java -cp "$cp" dev.patchgrade.core.bench.LaunchBench "$@"; }

if [[ $only == all || $only == basis ]]; then
  g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -o "$work/heap_work.asan" \
    "$root/patchgrade-core/src/test/cpp/sanitized/heap_work.cpp"
  echo "== time buckets of a sanitizer digest, recorded as the machine is, graded with busy loops =="
  bench basis "$work/heap_work.asan" "${BASIS_CASES:-60}" "${BASIS_GRADES:-3}" "${BASIS_LOOPS:-4}"
fi

if [[ $only == all || $only == count-cost ]]; then
  g++ -std=c++17 -O2 -o "$work/score_lookup" "$root/examples/score-lookup/src/main/cpp/score_lookup.cpp"
  g++ -std=c++17 -O2 -o "$work/burn_cpu" "$root/patchgrade-core/src/test/cpp/burn_cpu.cpp"
  g++ -std=c++17 -O2 -o "$work/heap_work" "$root/patchgrade-core/src/test/cpp/sanitized/heap_work.cpp"
  echo
  echo "== the counted run's cost: record-envelope, instructionCounter auto =="
  bench count-cost "$work/score_lookup scan" "$work/burn_cpu ${COUNT_MILLIONS:-3000}" "$work/heap_work ${COUNT_ROUNDS:-30000}"
fi
