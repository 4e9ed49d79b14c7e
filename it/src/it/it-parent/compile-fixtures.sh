#!/usr/bin/env bash
# Compiles C++ fixtures with g++ -O2 into the output directory:
#   - every NAME.cpp of the IT's own src/main/cpp,
#   - each shared fixture the IT names, looked up in the given directories in order (the example
#     project's sources first, so the ITs grade the very programs the demo shows, then
#     it-parent/fixtures for the candidates only the ITs need),
#   - and, for each name in the ubsan list, NAME.ubsan built with -fsanitize=undefined.
# An output newer than its source and this script is kept: an IT runs Maven up to five times, and each
# run compiled every fixture again.
# Usage: compile-fixtures.sh OWN_SRC OUT_DIR SEARCH_DIRS(colon-separated) "NAMES" "UBSAN_NAMES"
set -euo pipefail
own=$1
out=$2
search=$3
names=${4:-}
ubsan=${5:-}
mkdir -p "$out"
self=${BASH_SOURCE[0]}
# compile OUTPUT SOURCE FLAGS...: g++, unless OUTPUT is newer than SOURCE and this script
compile() {
  local output=$1 source=$2
  shift 2
  [[ $output -nt $source && $output -nt $self ]] && return
  g++ -std=c++17 "$@" -o "$output" "$source"
}
find_source() {
  local dir
  IFS=: read -ra dirs <<< "$search"
  for dir in "${dirs[@]}"; do
    [[ -f $dir/$1.cpp ]] && { echo "$dir/$1.cpp"; return; }
  done
  echo "compile-fixtures.sh: no $1.cpp in $search" >&2
  exit 1
}
if [[ -d $own ]]; then
  for file in "$own"/*.cpp; do
    [[ -e $file ]] && compile "$out/$(basename "${file%.cpp}")" "$file" -O2 -Wall
  done
fi
for name in $names; do
  compile "$out/$name" "$(find_source "$name")" -O2 -Wall
done
for name in $ubsan; do
  compile "$out/$name.ubsan" "$(find_source "$name")" -O1 -fsanitize=undefined -fno-omit-frame-pointer
done
