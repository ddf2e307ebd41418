#!/usr/bin/env bash
# sonicsim on a real (single-node) Slurm cluster, started here by scripts/slurm_cluster.sh and stopped when this
# script exits, whatever happens.
#
#   slurm_test.sh SONICSIM sweep             the merged sweep.csv of `sweep --slurm` is byte-identical to the
#                                            same sweep run locally (seeds do not depend on where points run)
#   slurm_test.sh SONICSIM sweep_resume      one array task is killed while it runs: the merge job names the
#                                            missing point and exits 1, `status` reports the failed shard,
#                                            `--slurm --resume` resubmits only that shard, and the merged
#                                            sweep.csv is then identical to the local one
#   slurm_test.sh SONICSIM plan              `plan --slurm` (a driver job that submits each batch as a job
#                                            array) gives the plan.json of the same plan run here, but for
#                                            wall-clock times; run again, it submits nothing
#   slurm_test.sh SONICSIM validate          `validate --fast --slurm` (a job array, and a merge job after it)
#                                            writes the report.json of the same cases validated here
#   slurm_test.sh SONICSIM import_replay     `import perf-analyzer --replay --slurm`: replays rebuilt from the
#                                            measurement files in each array task; replay.json as here
#   slurm_test.sh SONICSIM campaign_windows  the 2022 campaign in 4 time windows as a job array
#                                            (run --campaign-windows 4 --slurm) merges into the
#                                            campaign_windows.json of the same windows run here
set -euo pipefail

sonicsim=$(realpath "$1")
mode=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/sonicsim_slurm_test.XXXXXX)
cluster=$work/cluster

cleanup() {
  "$root/scripts/slurm_cluster.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  for log in "$work"/slurm_sweep/slurm/logs/* "$work"/validate/slurm/logs/*; do
    [[ -f $log ]] && { echo "--- $log" >&2; tail -n 5 "$log" >&2; }
  done
  exit 1
}

"$root/scripts/slurm_cluster.sh" start "$cluster" >/dev/null
export SLURM_CONF=$cluster/slurm.conf

# Waits until Slurm no longer knows job $1 (it ended), at most $2 seconds.
wait_for_job() {
  for _ in $(seq $(($2 * 5))); do
    [[ -z $(squeue -h -j "$1" 2>/dev/null) ]] && return 0
    sleep 0.2
  done
  fail "job $1 still in the queue after $2 s"
}

# Waits for the merge job a submission printed ("submitted: array job A, merge job M ..." in file $1), at
# most $2 seconds.
wait_for_merge_job() {
  local merge_job
  merge_job=$(sed -n 's/^submitted: array job \([0-9]*\), merge job \([0-9]*\).*/\2/p' "$1")
  [[ -n $merge_job ]] || fail "no job ids: $(cat "$1")"
  wait_for_job "$merge_job" "$2"
}

# Two JSON results are the same but for wall-clock times (keys containing "wall").
same_but_wall_times() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def without_wall_times(x):
    if isinstance(x, dict):
        return {k: without_wall_times(v) for k, v in x.items() if "wall" not in k}
    if isinstance(x, list):
        return [without_wall_times(v) for v in x]
    return x
a, b = (without_wall_times(json.load(open(path))) for path in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
}

cd "$work"
case $mode in
sweep)
  # Six points of the default scenario, three events per job: a few seconds in all.
  sweep=(sweep --vary workload.jobs=50:300:50 --set workload.events_per_job=3 --set output.precision=off)
  "$sonicsim" "${sweep[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local sweep"
  out=$("$sonicsim" "${sweep[@]}" --slurm --throttle 2 --out slurm_sweep) || fail "submission: $out"
  echo "$out"
  merge_job=$(sed -n 's/^submitted: array job \([0-9]*\), merge job \([0-9]*\).*/\2/p' <<<"$out")
  [[ -n $merge_job ]] || fail "no merge job id in: $out"
  wait_for_job "$merge_job" 120
  cmp local/sweep.csv slurm_sweep/sweep.csv || fail "sweep.csv differs from the local sweep"
  cmp local/fits.csv slurm_sweep/fits.csv || fail "fits.csv differs from the local sweep"
  status=$("$sonicsim" status slurm_sweep) || fail "status exit $?: $status"
  grep -q "6 of 6 simulations done" <<<"$status" || fail "status: $status"
  echo "PASS: merged sweep.csv identical to the local sweep (6 points, 6 array tasks)"
  ;;
