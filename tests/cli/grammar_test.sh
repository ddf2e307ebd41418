#!/usr/bin/env bash
# One command grammar (README "Commands"): every subcommand answers --help with the options it documents, a bad
# flag with exit 2 and one line "sonicsim: error: CMD: ... (see sonicsim CMD --help)" on stderr and nothing on
# stdout, -q with nothing on stdout on success, and --json with one JSON document. Help texts are true for the
# command they are on: a deciding command (plan, calibrate) offers no --slurm-dry-run, a sharded one (sweep) no
# --slurm-wait. Usage: grammar_test.sh SONICSIM
set -uo pipefail
sonicsim=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/sonicsim_grammar.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

commands=(run bench validate analytic sweep plan compare replay calibrate status report figures "import perf-analyzer"
  "import model-analyzer" "import triton-config" "import supersonic")
scenario_commands=(run bench analytic sweep plan compare replay calibrate)
variant_commands=(run bench analytic sweep plan calibrate compare replay)
quiet_commands=(run bench validate analytic sweep plan compare replay calibrate status report figures)
json_commands=(run sweep bench validate analytic plan compare replay calibrate figures status "import perf-analyzer"
  "import model-analyzer" "import triton-config" "import supersonic")
parallel_commands=(run validate sweep plan compare calibrate "import perf-analyzer")
slurm_commands=(run validate sweep plan compare calibrate "import perf-analyzer")
dry_run_commands=(run validate sweep compare "import perf-analyzer")
wait_commands=(run validate plan compare calibrate "import perf-analyzer")

help_of() { "$sonicsim" $1 --help 2>&1; }
has() { grep -qE -- "(^|[ ,])$2([ ,=]|$)" <<<"$(help_of "$1")"; }
expect_option() { has "$1" "$2" || fail "sonicsim $1 --help does not list $2"; }
expect_no_option() { ! has "$1" "$2" || fail "sonicsim $1 --help lists $2, which it does not take"; }

for command in "${commands[@]}"; do
  out=$("$sonicsim" $command --help 2>&1) || fail "sonicsim $command --help exits $?"
  grep -q "^Usage:\|^usage:\|Usage" <<<"$out" || fail "sonicsim $command --help shows no usage"
  # A flag nobody defines: exit 2, nothing on stdout, one line in sonicsim's shape.
  "$sonicsim" $command --no-such-flag >stdout 2>stderr
  code=$?
  [[ $code -eq 2 ]] || fail "sonicsim $command --no-such-flag exits $code, expected 2 (bad input)"
  [[ ! -s stdout ]] || fail "sonicsim $command --no-such-flag printed on stdout: $(cat stdout)"
  [[ $(wc -l <stderr) -eq 1 ]] || fail "sonicsim $command --no-such-flag: expected one line on stderr, got: $(cat stderr)"
  grep -qE "^sonicsim: error: $command: .*\(see sonicsim $command --help\)$" stderr ||
    fail "sonicsim $command --no-such-flag: not in sonicsim's error shape: $(cat stderr)"
done
# A mistyped flag or command gets the nearest one; a word near nothing gets none.
typed=$("$sonicsim" sweep --vray workload.jobs=1,2 2>&1 || true)
grep -q "did you mean --vary?" <<<"$typed" || fail "sweep --vray: no suggestion: $typed"
typed=$("$sonicsim" rnu 2>&1 || true)
grep -q "did you mean run?" <<<"$typed" || fail "rnu: no suggestion: $typed"
typed=$("$sonicsim" run --zzzzzz 2>&1 || true)
grep -q "did you mean" <<<"$typed" && fail "run --zzzzzz: a suggestion for a word near nothing: $typed"
for command in "${scenario_commands[@]}"; do
  expect_option "$command" --set
  expect_option "$command" --seed
done
for command in "${variant_commands[@]}"; do expect_option "$command" --variant; done
for command in "${quiet_commands[@]}"; do expect_option "$command" -q; done
for command in "${json_commands[@]}"; do expect_option "$command" --json; done
for command in "${parallel_commands[@]}"; do expect_option "$command" -j; done
for command in "${slurm_commands[@]}"; do expect_option "$command" --slurm; done
for command in "${dry_run_commands[@]}"; do expect_option "$command" --slurm-dry-run; done
for command in plan calibrate; do expect_no_option "$command" --slurm-dry-run; done
for command in "${wait_commands[@]}"; do expect_option "$command" --slurm-wait; done
expect_no_option sweep --slurm-wait
for command in analytic bench status report replay; do expect_no_option "$command" --slurm; done

# Bad combinations of the execution options are refused once, the same way, by every command.
for command in run validate compare; do
  "$sonicsim" $command --slurm-wait >stdout 2>stderr
  [[ $? -eq 2 ]] && grep -q "^sonicsim: error: --slurm-wait: only with --slurm" stderr ||
    fail "sonicsim $command --slurm-wait (without --slurm): $(cat stderr)"
  "$sonicsim" $command --partition gpu >stdout 2>stderr
  [[ $? -eq 2 ]] && grep -q "only with --slurm or --slurm-dry-run" stderr ||
    fail "sonicsim $command --partition (without --slurm): $(cat stderr)"
