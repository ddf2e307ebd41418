#!/bin/sh
# plan --autoscaler took --startup-delays 1e308s (every candidate's pods never started; exit 3), took
# --reference '' as no reference, and with --thresholds , blamed the next option's value.
cd "$(dirname "$0")" && "$SONICSIM" plan scenario.yaml --autoscaler --replications 2 -j 1 --out o1 -q --startup-delays 1e308s
