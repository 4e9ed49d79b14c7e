#!/usr/bin/env bash
# Makes this project a git repository whose last commit is the patch (versions/before.c -> versions/after.c changes
# add() and sub()), then builds the coverage build from its objects under target/obj, as a build system would.
# Usage: make-repository.sh BASEDIR BIN
set -euo pipefail
cd "$1"
rm -rf .git src/main/c
mkdir -p src/main/c
git init -q .
commit() { git -c user.name=it -c user.email=it@example.invalid -c commit.gpgsign=false commit -q -m "$1"; }
cp versions/before.c src/main/c/calc.c
git add src/main/c/calc.c
commit "calc"
cp versions/after.c src/main/c/calc.c
git add src/main/c/calc.c
commit "clamp add() and make sub() absolute"
mkdir -p target/obj "$2"
(cd target/obj && gcc -O0 --coverage -c "$1/src/main/c/calc.c" -o calc.o && gcc --coverage calc.o -o "$2/calc-cov")
