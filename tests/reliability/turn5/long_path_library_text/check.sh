#!/bin/sh
L=$(python3 -c "print('x' * 300)")
"$SONICSIM" status $L 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "no such directory (name too long)" err.txt || { echo "status: exit $code: $(head -c 200 err.txt)"; exit 1; }
