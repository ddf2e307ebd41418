#!/usr/bin/env bash
# Runs every reproducer (README.md here) and checks the promised behaviour: exit code 2 and an error that
# names FILE:LINE:COL and the key, within 20 s. Usage: check_reproducers.sh path/to/sonicsim
set -u
binary=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME KEY COMMAND...: exit 2 and "FILE:LINE:COL: key 'KEY'" (or, with FILE empty, just "key 'KEY'").
expect() {
  local name=$1 location=$2
  shift 2
  timeout 20 "$@" >"$work/out" 2>"$work/err"
  local code=$?
  if [[ $code -ne 2 ]] || ! grep -qE -- "$location" "$work/err"; then
    echo "FAIL $name: exit $code (expected 2), stderr:"
    head -c 600 "$work/err"
    echo
    failures=$((failures + 1))
  else
    echo "ok   $name: $(head -c 160 "$work/err" | tr '\n' ' ')"
  fi
}

run_file() { # NAME KEY: the scenario file NAME.yaml must fail at key KEY
  expect "$1" "$here/$1.yaml:[0-9]+:[0-9]+: key '$2'" "$binary" run "$here/$1.yaml" --out "$work/$1"
}

run_file crash_inf_duration 'workload.pipeline\[0\].duration'
run_file crash_lognormal_tiny_mean 'workload.pipeline\[0\].duration.(mean|sd)'
run_file crash_cpu_speed_tiny 'platform.cpu_mix\[0\].speed'
run_file crash_long_simulated_time 'workload.pipeline\[0\].duration'
run_file crash_start_spread_1e12s 'workload.start_spread'
run_file crash_input_bytes_1e15B 'models.m.input_bytes_per_inference'
run_file crash_campaign_histogram_bin_1ns 'workload.campaign.histogram_bin'
run_file crash_jobs_per_node_overflow 'platform.jobs_per_node'
run_file deadlock_tiny_tcp_window 'platform.network.tcp_window'
run_file exit1_bad_alloc_gpus_per_pod 'platform.server_groups.g.devices.count'
run_file exit1_invalid_utf8_name 'name'
run_file hang_campaign_slots_random_1ns 'workload.campaign.slots_random.mean_hold'
run_file hang_on_off_background_1ns 'platform.site_switch.background_on_off.mean_on'
run_file hang_timeseries_interval_1ns 'output.timeseries_interval'
run_file hang_tiny_background 'platform.site_switch.background'
run_file memory_groups_1e8 'workload.pipeline\[0\].groups'
run_file memory_pod_count_2e9 'platform.server_groups.g.pods'
run_file name_escapes_output_dir 'name'
run_file nonsense_campaign_window_inf 'workload.campaign.window'
run_file nonsense_duration_1e308s 'workload.pipeline\[0\].duration'
run_file nonsense_gpu_count_overflow 'platform.server_groups.g.pods'
run_file nonsense_group_spread_drops_inferences 'workload.pipeline\[1\].group_spread'
run_file nonsense_huge_rtt_zeroes_cpu_time 'platform.wan.rtt'
run_file nonsense_inf_bandwidth 'platform.site_switch.bandwidth'
run_file nonsense_inf_tcp_window 'platform.network.tcp_window'

# 32,718 jobs once needed one SimGrid actor stack (two memory maps) each and aborted at Linux's default
# vm.max_map_count. Jobs are now state machines in SimGrid's kernel, not actors: the run completes, every job's
# event measured, within the time limit. One event per job has no steady state: the precision rule is turned
# off so that the run keeps its one event per job (with it, the run extends to 16).
timeout 20 "$binary" run "$here/crash_32718_jobs.yaml" --set output.precision=off --out "$work/jobs" \
  >"$work/out" 2>"$work/err"
code=$?
if [[ $code -eq 0 ]] && grep -q '"completed": 32718' "$work/jobs/summary.json"; then
  echo "ok   crash_32718_jobs: exit 0, 32718 events completed"
else
  echo "FAIL crash_32718_jobs: exit $code (expected 0 and 32718 events completed), stderr:"
  head -c 600 "$work/err"
  echo
  failures=$((failures + 1))
fi

# A name that would escape out/ must not have written anything there.
[[ -e "$work/../escaped_out" ]] && { echo "FAIL name_escapes_output_dir: wrote outside out/"; failures=$((failures + 1)); }

for case_file in "$here"/validate_cases/*.yaml; do
  name=$(basename "$case_file" .yaml)
  mkdir -p "$work/cases_$name"
  cp "$case_file" "$work/cases_$name/"
  key=$(case $name in
    duplicate_id_key) echo id ;;
    measured_nan) echo measured.value ;;
    overrides_scalar_ignored) echo overrides ;;
    tolerance_inf) echo tolerance.relative ;;
  esac)
  expect "validate_cases/$name" "$name.yaml:[0-9]+:[0-9]+: key '$key'" \
    "$binary" validate --cases-dir "$work/cases_$name" --report "$work/report_$name" -j 1
done

# Commands without a file.
expect "plan with rtt=1e308h" "--set platform.wan.rtt=1e308h: key 'platform.wan.rtt'" \
  "$binary" plan --jobs 10 --set platform.wan.rtt=1e308h -j 1 --out "$work/plan1"
expect "plan with a 1e15 s CPU step" "key 'workload.pipeline.non_ml.duration'|key 'workload.pipeline\[0\].duration'" \
  "$binary" plan --jobs 10 --set workload.pipeline.non_ml.duration=1e15s -j 1 --out "$work/plan2"
expect "analytic with group_spread=1e308" "key 'workload.pipeline.EmTrkMichelId.group_spread'|group_spread" \
  "$binary" analytic --set workload.pipeline.EmTrkMichelId.group_spread=1e308
expect "run --seed -1" "--seed: expected an integer from 0" "$binary" run --seed -1
expect "plan --tolerance inf" "--tolerance inf: expected a finite number" "$binary" plan --jobs 10 --tolerance inf -j 1
expect "plan --tolerance 1e308" "--tolerance must be a fraction" "$binary" plan --jobs 10 --tolerance 1e308 -j 1

if ((failures)); then
  echo "$failures reproducer(s) do not behave as promised"
  exit 1
fi
echo "every reproducer behaves as promised"
