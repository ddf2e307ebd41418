#!/bin/sh
# An observable naming a module the scenario lacks (found by fuzz_operations_surfaces.py) was simulated, then
# ended in exit 1 "a run does not define module_mean_s:EmTrkMichelI". Told at the spec's line before any run.
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec_unknown_module.yaml -j 1 --out out -q
