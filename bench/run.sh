#!/usr/bin/env bash
# Benchmarks of the launcher, measured against baselines taken in the same run (these machines are
# noisy, so only ratios mean something):
#   0. peak RSS next to GNU time -f %M, sandbox off and on, for single programs and a 3-process tree;
#   1. ms per launch of a trivial C program: a C posix_spawn+wait4 loop (the floor), the JDK's own
#      ProcessBuilder, and the patchgrade launcher sandbox off and on, sequentially and with 2 workers;
#   2. hashing 1 GiB of child stdout in a JVM limited to -Xmx64m;
#   3. the envelope's trust under noise: the known-good score_lookup graded 30 times with the default
#      slack while another process keeps one core busy;
#   4. the digest goal's wall time over 2,000 cases of a trivial binary, sandbox off and on, with 1 and 2
#      workers, next to the floor for the same number of launches.
# Usage: bench/run.sh [launches per path]   (default 7000, in 7 interleaved rounds)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
launches=${1:-7000}
work=$root/target/bench
mkdir -p "$work"

echo "building patchgrade (tests skipped) ..."
(cd "$root" && mvn -B -q install -DskipTests -Dinvoker.skip)
(cd "$root/patchgrade-core" && mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" -Dmdep.includeScope=test)
cc -O2 -o "$work/spawn_floor" "$root/bench/spawn_floor.c"
cc -O2 -o "$work/trivial" "$root/bench/trivial.c"
cc -O2 -o "$work/busy" "$root/bench/busy.c"
g++ -std=c++17 -O2 -o "$work/score_lookup" "$root/examples/score-lookup/src/main/cpp/score_lookup.cpp"
g++ -std=c++17 -O2 -o "$work/write_bytes" "$root/patchgrade-core/src/test/cpp/write_bytes.cpp"
cp="$root/patchgrade-core/target/classes:$root/patchgrade-core/target/test-classes:$(cat "$work/classpath.txt")"
bench() { java -cp "$cp" "$@"; }

echo
echo "== 0. peak RSS: the launcher (sandbox off and on) next to GNU time, with the JVM holding a large heap =="
g++ -std=c++17 -O2 -o "$work/touch_mb" "$root/patchgrade-core/src/test/cpp/touch_mb.cpp"
bench dev.patchgrade.core.bench.LaunchBench rss /bin/true "$work/touch_mb 50" "$work/score_lookup scan" "$work/score_lookup cache" \
  "sh -c $work/touch_mb 20 & $work/touch_mb 30; wait"

echo
echo "== 1. launch cost (ms per launch of a trivial program, $launches launches each) =="
bench dev.patchgrade.core.bench.LaunchBench launches "$work/trivial" "$work/spawn_floor" "$launches"

echo
echo "== 2. hashing 1 GiB of child stdout under -Xmx64m =="
bench -Xmx64m dev.patchgrade.core.bench.LaunchBench hashing "$work/write_bytes" 1024

echo
echo "== 3. envelope under noise: 30 grades of score_lookup scan, one core kept busy =="
bench dev.patchgrade.core.bench.LaunchBench noise "$work/score_lookup" "$work/busy" 30

echo
echo "== 4. digest goal over 2,000 cases of a trivial binary, sandbox off and on, parallel 1 and 2, next to the floor =="
bench dev.patchgrade.core.bench.LaunchBench digest "$work/trivial" "$work/spawn_floor" 2000
