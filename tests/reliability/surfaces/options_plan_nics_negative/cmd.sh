#!/bin/sh
# plan --nics -1Gbps searched a negative pod NIC and exited 0. Expected: exit 2 naming the option and its bounds.
cd "$(dirname "$0")" && "${SONICSIM:-sonicsim}" plan --jobs 10 --nics 16Gbps,-1Gbps -j 1 --out out
