#!/bin/sh
# Seed 6 hung: a resubmitted job drew the same time to preemption as before, shorter than its first event,
# and was preempted at the same point for ever. Each submission now draws its own.
cd "$(dirname "$0")" && "$SONICSIM" run scenario.yaml -q --out out --seed 6
