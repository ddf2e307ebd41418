#!/bin/sh
# Preempted every 1 s on average, 50 jobs on one saturated T4 (events of ~25 s): no event could finish, every
# resubmission left its request in the server's queue, and memory grew to std::bad_alloc. A job is now
# resubmitted at most preemption.max_resubmissions (10) times, and preempted jobs are reclaimed.
cd "$(dirname "$0")" && { [ -n "$ASAN_OPTIONS" ] || ulimit -v 4194304; } && "$SONICSIM" run scenario.yaml -q --out out
