#!/bin/sh
"$SONICSIM" plan scenario.yaml --jobs 10 --replications 1 --max-gpus 2 -j 1 --out p2 -q --run-precision nan 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q -- "--run-precision nan: expected a finite number" err.txt || { echo "--run-precision nan: exit $code"; exit 1; }
"$SONICSIM" import perf-analyzer pa_cpu --device CPU --inferences-per-event nan >out.txt 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q -- "--inferences-per-event nan: expected a finite number" err.txt && ! grep -q nan out.txt ||
  { echo "--inferences-per-event nan: exit $code"; exit 1; }
"$SONICSIM" plan scenario.yaml --jobs 10 --replications 1 --max-gpus 2 -j 1 --out p3 -q --indifference 1e999 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q -- "--indifference" err.txt || { echo "--indifference 1e999: exit $code"; exit 1; }
