#!/bin/sh
N=$(printf 'caf\351')
grep -q "$(printf 'caf\357\277\275.yaml')" o1/summary.json || { echo "summary.json does not name the scenario with U+FFFD"; exit 1; }
cp spec.yaml "s_$N.yaml" && "$SONICSIM" calibrate --spec "s_$N.yaml" -j 1 -q --out o2 || { echo "calibrate --spec LATIN1: exit $?"; exit 1; }
rm -rf pa && mkdir pa && cp ok_batch1.csv pa/ && cp ok_batch1.csv "pa/${N}_batch2.csv"
"$SONICSIM" run scenario_latin1.yaml -q --out o3 || { echo "a perf_analyzer folder holding a Latin-1 name: exit $?"; exit 1; }
