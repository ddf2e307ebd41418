#!/bin/sh
# Files a scenario or an option names were opened unchecked: a FIFO as triton_config (or in a perf_analyzer
# folder, or as calibrate --data) blocked for ever; /dev/zero was read until memory ran out. Every input file
# is now opened only when it is a regular file within the size bound.
cd "$(dirname "$0")" && rm -f pipe.pbtxt zero.pbtxt pipe.csv && mkfifo pipe.pbtxt pipe.csv && ln -s /dev/zero zero.pbtxt &&
  "$SONICSIM" run scenario_fifo.yaml -q --out o1
