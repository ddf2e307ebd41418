#!/bin/sh
"$SONICSIM" plan scenario.yaml --autoscaler --replications 2 -j 1 --out o2 -q --reference '' 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q -- "--reference: an empty value" err.txt || { echo "--reference '': exit $code: $(cat err.txt)"; exit 1; }
"$SONICSIM" plan scenario.yaml --autoscaler --replications 2 -j 1 --out o3 -q --thresholds , --min-pods 1,2 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q -- "--thresholds ',': an empty item" err.txt || { echo "--thresholds ,: exit $code: $(cat err.txt)"; exit 1; }
