#!/bin/sh
# --out "" was accepted by run, sweep, plan, compare, validate and calibrate (exit 0, results in the default place).
# Expected: exit 2 naming the option, before any simulation.
cd "$(dirname "$0")" && "${SONICSIM:-sonicsim}" run --set workload.jobs=2 --out ""
