#!/usr/bin/env bash
# SuperSONIC's own dashboard and autoscaler queries on a simulated autoscaled run: the run writes metrics.om
# (per pod, SuperSONIC's labels), promtool turns it into a TSDB block, a real Prometheus started on it (on a
# loopback port; stopped on every exit path) answers every expression of SuperSONIC's default dashboard
# (tests/data/supersonic/default-dashboard.json) and both KEDA queries (keda_queries.txt): each must return
# data, and the dashboard's inferences per second and server count must equal the run's own figures within
# what Prometheus's sampling can move them (derived below).
# Usage: dashboard_test.sh SONICSIM DATA_DIR CONFIGS_DIR
set -euo pipefail
sonicsim=$1
data=$2
configs=$3
source "$(dirname "$0")/prometheus_server.sh"

# The SuperSONIC day's first hour, events shortened so that the pool scales within it (18 pods added, 8
# removed with seed 1), with a 60 s time series for the run's own figures.
"$sonicsim" run "$configs/supersonic_autoscaling.yaml" --openmetrics --metrics-start 2024-03-01T00:00:00Z \
  --set workload.campaign.window=1h --set workload.pipeline.EmTrkMichelId.preprocess.mean=20s \
  --set output.timeseries_interval=60s --quiet --out "$work/run" >/dev/null || fail "sonicsim run --openmetrics"
load_openmetrics "$work/run/metrics.om"
# A backfilled file cannot carry the staleness markers with which Prometheus ends the series of a pod that is
# gone at its next scrape; a lookback shorter than the 5 s between samples stands for them, so that an
# instant query sees exactly the pods that ran at that sample.
start_prometheus --query.lookback-delta=4s

python3 - "$port" "$work/run" "$data/supersonic" <<'PY'
import csv, json, sys, urllib.parse, urllib.request
port, run, data = sys.argv[1], sys.argv[2], sys.argv[3]
summary = json.load(open(run + "/summary.json"))
start = 1709251200.0  # 2024-03-01T00:00:00Z
rows = list(csv.DictReader(open(run + "/timeseries.csv")))
interval = 5.0
end = max(float(line.split()[-1]) for line in open(run + "/metrics.om") if line.startswith("nv_gpu_utilization{"))
duration = end - start

def api(path, **params):
    url = "http://127.0.0.1:%s/api/v1/%s?%s" % (port, path, urllib.parse.urlencode(params))
    answer = json.load(urllib.request.urlopen(url, timeout=30))
    assert answer["status"] == "success", answer
    return answer["data"]["result"]

def expressions():
    dashboard = json.load(open(data + "/default-dashboard.json"))
    found = []
    def walk(node):
        for panel in node.get("panels", []):
            for target in panel.get("targets", []):
                if target.get("expr"):
                    found.append((panel.get("title", "").strip(), target["expr"]))
            walk(panel)
    walk(dashboard)
    return found

failures = 0
def check(ok, text):
    global failures
    failures += not ok
    print(("ok   " if ok else "FAIL ") + text)

# Every panel's expression, with the dashboard's variables set to the simulated release and namespace,
# returns data at the run's last sample, when servers run.
panels = expressions()
check(len(panels) >= 12, "%d expressions in the dashboard" % len(panels))
for title, expression in panels:
    query = expression.replace("$release", "triton").replace("$namespace", "sonicsim")
    result = api("query", query=query, time=end)
    check(len(result) > 0, "%s: %d series" % (title, len(result)))
for line in open(data + "/keda_queries.txt"):
    if line.startswith("#") or not line.strip():
        continue
    result = api("query", query=line.strip(), time=end)
    check(len(result) == 1 and float(result[0]["value"][1]) >= 0, "KEDA query %s...: %s" % (line[:60], result[:1]))

pool = summary["results"]["operations"]["pools"][0]
changes = pool["pods_added"] + pool["pods_removed"]
# Servers: the dashboard's count at every sample, averaged, against the run's time-averaged serving pods
# (summary.json; starting pods are not scraped, draining ones are). Each pod start or stop is seen up to one sample late,
# and a draining pod counts until its last request leaves (seconds here): at most 2 samples per change.
counts = api("query_range", query='count by(release)(nv_gpu_utilization{app=~"supersonic", release=~"triton"})',
             start=start + interval, end=end, step=interval)[0]["values"]
mean_count = sum(float(v) for _, v in counts) / ((end - start) / interval)
serving = pool["mean_serving_pods"]
tolerance = changes * 2 * interval / duration
check(abs(mean_count - serving) <= tolerance,
      "servers: dashboard mean %.4f, run's serving mean %.4f (tolerance %.4f: %d changes x 2 samples)"
      % (mean_count, serving, tolerance, changes))
# Inferences per second: the dashboard's rate() over 30 s, averaged over the run, against the run's own
# inferences over the same span. rate() extrapolates at each pod's first and last samples: at most one 30 s
# window of one pod's rate per change, plus one window at each end of the run.
rates = api("query_range", query='sum (rate(nv_inference_count{app=~"supersonic", release=~"triton"}[30s])) by(release)',
            start=start + interval, end=end, step=interval)[0]["values"]
mean_rate = sum(float(v) for _, v in rates) / ((end - start) / interval)
own = sum(float(r["nv_inference_count"]) for r in rows) / duration
per_pod = own / max(serving, 1.0)
tolerance = ((changes + 2) * 30 * per_pod) / duration
check(abs(mean_rate - own) <= tolerance,
      "inferences/s: dashboard mean %.1f, run's own %.1f (tolerance %.1f: %d changes x 30 s of one pod)"
      % (mean_rate, own, tolerance, changes))
sys.exit(1 if failures else 0)
PY
echo "PASS: SuperSONIC's dashboard and KEDA queries read the simulated run"
