#!/bin/sh
# note: &m {x: 1, <<: *m} in a case: walking the map that contains itself overflowed the stack (SIGSEGV).
cd "$(dirname "$0")" && ln -sfn "$REPO/configs" configs && "$SONICSIM" validate --cases-dir cases --report rep --work-dir work -j 1
