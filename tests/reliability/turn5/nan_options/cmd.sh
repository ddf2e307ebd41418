#!/bin/sh
# plan --indifference nan was accepted (exit 0), --run-precision nan ended in the JSON library's text,
# import perf-analyzer --inferences-per-event nan printed "nanms". Each is refused, naming the option.
cd "$(dirname "$0")" && "$SONICSIM" plan scenario.yaml --jobs 10 --replications 1 --max-gpus 2 -j 1 --out p1 -q --indifference nan
