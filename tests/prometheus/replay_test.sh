#!/usr/bin/env bash
# `sonicsim replay` through a real Prometheus: a simulated SuperSONIC day (the "recording") is written as
# OpenMetrics, loaded into a Prometheus server started here (promtool's blocks; stopped on every exit path),
# queried over its HTTP API as an operator would (/api/v1/query_range: the clients at Envoy, the serving
# replicas, the chart's queue time per batch, the inferences per second), and replayed on the same scenario
# driven by the recorded clients alone. The replay must recover the recording's replicas and queue times as
# closely as the model's own noise allows: the tolerance is what a second recording of the same day with
# another seed differs from the first, measured here on the same queries.
# Usage: replay_test.sh SONICSIM CONFIGS_DIR
set -euo pipefail
sonicsim=$1
configs=$2
source "$(dirname "$0")/prometheus_server.sh"

# The SuperSONIC day's first three hours (ramp 100 -> 300 -> 500 jobs), events shortened so that the pool
# scales within them. Two recordings, seeds 1 and 2, loaded into one Prometheus: seed 2 on a
# second day, so that the two never overlap in time.
day=(--set workload.campaign.window=3h --set workload.pipeline.EmTrkMichelId.preprocess.mean=20s)
for seed in 1 2; do
  "$sonicsim" run "$configs/supersonic_autoscaling.yaml" "${day[@]}" --seed "$seed" --openmetrics \
    --metrics-start "2024-03-0${seed}T00:00:00Z" --quiet --out "$work/recorded_$seed" >/dev/null ||
    fail "sonicsim run --openmetrics (seed $seed)"
  load_openmetrics "$work/recorded_$seed/metrics.om"
done

# A lookback shorter than the 5 s between samples stands for the staleness markers a backfill cannot carry.
start_prometheus --query.lookback-delta=4s

# An operator's four queries over each recorded day, 60 s apart, saved as the HTTP API answers them.
python3 - "$port" "$work" <<'PY' || fail "the range queries"
import json, sys, urllib.parse, urllib.request
port, work = sys.argv[1], sys.argv[2]
queries = {
    "clients": 'sum(envoy_http_downstream_cx_active{release="triton"})',
    "replicas_serving": 'max(envoy_cluster_membership_healthy{release="triton"})',
    "queue_time_per_batch_ms": 'sum(rate(nv_inference_queue_duration_us{release="triton"}[1m])) / '
                               '(sum(rate(nv_inference_exec_count{release="triton"}[1m])) * 1000 + 0.001)',
    "inferences_per_s": 'sum(rate(nv_inference_count{release="triton"}[1m]))',
}
for seed in (1, 2):
    start = 1709251200 + (seed - 1) * 86400  # 2024-03-0<seed>T00:00:00Z
    for name, query in queries.items():
        url = "http://127.0.0.1:%s/api/v1/query_range?%s" % (port, urllib.parse.urlencode(
            {"query": query, "start": start + 60, "end": start + 3 * 3600, "step": 60}))
        answer = urllib.request.urlopen(url, timeout=30).read()
        assert json.loads(answer)["status"] == "success"
        open("%s/%s_%d.json" % (work, name, seed), "wb").write(answer)
PY

# Seed 1's recorded day replayed, driven by its clients alone.
"$sonicsim" replay "$configs/supersonic_autoscaling.yaml" "${day[@]}" --clients "$work/clients_1.json" \
  --series "replicas_serving=$work/replicas_serving_1.json" \
  --series "queue_time_per_batch_ms=$work/queue_time_per_batch_ms_1.json" \
  --series "inferences_per_s=$work/inferences_per_s_1.json" --json --out "$work/replay" >"$work/replay.json" ||
  fail "sonicsim replay"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
replay = {s["name"]: s for s in json.load(open(work + "/replay.json"))["series"]}

def series(name, seed):
    values = json.load(open("%s/%s_%d.json" % (work, name, seed)))["data"]["result"][0]["values"]
    return [float(v) for _, v in values]

def seed_noise(name):
    # The same queries on the second recording (another seed, same day): what the model's own noise moves
    # them by, sample by sample.
    a, b = series(name, 1), series(name, 2)
    n = min(len(a), len(b))
    mae = sum(abs(a[i] - b[i]) for i in range(n)) / n
    return mae, mae / (sum(abs(x) for x in a[:n]) / n)

failures = 0
def check(ok, text):
    global failures
    failures += not ok
    print(("ok   " if ok else "FAIL ") + text)

# The drive: the simulated clients follow the recorded ones within a few jobs (the batch system fills slots
# every 10 s; a job finishing between samples is replaced at the next cycle).
clients = replay["clients"]
check(clients["relative_error"] <= 0.03, "clients: mean |error| %.1f jobs, %.1f %% of the recorded mean %.0f (<= 3 %%)"
      % (clients["mean_absolute_error"], 100 * clients["relative_error"], clients["mean_recorded"]))
# Replicas: the replay recovers the recorded count as closely as a second seed does (twice its error:
# the replay's own noise and the recording's add), or to within one pod, whichever is looser.
pods = replay["replicas_serving"]
noise, _ = seed_noise("replicas_serving")
bound = max(1.0, 2 * noise)
check(pods["mean_absolute_error"] <= bound,
      "serving replicas: mean |error| %.2f pods (bound %.2f: twice the seed-to-seed %.2f, at least 1 pod); bias %+.2f"
      % (pods["mean_absolute_error"], bound, noise, pods["mean_error"]))
check(pods["decision_match_rate"] >= 0.8, "serving replicas: %.0f %% of the steps took the recorded decision (>= 80 %%)"
      % (100 * pods["decision_match_rate"]))
check(abs(pods["lag_s"]) <= 120, "serving replicas: lag %+.0f s (within two steps)" % pods["lag_s"])
# Queue time and throughput: within twice the seed-to-seed relative error.
for name in ("queue_time_per_batch_ms", "inferences_per_s"):
    _, relative = seed_noise(name)
    got = replay[name]["relative_error"]
    check(got <= max(2 * relative, 0.05),
          "%s: relative |error| %.1f %% (bound %.1f %%: twice the seed-to-seed %.1f %%, at least 5 %%)"
          % (name, 100 * got, 100 * max(2 * relative, 0.05), 100 * relative))
sys.exit(1 if failures else 0)
PY
echo "PASS: a recorded day, through a real Prometheus, replayed"
