#!/bin/sh
# A case whose scenario is a folder (configs/; found by fuzz_operations_surfaces.py) was refused without the
# case file's line. Told at the case's line now.
cd "$(dirname "$0")" && ln -sfn "$REPO/configs" configs && "$SONICSIM" validate --cases-dir cases --report rep --work-dir work -j 1