done

# -q: nothing on stdout on success (a tiny scenario: 2 jobs, 3 events each).
tiny=(--set workload.jobs=2 --set workload.events_per_job=3 --set output.precision=off)
quiet_run() { # label, then the command
  local label=$1
  shift
  "$sonicsim" "$@" >stdout 2>stderr
  local code=$?
  [[ $code -eq 0 ]] || fail "$label: exit $code: $(tail -n 3 stderr)"
  [[ ! -s stdout ]] || fail "$label: -q printed on stdout: $(head -n 3 stdout)"
}
quiet_run "run -q" run "${tiny[@]}" -q --out run_out
[[ -f run_out/summary.json ]] || fail "run -q wrote no summary.json"
quiet_run "analytic -q" analytic "${tiny[@]}" -q
quiet_run "sweep -q" sweep --vary workload.jobs=1,2 --set workload.events_per_job=3 --set output.precision=off -j 2 -q --out sweep_out
[[ -f sweep_out/sweep.csv ]] || fail "sweep -q wrote no sweep.csv"
quiet_run "status -q" status sweep_out -q
quiet_run "report -q" report run_out -q
quiet_run "figures -q" figures -q
quiet_run "compare -q" compare "$root/configs/protodune_2020_large_batch.yaml" --columns fp16 --jobs 4 \
  --set workload.events_per_job=3 --set output.precision=off -j 2 -q --out compare_out
quiet_run "plan -q" plan --jobs 4 --set workload.events_per_job=3 --set output.precision=off --replications 1 --max-replications 2 -j 2 -q \
  --out plan_out
[[ -f plan_out/plan.json ]] || fail "plan -q wrote no plan.json"

# --json: one document on stdout.
for spec in "analytic ${tiny[*]} --json" "run ${tiny[*]} --json --out run_json" \
  "sweep ${tiny[*]} --vary workload.jobs=2,4 --json --out sweep_json" \
  "compare $root/configs/protodune_2020_large_batch.yaml --columns fp16 --jobs 4 --set workload.events_per_job=3 --set output.precision=off -j 2 --json --out compare_json"; do
  "$sonicsim" $spec >stdout 2>stderr || fail "$spec: exit $?: $(tail -n 3 stderr)"
  python3 -c 'import json,sys; json.load(open("stdout"))' 2>/dev/null || fail "$spec: stdout is not one JSON document: $(head -c 300 stdout)"
done

# import --json: one document with what the text report says and the YAML (it had no --json). The
# perf_analyzer import and its replay, the Model Analyzer table, a config.pbtxt, a SuperSONIC values file.
pa=$root/validation/data/cms_miniaod_2024/perf_analyzer/particlenet_AK4_PT
for spec in "import perf-analyzer $pa --device-time merged-async --json --replay --out replay_json -j 2" \
  "import model-analyzer $root/tests/data/model_analyzer/metrics-model-inference.csv --json" \
  "import triton-config $root/tests/data/triton/emtrkmichelid_config.pbtxt --json" \
  "import supersonic $root/configs/supersonic_values/values-minimal.yaml --json"; do
  "$sonicsim" $spec >stdout 2>stderr || fail "$spec: exit $?: $(tail -n 3 stderr)"
  python3 - "$spec" <<'PY' || fail "$spec: stdout is not the import's document: $(head -c 300 stdout)"
import json, sys
document = json.load(open("stdout"))
assert document["yaml"].strip(), "no YAML"
if "perf-analyzer" in sys.argv[1]:
    assert len(document["curve_points"]) == 8 and document["recommended_reading"] == "merged-async"
    assert len(document["replay"]["replays"]) == 8 and document["replay"]["verdict"].startswith("verdict:")
if "supersonic" in sys.argv[1]:
    assert document["read"] and all("key" in r for r in document["read"])
PY
done
"$sonicsim" import perf-analyzer "$pa" --json --yaml - >stdout 2>stderr
[[ $? == 2 && ! -s stdout ]] || fail "import --json --yaml - is not refused: $(head -c 300 stderr)"

# status --json: the sweep of 2 points above, all done, as one document (and what its text says).
"$sonicsim" status sweep_out --json >stdout 2>stderr || fail "status --json: exit $?: $(tail -n 3 stderr)"
python3 - <<'PY' || fail "status --json: not the sweep's state: $(head -c 300 stdout)"
import json
state = json.load(open("stdout"))
assert state["kind"] == "sweep" and state["points"] == 2 and state["simulations"] == 2, state
assert state["simulations_done"] == 2 and state["complete"] is True and state["failed"] is False, state
assert state["missing"] == {}, state
PY

