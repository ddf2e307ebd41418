#!/bin/sh
# --openmetrics with --replications once wrote no metrics.om and said nothing (exit 0); then it was refused.
# Now each replication writes its own metrics.om, SuperSONIC's Prometheus view of that replication.
cd "$(dirname "$0")" && "$SONICSIM" run s.yaml -q --out out --set workload.jobs=10 --openmetrics --replications 2
