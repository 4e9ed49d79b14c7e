#!/usr/bin/env bash
# The digest goal end to end through Maven, at scale: a throwaway project under target/bench/scale/
# with N cases of bench/echo_arg.c (prints its argument), its gold recorded once, then graded with
# each combination of parallel and sandbox, and once more with MAVEN_OPTS=-Xmx128m.
# Each grade is measured next to, in the same run and just before it:
#   - the C floor: bench/spawn_floor.c, posix_spawn+wait4 of the same N launches, sequentially;
#   - with P workers, P such loops side by side, N/P launches each (the best P workers could do on this
#     host: where process creation does not scale over the cores, it is above 1/P of the floor);
#   - the same mvn command with -Dpatchgrade.skip=true (JVM start, Maven, plugin loading), which is
#     subtracted from the grade's wall time to give the goal's own time.
# Reported per grade: wall and goal seconds, goal/floor, Maven's peak RSS (GNU time %M: the JVM and
# everything it holds), bytes and files written under the project's target/, and the gold's size; and the
# CPU of the floor loops and of the goal (the skipped mvn's subtracted), all of it and the system part, from
# /proc/stat: the whole machine's, which also counts what the kernel does on its own workers for a run
# (a network namespace's teardown) and what no wait4 reaches. Run it quiet: it counts other processes too.
# Usage: bench/scale.sh [N ...]            (default: 2000)
#   SCALE_PARALLEL   worker counts to grade with (default "1 2"; set empty for none but the small-heap grade)
#   SCALE_SANDBOX    sandbox modes (default "off auto")
#   SCALE_SMALL_HEAP heap of the extra grade (parallel 1, sandbox off; default 128m; empty: none)
#   SCALE_JFR        1: every grade also writes a JFR recording beside its log (profile settings)
#   SCALE_MAVEN_ARGS extra arguments for every mvn run
#   SCALE_REPO       the private local repository (default target/bench/m2)
#   SCALE_TIME_BUCKETS <timeBuckets> of the project (default 1000,10000,60000: wide enough that a loaded
#                    machine cannot push a trivial case out of its recorded bucket; the gold is recorded
#                    with one time sample). The gold is recorded once: delete target/bench/scale/nN to
#                    record it again, e.g. after changing the buckets.
# The plugin is installed into a private local repository (target/bench/m2, a copy of ~/.m2/repository for
# everything else), so another checkout's install cannot swap the plugin mid-run. A copy, not hard links:
# Maven rewrites metadata files in place, and through a link it would rewrite ~/.m2's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(2000)
parallels=(${SCALE_PARALLEL-1 2})
sandboxes=(${SCALE_SANDBOX-off auto})
small_heap=${SCALE_SMALL_HEAP-128m}
work=$root/target/bench/scale
repo=${SCALE_REPO:-$root/target/bench/m2}
mkdir -p "$work"

if [[ ! -d $repo ]]; then
  cp -a "$HOME/.m2/repository" "$repo"
fi
rm -rf "$repo/dev/patchgrade"
echo "installing patchgrade into $repo (tests skipped) ..."
(cd "$root" && mvn -B -q -o -Dmaven.repo.local="$repo" install -DskipTests -Dinvoker.skip)
version=$(cd "$root" && mvn -B -q -o -Dmaven.repo.local="$repo" help:evaluate -Dexpression=project.version -DforceStdout 2>/dev/null || true)
[[ $version =~ ^[0-9] ]] || version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -1)
plugin=dev.patchgrade:patchgrade-maven-plugin:$version
cc -O2 -o "$work/spawn_floor" "$root/bench/spawn_floor.c"

# project N: writes target/bench/scale/nN with its pom, cases and candidate binary
project() {
  local n=$1 dir=$work/n$1
  mkdir -p "$dir/bin" "$dir/src/test/patchgrade"
  cc -O2 -o "$dir/bin/echo_arg" "$root/bench/echo_arg.c"
  seq -f 'case-%06g' 1 "$n" > "$dir/src/test/patchgrade/cases.txt"
  cat > "$dir/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.patchgrade.bench</groupId>
  <artifactId>scale-$n</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <build>
    <plugins>
      <plugin>
        <groupId>dev.patchgrade</groupId>
        <artifactId>patchgrade-maven-plugin</artifactId>
        <version>$version</version>
        <configuration>
          <cases>\${project.basedir}/src/test/patchgrade/cases.txt</cases>
          <gold>\${project.basedir}/src/test/patchgrade/gold</gold>
          <command><arg>\${project.basedir}/bin/echo_arg</arg></command>
          <timeBuckets>${SCALE_TIME_BUCKETS:-1000,10000,60000}</timeBuckets>
        </configuration>
        <executions>
          <execution><id>bench</id></execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
EOF
}

