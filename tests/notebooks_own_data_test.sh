#!/usr/bin/env bash
# The notebooks on a user's own sonicsim outputs (scripts/notebooks.sh --check DIR --data MINE): a sweep run
# without --replications has no interval columns, and the Fig. 7 notebook draws it without its band instead
# of failing with a traceback.
set -euo pipefail
sonicsim=$1
root=$2
dir=$(mktemp -d /tmp/sonicsim_notebooks.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$sonicsim" sweep "$root/configs/protodune_2020_large_batch.yaml" --vary workload.jobs=40,200,400 \
  --set workload.events_per_job=3 -q --out "$dir/sweep"
mkdir -p "$dir/mine"
cp "$dir/sweep/sweep.csv" "$dir/mine/fig7_large_sweep.csv"
bash "$root/scripts/notebooks.sh" --check "$dir/check" --data "$dir/mine" >"$dir/log" 2>&1 ||
  { echo "FAIL: the notebooks on a sweep without replications"; cat "$dir/log"; exit 1; }
echo "PASS: the notebooks execute on a user's sweep without replications"