sweep_resume)
  # Four points that take a few seconds each, one array task at a time; task 2 is killed while it runs.
  sweep=(sweep --vary workload.jobs=400,600,800,1000 --set workload.events_per_job=60 --set output.precision=off)
  "$sonicsim" "${sweep[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local sweep"
  out=$("$sonicsim" "${sweep[@]}" --slurm --throttle 1 --out slurm_sweep) || fail "submission: $out"
  echo "$out"
  array_job=$(sed -n 's/^submitted: array job \([0-9]*\), merge job \([0-9]*\).*/\1/p' <<<"$out")
  merge_job=$(sed -n 's/^submitted: array job \([0-9]*\), merge job \([0-9]*\).*/\2/p' <<<"$out")
  [[ -n $array_job && -n $merge_job ]] || fail "no job ids in: $out"
  killed=no
  for _ in $(seq 600); do
    if [[ $(squeue -h -r -j "${array_job}_2" -o %T 2>/dev/null) == RUNNING ]]; then
      # While a task runs the merge job is PENDING behind the array: status says it waits, not that
      # nothing runs.
      during=$("$sonicsim" status slurm_sweep || true)
      grep -q "merge job $merge_job: PENDING, waiting for the array" <<<"$during" ||
        fail "status while task 2 runs: $during"
      scancel --signal=KILL "${array_job}_2"
      killed=yes
      break
    fi
    sleep 0.1
  done
  [[ $killed == yes ]] || fail "array task 2 was never seen running"
  wait_for_job "$merge_job" 180
  # The merge ran after the array (afterany), found point 1 (shard 2) missing and wrote no sweep.csv.
  merge_log=$(cat slurm_sweep/slurm/logs/merge_"$merge_job".out)
  grep -q "simulation(s) missing (point\[/replication\] 1)" <<<"$merge_log" || fail "merge log: $merge_log"
  [[ ! -e slurm_sweep/sweep.csv ]] || fail "a sweep.csv was written with a point missing"
  set +e
  status=$("$sonicsim" status slurm_sweep)
  status_exit=$?
  set -e
  echo "$status"
  [[ $status_exit == 1 ]] || fail "status exit $status_exit (expected 1: a failed shard)"
  grep -q "3 of 4 simulations done" <<<"$status" || fail "status: $status"
  grep -Eq "failed +1 simulation\(s\), shard\(s\) 2$" <<<"$status" || fail "status: $status"
  # The same state as one JSON document: shard 2 failed, one simulation missing.
  "$sonicsim" status slurm_sweep --json >status.json && fail "status --json exit 0 with a failed shard"
  python3 -c 'import json; s = json.load(open("status.json")); assert s["failed"] and s["simulations_done"] == 3, s; assert s["missing"]["failed"] == {"simulations": 1, "shards": [2]}, s; assert s["batch_system"] == "slurm" and s["array_job"]["id"], s' ||
    fail "status --json: $(cat status.json)"
  # Resubmit: only shard 2 runs again.
  out=$("$sonicsim" "${sweep[@]}" --slurm --resume --out slurm_sweep) || fail "resubmission: $out"
  echo "$out"
  grep -q "(3 already done); 1 array task(s)" <<<"$out" || fail "resubmission: $out"
  grep -q "^#SBATCH --array=2$" slurm_sweep/slurm/array.sh || fail "array.sh: $(cat slurm_sweep/slurm/array.sh)"
  merge_job=$(sed -n 's/^submitted: array job \([0-9]*\), merge job \([0-9]*\).*/\2/p' <<<"$out")
  wait_for_job "$merge_job" 180
  cmp local/sweep.csv slurm_sweep/sweep.csv || fail "sweep.csv after --resume differs from the local sweep"
  echo "PASS: killed task 2 reported, resubmitted alone, merged sweep.csv identical to the local sweep"
  ;;
