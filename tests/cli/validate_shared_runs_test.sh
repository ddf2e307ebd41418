#!/usr/bin/env bash
# Two validation cases that read one run at different precisions share it, held to the stricter: one
# simulation, the one the stricter case alone runs (same scenario fingerprint, same events per job as run),
# even with their overrides written in another order. The looser case alone runs a shorter one, so the shared
# run is what the stricter case asked and no less. The cases are written here (test inputs, not measurements):
# the large-batch scenario at 300 jobs, module time held to 10 % / 2.5 = 4 % and 5 % / 2.5 = 2 % (~2 s).
# Usage: validate_shared_runs_test.sh SONICSIM REPOSITORY
set -uo pipefail
sonicsim=$1
repo=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cases"
write_case() { # id tolerance overrides
  cat >"$work/cases/$1.yaml" <<EOF
id: $1
title: Module time at 300 jobs, for a tolerance of $2
source: "test input: two cases that read one run"
observable: module_mean_s
module: EmTrkMichelId
scenario: configs/protodune_2020_large_batch.yaml
overrides: $3
measured: {value: 24.3}
tolerance:
  relative: $2
  why: "a test's tolerance"
EOF
}
write_case loose 0.10 '["workload.jobs=300", "workload.events_per_job=6"]'
write_case strict 0.05 '["workload.events_per_job=6", "workload.jobs=300"]'
cd "$repo" || exit 1
validate() { # log report [case]
  SONICSIM_RUN_LOG="$work/$1" "$sonicsim" validate "${@:3}" --cases-dir "$work/cases" --report "$work/$2" \
    --work-dir "$work/work" -j 2 >"$work/$2.txt" 2>&1 || { echo "FAIL: validate ${*:3} exited $?"; cat "$work/$2.txt"; exit 1; }
}
validate both.log both
validate strict.log strict strict
validate loose.log loose loose
# Run log columns: fingerprint, name, jobs, events written, seed, CPU s, wall s, events as run.
python3 - "$work" <<'EOF' || exit 1
import json, sys
work = sys.argv[1]
rows = lambda name: [l.rstrip('\n').split('\t') for l in open(f'{work}/{name}.log')]
both, strict, loose = rows('both'), rows('strict'), rows('loose')
assert len(both) == 1, f'FAIL: the two cases ran {len(both)} simulations, not one: {both}'
assert (both[0][0], both[0][7]) == (strict[0][0], strict[0][7]), \
    f'FAIL: the shared run is not the stricter case\'s own: {both[0]} against {strict[0]}'
assert int(loose[0][7]) < int(strict[0][7]), \
    f'FAIL: the looser case alone ran as long as the stricter ({loose[0][7]} events), so nothing was shared: {loose[0]}'
report = {c['id']: c for c in json.load(open(f'{work}/both/report.json'))}
alone = json.load(open(f'{work}/strict/report.json'))[0]
assert report['loose']['simulated'] == report['strict']['simulated'] == alone['simulated'], \
    f"FAIL: the cases did not read the one run: {report['loose']['simulated']}, {report['strict']['simulated']}, {alone['simulated']}"
print(f"two cases, one run: {both[0][7]} events per job as run, the stricter case's own (the looser alone: {loose[0][7]})")
EOF