# One name per figure: what `figures --json` lists is what summary.json, sweep.csv and compare.json call it.
"$sonicsim" figures --json >figures.json || fail "figures --json: exit $?"
python3 - <<'PY' || fail "a file names a figure otherwise than the figure table"
import csv, json
table = json.load(open("figures.json"))["figures"]
summary = json.load(open("run_out/summary.json"))["figures"]
assert summary and set(summary) <= set(table), set(summary) - set(table)
assert {"event_mean_s", "events_per_s", "module_mean_s"} <= set(summary), sorted(summary)
header = next(csv.reader(open("sweep_out/sweep.csv")))
for name in ("module_mean_s", "event_mean_s", "event_p95_s", "events_per_s", "gpu_utilisation"):
    assert name in header and name in table, name
column = json.load(open("compare_out/compare.json"))["columns"][0]
assert "event_mean_s" in column and "module_mean_s" in column and "event_s" not in column, sorted(column)
renamed = json.load(open("figures.json"))["renamed"]
assert renamed["event_time"]["now"] == "event_mean_s" and renamed["throughput"]["now"] == "events_per_s"
PY

# A name from before the figure table is still read, with a note on stderr naming the new one.
"$sonicsim" plan --jobs 4 --set workload.events_per_job=3 --set output.precision=off --replications 1 --max-replications 2 -j 2 -q \
  --target 'event_time<=1000s' --out plan_old >stdout 2>stderr || fail "plan --target event_time: exit $?"
grep -q "^sonicsim: note: --target 'event_time' is now called 'event_mean_s'" stderr ||
  fail "plan --target event_time: no note of the new name: $(cat stderr)"
"$sonicsim" plan --jobs 4 --target 'latency<=3s' >stdout 2>stderr
[[ $? -eq 2 ]] && grep -q "unknown figure 'latency'; expected one of module_mean_s" stderr ||
  fail "plan --target latency: $(cat stderr)"

# plan --autoscaler: on a scenario without an autoscaler, with a device-count option, or with a threshold that
# is not one, exit 2 naming what is wrong, before any simulation.
expect_exit2() { # label, expected text, then the command
  local label=$1 text=$2
  shift 2
  "$@" >stdout 2>stderr
  [[ $? -eq 2 ]] && grep -q -- "$text" stderr && [[ ! -s stdout ]] || fail "$label: $(cat stderr)"
}
expect_exit2 "plan --autoscaler without one" "no server group with an autoscaler" "$sonicsim" plan --autoscaler
expect_exit2 "plan --autoscaler --jobs" "not with --jobs" \
  "$sonicsim" plan "$root/configs/supersonic_autoscaling.yaml" --autoscaler --jobs 5
expect_exit2 "plan --autoscaler --thresholds abc" "thresholds 'abc': expected a queue time" \
  "$sonicsim" plan "$root/configs/supersonic_autoscaling.yaml" --autoscaler --thresholds abc
expect_exit2 "plan --autoscaler --replications 1" "at least 2" \
  "$sonicsim" plan "$root/configs/supersonic_autoscaling.yaml" --autoscaler --replications 1
# import supersonic: a misspelt key of a section it reads names its line and the key it meant.
printf 'keda:\n  enabled: true\n  maxReplicaCont: 11\n' >misspelt.yaml
expect_exit2 "import supersonic misspelt" "misspelt.yaml:3:3: key 'keda.maxReplicaCont'.*did you mean 'maxReplicaCount'" \
  "$sonicsim" import supersonic misspelt.yaml
"$sonicsim" import supersonic "$root/configs/supersonic_values/values-geddes-cms.yaml" --yaml - >group.yaml 2>report.txt ||
  fail "import supersonic --yaml -: exit $?"
grep -q '^  max: 11 ' group.yaml && ! grep -q 'SuperSONIC values' group.yaml ||
  fail "import supersonic --yaml - is not the group's YAML alone: $(cat group.yaml)"

# --variant is repeatable and applied in order: fp16 then far_server is both.
"$sonicsim" analytic "$root/configs/protodune_2020_large_batch.yaml" --variant fp16 --variant far_server --json >both.json ||
  fail "analytic with two --variant"
"$sonicsim" analytic "$root/configs/protodune_2020_large_batch.yaml" --variant far_server --json >far.json
"$sonicsim" analytic "$root/configs/protodune_2020_large_batch.yaml" --variant fp16 --json >fp16.json
python3 - <<'PY' || fail "two variants are not both applied"
import json
both, far, fp16 = (json.load(open(f)) for f in ("both.json", "far.json", "fp16.json"))
assert both != far and both != fp16, "the second variant did not add to the first"
PY

# A repeatable option takes one value per occurrence: the scenario may follow it.
"$sonicsim" analytic --variant fp16 --set workload.jobs=3 "$root/configs/protodune_2020_large_batch.yaml" -q ||
  fail "analytic --variant V --set K=V SCENARIO: the scenario after a repeatable option was not taken as the scenario"

if ((failures)); then
  echo "$failures grammar check(s) failed"
  exit 1
fi
echo "PASS: ${#commands[@]} subcommands share one grammar (help, bad flag, -q, --json, --variant, execution options)"