plan)
  plan=(plan --jobs 270 --set workload.events_per_job=4 --set output.precision=off)
  "$sonicsim" "${plan[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local plan"
  # Returns at once: the planning process is a Slurm job, which submits each batch as a job array.
  "$sonicsim" "${plan[@]}" --slurm --out slurm_plan >slurm_plan.out 2>&1 || fail "plan --slurm: $(cat slurm_plan.out)"
  driver_job=$(sed -n 's/^submitted: plan driver job \([0-9]*\).*/\1/p' slurm_plan.out)
  [[ -n $driver_job ]] || fail "no driver job id: $(cat slurm_plan.out)"
  wait_for_job "$driver_job" 300
  grep -q "submitted to Slurm as array job" slurm_plan/slurm/logs/driver_"$driver_job".out ||
    fail "the driver submitted no array: $(cat slurm_plan/slurm/logs/driver_"$driver_job".out)"
  same_but_wall_times local/plan.json slurm_plan/plan.json || fail "plan.json differs from the local plan"
  # Run again here (--slurm-wait: this process decides), it finds every result and submits nothing.
  again=$("$sonicsim" "${plan[@]}" --slurm --slurm-wait --out slurm_plan 2>&1) || fail "plan --slurm again: $again"
  if grep -q "submitted to Slurm" <<<"$again"; then fail "the second plan submitted again: $again"; fi
  echo "PASS: plan --slurm (a driver job submitting $(grep -c 'submitted to Slurm' slurm_plan/slurm/logs/driver_"$driver_job".out) arrays) gives the local plan.json; run again, nothing submitted"
  ;;
validate)
  (cd "$root" && "$sonicsim" validate --fast --report "$work/local_report" >/dev/null 2>&1) || fail "local validate"
  # Returns at once; the merge job (after the array) writes the report.
  (cd "$root" && "$sonicsim" validate --fast --slurm --work-dir "$work/validate" --report "$work/slurm_report") \
    >validate.out 2>&1 || fail "validate --slurm: $(cat validate.out)"
  wait_for_merge_job validate.out 120
  cmp local_report/report.json slurm_report/report.json || fail "report.json differs from the local validation"
  status=$("$sonicsim" status validate) || fail "status exit $?: $status"
  # As many as the command planned (the fast cases' distinct runs and their direct-inference baselines).
  planned=$(sed -n 's/^validate: [0-9]* cases, \([0-9]*\) simulations$/\1/p' validate.out)
  [ -n "$planned" ] || fail "validate --slurm did not say how many simulations: $(cat validate.out)"
  grep -q "$planned of $planned simulations submitted to Slurm have their result" <<<"$status" ||
    fail "status: $status"
  echo "PASS: validate --fast --slurm gives the local report.json"
  ;;
campaign_windows)
  campaign=("$root/configs/protodune_2022_campaign.yaml" --campaign-windows 4)
  "$sonicsim" run "${campaign[@]}" -j 2 --quiet --out local >/dev/null 2>&1 || fail "local windows"
  # --slurm-wait: this process waits for the array and merges (without it, a merge job does).
  "$sonicsim" run "${campaign[@]}" --slurm --slurm-wait --out slurm_windows >windows.out 2>&1 ||
    fail "run --slurm: $(cat windows.out)"
  grep -q "submitted to Slurm as array job" windows.out || fail "no array job: $(cat windows.out)"
  python3 - local/campaign_windows.json slurm_windows/campaign_windows.json <<'PY' || fail "campaign_windows.json differs"
import json, sys
a, b = (json.load(open(path)) for path in sys.argv[1:3])
assert a.pop("where") == "here" and b.pop("where") == "slurm"
sys.exit(0 if a == b else 1)
PY
  echo "PASS: 4 campaign windows on Slurm merge into the campaign_windows.json of the windows run here"
  ;;
