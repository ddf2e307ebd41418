#!/bin/sh
"$SONICSIM" sweep scenario.yaml --vary workload.jobs=2,4 -j 1 --out o2 --json --html > sweep.json 2>/dev/null || exit 1
"$SONICSIM" analytic scenario.yaml --json -q > analytic.json || exit 1
"$SONICSIM" run scenario.yaml --set workload.jobs=10 --out o3 --json -q > run_q.json || exit 1
for f in run.json sweep.json analytic.json run_q.json; do
  python3 -c "import json, sys; json.load(open(sys.argv[1]))" $f || { echo "$f is not one JSON document"; exit 1; }
done
