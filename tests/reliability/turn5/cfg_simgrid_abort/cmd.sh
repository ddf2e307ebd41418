#!/bin/sh
# --cfg values SimGrid aborts on (SIGABRT and a backtrace), nonsense it accepts (NaN or negative precisions),
# a thread bomb, and a refusal found only in each child of a sweep: all are checked once, in the command's
# process, before any simulation (a two-job trial run in a child for what only SimGrid can judge).
cd "$(dirname "$0")" && "$SONICSIM" --cfg network/crosstraffic:maybe sweep scenario.yaml --vary workload.jobs=2,4 -j 1 -q --out sw --set workload.events_per_job=2
