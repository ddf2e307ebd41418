#!/usr/bin/env bash
# Triton's metrics, simulated, read back by a real Prometheus: a run writes metrics.om (OpenMetrics),
# Prometheus's own promtool turns it into a TSDB block, a Prometheus server started on that block on a loopback
# port answers queries through its HTTP API, and the totals it reports are the run's own (summary.json):
# inferences and executions of the model, and its requests. The server is stopped on every exit path.
# Usage: prometheus_test.sh SONICSIM
set -euo pipefail
sonicsim=$1
source "$(dirname "$0")/prometheus_server.sh"

"$sonicsim" run --openmetrics --metrics-start 2024-03-01T12:00:00Z --set workload.jobs=20 --quiet \
  --out "$work/run" >/dev/null || fail "sonicsim run --openmetrics"
load_openmetrics "$work/run/metrics.om"
start_prometheus

# The last sample's time, from the file; each query asks for the value at that instant.
last=$(grep -E '^nv_inference_count\{' "$work/run/metrics.om" | tail -1 | awk '{print $NF}')
python3 - "$port" "$last" "$work/run/summary.json" <<'PY'
import json, sys, urllib.parse, urllib.request
port, last, summary_path = sys.argv[1], sys.argv[2], sys.argv[3]
summary = json.load(open(summary_path))
model = summary["results"]["server"]["models"][0]
requests = summary["results"]["requests"]["sent"] - summary["results"]["requests"]["rejected"]
def query(expression):
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": expression, "time": last}))
    answer = json.load(urllib.request.urlopen(url, timeout=10))
    assert answer["status"] == "success", answer
    result = answer["data"]["result"]
    assert len(result) == 1, "%s: %s" % (expression, result)
    return float(result[0]["value"][1])
labels = '{model="%s",version="1"}' % model["model"]
# Totals since the start are exact sums of whole counts: compared exactly. Each pod has its own series (as
# SuperSONIC's Prometheus scrapes them), summed here.
checks = [("sum(nv_inference_count%s)" % labels, model["inferences"]),
          ("sum(nv_inference_exec_count%s)" % labels, model["batches"]),
          ("sum(nv_inference_request_success%s)" % labels, requests)]
failures = 0
for expression, expected in checks:
    got = query(expression)
    ok = got == expected
    failures += not ok
    print("%s %s = %s (summary.json: %s)" % ("ok  " if ok else "FAIL", expression, got, expected))
# The GPUs' mean utilisation over the whole run, from the gauge, within one interval's share of the run.
gpus = query("count(nv_gpu_utilization)")
print("ok   %d GPU series" % gpus if gpus == summary["results"]["server"]["gpus"] else "FAIL GPU series %s" % gpus)
failures += gpus != summary["results"]["server"]["gpus"]
sys.exit(1 if failures else 0)
PY

# Each replication and each campaign window writes its own metrics.om, which Prometheus's tools accept; a
# window's samples start at the window's own start in the campaign.
"$sonicsim" run --openmetrics --set workload.jobs=20 --replications 2 --quiet --out "$work/replicated" >/dev/null ||
  fail "sonicsim run --replications 2 --openmetrics"
for r in 0 1; do
  promtool tsdb create-blocks-from openmetrics "$work/replicated/replication_$r/metrics.om" "$work/data_r$r"     >/dev/null 2>&1 || fail "replication $r: no metrics.om Prometheus accepts"
done
"$sonicsim" run "$(dirname "$0")/../../configs/supersonic_autoscaling.yaml" --openmetrics \
  --metrics-start 2024-03-01T00:00:00Z --set workload.campaign.window=1h \
  --set workload.pipeline.EmTrkMichelId.preprocess.mean=20s --campaign-windows 2 -j 2 --quiet \
  --out "$work/windows" >/dev/null || fail "sonicsim run --campaign-windows 2 --openmetrics"
for k in 0 1; do
  promtool tsdb create-blocks-from openmetrics "$work/windows/window_$k/metrics.om" "$work/data_w$k" \
    >/dev/null 2>&1 || fail "window $k: no metrics.om Prometheus accepts"
done
first_stamp() { grep -m1 -E '^nv_inference_count\{' "$1" | awk '{print $NF}'; }
w0=$(first_stamp "$work/windows/window_0/metrics.om")
w1=$(first_stamp "$work/windows/window_1/metrics.om")
python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) > float(sys.argv[1]) + 1000 else 1)" "$w0" "$w1" ||
  fail "window 1's samples ($w1) do not start after window 0's ($w0)"
echo "PASS: Prometheus loaded metrics.om and reports the run's totals; replications and windows write theirs"
