#!/usr/bin/env bash
# 20,000 cases graded by the digest goal with MAVEN_OPTS=-Xmx128m, end to end through Maven (the
# project of bench/scale.sh). Kept out of the default build: it takes minutes.
# Passes when the build succeeds and the JUnit XML report holds one testcase per case.
# Usage: bench/heap-20k.sh [cases (20000)] [heap (128m)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cases=${1:-20000}
heap=${2:-128m}
SCALE_PARALLEL='' SCALE_SANDBOX='' SCALE_SMALL_HEAP=$heap "$root/bench/scale.sh" "$cases"
log=$root/target/bench/scale/n$cases-p1-off-$heap.log
xml=$(ls "$root/target/bench/scale/n$cases"/target/patchgrade-reports/TEST-*.xml 2>/dev/null | head -1 || true)
failed=0
if ! grep -q 'BUILD SUCCESS' "$log"; then
  echo "FAIL: the build of $cases cases under -Xmx$heap did not succeed; see $log:"
  grep -E 'OutOfMemoryError|ERROR' "$log" | head -5
  failed=1
fi
tests=0
[[ -z $xml ]] || tests=$(grep -o '<testcase ' "$xml" | wc -l)
if [[ $tests -ne $cases ]]; then
  echo "FAIL: the JUnit XML report ${xml:-(none written)} has $tests testcases, not $cases"
  failed=1
fi
[[ $failed -ne 0 ]] || echo "PASS: $cases cases graded under -Xmx$heap; $xml has $tests testcases"
exit $failed
