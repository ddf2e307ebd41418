#!/bin/sh
# With 30 s polls the same two hours peak at 39 pods and 43.9 device-hours (sonicsim run, seed 1); the fast
# poll must scale too (it peaked at 1 pod): more than 20 pods at the peak, 30 to 60 device-hours.
python3 - <<'PY'
import json, sys
f = json.load(open("out/summary.json"))["figures"]
ok = f["peak_pods"] > 20 and 30 <= f["device_hours"] <= 60
print("peak_pods", f["peak_pods"], "device_hours", f["device_hours"])
sys.exit(0 if ok else 1)
PY
