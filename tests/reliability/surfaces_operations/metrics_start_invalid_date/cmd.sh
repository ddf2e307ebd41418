#!/bin/sh
# 2023-02-29 rolled over to 1 March (exit 0).
cd "$(dirname "$0")" && "$SONICSIM" run s.yaml -q --out out --set workload.jobs=10 --openmetrics --metrics-start 2023-02-29T00:00:00Z
