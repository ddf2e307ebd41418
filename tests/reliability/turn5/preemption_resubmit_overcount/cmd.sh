#!/bin/sh
# 5 jobs x 3 events with preemption and resubmission: a job ran past its events and a resubmitted job redid
# finished ones (seed 2: 12 completed and 12 abandoned of 15, exit 0).
cd "$(dirname "$0")" && "$SONICSIM" run scenario.yaml -q --out out --seed 2
