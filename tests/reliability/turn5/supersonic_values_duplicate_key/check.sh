#!/bin/sh
"$SONICSIM" run scenario.yaml -q --out out 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "values.yaml:73:1: key 'keda': duplicate key 'keda'" err.txt || { echo "run: exit $code: $(cat err.txt)"; exit 1; }
