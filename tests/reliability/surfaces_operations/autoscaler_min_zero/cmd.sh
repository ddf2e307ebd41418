#!/bin/sh
# (written with scale_to_zero, not found broken) KEDA writes an idle group as minReplicaCount 0; here that is
# autoscaler.scale_to_zero, and min 0 alone would leave a group that can never wake: refused, naming the key.
cd "$(dirname "$0")" && "$SONICSIM" run supersonic_autoscaling.yaml -q --out out \
  --set platform.server_groups.triton.autoscaler.min=0
