#!/bin/sh
# An unknown key whose value is a list of 10^9 aliases (540 bytes of YAML): the key check walked an alias each
# time it was referenced (~30 min of CPU). Each node is now walked once, bounded in depth and size.
cd "$(dirname "$0")" && "$SONICSIM" run scenario_1e9.yaml -q --out out
