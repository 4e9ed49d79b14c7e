#!/usr/bin/env bash
# Compiles C++ fixtures with g++ -O2 into the output directory:
#   - every NAME.cpp of the IT's own src/main/cpp,
#   - each shared fixture it names (it-parent/fixtures/NAME.cpp).
# A source whose first line is "// build: ubsan" also becomes NAME.ubsan, built with -fsanitize=undefined.
set -euo pipefail
own=$1
out=$2
shared=$3
names=${4:-}
mkdir -p "$out"
build() {
  local file=$1 name
  name=$(basename "${file%.cpp}")
  g++ -std=c++17 -O2 -Wall -o "$out/$name" "$file"
  if head -n 1 "$file" | grep -q '// build: ubsan'; then
    g++ -std=c++17 -O1 -fsanitize=undefined -fno-omit-frame-pointer -o "$out/$name.ubsan" "$file"
  fi
}
if [[ -d $own ]]; then
  for file in "$own"/*.cpp; do
    [[ -e $file ]] && build "$file"
  done
fi
for name in $names; do
  build "$shared/$name.cpp"
done
