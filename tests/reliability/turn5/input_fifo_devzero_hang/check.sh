#!/bin/sh
fails=0
expect() { # CODE-AND-PATTERN, then the command
  pattern=$1; shift
  "$@" >/dev/null 2>err.txt; code=$?
  [ $code -eq 2 ] && grep -q -- "$pattern" err.txt || { echo "$*: exit $code: $(head -c 300 err.txt)"; fails=1; }
}
expect "key 'models.m.triton_config': .*zero.pbtxt: not a regular file (a device)" "$SONICSIM" run scenario_zero.yaml -q --out o2
calib="--series large_batch --x clients --y emtrk_time_mean_s --sd emtrk_time_sd_s --observable module_mean_s:EmTrkMichelId --fit models.emtrkmichelid.compute_input.per_byte=0ns:10ns --max-evaluations 2 -j 1 -q"
expect "/dev/zero: not a regular file (a device)" "$SONICSIM" calibrate large.yaml --data /dev/zero $calib --out o3
expect "pipe.csv: not a regular file (a FIFO)" "$SONICSIM" calibrate large.yaml --data pipe.csv $calib --out o4
expect "zero.pbtxt: not a regular file (a device)" "$SONICSIM" import triton-config zero.pbtxt
mkdir -p pa && cp deepmet_batch1.csv pa/ && rm -f pa/x_batch2.csv && mkfifo pa/x_batch2.csv
expect "pa/x_batch2.csv: not a regular file (a FIFO)" "$SONICSIM" import perf-analyzer pa
exit $fails
