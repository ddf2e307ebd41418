#!/bin/sh
# The memory estimate counted job slots only, and left 0.7 % of room: 880,000 jobs under a 4 GiB address-space
# limit were accepted and died of std::bad_alloc after 45 s; a 45,000-module pipeline was not counted at all;
# 5,000 pods of 8 devices under 100 MB ended in SIGABRT. It now counts jobs, threads, modules and pods as
# measured, with what the address space holds beyond the resident pages. Skipped under AddressSanitizer (no
# address-space limit can be set there).
if [ -n "$ASAN_OPTIONS" ]; then echo "skipped: no address-space limit under AddressSanitizer"; exit 77; fi
cd "$(dirname "$0")" && ulimit -v 4194304 && "$SONICSIM" run large.yaml -q --out o1 --set workload.jobs=880000 --set workload.events_per_job=2 --set output.precision=off
