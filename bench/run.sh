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
#      workers, next to the floor for the same number of launches (taken before and after each grade) and to two
#      floor loops side by side (the best 2 workers could do on this host): a first grade of each kind, then
#      5 rounds (-Dbench.digestRounds) for a median, with the CPU a case costs (the JVM's, the helpers'
#      and their runs') and the ratio that CPU allows on every core;
#   5. detection power under load: score_lookup variants doing 1.00x, 1.03x, 1.05x and 1.10x the work,
#      and an -O0 build, each graded 30 times with one core busy against an envelope recorded on 1.00x;
#   6. false alarms of the digest under load: 200 cases of 1 ms to 2 s of CPU, recorded with both cores
#      busy and graded 10 times on a quiet machine, then the reverse;
#   7. the differential goal's cost per generated case (two launches and a comparison) next to the floor for
#      two launches, sandbox off and on, 1 and 2 workers, a first grade and 3 rounds; the generator's own time; and
#      a grade in which every case differs and is shrunk (run pairs a case). DIFFERENTIAL_CASES (1000) sizes it.
# The digest goal end to end through Maven at scale (2,000 to 100,000 cases, peak RSS, bytes written)
# is bench/scale.sh; 20,000 cases under -Xmx128m is bench/heap-20k.sh.
# Usage: bench/run.sh [--only SECTIONS] [launches per path]
#   SECTIONS: comma-separated numbers or names (rss,launches,hashing,noise,digest,power,alarms,differential);
#   default all. Launches per path default to 7000, in 7 interleaved rounds.
#   POWER_GRADES (30), POWER_COUNTS (every grade), ALARM_CASES (200) and ALARM_GRADES (10) size
#   sections 5 and 6.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
only=all
if [[ ${1:-} == --only ]]; then
  only=$2
  shift 2
fi
launches=${1:-7000}
work=$root/target/bench
mkdir -p "$work"
# wanted NUMBER NAME: whether the section is selected
wanted() { [[ $only == all || ,$only, == *,$1,* || ,$only, == *,$2,* ]]; }

echo "building patchgrade (tests skipped) ..."
(cd "$root" && mvn -B -q install -DskipTests -Dinvoker.skip)
(cd "$root/patchgrade-core" && mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" -Dmdep.includeScope=test)
cc -O2 -o "$work/spawn_floor" "$root/bench/spawn_floor.c"
cc -O2 -o "$work/trivial" "$root/bench/trivial.c"
cc -O2 -o "$work/busy" "$root/bench/busy.c"
g++ -std=c++17 -O2 -o "$work/score_lookup" "$root/examples/score-lookup/src/main/cpp/score_lookup.cpp"
g++ -std=c++17 -O2 -o "$work/write_bytes" "$root/patchgrade-core/src/test/cpp/write_bytes.cpp"
cp="$root/patchgrade-core/target/classes:$root/patchgrade-core/target/test-classes:$(cat "$work/classpath.txt")"
cc -O2 -o "$work/spin" "$root/bench/spin.c"
cc -O2 -o "$work/echo_arg" "$root/bench/echo_arg.c"
for permille in 1000 1030 1050 1100; do
  g++ -std=c++17 -O2 -DWORK_PERMILLE=$permille -o "$work/score_work_$permille" "$root/bench/score_work.cpp"
done
g++ -std=c++17 -O0 -o "$work/score_lookup_O0" "$root/examples/score-lookup/src/main/cpp/score_lookup.cpp"
bench() { java -cp "$cp" "$@"; }

if wanted 0 rss; then
  echo
  echo "== 0. peak RSS: the launcher (sandbox off and on) next to GNU time, with the JVM holding a large heap =="
  g++ -std=c++17 -O2 -o "$work/touch_mb" "$root/patchgrade-core/src/test/cpp/touch_mb.cpp"
  bench dev.patchgrade.core.bench.LaunchBench rss /bin/true "$work/touch_mb 50" "$work/score_lookup scan" "$work/score_lookup cache" \
    "sh -c $work/touch_mb 20 & $work/touch_mb 30; wait"
fi

if wanted 1 launches; then
  echo
  echo "== 1. launch cost (ms per launch of a trivial program, $launches launches each) =="
  bench dev.patchgrade.core.bench.LaunchBench launches "$work/trivial" "$work/spawn_floor" "$launches"
fi

if wanted 2 hashing; then
  echo
  echo "== 2. hashing 1 GiB of child stdout under -Xmx64m =="
  bench -Xmx64m dev.patchgrade.core.bench.LaunchBench hashing "$work/write_bytes" 1024
fi

if wanted 3 noise; then
  echo
  echo "== 3. envelope under noise: 30 grades of score_lookup scan, one core kept busy =="
  bench dev.patchgrade.core.bench.LaunchBench noise "$work/score_lookup" "$work/busy" 30
fi

if wanted 4 digest; then
  echo
  echo "== 4. digest goal over 2,000 cases of a trivial binary, sandbox off and on, parallel 1 and 2, next to the floor =="
  bench dev.patchgrade.core.bench.LaunchBench digest "$work/trivial" "$work/spawn_floor" 2000
fi

if wanted 5 power; then
  echo
  echo "== 5. detection power under load: ${POWER_GRADES:-30} grades per variant, one core busy =="
  bench dev.patchgrade.core.bench.LaunchBench power "$work/busy" /bin/true "${POWER_GRADES:-30}" \
    "1.00x=$work/score_work_1000" "1.03x=$work/score_work_1030" "1.05x=$work/score_work_1050" \
    "1.10x=$work/score_work_1100" "-O0=$work/score_lookup_O0" "count:$work/score_lookup scan" "count:$work/score_lookup_O0 scan"
fi

if wanted 6 alarms; then
  echo
  echo "== 6. digest false alarms under load: ${ALARM_CASES:-200} cases, ${ALARM_GRADES:-10} grades each way =="
  bench dev.patchgrade.core.bench.LaunchBench alarms "$work/spin" "$work/busy" "${ALARM_CASES:-200}" "${ALARM_GRADES:-10}"
fi

if wanted 7 differential; then
  echo
  echo "== 7. differential goal: cost per generated case (${DIFFERENTIAL_CASES:-1000} cases) next to the launch floor =="
  bench dev.patchgrade.core.bench.LaunchBench differential "$work/echo_arg" "$work/trivial" "$work/spawn_floor" "${DIFFERENTIAL_CASES:-1000}"
fi
