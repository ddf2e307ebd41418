#!/bin/sh
# reading_of: "" was taken as absent; a ci95 end written "12" (quoted) was read as 12; an end of 1e308 was
# printed as 309 digits.
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec_reading_empty.yaml -j 1 -q --out o1
