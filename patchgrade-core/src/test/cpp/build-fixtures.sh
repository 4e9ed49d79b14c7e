#!/usr/bin/env bash
# Compiles every fixture program in $1 into $2 (one binary per source file, named after it).
set -euo pipefail
src=$1
out=$2
mkdir -p "$out"
for file in "$src"/*.cpp "$src"/*.c; do
  [[ -e $file ]] || continue
  name=$(basename "${file%.*}")
  if [[ $file == *.c ]]; then
    cc -std=c11 -O2 -Wall -o "$out/$name" "$file"
  else
    g++ -std=c++17 -O2 -Wall -o "$out/$name" "$file"
  fi
done
# Sanitizer builds, as a project builds its ASan+UBSan binary: sanitized/NAME.cpp becomes NAME.asan.
for file in "$src"/sanitized/*.cpp; do
  [[ -e $file ]] || continue
  g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -o "$out/$(basename "${file%.*}").asan" "$file"
done
# The threaded fixture as a project's sanitizer jobs build it: ASan+UBSan (LeakSanitizer runs at exit) and TSan.
g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -o "$out/threads.asan" "$src/threads.cpp"
g++ -std=c++17 -O1 -g -fsanitize=thread -o "$out/threads.tsan" "$src/threads.cpp"
# A file with the execute bit and no recognised format: it must not start (no /bin/sh fallback).
printf 'echo this must not run\n' > "$out/no-shebang"
chmod +x "$out/no-shebang"
printf 'plain data\n' > "$out/not-executable"
chmod -x "$out/not-executable"
