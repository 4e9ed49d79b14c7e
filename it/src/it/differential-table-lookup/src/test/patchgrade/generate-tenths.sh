#!/bin/sh
# Prints $PATCHGRADE_COUNT cases of tenths for $PATCHGRADE_SEED, as JSON Lines: amounts from -2000 to 2000,
# a few large ones and a few that are no number (tenths exits 2 on those). Every fourth case also passes a
# note as a second argument, which tenths ignores (a patch must ignore it too). Every choice comes from the
# seed through one linear congruential generator, so the same seed prints the same cases.
set -eu
state=$(( PATCHGRADE_SEED % 2147483648 ))
next() {
  state=$(( (state * 1103515245 + 12345) % 2147483648 ))
  draw=$(( state / 65536 ))
}
i=0
while [ "$i" -lt "$PATCHGRADE_COUNT" ]; do
  next
  kind=$(( draw % 20 ))
  next
  if [ "$kind" -eq 0 ]; then
    amount="${draw}x"
  elif [ "$kind" -eq 1 ]; then
    amount=$(( draw * 30517 - 500000000 ))
  else
    amount=$(( draw % 4001 - 2000 ))
  fi
  if [ $(( i % 4 )) -eq 3 ]; then
    printf '{"id":"tenths-%d","args":["%s","note %d"]}\n' "$i" "$amount" "$i"
  else
    printf '{"id":"tenths-%d","args":["%s"]}\n' "$i" "$amount"
  fi
  i=$(( i + 1 ))
done
