#!/bin/sh
# Cases for the differential grade: PATCHGRADE_SEED picks them, PATCHGRADE_COUNT says how many.
# Lists of 0 to 6 integers in -1000..1000, and one case in ten with a word that is no integer.
state=$(( PATCHGRADE_SEED % 2147483648 ))
next() { state=$(( (state * 1103515245 + 12345) % 2147483648 )); }
i=0
while [ "$i" -lt "$PATCHGRADE_COUNT" ]; do
  next; n=$(( state / 65536 % 7 ))
  args=""
  j=0
  while [ "$j" -lt "$n" ]; do
    next; v=$(( state / 65536 % 2001 - 1000 ))
    args="$args${args:+,}\"$v\""
    j=$(( j + 1 ))
  done
  next
  if [ $(( state / 65536 % 10 )) -eq 0 ]; then args="$args${args:+,}\"x$i\""; fi
  printf '{"id":"case-%d","args":[%s]}\n' "$i" "$args"
  i=$(( i + 1 ))
done
