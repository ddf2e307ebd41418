#!/bin/sh
# calibrate --spec spec_sweep_bad.yaml once exited 0 on nonsense (or, for data: /etc/passwd, printed its first line).
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec_sweep_bad.yaml -j 1 --out out -q
