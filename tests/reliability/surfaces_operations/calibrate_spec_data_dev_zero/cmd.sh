#!/bin/sh
# data: /dev/zero was read into memory (1 GB and more) before it was refused, with the wrong reason.
cd "$(dirname "$0")" && { [ -n "$ASAN_OPTIONS" ] || ulimit -v 2097152; } && "$SONICSIM" calibrate --spec spec_dev_zero.yaml -j 1 --out out -q
