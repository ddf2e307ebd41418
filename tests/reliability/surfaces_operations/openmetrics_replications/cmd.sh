#!/bin/sh
# --openmetrics with --replications wrote no metrics.om and said nothing (exit 0). Refused now, before any
# work, with what to do instead.
cd "$(dirname "$0")" && "$SONICSIM" run s.yaml -q --out out --set workload.jobs=10 --openmetrics --replications 2
