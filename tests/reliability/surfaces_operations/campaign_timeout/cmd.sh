#!/bin/sh
# A campaign whose client timeout (100 ms) is below the service time: a job that ended was destroyed while
# the flow of a given-up try was still on the way, and its end called the freed job (SIGSEGV, every time).
# Every request times out, so no event completes: exit 1 with the events counted.
cd "$(dirname "$0")" && "$SONICSIM" run scenario.yaml -q --out out