ticks_per_s=$(getconf CLK_TCK)

# machine_mark: "nanoseconds busy_ticks system_ticks" now, busy being every core's time but idle and iowait
machine_mark() {
  local _cpu user nice system idle iowait irq softirq steal
  read -r _cpu user nice system idle iowait irq softirq steal _ < /proc/stat
  echo "$(date +%s%N) $((user + nice + system + irq + softirq + steal)) $system"
}

# since MARK: "wall_s cpu_s system_s" from MARK (machine_mark) to now
since() {
  local mark=$1 now
  now=$(machine_mark)
  awk -v a="$mark" -v b="$now" -v hz="$ticks_per_s" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%.2f %.2f %.2f", (y[1] - x[1]) / 1e9, (y[2] - x[2]) / hz, (y[3] - x[3]) / hz }'
}

# timed DIR LOG OPTS -- COMMAND...: runs COMMAND in DIR with MAVEN_OPTS=OPTS under GNU time; leaves
# "wall_s cpu_s system_s peak_kb exit" in $timed_result
timed() {
  local dir=$1 log=$2 opts=$3
  shift 4
  local mark rc=0
  mark=$(machine_mark)
  (cd "$dir" && MAVEN_OPTS=$opts /usr/bin/time -f %M -o "$log.rss" "$@" > "$log" 2>&1) || rc=$?
  timed_result="$(since "$mark") $(tail -1 "$log.rss") $rc"
}

# floor_loops P PROGRAM N: P floor loops at once, N/P launches each (the first takes the rest); leaves
# "wall_s cpu_s system_s" in $floor_result. The loops' children write their line to a file, as graded
# children do. Ends the bench if a loop fails: a loop that stopped early would pass for a fast floor.
floor_loops() {
  local p=$1 program=$2 n=$3 mark i pids=()
  mark=$(machine_mark)
  for ((i = 0; i < p; i++)); do
    "$work/spawn_floor" "$program" $((n / p + (i == 0 ? n % p : 0))) case-000001 > "$work/floor.$i.out" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { echo "floor loop $i of $p failed ($?): see $work/floor.$i.out" >&2; exit 1; }
  done
  floor_result=$(since "$mark")
}

mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }

