#!/usr/bin/env bash
# `sonicsim report` in a real browser: the outputs of run, sweep, plan, compare, validate, calibrate (one series
# and the committed joint CMS calibration) and a
# campaign and an autoscaled pool, each turned into an HTML report and opened in headless Chromium (Debian's chromium, started and
# stopped here, with a fresh profile). A report fails on any script or console error, a chart that drew no mark,
# or a page that did not finish drawing. A screenshot of each is saved in SHOTS_DIR when one is given (to look
# at by hand); without it (as ctest runs it) they stay in the test's temporary folder, removed at the end.
# Usage: report_browser_test.sh SONICSIM REPOSITORY [SHOTS_DIR]
set -uo pipefail
sonicsim=$1
repo=$2
command -v chromium >/dev/null || { echo "FAIL: chromium is needed (scripts/setup.sh installs Debian's chromium)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shots=${3:-$work/shots}
mkdir -p "$shots"
cd "$work" || exit 1
failures=0
small=(--set workload.events_per_job=3 --set output.precision=off --set workload.warmup_events=1)
short_day=(--quiet --set workload.campaign.window=1h --set workload.pipeline.EmTrkMichelId.preprocess.mean=20s)

make_results() { # KIND: writes results/KIND
  case $1 in
  run) "$sonicsim" run --quiet --openmetrics --set workload.jobs=40 --out results/run ;;
  sweep) "$sonicsim" sweep --vary workload.jobs=20:380:60 "${small[@]}" --replications 2 -j 2 --out results/sweep ;;
  # The site switch filling (issue 63's sweep): 4 pods and a 20 Gb/s switch saturate near 601 jobs, where the
  # analytic model's network limit lies; Eq. 1-5 stay flat there, so no analytic knee may be drawn.
  switch_sweep) "$sonicsim" sweep --vary workload.jobs=100:1000:100 --set platform.server_groups.gke_4xt4.pods=4 \
    --set platform.site_switch.bandwidth=20Gbps "${small[@]}" -j 2 --out results/switch_sweep ;;
  plan) "$sonicsim" plan --jobs 200 "${small[@]}" -j 2 --out results/plan ;;
  compare) "$sonicsim" compare "$repo/configs/protodune_2020_large_batch.yaml" --columns fp16 --jobs 100 "${small[@]}" \
    --out results/compare ;;
  validate) (cd "$repo" && "$sonicsim" validate --fast -j 2 --report "$work/results/validate") ;;
  calibrate) "$sonicsim" calibrate "$repo/configs/protodune_2020_large_batch.yaml" "${small[@]}" \
    --data "$repo/validation/data/protodune_2020_fig7_left.csv" --series large_batch --x clients \
    --y emtrk_time_mean_s --sd emtrk_time_sd_s --observable module_mean_s:EmTrkMichelId \
    --fit models.emtrkmichelid.compute_input.per_byte=0ns:10ns --max-evaluations 3 -j 2 --out results/calibrate ;;
  # The committed CMS joint calibration (calibrate --spec's calibration.json), drawn as it is.
  joint_calibration) mkdir -p results/joint_calibration &&
    cp "$repo/validation/calibration/cms_miniaod_2024_calibration.json" results/joint_calibration/calibration.json ;;
  campaign) "$sonicsim" run "$repo/configs/protodune_2022_campaign.yaml" --quiet --out results/campaign ;;
  # An autoscaled pool: its pods and its metric over time (the SuperSONIC day cut to 4 h of 100 slots).
  operations) "$sonicsim" run "$repo/configs/supersonic_autoscaling.yaml" --quiet --set workload.jobs=100 \
    --set workload.campaign.window=4h --out results/operations ;;
  # An autoscaled pool's settings, swept and planned: the device-hours against the event time (the day cut to
  # 1 h, preprocessing 20 s).
  pool_sweep) "$sonicsim" sweep "$repo/configs/supersonic_autoscaling.yaml" "${short_day[@]}" \
    --vary platform.server_groups.triton.autoscaler.threshold=50ms,200ms --replications 2 -j 2 --out results/pool_sweep ;;
  # (2 h: the first hour is all ramp. Exit 3, no setting meets, is an answer too, and its page says so.)
  autoscaler_plan) "$sonicsim" plan "$repo/configs/supersonic_autoscaling.yaml" --autoscaler "${short_day[@]}" \
    --set workload.campaign.window=2h --thresholds 50ms,200ms --reference static_40 --replications 2 -j 2 \
    --out results/autoscaler_plan || [[ $? == 3 ]] ;;
  # A recorded day replayed: an hour of the day's running jobs and serving pods written as Prometheus range
  # queries' JSON (from the run's own 60 s rows), replayed on the same scenario.
  replay) "$sonicsim" run "$repo/configs/supersonic_autoscaling.yaml" "${short_day[@]}" \
      --set output.timeseries_interval=60s --out recorded &&
    python3 - recorded/timeseries.csv <<'PY' &&
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for name, column in (("clients", "jobs_running"), ("replicas", "triton_pods_serving")):
    values = [[1709251200 + 60 * (i + 1), row[column]] for i, row in enumerate(rows)]
    json.dump({"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {}, "values": values}]}},
              open(name + ".json", "w"))
PY
    "$sonicsim" replay "$repo/configs/supersonic_autoscaling.yaml" "${short_day[@]}" --clients clients.json \
      --series replicas_serving=replicas.json --out results/replay ;;
  esac
}

chromium_flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --hide-scrollbars --virtual-time-budget=20000)