compare)
  # compare gets --slurm from the execution floor like every command: an array of its runs and a merge job
  # that writes compare.json, the same as here (wall-clock times aside).
  compare=(compare "$root/configs/protodune_2020_large_batch.yaml" --columns fp16 --jobs 60
    --set workload.events_per_job=4 --set output.precision=off --replications 2)
  "$sonicsim" "${compare[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local compare"
  "$sonicsim" "${compare[@]}" --slurm --out slurm_compare >compare.out 2>&1 || fail "compare --slurm: $(cat compare.out)"
  wait_for_merge_job compare.out 180
  same_but_wall_times local/compare.json slurm_compare/compare.json || fail "compare.json differs from the local compare"
  status=$("$sonicsim" status slurm_compare) || fail "status exit $?: $status"
  # 2 columns x 2 replications x (loaded, low-load reference): 8 distinct simulations, all with a result.
  grep -q "8 of 8 simulations submitted to Slurm have their result" <<<"$status" || fail "status: $status"
  "$sonicsim" status slurm_compare --json >status.json || fail "status --json exit $?"
  python3 -c 'import json; s = json.load(open("status.json")); assert s["kind"] == "submission" and s["simulations_submitted"] == 8 and s["simulations_with_result"] == 8 and not s["failed"], s' ||
    fail "status --json: $(cat status.json)"
  echo "PASS: compare --slurm (array + merge job) gives the local compare.json"
  ;;
calibrate)
  # calibrate decides each batch from the last: with --slurm --slurm-wait this process submits every
  # evaluation's simulations as a job array and waits for it; the fit is the local one.
  calibrate=(calibrate "$root/configs/protodune_2020_large_batch.yaml" --set workload.events_per_job=4 --set output.precision=off
    --data "$root/validation/data/protodune_2020_fig7_left.csv" --series large_batch --x clients
    --y emtrk_time_mean_s --sd emtrk_time_sd_s --observable module_mean_s:EmTrkMichelId
    --fit models.emtrkmichelid.compute_input.per_byte=0ns:10ns --max-evaluations 3)
  "$sonicsim" "${calibrate[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local calibrate"
  "$sonicsim" "${calibrate[@]}" --slurm --slurm-wait --out slurm_calibrate >calibrate.out 2>&1 ||
    fail "calibrate --slurm: $(tail -n 20 calibrate.out)"
  grep -q "submitted to Slurm as array job" calibrate.out || fail "no array job: $(cat calibrate.out)"
  cmp local/calibration.json slurm_calibrate/calibration.json || fail "calibration.json differs from the local fit"
  echo "PASS: calibrate --slurm --slurm-wait ($(grep -c 'submitted to Slurm as array job' calibrate.out) arrays) gives the local calibration.json"
  ;;
import_replay)
  # perf_analyzer's setup exists in no scenario file: each array task rebuilds its replay from the measurement
  # files through the recipe's generator (8 files, each in both readings: 16), and the merge job writes the
  # replay.json of the replays run here.
  replay=(import perf-analyzer "$root"/validation/data/cms_miniaod_2024/perf_analyzer/particlenet_AK4_PT/*.csv
    --device-time merged-async --replay --dynamic-batching --input-bytes 9760B --output-bytes 32B)
  "$sonicsim" "${replay[@]}" -j 2 --out local >/dev/null 2>&1 || fail "local replay"
  "$sonicsim" "${replay[@]}" --slurm --out slurm_replay >replay.out 2>&1 || fail "replay --slurm: $(cat replay.out)"
  wait_for_merge_job replay.out 300
  cmp local/replay.json slurm_replay/replay.json || fail "replay.json differs from the local replay"
  status=$("$sonicsim" status slurm_replay) || fail "status exit $?: $status"
  grep -q "16 of 16 simulations submitted to Slurm have their result" <<<"$status" || fail "status: $status"
  echo "PASS: import perf-analyzer --replay --slurm (array + merge job) gives the local replay.json"
  ;;
*)
  echo "usage: $0 SONICSIM sweep|sweep_resume|plan|validate|campaign_windows|compare|calibrate|import_replay" >&2
  exit 2
  ;;
esac
