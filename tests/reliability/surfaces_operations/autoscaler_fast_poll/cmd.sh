#!/bin/sh
# A 0.1 s HPA sync (the documented minimum; before the sync period was its own key, a 0.1 s poll) once read no executed batch and never scaled (1 pod all day, 1,430 s
# events). Now the metric is read over its 30 s window and at most one pod is added per 30 s step period: the
# pool scales as with 30 s syncs. Two hours of the day, preprocessing 20 s, to run in seconds.
cd "$(dirname "$0")" && "$SONICSIM" run supersonic_autoscaling.yaml -q --out out \
  --set platform.server_groups.triton.autoscaler.sync_period=0.1s --set workload.campaign.window=2h \
  --set workload.pipeline.EmTrkMichelId.preprocess.mean=20s
