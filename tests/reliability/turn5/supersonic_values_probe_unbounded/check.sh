#!/bin/sh
"$SONICSIM" run scenario.yaml -q --out out 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "key 'triton.readinessProbe.initialDelaySeconds'" err.txt || { echo "run: exit $code: $(cat err.txt)"; exit 1; }