for kind in run sweep switch_sweep plan compare validate calibrate joint_calibration campaign operations pool_sweep autoscaler_plan replay; do
  if ! make_results "$kind" >"$kind.log" 2>&1; then
    echo "FAIL $kind: the command failed"; tail -5 "$kind.log"; failures=$((failures + 1)); continue
  fi
  measured=()
  # The sweep's report also draws the measured Fig. 7 points of a validation case.
  [[ $kind == sweep ]] && measured=(--measured "$repo/validation/cases/large_batch_curve.yaml")
  "$sonicsim" report "results/$kind" "${measured[@]}" --out "$kind.html" >/dev/null 2>"$kind.err" ||
    { echo "FAIL $kind: sonicsim report: $(head -c 300 "$kind.err")"; failures=$((failures + 1)); continue; }
  timeout 60 chromium "${chromium_flags[@]}" --user-data-dir="$work/profile_$kind" --dump-dom "file://$work/$kind.html" \
    >"$kind.dom" 2>"$kind.chromium" || true
  timeout 60 chromium "${chromium_flags[@]}" --user-data-dir="$work/profile_$kind" --window-size=1200,2400 \
    --screenshot="$shots/report_$kind.png" "file://$work/$kind.html" >/dev/null 2>&1 || true
  verdict=$(python3 - "$kind.dom" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
# The inlined library holds "<body>" in its strings: the page's own body tag is the one with data- attributes.
bodies = [b for b in re.findall(r"<body([^>]*)>", dom) if "data-" in b]
attributes = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', bodies[-1])) if bodies else {}
if attributes.get("done") != "1":
    print("did not finish drawing (no data-done)")
    sys.exit()
errors = json.loads(html.unescape(attributes.get("errors", "[]")))
empty = json.loads(html.unescape(attributes.get("empty-charts", "[]")))
charts = int(attributes.get("charts", "0"))
if errors:
    print("errors: %s" % errors[:3])
elif empty:
    print("charts that drew no mark: %s" % empty)
elif charts == 0:
    print("no chart")
else:
    print("ok %d charts" % charts)
PY
)
  # Chromium prints a page's uncaught errors on stderr as well.
  if grep -q "Uncaught" "$kind.chromium"; then verdict="uncaught error: $(grep -m1 Uncaught "$kind.chromium")"; fi
  # A page travels: no path of the machine it was made on.
  if grep -q "$work" "$kind.dom"; then verdict="the page holds a path of this machine: $(grep -o -m1 "$work[^\"<]*" "$kind.dom")"; fi
  # The switch sweep draws what its fits found and what the analytic model predicts: the simulated knee and
  # the network limit, labelled; the site switch's utilisation; no analytic knee (its fit found none).
  if [[ $kind == switch_sweep && $verdict == ok* ]]; then
    grep -q "network limit (analytic) 601 jobs" "$kind.dom" || verdict="the switch sweep lacks the network limit"
    grep -q "Site switch utilisation" "$kind.dom" || verdict="the switch sweep lacks the switch's utilisation"
    grep -q "simulated knee" "$kind.dom" || verdict="the switch sweep lacks the simulated knee"
    grep -q "analytic knee" "$kind.dom" && verdict="the switch sweep draws an analytic knee its fit did not find"
  fi
  # The replay's page: the comparison and the recorded and simulated series over the day, one chart each.
  if [[ $kind == replay && $verdict == ok* ]]; then
    grep -q "A recorded day replayed" "$kind.dom" || verdict="the replay page lacks its section"
    grep -q "replicas_serving: recorded and simulated" "$kind.dom" || verdict="the replay page lacks the replicas"
  fi
  # The plan's page answers its reader: the answer, the bill, the options with what each rests on, one panel
  # per device type.
  if [[ $kind == plan && $verdict == ok* ]]; then
    for expected in "Answer: " "Bill at the answer" "Options searched" "rests on" "one panel per device type"; do
      grep -q "$expected" "$kind.dom" || verdict="the plan page lacks '$expected'"
    done
  fi
  # The joint calibration's page: its fit, every series, the answers with their one interval and what each rests
  # on, and each reading's parts (one chart per series, the tornado chart and the readings': 4 + 2).
  if [[ $kind == joint_calibration && $verdict == ok* ]]; then
    [[ $verdict == "ok 6 charts" ]] || verdict="the joint calibration drew $verdict, expected 6 charts"
    for expected in "Joint calibration" "pn_ak4_single_t4" "ak8_t4_crossing_jobs" "not bounded below; to" \
      "95 % interval (everything)" "What each answer rests on" "Each reading" "deepmet_t4_2gpu is past its own" \
      "leave_one_series_out"; do
      grep -q "$expected" "$kind.dom" || verdict="the joint calibration page lacks '$expected'"
    done
  fi
  # A pooled sweep and an autoscaler plan draw the trade-off, in names a reader knows, and no fixed-pool model.
  if [[ ($kind == pool_sweep || $kind == autoscaler_plan) && $verdict == ok* ]]; then
    grep -q "Device-hours against event time" "$kind.dom" || verdict="the $kind page lacks the trade-off chart"
    grep -q "threshold 50" "$kind.dom" || verdict="the $kind page does not name its settings 'threshold 50...'"
    grep -q "analytic (Eq. 1-5)" "$kind.dom" && verdict="the $kind page draws a fixed-pool model"
    grep -q "autoscaler.threshold=" "$kind.dom" && verdict="the $kind page names a setting by its key path"
    [[ $kind == autoscaler_plan ]] && ! grep -q -e "The answer: " -e "No setting tried" "$kind.dom" &&
      verdict="the autoscaler plan's page gives no answer in words"
  fi
  if [[ $verdict == ok* ]]; then
    echo "ok   $kind: ${verdict#ok }, screenshot $shots/report_$kind.png"
  else
    echo "FAIL $kind: $verdict"; failures=$((failures + 1))
  fi
done
((failures)) && { echo "$failures report(s) did not render cleanly"; exit 1; }
echo "every report rendered in Chromium without an error"
