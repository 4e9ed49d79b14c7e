#!/usr/bin/env bash
# This IT's own step: commits what the recording wrote, then the patch, so that the patch is HEAD and the
# known-good commit with its oracles is HEAD~1.
set -euo pipefail
cd "$(dirname "$0")/.."
commit() { git -c user.name=it -c user.email=it@example.invalid -c commit.gpgsign=false commit -q -m "$1"; }
git add -A
commit "oracles recorded on the known-good build"
git apply versions/format-mean.patch
git add src/stats.cpp
commit "format_mean: one lldiv"
