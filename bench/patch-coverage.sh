#!/usr/bin/env bash
# What coverage costs a grade: the same N cases graded by `digest` on an -O2 build and by `patch-coverage` on a
# --coverage build of the same program (it/src/it/patch-coverage's calc, in a throwaway git repository under
# target/bench/patch-coverage/), interleaved for ROUNDS rounds. Reported per round: each goal's own time as its
# Surefire line gives it (the cases, and for patch-coverage gcov and the merge too; not Maven's start), and
# the ratio. patch-coverage also runs gcov once per case on the host.
# Usage: bench/patch-coverage.sh [N]     (default 1000)
#   ROUNDS    rounds (default 3)   PARALLEL  cases at once (default 2)   SANDBOX  auto (default) | off
# The plugin is installed into a private local repository (target/bench/m2, as bench/scale.sh does), so another
# checkout's install cannot swap it mid-run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
rounds=${ROUNDS:-3}
parallel=${PARALLEL:-2}
sandbox=${SANDBOX:-auto}
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1)
work="$root/target/bench/patch-coverage/n$n"
repo=${SCALE_REPO:-$root/target/bench/m2}
mkdir -p "$(dirname "$repo")"
[[ -d $repo ]] || cp -a "$HOME/.m2/repository" "$repo"
rm -rf "$repo/dev/patchgrade"
(cd "$root" && mvn -B -q -o -Dmaven.repo.local="$repo" install -DskipTests -Dinvoker.skip -pl .,patchgrade-core,patchgrade-maven-plugin)
rm -rf "$work"
mkdir -p "$work/src/test/patchgrade" "$work/target/bin"
cd "$work"
cp "$root/it/src/it/patch-coverage/versions/before.c" calc.c
git init -q . && git add calc.c && git -c user.name=b -c user.email=b@example.invalid commit -qm before
cp "$root/it/src/it/patch-coverage/versions/after.c" calc.c
git add calc.c && git -c user.name=b -c user.email=b@example.invalid commit -qm patch
gcc -O2 -o target/bin/calc calc.c
mkdir -p target/obj && (cd target/obj && gcc -O0 --coverage -c "$work/calc.c" -o calc.o && gcc --coverage calc.o -o "$work/target/bin/calc-cov")
for ((i = 0; i < n; i++)); do
  case $((i % 3)) in
    0) echo "{\"id\": \"a$i\", \"args\": [\"add\", \"$i\", \"3\"]}" ;;
    1) echo "{\"id\": \"s$i\", \"args\": [\"sub\", \"$i\", \"7\"]}" ;;
    *) echo "{\"id\": \"f$i\", \"args\": [\"fork\", \"$i\", \"1\"]}" ;;
  esac
done > src/test/patchgrade/cases.jsonl
cat > pom.xml <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>patch-coverage-cost</artifactId><version>1</version><packaging>pom</packaging>
  <build><plugins><plugin>
    <groupId>dev.patchgrade</groupId><artifactId>patchgrade-maven-plugin</artifactId><version>$version</version>
    <configuration>
      <cases>\${project.basedir}/src/test/patchgrade/cases.jsonl</cases>
      <gold>\${project.basedir}/src/test/patchgrade/gold</gold>
      <timeBuckets>off</timeBuckets>
      <parallel>$parallel</parallel>
      <sandbox>$sandbox</sandbox>
      <timeout>20</timeout>
    </configuration>
    <executions>
      <execution><id>plain</id><configuration><command><arg>\${project.basedir}/target/bin/calc</arg></command></configuration></execution>
      <execution><id>coverage</id><configuration><command><arg>\${project.basedir}/target/bin/calc-cov</arg></command></configuration></execution>
    </executions>
  </plugin></plugins></build>
</project>
POM
mvn -B -o -q -Dmaven.repo.local="$repo" dev.patchgrade:patchgrade-maven-plugin:$version:record-digest@plain > record.log 2>&1 || { cat record.log; exit 1; }
seconds() { sed -n 's/.*Tests run: .*Time elapsed: \([0-9.]*\) s.*/\1/p' "$1" | tail -1; }
echo "N=$n cases, parallel $parallel, sandbox $sandbox; goal seconds (Surefire line), per round"
printf '%-6s %10s %16s %7s\n' round digest patch-coverage ratio
for ((r = 1; r <= rounds; r++)); do
  mvn -B -o -Dmaven.repo.local="$repo" dev.patchgrade:patchgrade-maven-plugin:$version:digest@plain > "digest-$r.log" 2>&1 || { tail -30 "digest-$r.log"; exit 1; }
  mvn -B -o -Dmaven.repo.local="$repo" dev.patchgrade:patchgrade-maven-plugin:$version:patch-coverage@coverage > "coverage-$r.log" 2>&1 || { tail -30 "coverage-$r.log"; exit 1; }
  d=$(seconds "digest-$r.log"); c=$(seconds "coverage-$r.log")
  printf '%-6s %10s %16s %7s\n' "$r" "$d" "$c" "$(awk -v d="$d" -v c="$c" 'BEGIN { printf "%.2f", c / d }')"
done
grep -h "patch coverage:" "coverage-$rounds.log" | sed 's/^\[INFO\] //'
