#!/bin/sh
# Each value: exit 2 naming it, at once, never a signal or a run.
for c in network/model:Bogus network/optim:bogus cpu/optim:bogus contexts/factory:bogus network/model:Constant \
  network/model:ns-3 network/bandwidth-factor:0 cpu/maxmin-selective-update:no contexts/nthreads:100000 \
  maxmin/precision:-1 maxmin/precision:nan network/TCP-gamma:nan surf/precision:nan plugin:bogus \
  host/model:ptask_L07 network/model:LV08; do
  "$SONICSIM" --cfg $c run scenario.yaml -q --out out --set workload.jobs=6 --set workload.events_per_job=2 2>err.txt
  code=$?
  [ $code -eq 2 ] && grep -q -- "--cfg $c: " err.txt || { echo "--cfg $c: exit $code: $(head -c 300 err.txt)"; exit 1; }
  [ -e out/summary.json ] && { echo "--cfg $c: a run was made"; exit 1; }
done
# A value SimGrid takes still runs.
"$SONICSIM" --cfg network/optim:Lazy run scenario.yaml -q --out ok --set workload.jobs=6 --set workload.events_per_job=2 ||
  { echo "--cfg network/optim:Lazy was refused"; exit 1; }