rows=()
for n in "${sizes[@]}"; do
  dir=$work/n$n
  project "$n"
  if [[ ! -d $dir/src/test/patchgrade/gold ]] || [[ $(find "$dir/src/test/patchgrade/gold" -name '*.json' | wc -l) -ne $n ]]; then
    echo "recording the gold of $n cases (one time sample each) ..."
    (cd "$dir" && mvn -B -q -o -Dmaven.repo.local="$repo" $plugin:record-digest@bench -Dpatchgrade.force=true \
      -Dpatchgrade.timeSamples=1 -Dpatchgrade.sandbox=off ${SCALE_MAVEN_ARGS:-} > "$dir/record.log" 2>&1) \
      || { tail -30 "$dir/record.log"; exit 1; }
  fi
  gold_kb=$(du -sk "$dir/src/test/patchgrade/gold" | cut -f1)
  gold_files=$(find "$dir/src/test/patchgrade/gold" -type f | wc -l)
  configs=()
  for p in "${parallels[@]}"; do
    for s in "${sandboxes[@]}"; do
      configs+=("$p $s default")
    done
  done
  [[ -z $small_heap ]] || configs+=("1 off $small_heap")
  for config in "${configs[@]}"; do
    read -r p s heap <<< "$config"
    tag=n$n-p$p-$s-$heap
    opts=${MAVEN_OPTS:-}
    [[ $heap == default ]] || opts="$opts -Xmx$heap"
    floor_loops 1 "$dir/bin/echo_arg" "$n"
    read -r floor_s _ _ <<< "$floor_result"
    side_result=$floor_result
    if [[ $p -gt 1 ]]; then
      floor_loops "$p" "$dir/bin/echo_arg" "$n"
      side_result=$floor_result
    fi
    read -r side_s side_cpu side_sys <<< "$side_result"
    mvn_args=(-B -o -Dmaven.repo.local="$repo" "$plugin:digest@bench" -Dpatchgrade.parallel="$p" -Dpatchgrade.sandbox="$s" ${SCALE_MAVEN_ARGS:-})
    rm -rf "$dir/target"
    timed "$dir" "$work/$tag.skip.log" "$opts" -- mvn "${mvn_args[@]}" -Dpatchgrade.skip=true
    read -r skip_s skip_cpu skip_sys _ _ <<< "$timed_result"
    rm -rf "$dir/target"
    jfr=""
    [[ ${SCALE_JFR:-0} != 1 ]] || jfr="-XX:StartFlightRecording=filename=$work/$tag.jfr,settings=profile"
    timed "$dir" "$work/$tag.log" "$opts $jfr" -- mvn "${mvn_args[@]}"
    read -r wall_s wall_cpu wall_sys rss_kb rc <<< "$timed_result"
    outcome=$([[ $rc == 0 ]] && echo ok || echo "FAILED($rc)")
    xml=$(ls "$dir"/target/patchgrade-reports/TEST-*.xml 2>/dev/null | head -1 || true)
    tests=$([[ -n $xml ]] && grep -o '<testcase ' "$xml" | wc -l || echo 0)
    target_kb=$(du -sk "$dir/target" 2>/dev/null | cut -f1 || echo 0)
    target_files=$(find "$dir/target" -type f 2>/dev/null | wc -l)
    goal_s=$(awk -v w="$wall_s" -v k="$skip_s" 'BEGIN { printf "%.2f", w - k }')
    goal_cpu=$(awk -v w="$wall_cpu" -v k="$skip_cpu" 'BEGIN { printf "%.2f", w - k }')
    goal_sys=$(awk -v w="$wall_sys" -v k="$skip_sys" 'BEGIN { printf "%.2f", w - k }')
    ratio=$(awk -v g="$goal_s" -v f="$floor_s" 'BEGIN { printf "%.2f", g / f }')
    side_ratio=$(awk -v g="$goal_s" -v f="$side_s" 'BEGIN { printf "%.2f", g / f }')
    rows+=("$(printf '%7s %3s %5s %7s %7s %7s %8s %7s %7s %7s %7s %7s %8s %7s %8s %7s %8s %9s %8s %7s %s' "$n" "$p" "$s" "$heap" "$floor_s" \
      "$side_s" "$skip_s" "$wall_s" "$goal_s" "${ratio}x" "${side_ratio}x" "$side_cpu" "$side_sys" "$goal_cpu" "$goal_sys" "$((rss_kb / 1024))" \
      "$(mb "$target_kb")" "$target_files" "$(mb "$gold_kb")" "$tests" "$outcome")")
    echo "${rows[-1]}"
  done
done
echo
echo "goal s = mvn wall s - the same mvn with -Dpatchgrade.skip=true; ratio = goal s / floor s (C posix_spawn+wait4, sequential,"
echo "same N, measured just before); side_s = wall s of par such loops side by side, N/par launches each (= floor_s at par 1),"
echo "side_ratio = goal s / side_s. side_cpu, side_sys: CPU s of those loops, all and system (every core, /proc/stat); goal_cpu,"
echo "goal_sys: the same for the grade, the skipped mvn's subtracted. RSS = Maven's peak (GNU time %M). target_MB, gold_MB: disk use"
echo "(du -k) of the project's target/ and of the gold directory; tgt_files: files under target/."
printf '%7s %3s %5s %7s %7s %7s %8s %7s %7s %7s %7s %7s %8s %7s %8s %7s %8s %9s %8s %7s %s\n' cases par sbox heap floor_s side_s mvn_skip \
  wall_s goal_s ratio side_ratio side_cpu side_sys goal_cpu goal_sys rss_MB target_MB tgt_files gold_MB tests outcome
printf '%s\n' "${rows[@]}"
