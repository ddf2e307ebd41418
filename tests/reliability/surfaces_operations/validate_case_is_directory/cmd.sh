#!/bin/sh
# A case that is a directory ended in libstdc++'s words, exit 1.
cd "$(dirname "$0")" && "$SONICSIM" validate --cases-dir cases --report rep --work-dir work -j 1
