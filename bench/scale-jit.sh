#!/usr/bin/env bash
# The JIT's share of a short grade: the digest goal through Maven over N cases (sandbox off, 1 worker), with the
# JVM's default tiered compilation and with C1 only (-XX:TieredStopAtLevel=1), interleaved ROUNDS times, each
# grade next to the C floor taken just before it and the same mvn with -Dpatchgrade.skip=true (subtracted).
# Needs the project bench/scale.sh N made (target/bench/scale/nN, its gold and the private repository).
# Usage: bench/scale-jit.sh [N] [ROUNDS]     (default 2000 3); SBOX=auto grades sandboxed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-2000}
rounds=${2:-3}
work=$root/target/bench/scale
dir=$work/n$n
repo=${SCALE_REPO:-$root/target/bench/m2}
[[ -x $work/spawn_floor && -d $dir/src/test/patchgrade/gold ]] || { echo "run bench/scale.sh $n first" >&2; exit 2; }
version=$(sed -n "s:.*<version>\(.*\)</version>.*:\1:p" "$root/pom.xml" | head -1)
args=(-B -o -q -Dmaven.repo.local="$repo" "dev.patchgrade:patchgrade-maven-plugin:$version:digest@bench" -Dpatchgrade.parallel=1
  -Dpatchgrade.sandbox="${SBOX:-off}")
ms() { echo $(( $(date +%s%N) / 1000000 )); }
printf '%5s %-8s %9s %8s %9s %8s %7s %7s\n' round jit floor_ms skip_ms grade_ms goal_ms ratio rss_MB
for round in $(seq "$rounds"); do
  for jit in default c1; do
    opts=""
    [[ $jit == default ]] || opts="-XX:TieredStopAtLevel=1"
    floor=$("$work/spawn_floor" "$dir/bin/echo_arg" "$n" case-000001 | tail -1)
    cd "$dir"
    rm -rf target
    start=$(ms); MAVEN_OPTS="$opts" mvn "${args[@]}" -Dpatchgrade.skip=true > /dev/null 2>&1; skip=$(( $(ms) - start ))
    rm -rf target
    start=$(ms); MAVEN_OPTS="$opts" /usr/bin/time -f %M -o "$work/jit.rss" mvn "${args[@]}" > "$work/jit-$jit.log" 2>&1 \
      || { tail -20 "$work/jit-$jit.log"; exit 1; }
    grade=$(( $(ms) - start ))
    awk -v r="$round" -v j="$jit" -v f="$floor" -v n="$n" -v s="$skip" -v g="$grade" -v rss="$(tail -1 "$work/jit.rss")" \
      'BEGIN { printf "%5d %-8s %9.0f %8d %9d %8d %6.2fx %7d\n", r, j, f * n, s, g, g - s, (g - s) / (f * n), rss / 1024 }'
  done
done
