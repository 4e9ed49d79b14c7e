i=0
while [ $i -lt 2000 ]; do i=$((i+1)); done
echo done $i
