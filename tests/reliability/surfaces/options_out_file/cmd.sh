#!/bin/sh
# --out naming an existing file. Expected: exit 2 at once, one message shape for every command.
cd "$(dirname "$0")" && : > a_file && "${SONICSIM:-sonicsim}" sweep --vary workload.jobs=2,4 --out a_file
